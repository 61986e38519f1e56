// Peptide-spectrum matches of one spectrum: every localised form of each candidate of its searches, and each form's
// decoy, scored against its peaks; the best as PSMs with the features a rescorer reads. Targets and decoys compete
// here: a spectrum's first rank is whichever scores highest.
import { UNITS_PER_DA } from '../../model/chemistry.js';
import type { ModSpec } from '../../model/modifications.js';
import { decoyForm, reversedSequence } from './decoy.js';
import { localisedForms, type Form } from './forms.js';
import { hyperscore, lnFactorial, matchForm, type FragmentTolerance, type Matched, type Peaks } from './score.js';

/** How a spectrum is scored. */
export interface Scoring {
  fixed: ModSpec[];
  variable: ModSpec[];
  fragmentTolerance: FragmentTolerance;
  /** Highest fragment charge tried; a precursor of charge z gets fragments of 1 to min(z − 1, this), at least 1. */
  maxFragmentCharge: number;
  /** Fewest matched fragment ions a PSM needs (Sage's min_matched_peaks). */
  minMatched: number;
  /** PSMs kept per spectrum, best first. */
  report: number;
}

/** A candidate of a search: a stored peptide, how many of each variable spec it carries, its mass, and its ref. */
export interface ScoredCandidate<T> {
  sequence: string;
  counts: readonly number[];
  units: number;
  /** What the caller knows it by (its proteins). */
  ref: T;
  /** Taken as its proteins' first peptide: protein N-term sites are slots of it. */
  startsProtein?: boolean;
}

/** One search of the spectrum: the precursor charge and isotope error tried, and its candidates. */
export interface ScoredSearch<T> {
  charge: number;
  isotopeError: number;
  candidates: readonly ScoredCandidate<T>[];
}

/** A peptide-spectrum match. */
export interface Psm<T> {
  decoy: boolean;
  /** The peptide as scored (a decoy's reversed sequence) and its form. */
  sequence: string;
  form: Form;
  /** The target candidate's ref (a decoy's is its target's). */
  ref: T;
  charge: number;
  isotopeError: number;
  /** The peptide's mass in units of 1e-10 Da. */
  units: number;
  matched: Matched;
  hyperscore: number;
  /** 1 for the best of its spectrum. */
  rank: number;
  /** Hyperscore less the next one's (less 0 for the last). */
  deltaNext: number;
  /** Target and decoy forms the spectrum scored. */
  scoredCandidates: number;
  /**
   * log10 of the Poisson probability of matching this many ions by chance, λ the mean ions matched per form the
   * spectrum scored (Sage's `poisson`): how unlikely the match is in this spectrum, whatever its peak density.
   */
  poisson: number;
}

/** A sequence with I as L: the two weigh the same and are not told apart. */
const sameAsLeucine = (sequence: string) => sequence.replaceAll('I', 'L');

/** A form's identity for telling a decoy from the targets. */
const formKey = (sequence: string, form: Form) =>
  `${sameAsLeucine(sequence)}|${form.nTerm}|${form.residues.join(',')}|${form.cTerm}`;

/** Fragment charges for a precursor of `charge`. */
export const fragmentCharges = (charge: number, max: number) => Math.max(1, Math.min(Math.abs(charge) - 1, max));

/** A PSM before it is ranked among its spectrum's. */
type Found<T> = Omit<Psm<T>, 'rank' | 'deltaNext' | 'scoredCandidates' | 'poisson'>;

/** A PSM of a search's candidate. */
const found = <T>(
  search: ScoredSearch<T>,
  candidate: ScoredCandidate<T>,
  decoy: boolean,
  sequence: string,
  form: Form,
  matched: Matched,
  hyperscore: number,
): Found<T> => ({
  decoy,
  sequence,
  form,
  ref: candidate.ref,
  charge: search.charge,
  isotopeError: search.isotopeError,
  units: candidate.units,
  matched,
  hyperscore,
});

/** How PSMs rank: by hyperscore, a decoy before a target of the same score (ties go against the targets), then by sequence. */
const ranking = <T>(a: Found<T>, b: Found<T>) =>
  b.hyperscore - a.hyperscore ||
  Number(b.decoy) - Number(a.decoy) ||
  (a.sequence < b.sequence ? -1 : a.sequence > b.sequence ? 1 : 0);

/** The first `size` PSMs by `ranking` of those offered, equals in the order offered. */
class Leaders<T> {
  readonly kept: Found<T>[] = [];
  constructor(
    private readonly size: number,
    private readonly minMatched: number,
  ) {}

  /** The hyperscore of a match that matched enough ions and could enter (a tie may: decoy and sequence decide). */
  admitting(matched: Matched): number | undefined {
    if (matched.b + matched.y < this.minMatched) return undefined;
    const score = hyperscore(matched);
    return this.kept.length < this.size || score >= this.kept[this.kept.length - 1].hyperscore ? score : undefined;
  }

  add(psm: Found<T>): void {
    let at = this.kept.length;
    while (at > 0 && ranking(this.kept[at - 1], psm) > 0) at--;
    if (at === this.size) return;
    this.kept.splice(at, 0, psm);
    if (this.kept.length > this.size) this.kept.pop();
  }
}

/**
 * The spectrum's best PSMs (at most `scoring.report`, each with at least `minMatched` ions), by `ranking`.
 * `counts.cut` counts the candidates with more forms than MAX_FORMS (the first ones scored).
 */
export function scoreSpectrum<T>(
  peaks: Peaks,
  searches: readonly ScoredSearch<T>[],
  scoring: Scoring,
  counts: { cut: number } = { cut: 0 },
): Psm<T>[] {
  // One more than reported: the last one's delta is to the next.
  const leaders = new Leaders<T>(scoring.report + 1, scoring.minMatched);
  const tolerance = scoring.fragmentTolerance;
  let scored = 0;
  let matchedIons = 0;
  for (const search of searches) {
    const maxCharge = fragmentCharges(search.charge, scoring.maxFragmentCharge);
    const targets = search.candidates.map((candidate) => {
      const { forms, cut } = localisedForms(
        candidate.sequence,
        scoring.fixed,
        scoring.variable,
        candidate.counts,
        undefined,
        candidate.startsProtein,
      );
      if (cut) counts.cut++;
      return { candidate, forms };
    });
    // Most decoys' sequences are no target's: the forms are compared only when the sequences are alike.
    const targetSequences = new Set(targets.map(({ candidate }) => sameAsLeucine(candidate.sequence)));
    let targetKeys: Set<string> | undefined;
    const isTarget = (sequence: string, form: Form) => {
      if (!targetSequences.has(sameAsLeucine(sequence))) return false;
      targetKeys ??= new Set(
        targets.flatMap(({ candidate, forms }) => forms.map((f) => formKey(candidate.sequence, f))),
      );
      return targetKeys.has(formKey(sequence, form));
    };
    for (const { candidate, forms } of targets) {
      const { sequence } = candidate;
      const decoySequence = reversedSequence(sequence);
      const decoysMayBeTargets = targetSequences.has(sameAsLeucine(decoySequence));
      for (const form of forms) {
        scored++;
        let matched = matchForm(peaks, sequence, form, maxCharge, tolerance);
        matchedIons += matched.b + matched.y;
        let score = leaders.admitting(matched);
        if (score !== undefined) leaders.add(found(search, candidate, false, sequence, form, matched, score));
        // The decoy's sequence and form are only made when it may be a target or may rank.
        let decoy: ReturnType<typeof decoyForm>;
        if (decoysMayBeTargets) {
          // A decoy that is a target (its own, when a palindrome but for its last residue) is not scored.
          decoy = decoyForm(sequence, form);
          if (!decoy || isTarget(decoy.sequence, decoy.form)) continue;
        }
        matched = matchForm(peaks, sequence, form, maxCharge, tolerance, true);
        scored++;
        matchedIons += matched.b + matched.y;
        score = leaders.admitting(matched);
        if (score === undefined) continue;
        decoy ??= decoyForm(sequence, form)!;
        leaders.add(found(search, candidate, true, decoy.sequence, decoy.form, matched, score));
      }
    }
  }
  const best = leaders.kept;
  return best.slice(0, scoring.report).map((psm, i) => ({
    ...psm,
    rank: i + 1,
    deltaNext: psm.hyperscore - (best[i + 1]?.hyperscore ?? 0),
    scoredCandidates: scored,
    poisson: log10Poisson(psm.matched.b + psm.matched.y, matchedIons / scored),
  }));
}

/** log10 of the Poisson probability mass of `k` at mean `lambda`. */
export const log10Poisson = (k: number, lambda: number): number =>
  (k * Math.log(lambda) - lambda - lnFactorial(k)) / Math.LN10;

/** The mass of a PSM's peptide in Da. */
export const calcMass = (psm: Pick<Psm<unknown>, 'units'>) => psm.units / UNITS_PER_DA;

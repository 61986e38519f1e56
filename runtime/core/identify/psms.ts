// Peptide-spectrum matches of one spectrum: every localised form of each candidate of its searches, and each form's
// decoy, scored against its peaks; the best as PSMs with the features a rescorer reads. Targets and decoys compete
// here: a spectrum's first rank is whichever scores highest.
import { UNITS_PER_DA } from '../../model/chemistry.js';
import type { ModSpec } from '../../model/modifications.js';
import { decoyForm } from './decoy.js';
import { localisedForms, type Form } from './forms.js';
import { hyperscore, matchForm, type FragmentTolerance, type Matched, type Peaks } from './score.js';

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
}

/** A form's identity for telling a decoy from the targets: I and L weigh the same and are not told apart. */
const formKey = (sequence: string, form: Form) =>
  `${sequence.replaceAll('I', 'L')}|${form.nTerm}|${form.residues.join(',')}|${form.cTerm}`;

/** Fragment charges for a precursor of `charge`. */
export const fragmentCharges = (charge: number, max: number) => Math.max(1, Math.min(Math.abs(charge) - 1, max));

/**
 * The spectrum's best PSMs (at most `scoring.report`, each with at least `minMatched` ions), by hyperscore, a decoy
 * before a target of the same score (ties go against the targets), then by sequence. `counts.cut` counts the
 * candidates with more forms than MAX_FORMS (the first ones scored).
 */
export function scoreSpectrum<T>(
  peaks: Peaks,
  searches: readonly ScoredSearch<T>[],
  scoring: Scoring,
  counts: { cut: number } = { cut: 0 },
): Psm<T>[] {
  const found: Omit<Psm<T>, 'rank' | 'deltaNext' | 'scoredCandidates'>[] = [];
  let scored = 0;
  for (const search of searches) {
    const maxCharge = fragmentCharges(search.charge, scoring.maxFragmentCharge);
    const score = (sequence: string, form: Form, decoy: boolean, candidate: ScoredCandidate<T>) => {
      scored++;
      const matched = matchForm(peaks, sequence, form, maxCharge, scoring.fragmentTolerance);
      if (matched.b + matched.y < scoring.minMatched) return;
      found.push({
        decoy,
        sequence,
        form,
        ref: candidate.ref,
        charge: search.charge,
        isotopeError: search.isotopeError,
        units: candidate.units,
        matched,
        hyperscore: hyperscore(matched),
      });
    };
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
    const targetSequences = new Set(targets.map(({ candidate }) => candidate.sequence.replaceAll('I', 'L')));
    let targetKeys: Set<string> | undefined;
    const isTarget = (sequence: string, form: Form) => {
      if (!targetSequences.has(sequence.replaceAll('I', 'L'))) return false;
      targetKeys ??= new Set(
        targets.flatMap(({ candidate, forms }) => forms.map((f) => formKey(candidate.sequence, f))),
      );
      return targetKeys.has(formKey(sequence, form));
    };
    for (const { candidate, forms } of targets) {
      for (const form of forms) {
        score(candidate.sequence, form, false, candidate);
        const decoy = decoyForm(candidate.sequence, form);
        if (decoy && !isTarget(decoy.sequence, decoy.form)) score(decoy.sequence, decoy.form, true, candidate);
      }
    }
  }
  found.sort(
    (a, b) =>
      b.hyperscore - a.hyperscore ||
      Number(b.decoy) - Number(a.decoy) ||
      (a.sequence < b.sequence ? -1 : a.sequence > b.sequence ? 1 : 0),
  );
  return found.slice(0, scoring.report).map((psm, i) => ({
    ...psm,
    rank: i + 1,
    deltaNext: psm.hyperscore - (found[i + 1]?.hyperscore ?? 0),
    scoredCandidates: scored,
  }));
}

/** The mass of a PSM's peptide in Da. */
export const calcMass = (psm: Pick<Psm<unknown>, 'units'>) => psm.units / UNITS_PER_DA;

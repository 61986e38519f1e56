// Modification hypotheses of a precursor query: every way the fixed modifications (a count per fixed site,
// fixed by the peptide) and the variable ones (a count per variable site, at most maxVariable in all) can shift
// an unmodified peptide's mass into the window, each with the window it leaves for the unmodified mass.
import { RESIDUE_UNITS, WATER_UNITS } from '../../model/chemistry.js';
import type { ModSpec, Site } from '../../model/modifications.js';
import { massKey, UNITS_PER_KEY } from '../../model/massKey.js';
import { InvalidQuery } from '../errors.js';
import { AT_INSIDE, AT_PROTEIN_START, type Place } from '../../model/proteinStarts.js';

export interface Hypothesis {
  /** How many slots each fixed spec takes (the peptide must have exactly this many). */
  fixedCounts: number[];
  /** How many slots each variable spec takes. */
  variableCounts: number[];
  /** Mass the modifications add, in units of 1e-10 Da. */
  shiftUnits: number;
  /** Keys of unmodified masses that can land in the window with this shift (view keys, for a view's hypothesis). */
  baseLowKey: number;
  baseHighKey: number;
  /**
   * The view the hypothesis reads instead of the dataset's shards (an index into Dataset.views), whose keys carry
   * its fixed modification on every residue of its letters: that spec's count is VIEW_COUNT (any, ≥ 1: the
   * peptide's own), and its mass is not in `shiftUnits`.
   */
  view?: number;
  /**
   * A complete view's hypotheses (searchPlan.ts completeHypotheses), one per count of its variable modification: the
   * first (count 0) reads the window once and files each peptide under the hypothesis of its own count, up to
   * `readsCounts` (the query's maxVariable); the others (`filed`) read nothing themselves.
   */
  readsCounts?: number;
  filed?: true;
  /**
   * Where its peptides must lie when the query modifies the protein N-terminus: AT_PROTEIN_START when a modification
   * takes it (the peptide then lists only the proteins it starts), AT_INSIDE when a fixed one does not (only the
   * proteins it lies inside); undefined when the query names no such site.
   */
  at?: Place;
}

/** The fixed count of a view's modification in a hypothesis that reads the view: every site the peptide has. */
export const VIEW_COUNT = -1;

export interface HypothesisLimits {
  /** Peptide lengths in the dataset (the build's parameters). */
  minLength: number;
  maxLength: number;
  /**
   * Most residues of `letters` one peptide of the dataset holds, or more (its index's residue maxima); unbounded
   * without.
   */
  mostResidues?: (letters: string) => number;
}

/** More hypotheses than this are refused: the modifications are too open-ended to search exactly in time. */
export const MAX_HYPOTHESES = 20_000;

/** A refused query: the modifications asked for are too open-ended for this window. */
export class TooManyHypotheses extends InvalidQuery {}

/** Lightest residue of the alphabet and of a site's residues, in units. */
const LIGHTEST = Math.min(...[...RESIDUE_UNITS].filter((u) => u >= 0));
const lightest = (letters: string) => Math.min(...[...letters].map((c) => RESIDUE_UNITS[c.charCodeAt(0)]));

/** Slots a site can take in one peptide at most, and the least mass each such slot adds (residue + delta). */
function slotRange(
  site: Site,
  delta: number,
  limits: HypothesisLimits,
): { max: number; least: number; residues: boolean } {
  if (site.kind === 'terminus' || site.kind === 'protein terminus') return { max: 1, least: delta, residues: false };
  const letters = site.kind === 'residues' ? site.letters : site.letter;
  const most =
    site.kind === 'residues' ? Math.min(limits.maxLength, limits.mostResidues?.(site.letters) ?? Infinity) : 1;
  return { max: most, least: lightest(letters) + delta, residues: true };
}

/**
 * Every hypothesis whose least possible modified mass fits below the window's top, and whose counts on residues
 * some peptide of the dataset can hold (`limits.mostResidues`). A fixed modification on a
 * terminus always takes it (every peptide has both termini); a variable one on a terminus at most once.
 * `windowUnits` is the inclusive range of modified masses (units) whose key lies in the query's key window.
 */
export function hypotheses(
  fixed: readonly ModSpec[],
  variable: readonly ModSpec[],
  maxVariable: number,
  windowUnits: [number, number],
  limits: HypothesisLimits,
): Hypothesis[] {
  const [low, high] = windowUnits;
  // One level per spec, fixed ones first; a count per level, chosen in turn with running totals.
  const levels = [...fixed, ...variable].map((spec, i) => {
    const range = slotRange(spec.site, spec.modification.deltaUnits, limits);
    const isFixed = i < fixed.length;
    // A fixed modification on a bare terminus is on every peptide; on residues, from none to the longest peptide; on
    // the protein's N-terminus, on the peptides that start one and not on those inside one (a peptide may be both).
    return {
      ...range,
      delta: spec.modification.deltaUnits,
      isFixed,
      proteinStart: spec.site.kind === 'protein terminus',
      min: isFixed && spec.site.kind === 'terminus' ? 1 : 0,
      step: range.least - (range.residues ? LIGHTEST : 0),
    };
  });
  // What the levels not yet counted could still take off the least mass: a partial hypothesis whose least mass is
  // above the window by more than this can grow no lighter, so its larger counts are cut.
  const slack = levels.reduce(
    (sum, l) => sum + Math.min(0, l.step) * (l.isFixed ? l.max : Math.min(l.max, maxVariable)),
    0,
  );
  const out: Hypothesis[] = [];
  const counts: number[] = [];

  /**
   * Least modified mass of any peptide with the counts so far: the counted slots, then lightest residues up to the
   * minimum length.
   */
  const leastMass = (units: number, residues: number) =>
    residues > limits.maxLength ? Infinity : WATER_UNITS + units + Math.max(0, limits.minLength - residues) * LIGHTEST;

  const level = (i: number, units: number, residues: number, shift: number, left: number): void => {
    if (i === levels.length) {
      if (leastMass(units, residues) > high || high - shift < 0) return;
      if (out.length >= MAX_HYPOTHESES)
        throw new TooManyHypotheses(
          `the modifications give more than ${MAX_HYPOTHESES.toLocaleString('en')} mass hypotheses in this window; fewer fixed or variable modifications, or a lower maxVariable`,
        );
      const at = placeOf(levels, counts);
      out.push({
        fixedCounts: counts.slice(0, fixed.length),
        variableCounts: counts.slice(fixed.length),
        shiftUnits: shift,
        baseLowKey: massKey(Math.max(0, low - shift)),
        baseHighKey: massKey(high - shift),
        ...(at && { at }),
      });
      return;
    }
    const l = levels[i];
    const most = l.isFixed ? l.max : Math.min(l.max, left);
    for (let n = l.min; n <= most; n++) {
      const u = units + n * l.least;
      const r = residues + (l.residues ? n : 0);
      if (n > 0 && l.step >= 0 && leastMass(u, r) + slack > high) break;
      counts[i] = n;
      level(i + 1, u, r, shift + n * l.delta, l.isFixed ? left : left - n);
    }
  };

  level(0, 0, 0, 0, maxVariable);
  return out;
}

/** Where a hypothesis's peptides must lie, by its counts on the protein's N-terminus (Hypothesis.at). */
function placeOf(levels: readonly { proteinStart: boolean; isFixed: boolean }[], counts: readonly number[]) {
  if (levels.some((l, i) => l.proteinStart && counts[i] > 0)) return AT_PROTEIN_START;
  return levels.some((l) => l.proteinStart && l.isFixed) ? AT_INSIDE : undefined;
}

/** The inclusive range of masses (units) whose 4-decimal key lies in [lowKey, highKey]. */
export const keyWindowUnits = (lowKey: number, highKey: number): [number, number] => [
  lowKey * UNITS_PER_KEY - UNITS_PER_KEY / 2,
  highKey * UNITS_PER_KEY + UNITS_PER_KEY / 2 - 1,
];

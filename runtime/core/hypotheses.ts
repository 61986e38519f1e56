// Modification hypotheses of a precursor query: every way the fixed modifications (a count per fixed site,
// fixed by the peptide) and the variable ones (a count per variable site, at most maxVariable in all) can shift
// an unmodified peptide's mass into the window, each with the window it leaves for the unmodified mass.
import { RESIDUE_UNITS, WATER_UNITS } from '../model/chemistry.js';
import type { ModSpec, Site } from '../model/modifications.js';
import { massKey, UNITS_PER_KEY } from '../model/massKey.js';

export interface Hypothesis {
  /** How many slots each fixed spec takes (the peptide must have exactly this many). */
  fixedCounts: number[];
  /** How many slots each variable spec takes. */
  variableCounts: number[];
  /** Mass the modifications add, in units of 1e-10 Da. */
  shiftUnits: number;
  /** Keys of unmodified masses that can land in the window with this shift. */
  baseLowKey: number;
  baseHighKey: number;
}

export interface HypothesisLimits {
  /** Peptide lengths in the dataset (the build's parameters). */
  minLength: number;
  maxLength: number;
}

/** More hypotheses than this are refused: the modifications are too open-ended to search exactly in time. */
export const MAX_HYPOTHESES = 20_000;

export class TooManyHypotheses extends Error {}

/** Lightest residue of the alphabet and of a site's residues, in units. */
const LIGHTEST = Math.min(...[...RESIDUE_UNITS].filter((u) => u >= 0));
const lightest = (letters: string) => Math.min(...[...letters].map((c) => RESIDUE_UNITS[c.charCodeAt(0)]));

/** Slots a site can take in one peptide at most, and the least mass each such slot adds (residue + delta). */
function slotRange(site: Site, delta: number, maxLength: number): { max: number; least: number; residues: boolean } {
  if (site.kind === 'terminus') return { max: 1, least: delta, residues: false };
  const letters = site.kind === 'residues' ? site.letters : site.letter;
  return { max: site.kind === 'residues' ? maxLength : 1, least: lightest(letters) + delta, residues: true };
}

/**
 * Every hypothesis whose least possible modified mass fits below the window's top. A fixed modification on a
 * terminus always takes it (every peptide has both termini); a variable one on a terminus at most once.
 * `windowUnits` is the inclusive range of modified masses (units) whose key lies in the query's key window.
 */
export function hypotheses(fixed: readonly ModSpec[], variable: readonly ModSpec[], maxVariable: number, windowUnits: [number, number], limits: HypothesisLimits): Hypothesis[] {
  const [low, high] = windowUnits;
  const fixedRanges = fixed.map((s) => slotRange(s.site, s.modification.deltaUnits, limits.maxLength));
  const variableRanges = variable.map((s) => slotRange(s.site, s.modification.deltaUnits, limits.maxLength));
  const out: Hypothesis[] = [];
  const fixedCounts: number[] = [];
  const variableCounts: number[] = [];

  /** Least modified mass of any peptide with these counts: the counted slots, and the rest of the minimum length. */
  const leastMass = () => {
    let units = WATER_UNITS;
    let residues = 0;
    const add = (ranges: typeof fixedRanges, counts: number[]) =>
      counts.forEach((n, i) => {
        units += n * ranges[i].least;
        if (ranges[i].residues) residues += n;
      });
    add(fixedRanges, fixedCounts);
    add(variableRanges, variableCounts);
    if (residues > limits.maxLength) return Infinity;
    return units + Math.max(0, limits.minLength - residues) * LIGHTEST;
  };

  const emit = () => {
    if (leastMass() > high) return;
    let shift = 0;
    fixedCounts.forEach((n, i) => (shift += n * fixed[i].modification.deltaUnits));
    variableCounts.forEach((n, i) => (shift += n * variable[i].modification.deltaUnits));
    if (high - shift < 0) return;
    if (out.length >= MAX_HYPOTHESES) throw new TooManyHypotheses(`the modifications give more than ${MAX_HYPOTHESES} mass hypotheses in this window`);
    out.push({
      fixedCounts: [...fixedCounts],
      variableCounts: [...variableCounts],
      shiftUnits: shift,
      baseLowKey: massKey(Math.max(0, low - shift)),
      baseHighKey: massKey(high - shift),
    });
  };

  /** Mass one more slot of this range adds at least (a residue slot replaces a lightest filler residue). */
  const step = (range: (typeof fixedRanges)[number]) => range.least - (range.residues ? LIGHTEST : 0);
  const growing = (range: (typeof fixedRanges)[number]) => step(range) >= 0;
  // What the specs not yet counted could still take off the least mass: a partial hypothesis whose least mass
  // is above the window by more than this can grow no lighter, so its larger counts are cut.
  const slack =
    fixedRanges.reduce((sum, r) => sum + Math.min(0, step(r)) * r.max, 0) +
    variableRanges.reduce((sum, r) => sum + Math.min(0, step(r)) * Math.min(r.max, maxVariable), 0);

  const variableLevel = (j: number, left: number): void => {
    if (j === variable.length) return emit();
    const { max } = variableRanges[j];
    for (let k = 0; k <= Math.min(max, left); k++) {
      variableCounts[j] = k;
      if (k > 0 && growing(variableRanges[j]) && leastMass() + slack > high) break;
      variableLevel(j + 1, left - k);
    }
    variableCounts.length = j;
  };

  const fixedLevel = (i: number): void => {
    if (i === fixed.length) return variableLevel(0, maxVariable);
    const { max, residues } = fixedRanges[i];
    // A fixed modification on a bare terminus is on every peptide; on residues, from none to the longest peptide.
    for (let n = residues ? 0 : 1; n <= max; n++) {
      fixedCounts[i] = n;
      if (n > 0 && growing(fixedRanges[i]) && leastMass() + slack > high) break;
      fixedLevel(i + 1);
    }
    fixedCounts.length = i;
  };

  fixedLevel(0);
  return out;
}

/** The inclusive range of masses (units) whose 4-decimal key lies in [lowKey, highKey]. */
export const keyWindowUnits = (lowKey: number, highKey: number): [number, number] => [lowKey * UNITS_PER_KEY - UNITS_PER_KEY / 2, highKey * UNITS_PER_KEY + UNITS_PER_KEY / 2 - 1];

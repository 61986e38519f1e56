// Precursor-search benchmark queries: /api/v1/search at the centres of the ±10 ppm windows of the seed's
// benchmark (same seed, same masses), with fixed Carbamidomethyl@C and variable Oxidation@M (maxVariable 2),
// and the distribution of modification hypotheses (range reads) those queries make.
import { parseModifications } from '../../runtime/model/modifications.js';
import { hypotheses, keyWindowUnits, type HypothesisLimits } from '../../runtime/core/hypotheses.js';
import { summarize, type Summary } from './measure.js';
import { prng } from './synthetic.js';

export const PRECURSOR_MODS = { fixed: 'Carbamidomethyl@C', variable: 'Oxidation@M', maxVariable: 2 } as const;

/** Centres of `massWindows(count, seed, { lo, hi, ppm })` (the same draws). */
export function windowCentres(count: number, seed: number, lo: number, hi: number): number[] {
  const random = prng(seed);
  return Array.from({ length: count }, () => lo + random() * (hi - lo));
}

export const precursorUrl = (centre: number) =>
  `http://bench/api/v1/search?mass=${centre.toFixed(4)}&tolerance=10&fixed=${PRECURSOR_MODS.fixed}&variable=${PRECURSOR_MODS.variable}&maxVariable=${PRECURSOR_MODS.maxVariable}`;

/** Hypotheses (range reads) per query at ±10 ppm for these centres, as made on a dataset with these limits (its parameters and residue maxima). */
export function hypothesisCounts(centres: number[], limits: HypothesisLimits): Summary {
  const fixed = parseModifications(PRECURSOR_MODS.fixed);
  const variable = parseModifications(PRECURSOR_MODS.variable);
  const counts = centres.map((m) => {
    const window = keyWindowUnits(Math.ceil((m - m * 1e-5) * 1e4), Math.floor((m + m * 1e-5) * 1e4));
    return hypotheses(fixed, variable, PRECURSOR_MODS.maxVariable, window, limits).length;
  });
  return summarize(counts);
}

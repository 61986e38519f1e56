// Precursor-search benchmark queries: /api/v1/search at the centres of the ±10 ppm windows of the seed's
// benchmark (same seed, same masses), with fixed Carbamidomethyl@C and variable Oxidation@M (maxVariable 2),
// and the distribution of modification hypotheses (range reads) those queries make on a dataset.
import { parseModifications } from '../../runtime/model/modifications.js';
import { Dataset } from '../../runtime/core/storage/dataset.js';
import { searchHypotheses } from '../../runtime/core/precursor/searchPlan.js';
import { FileSource } from '../../runtime/entries/node/fileSource.js';
import { nodeCodecs } from '../../runtime/entries/node/platform.js';
import { summarize, type Summary } from './measure.js';
import { prng } from './synthetic.js';

export const PRECURSOR_MODS = { fixed: 'Carbamidomethyl@C', variable: 'Oxidation@M', maxVariable: 2 } as const;

/** The complete view of these modifications (docs/format.md "Complete views"): the query is one range of it. */
export const COMPLETE_VIEW = `fixed=${PRECURSOR_MODS.fixed}&variable=${PRECURSOR_MODS.variable}&maxVariable=${PRECURSOR_MODS.maxVariable}`;

/** Centres of `massWindows(count, seed, { lo, hi, ppm })` (the same draws). */
export function windowCentres(count: number, seed: number, lo: number, hi: number): number[] {
  const random = prng(seed);
  return Array.from({ length: count }, () => lo + random() * (hi - lo));
}

export const precursorUrl = (centre: number) =>
  `http://bench/api/v1/search?mass=${centre.toFixed(4)}&tolerance=10&fixed=${PRECURSOR_MODS.fixed}&variable=${PRECURSOR_MODS.variable}&maxVariable=${PRECURSOR_MODS.maxVariable}`;

/**
 * Hypotheses (range reads) per query at ±10 ppm for these centres, as precursor search makes them on the dataset in
 * `dir` (its parameters, its residue maxima, its view of the fixed modification or complete view when it has one).
 */
export async function hypothesisCounts(dir: string, centres: number[]): Promise<Summary> {
  const dataset = await Dataset.open(new FileSource(dir), nodeCodecs);
  const mods = {
    fixed: parseModifications(PRECURSOR_MODS.fixed),
    variable: parseModifications(PRECURSOR_MODS.variable),
    maxVariable: PRECURSOR_MODS.maxVariable,
  };
  return summarize(
    centres.map(
      (m) =>
        searchHypotheses(dataset, {
          lowKey: Math.ceil((m - m * 1e-5) * 1e4),
          highKey: Math.floor((m + m * 1e-5) * 1e4),
          ...mods,
        }).length,
    ),
  );
}

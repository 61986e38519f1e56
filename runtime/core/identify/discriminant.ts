// A linear discriminant over PSM features, as Sage rescores: a raw hyperscore is not comparable across spectra (a
// long peptide at high charge in a wide fragment window matches many noise peaks), so the FDR is computed on the
// projection that best separates targets from decoys — Fisher's w = Sw⁻¹ (μ_targets − μ_decoys), with Sw the summed
// within-class covariances, features transformed towards normal as Sage transforms them.

import { ISOTOPE_SPACING_DA, UNITS_PER_DA } from '../../model/chemistry.js';
import type { FilePsm } from './identify.js';

/** (observed − theoretical) / theoretical × 10^6, the observed mass less the isotope error. */
export function precursorPpm(psm: Pick<FilePsm, 'expMass' | 'isotopeError' | 'units'>): number {
  const calc = psm.units / UNITS_PER_DA;
  return ((psm.expMass - psm.isotopeError * ISOTOPE_SPACING_DA - calc) / calc) * 1e6;
}

/** The matched fragments' |ppm| error, weighted by their peaks' intensities. */
export const fragmentPpm = (psm: Pick<FilePsm, 'matched'>) =>
  psm.matched.weightedPpm / (psm.matched.summedB + psm.matched.summedY || 1);

/** The matched peaks' share of the scored peaks' intensity, in percent. */
export const matchedIntensityPct = (psm: Pick<FilePsm, 'matched' | 'scoredIntensity'>) =>
  (100 * (psm.matched.summedB + psm.matched.summedY)) / (psm.scoredIntensity || 1);

/** Fewest PSMs of each class to fit on: fewer, and the fit is noise (the raw hyperscore is used instead). */
export const MIN_PER_CLASS = 20;

/** What a PSM offers the discriminant. */
export interface PsmFeatures {
  charge: number;
  hyperscore: number;
  deltaNext: number;
  /** |precursor error| in ppm. */
  precursorPpm: number;
  isotopeError: number;
  fragmentPpm: number;
  matchedIntensityPct: number;
  matchedPeaks: number;
  length: number;
  missedCleavages: number;
  scoredCandidates: number;
  /** log10 Poisson probability of the matched ions (psms.ts). */
  poisson: number;
}

/** What a file's PSM offers the discriminant. */
export const featuresOf = (psm: FilePsm): PsmFeatures => ({
  charge: psm.charge,
  hyperscore: psm.hyperscore,
  deltaNext: psm.deltaNext,
  precursorPpm: Math.abs(precursorPpm(psm)),
  isotopeError: psm.isotopeError,
  fragmentPpm: fragmentPpm(psm),
  matchedIntensityPct: matchedIntensityPct(psm),
  matchedPeaks: psm.matched.b + psm.matched.y,
  length: psm.sequence.length,
  missedCleavages: psm.missedCleavages,
  scoredCandidates: psm.scoredCandidates,
  poisson: psm.poisson,
});

/**
 * The charges that get a feature of their own, 1 for a PSM of that charge: each of `charges` but the lowest, the
 * reference level (charge is a category, as Percolator and mokapot take it: a linear weight on its value would
 * extrapolate to the charges few PSMs have).
 */
export const indicatorCharges = (charges: Iterable<number>): number[] =>
  [...new Set(charges)].sort((a, b) => a - b).slice(1);

/** The feature row of a PSM, with an indicator per charge of `charges` (indicatorCharges). */
export const featureRow = (f: PsmFeatures, charges: readonly number[]): number[] => [
  ...charges.map((z) => Number(f.charge === z)),
  Math.log1p(f.hyperscore),
  Math.log1p(f.deltaNext),
  f.precursorPpm,
  f.isotopeError,
  f.fragmentPpm,
  Math.log1p(f.matchedIntensityPct),
  f.matchedPeaks,
  Math.log1p(f.length),
  f.missedCleavages,
  Math.log1p(f.scoredCandidates),
  Math.log1p(-f.poisson),
];

/** The solution of `a` x = `b` by Gauss–Jordan elimination with partial pivoting (a is square; both are copied). */
export function solve(a: readonly number[][], b: readonly number[]): number[] | undefined {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(m[r][col]) > Math.abs(m[pivot][col])) pivot = r;
    if (!(Math.abs(m[pivot][col]) > 0)) return undefined;
    [m[col], m[pivot]] = [m[pivot], m[col]];
    for (let r = 0; r < n; r++) {
      if (r === col) continue;
      const factor = m[r][col] / m[col][col];
      for (let c = col; c <= n; c++) m[r][c] -= factor * m[col][c];
    }
  }
  return m.map((row, i) => row[n] / row[i]);
}

/**
 * The coefficients of the discriminant of `rows` (one feature row each; `decoy[i]` its class), or undefined when a
 * class has fewer than MIN_PER_CLASS rows. A feature constant in both classes gets a tiny ridge, so its weight is 0
 * rather than the system singular.
 */
export function fitDiscriminant(rows: readonly number[][], decoy: readonly boolean[]): number[] | undefined {
  const d = rows[0]?.length ?? 0;
  const classes = [false, true].map((isDecoy) => rows.filter((_, i) => decoy[i] === isDecoy));
  if (classes.some((c) => c.length < MIN_PER_CLASS)) return undefined;
  const means = classes.map((c) => Array.from({ length: d }, (_, j) => c.reduce((s, row) => s + row[j], 0) / c.length));
  const scatter = Array.from({ length: d }, () => new Array<number>(d).fill(0));
  classes.forEach((c, k) => {
    for (const row of c)
      for (let i = 0; i < d; i++)
        for (let j = 0; j < d; j++) scatter[i][j] += ((row[i] - means[k][i]) * (row[j] - means[k][j])) / c.length;
  });
  const ridge = 1e-9 * Math.max(1e-12, ...scatter.map((row, i) => row[i]));
  for (let i = 0; i < d; i++) scatter[i][i] += ridge;
  const w = solve(
    scatter,
    means[0].map((m, j) => m - means[1][j]),
  );
  return w?.every(Number.isFinite) ? w : undefined;
}

/** A row's projection on the discriminant. */
export const project = (w: readonly number[], row: readonly number[]) => row.reduce((s, x, j) => s + w[j] * x, 0);

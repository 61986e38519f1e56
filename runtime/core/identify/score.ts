// Scoring a candidate against a spectrum as X!Tandem and Sage do: each fragment ion takes the most intense peak
// within the fragment tolerance, and the hyperscore is ln((Σ b intensities + 1)(Σ y intensities + 1)) + ln(n_b!) +
// ln(n_y!), with n_b and n_y the b and y ions matched. Peaks are the spectrum's most intense ones, the precursor's
// own left out.
import { PROTON_MASS_DA, RESIDUE_UNITS, UNITS_PER_DA, WATER_UNITS } from '../../model/chemistry.js';
import type { Carried, Fragment } from './fragments.js';

/** A spectrum's peaks, ascending m/z. */
export interface Peaks {
  mz: Float64Array;
  intensity: Float64Array;
  /**
   * `from[k]`: the first peak at or above m/z k, for each whole k up to the last peak's. A search scores millions of
   * ions against one spectrum: where a window starts is then a look-up and a step or two, not a binary search.
   */
  from: Int32Array;
}

/** A fragment tolerance: ± `value` ppm of the fragment's m/z, or ± `value` Da. */
export interface FragmentTolerance {
  value: number;
  unit: 'ppm' | 'Da';
}

/**
 * The `count` most intense peaks (ties: the lower m/z first), ascending m/z, without those within `exclude.da` of
 * `exclude.mz` (the unfragmented precursor, which would match nothing but inflate the intensities).
 */
export function topPeaks(
  mz: ArrayLike<number>,
  intensity: ArrayLike<number>,
  count: number,
  exclude?: { mz: number; da: number },
): Peaks {
  const kept = Array.from({ length: mz.length }, (_, i) => i)
    .filter((i) => !exclude || Math.abs(mz[i] - exclude.mz) > exclude.da)
    .sort((a, b) => intensity[b] - intensity[a] || mz[a] - mz[b])
    .slice(0, count)
    .sort((a, b) => mz[a] - mz[b]);
  const sorted = Float64Array.from(kept, (i) => mz[i]);
  return { mz: sorted, intensity: Float64Array.from(kept, (i) => intensity[i]), from: wholeMzStarts(sorted) };
}

/** Peaks.from of ascending m/z values. */
function wholeMzStarts(mz: Float64Array): Int32Array {
  const from = new Int32Array(mz.length === 0 ? 0 : Math.max(0, Math.floor(mz[mz.length - 1])) + 1);
  let i = 0;
  for (let k = 0; k < from.length; k++) {
    while (i < mz.length && mz[i] < k) i++;
    from[k] = i;
  }
  return from;
}

/** The first peak at or above `value`. */
function firstAtOrAbove(peaks: Peaks, value: number): number {
  const k = Math.floor(value);
  if (k >= peaks.from.length) return peaks.mz.length;
  const n = peaks.mz.length;
  let i = k > 0 ? peaks.from[k] : 0;
  while (i < n && peaks.mz[i] < value) i++;
  return i;
}

/** The most intense peak within the tolerance of `mz` (the lower m/z among equals), or -1. */
export function matchingPeak(peaks: Peaks, mz: number, tolerance: FragmentTolerance): number {
  const delta = tolerance.unit === 'ppm' ? (mz * tolerance.value) / 1e6 : tolerance.value;
  const n = peaks.mz.length;
  let best = -1;
  for (let i = firstAtOrAbove(peaks, mz - delta); i < n && peaks.mz[i] <= mz + delta; i++)
    if (best < 0 || peaks.intensity[i] > peaks.intensity[best]) best = i;
  return best;
}

/**
 * What a candidate matched: b and y ions, their summed intensities, and the sum over matched ions of intensity ×
 * |ppm error| (divided by the summed intensities, Sage's intensity-weighted fragment error).
 */
export interface Matched {
  b: number;
  y: number;
  summedB: number;
  summedY: number;
  weightedPpm: number;
}

/** The fragments' matches in the peaks. */
export function matchFragments(peaks: Peaks, fragments: readonly Fragment[], tolerance: FragmentTolerance): Matched {
  const matched: Matched = { b: 0, y: 0, summedB: 0, summedY: 0, weightedPpm: 0 };
  for (const fragment of fragments) {
    const peak = matchingPeak(peaks, fragment.mz, tolerance);
    if (peak < 0) continue;
    matched.weightedPpm += (peaks.intensity[peak] * Math.abs(peaks.mz[peak] - fragment.mz) * 1e6) / fragment.mz;
    if (fragment.kind === 'b') {
      matched.b++;
      matched.summedB += peaks.intensity[peak];
    } else {
      matched.y++;
      matched.summedY += peaks.intensity[peak];
    }
  }
  return matched;
}

/**
 * matchFragments(peaks, fragmentIons(sequence, carried, maxCharge), tolerance), without making the ions: a search
 * scores millions of forms, and an object per ion would be most of its time. With `decoy`, the ions are those of the
 * form's decoy (decoy.ts: the residues but the last reversed, each carrying its own), found in the same order.
 */
export function matchForm(
  peaks: Peaks,
  sequence: string,
  carried: Required<Carried>,
  maxCharge: number,
  tolerance: FragmentTolerance,
  decoy = false,
): Matched {
  const matched: Matched = { b: 0, y: 0, summedB: 0, summedY: 0, weightedPpm: 0 };
  const n = sequence.length;
  // No closures here: a function made per call costs more than the arithmetic.
  let b = carried.nTerm;
  for (let i = 0; i < n - 1; i++) {
    const at = decoy ? n - 2 - i : i;
    b += RESIDUE_UNITS[sequence.charCodeAt(at) & 127] + carried.residues[at];
    matchIon(matched, peaks, b, true, maxCharge, tolerance);
  }
  let y = WATER_UNITS + carried.cTerm;
  for (let i = n - 1; i > 0; i--) {
    // The decoy ends with the target's last residue, then runs the target's others forwards.
    const at = decoy && i < n - 1 ? n - 2 - i : i;
    y += RESIDUE_UNITS[sequence.charCodeAt(at) & 127] + carried.residues[at];
    matchIon(matched, peaks, y, false, maxCharge, tolerance);
  }
  return matched;
}

/** Adds to `matched` the peaks of a b (or y) ion of `units` at charges 1..maxCharge (a function, not a closure: hot). */
function matchIon(
  matched: Matched,
  peaks: Peaks,
  units: number,
  isB: boolean,
  maxCharge: number,
  tolerance: FragmentTolerance,
): void {
  for (let charge = 1; charge <= maxCharge; charge++) {
    const mz = (units / UNITS_PER_DA + charge * PROTON_MASS_DA) / charge;
    const peak = matchingPeak(peaks, mz, tolerance);
    if (peak < 0) continue;
    const intensity = peaks.intensity[peak];
    matched.weightedPpm += (intensity * Math.abs(peaks.mz[peak] - mz) * 1e6) / mz;
    if (isB) {
      matched.b++;
      matched.summedB += intensity;
    } else {
      matched.y++;
      matched.summedY += intensity;
    }
  }
}

/** ln(k!) for the k of most matches, summed once. */
const LN_FACTORIALS = [0];
for (let k = 1; k <= 256; k++) LN_FACTORIALS.push(LN_FACTORIALS[k - 1] + Math.log(k));

/** ln(n!), exactly summed (Sage uses Stirling's approximation, and 1 for ln 0!). */
export function lnFactorial(n: number): number {
  if (n < LN_FACTORIALS.length) return LN_FACTORIALS[n];
  let sum = LN_FACTORIALS[LN_FACTORIALS.length - 1];
  for (let k = LN_FACTORIALS.length; k <= n; k++) sum += Math.log(k);
  return sum;
}

/** The hyperscore of a candidate's matches. */
export const hyperscore = (m: Matched): number =>
  Math.log((m.summedB + 1) * (m.summedY + 1)) + lnFactorial(m.b) + lnFactorial(m.y);

// How likely a fingerprint match is by chance. A peak matches a protein at random when one of the protein's m
// peptides falls in the peak's window; with D of the dataset's N peptides in that window, a random peptide does so with
// probability D / N, so the peak is matched with q = 1 − (1 − D/N)^m. The matched peaks of independent peaks follow the
// Poisson binomial law of their q's, and a protein matching k peaks scores the chance of k or more: the binomial
// test PAMPA uses for species identification, with a chance per peak rather than one for all, and MOWSE's idea
// (Pappin, Hojrup and Bleasby 1993) that a match weighs by how densely the database's peptide masses fill its window.

/** The chance that a peak whose window holds `inWindow` of the dataset's `total` peptides matches one of `peptides`. */
export function peakChance(inWindow: number, total: number, peptides: number): number {
  if (total <= 0 || inWindow <= 0 || peptides <= 0) return 0;
  // 1 − (1 − x)^m without the cancellation of 1 − (a number near 1) for small x.
  return -Math.expm1(peptides * Math.log1p(-Math.min(1, inWindow / total)));
}

/** P(at least `k` of independent events with these chances happen): the Poisson binomial tail, exactly. */
export const atLeast = (k: number, chances: ArrayLike<number>): number =>
  k <= 0 ? 1 : k > chances.length ? 0 : tailsOf(chances, k)[k];

/**
 * P(at least k of the events happen) for every k from 0 to `most`. Each tail is summed from the chances of the
 * ways to reach it, never as 1 − (the chance of fewer), which would lose a small tail to rounding.
 */
export function tailsOf(chances: ArrayLike<number>, most: number): Float64Array {
  const tails = new Float64Array(most + 1);
  tails[0] = 1;
  if (most === 0) return tails;
  // exactly[j]: the chance that exactly j of the events so far happened (j < most).
  const exactly = new Float64Array(most);
  exactly[0] = 1;
  for (let i = 0; i < chances.length; i++) {
    const p = chances[i];
    // The events so far reach j or more, or reach exactly j − 1 and this one happens.
    for (let j = most; j > 0; j--) tails[j] += exactly[j - 1] * p;
    for (let j = most - 1; j > 0; j--) exactly[j] = exactly[j] * (1 - p) + exactly[j - 1] * p;
    exactly[0] *= 1 - p;
  }
  for (let j = 1; j <= most; j++) tails[j] = Math.min(1, tails[j]);
  return tails;
}

/** A chance as a score: −10 × log10(p), 0 for p = 1 (capped where p underflows to 0). */
export const scoreOf = (p: number): number => (p <= 0 ? 3000 : Math.max(0, -10 * Math.log10(p)));

/** The expected number of the `tested` candidates that would match this well by chance. */
export const expectOf = (p: number, tested: number): number => p * tested;

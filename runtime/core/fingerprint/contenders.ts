// The chance of each contender — a protein, or a taxon — matching as many of a peak list's peaks as it does, under
// chance.ts's model: peak i's window holds inWindow[i] of the dataset's `total` peptides, so a contender of m
// peptides matches it at random with 1 − (1 − inWindow[i] / total)^m.
import { tailsOf } from './chance.js';

/**
 * P(at least matched[c] of the peaks match at random) of each contender c, whose peptides in the dataset are
 * peptides[c]. Contenders of the same peptide count share one pass over the peaks, as deep as the most matched of
 * them: a list's contenders are many, their peptide counts few.
 */
export function contenderChances(
  inWindow: ArrayLike<number>,
  total: number,
  peptides: ArrayLike<number>,
  matched: ArrayLike<number>,
): Float64Array {
  const n = inWindow.length;
  const logs = Float64Array.from({ length: n }, (_, i) =>
    total > 0 ? Math.log1p(-Math.min(1, inWindow[i] / total)) : 0,
  );
  const most = new Map<number, number>();
  for (let c = 0; c < peptides.length; c++)
    most.set(peptides[c], Math.max(most.get(peptides[c]) ?? 0, Math.min(n, matched[c])));
  const tails = new Map<number, Float64Array>();
  const q = new Float64Array(n);
  for (const [m, deepest] of most) {
    // 1 − (1 − d)^m without the cancellation of 1 − (a number near 1) for small d.
    for (let i = 0; i < n; i++) q[i] = -Math.expm1(m * logs[i]);
    tails.set(m, tailsOf(q, deepest));
  }
  const chances = new Float64Array(peptides.length);
  for (let c = 0; c < peptides.length; c++) chances[c] = matched[c] > n ? 0 : tails.get(peptides[c])![matched[c]];
  return chances;
}

// The chance of each contender — a protein, or a taxon — matching as many of a peak list's peaks as it does, under
// chance.ts's model: peak i's window holds inWindow[i] of the dataset's `total` peptides, so a contender of m
// peptides matches it at random with 1 − (1 − inWindow[i] / total)^m.
import { tailsOf } from './chance.js';

/** A contender: its peptides in the dataset (m) and the peaks it matched (k). */
export interface Contender {
  peptides: number;
  matched: number;
}

/**
 * P(at least `matched` of the peaks match at random) of each contender. Contenders of the same peptide count share
 * one pass over the peaks, as deep as the most matched of them.
 */
export function contenderChances(
  inWindow: ArrayLike<number>,
  total: number,
  contenders: readonly Contender[],
): Float64Array {
  const logs = Float64Array.from({ length: inWindow.length }, (_, i) =>
    total > 0 ? Math.log1p(-Math.min(1, inWindow[i] / total)) : 0,
  );
  const byPeptides = new Map<number, number[]>();
  contenders.forEach(({ peptides }, c) => {
    const group = byPeptides.get(peptides);
    if (group) group.push(c);
    else byPeptides.set(peptides, [c]);
  });
  const chances = new Float64Array(contenders.length);
  const q = new Float64Array(logs.length);
  for (const [peptides, group] of byPeptides) {
    // 1 − (1 − d)^m without the cancellation of 1 − (a number near 1) for small d.
    for (let i = 0; i < logs.length; i++) q[i] = -Math.expm1(peptides * logs[i]);
    let most = 0;
    for (const c of group) most = Math.max(most, Math.min(logs.length, contenders[c].matched));
    const tails = tailsOf(q, most);
    for (const c of group) chances[c] = contenders[c].matched > logs.length ? 0 : tails[contenders[c].matched];
  }
  return chances;
}

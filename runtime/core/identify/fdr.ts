// The false discovery rate of scored identifications by target-decoy competition: the q-value of each is the lowest
// estimated FDR, (decoys + 1) / targets, of any score threshold that keeps it. Ties share their q-value: a threshold
// keeps all of a score or none of it.

/** The FDR that counts as identified, at every level. */
export const FDR_THRESHOLD = 0.01;

/** A scored identification: its score (higher is better) and whether it is a decoy. */
export interface Scored {
  score: number;
  decoy: boolean;
}

/** The q-value of each item, in the items' order, at most 1. */
export function qValues(items: readonly Scored[]): Float64Array {
  const order = items.map((_, i) => i).sort((a, b) => items[b].score - items[a].score);
  const q = new Float64Array(items.length);
  // Walking down the scores, the FDR at each threshold: after the last item of each tie.
  const fdr: number[] = [];
  const ends: number[] = [];
  let targets = 0;
  let decoys = 0;
  for (let k = 0; k < order.length; k++) {
    if (items[order[k]].decoy) decoys++;
    else targets++;
    if (k + 1 === order.length || items[order[k + 1]].score !== items[order[k]].score) {
      fdr.push(targets === 0 ? 1 : Math.min(1, (decoys + 1) / targets));
      ends.push(k);
    }
  }
  // A threshold keeps everything above it: the q-value is the least FDR from here down.
  let least = 1;
  let start = order.length - 1;
  for (let t = fdr.length - 1; t >= 0; t--) {
    least = Math.min(least, fdr[t]);
    const first = t === 0 ? 0 : ends[t - 1] + 1;
    for (let k = first; k <= start; k++) q[order[k]] = least;
    start = first - 1;
  }
  return q;
}

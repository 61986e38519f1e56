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

/**
 * Many contenders — a list's proteins, hundreds of thousands — of which an answer needs the best few: chances are
 * worked out only for contenders that may be among them. For a given number of matched peaks, a contender with more
 * peptides has a chance at least as large (each peak's chance grows with them), so of those matching k peaks only
 * the `count` with the fewest peptides can be among the best `count` — and those tied with the last of them.
 */
export class Contenders {
  private readonly logs: Float64Array;
  /** Tails by peptide count, as deep as asked so far. */
  private readonly tails = new Map<number, Float64Array>();
  /** Each contender's chance once worked out (NaN before). */
  private readonly chances: Float64Array;

  /**
   * @param before the order of contenders equal in chance and matched peaks (a strict total order).
   */
  constructor(
    inWindow: ArrayLike<number>,
    total: number,
    readonly peptides: ArrayLike<number>,
    readonly matched: ArrayLike<number>,
    private readonly before: (a: number, b: number) => boolean,
  ) {
    this.logs = Float64Array.from({ length: inWindow.length }, (_, i) =>
      total > 0 ? Math.log1p(-Math.min(1, inWindow[i] / total)) : 0,
    );
    this.chances = new Float64Array(matched.length).fill(Number.NaN);
  }

  /** Contender c's chance of matching its peaks at random. */
  chance(c: number): number {
    const known = this.chances[c];
    return Number.isNaN(known) ? (this.chances[c] = this.chanceOf(this.peptides[c], this.matched[c])) : known;
  }

  /** Whether contender a ranks before b: less chance, then more peaks, then `before`. */
  better(a: number, b: number): boolean {
    const [x, y] = [this.chance(a), this.chance(b)];
    if (x !== y) return x < y;
    return this.matched[a] !== this.matched[b] ? this.matched[a] > this.matched[b] : this.before(a, b);
  }

  /** The `count` best of contenders `among` (all without it), best first. */
  best(count: number, among?: Iterable<number>): number[] {
    const byMatched = new Map<number, number[]>();
    for (const c of among ?? Array.from(this.matched, (_, c) => c)) {
      const list = byMatched.get(this.matched[c]);
      if (list) list.push(c);
      else byMatched.set(this.matched[c], [c]);
    }
    const kept: number[] = [];
    for (const [k, list] of byMatched) {
      if (list.length <= count) {
        kept.push(...list);
        continue;
      }
      // The count-th fewest peptides, then every contender whose chance ties with it.
      let limit = nthSmallest(
        Float64Array.from(list, (c) => this.peptides[c]),
        count - 1,
      );
      const last = this.chanceOf(limit, k);
      for (;;) {
        let next = Number.POSITIVE_INFINITY;
        for (const c of list) if (this.peptides[c] > limit) next = Math.min(next, this.peptides[c]);
        if (next === Number.POSITIVE_INFINITY || this.chanceOf(next, k) !== last) break;
        limit = next;
      }
      for (const c of list) if (this.peptides[c] <= limit) kept.push(c);
    }
    return bestOf(kept, count, (a, b) => this.better(a, b));
  }

  private chanceOf(m: number, k: number): number {
    const n = this.logs.length;
    if (k > n) return 0;
    let tails = this.tails.get(m);
    if (!tails || tails.length <= k) {
      // 1 − (1 − d)^m without the cancellation of 1 − (a number near 1) for small d; deep enough for k and more.
      const q = Float64Array.from(this.logs, (log) => -Math.expm1(m * log));
      tails = tailsOf(q, Math.min(n, Math.max(k, 2 * (tails?.length ?? 0))));
      this.tails.set(m, tails);
    }
    return tails[k];
  }
}

/** The `count` best of `items` by `better` (a strict total order), best first. */
export function bestOf(items: Iterable<number>, count: number, better: (a: number, b: number) => boolean): number[] {
  const kept: number[] = [];
  if (count <= 0) return kept;
  for (const i of items) {
    if (kept.length === count && !better(i, kept[count - 1])) continue;
    let [low, high] = [0, kept.length];
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (better(kept[mid], i)) low = mid + 1;
      else high = mid;
    }
    kept.splice(low, 0, i);
    if (kept.length > count) kept.pop();
  }
  return kept;
}

/** The value of rank `n` (0-based) in ascending order of `values` (reordered in place). */
function nthSmallest(values: Float64Array, n: number): number {
  let [low, high] = [0, values.length - 1];
  while (low < high) {
    const pivot = values[(low + high) >>> 1];
    let [i, j] = [low, high];
    while (i <= j) {
      while (values[i] < pivot) i++;
      while (values[j] > pivot) j--;
      if (i <= j) {
        [values[i], values[j]] = [values[j], values[i]];
        i++;
        j--;
      }
    }
    if (n <= j) high = j;
    else if (n >= i) low = i;
    else return values[n];
  }
  return values[n];
}

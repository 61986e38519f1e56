// The chance of each contender — a protein, or a taxon — matching as many of a peak list's peaks as it does, under
// chance.ts's model: peak i's window holds inWindow[i] of the dataset's `total` peptides, so a contender of m
// peptides matches it at random with 1 − (1 − inWindow[i] / total)^m.
import { tailsOf } from './chance.js';

/**
 * Each peptide count's chance of matching each of a list's peaks at random, 1 − (1 − inWindow[i] / total)^m: worked
 * out once for a list's contenders, its listing's rounds and its taxa, while they hold at most KEPT_CHANCES values
 * (past them, each time asked).
 */
export class PeakChances {
  private readonly logs: Float64Array;
  private readonly known = new Map<number, Float64Array>();
  private kept = 0;

  constructor(inWindow: ArrayLike<number>, total: number) {
    this.logs = new Float64Array(inWindow.length);
    if (total > 0)
      for (let i = 0; i < this.logs.length; i++) this.logs[i] = Math.log1p(-Math.min(1, inWindow[i] / total));
  }

  get peaks(): number {
    return this.logs.length;
  }

  /** The chances of m peptides, by peak (not to be written). */
  of(m: number): Float64Array {
    let q = this.known.get(m);
    if (q) return q;
    const { logs } = this;
    q = new Float64Array(logs.length);
    // 1 − (1 − d)^m without the cancellation of 1 − (a number near 1) for small d.
    for (let i = 0; i < logs.length; i++) q[i] = -Math.expm1(m * logs[i]);
    if (this.kept + q.length <= KEPT_CHANCES) {
      this.known.set(m, q);
      this.kept += q.length;
    }
    return q;
  }
}

/** Most chances a PeakChances keeps (a list of thousands of peaks and as many peptide counts would hold millions). */
const KEPT_CHANCES = 2 ** 21;

/**
 * P(at least matched[c] of `peaks` (indexes into `chances`'s) match at random) of each contender c, whose peptides in
 * the dataset are peptides[c]. Contenders of the same peptide count share one pass over the peaks, as deep as the
 * most matched of them: a list's contenders are many, their peptide counts few.
 */
export function contenderChances(
  chances: PeakChances,
  peaks: readonly number[],
  peptides: ArrayLike<number>,
  matched: ArrayLike<number>,
): Float64Array {
  const n = peaks.length;
  const most = new Map<number, number>();
  for (let c = 0; c < peptides.length; c++)
    most.set(peptides[c], Math.max(most.get(peptides[c]) ?? 0, Math.min(n, matched[c])));
  const tails = new Map<number, Float64Array>();
  const q = new Float64Array(n);
  for (const [m, deepest] of most) {
    // A tail of 0 peaks (of contenders explaining none of them) needs no chances.
    if (deepest > 0) {
      const all = chances.of(m);
      for (let j = 0; j < n; j++) q[j] = all[peaks[j]];
    }
    tails.set(m, tailsOf(q, deepest));
  }
  const result = new Float64Array(peptides.length);
  for (let c = 0; c < peptides.length; c++) result[c] = matched[c] > n ? 0 : tails.get(peptides[c])![matched[c]];
  return result;
}

/**
 * Many contenders — a list's proteins, hundreds of thousands — of which an answer needs the best few: chances are
 * worked out only for contenders that may be among them. For a given number of matched peaks, a contender with more
 * peptides has a chance at least as large (each peak's chance grows with them), so of those matching k peaks only
 * the `count` with the fewest peptides can be among the best `count` — and those tied with the last of them.
 */
export class Contenders {
  /** Tails by peptide count, as deep as asked so far. */
  private readonly tails = new Map<number, Float64Array>();
  /** Each contender's chance once worked out (NaN before). */
  private readonly chances: Float64Array;

  /**
   * @param peakChances each peak's chance of matching the list's peptide counts at random.
   * @param before the order of contenders equal in chance and matched peaks (a strict total order).
   */
  constructor(
    private readonly peakChances: PeakChances,
    readonly peptides: ArrayLike<number>,
    readonly matched: ArrayLike<number>,
    private readonly before: (a: number, b: number) => boolean,
  ) {
    this.chances = new Float64Array(matched.length).fill(Number.NaN);
  }

  /** Contender c's chance of matching its peaks at random. */
  chance(c: number): number {
    const known = this.chances[c];
    return Number.isNaN(known) ? (this.chances[c] = this.chanceOf(this.peptides[c], this.matched[c])) : known;
  }

  /** Whether contender a ranks before b: less chance, then more peaks, then `before`. */
  better(a: number, b: number): boolean {
    const x = this.chance(a);
    const y = this.chance(b);
    if (x !== y) return x < y;
    return this.matched[a] !== this.matched[b] ? this.matched[a] > this.matched[b] : this.before(a, b);
  }

  /** The `count` best of contenders `among` (all without it), best first. */
  best(count: number, among?: Iterable<number>): number[] {
    // The contenders grouped by peaks matched (a counting sort: they are many, the counts few).
    const members = among ? Int32Array.from(among) : undefined;
    const n = members ? members.length : this.matched.length;
    let most = 0;
    for (let i = 0; i < n; i++) most = Math.max(most, this.matched[members ? members[i] : i]);
    const starts = new Int32Array(most + 2);
    for (let i = 0; i < n; i++) starts[this.matched[members ? members[i] : i] + 1]++;
    for (let k = 0; k <= most; k++) starts[k + 1] += starts[k];
    const next = starts.slice(0, most + 1);
    const byMatched = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const c = members ? members[i] : i;
      byMatched[next[this.matched[c]]++] = c;
    }
    const kept: number[] = [];
    for (let k = 0; k <= most; k++) {
      const list = byMatched.subarray(starts[k], starts[k + 1]);
      if (list.length <= count) {
        for (const c of list) kept.push(c);
        continue;
      }
      // The count-th fewest peptides, then every contender whose chance ties with it.
      const peptides = new Float64Array(list.length);
      for (let i = 0; i < list.length; i++) peptides[i] = this.peptides[list[i]];
      let limit = nthSmallest(peptides, count - 1);
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
    const n = this.peakChances.peaks;
    if (k > n) return 0;
    let tails = this.tails.get(m);
    if (!tails || tails.length <= k) {
      // Deep enough for k and more.
      tails = tailsOf(this.peakChances.of(m), Math.min(n, Math.max(k, 2 * (tails?.length ?? 0))));
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
    let low = 0;
    let high = kept.length;
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
  let low = 0;
  let high = values.length - 1;
  while (low < high) {
    const pivot = values[(low + high) >>> 1];
    let i = low;
    let j = high;
    while (i <= j) {
      while (values[i] < pivot) i++;
      while (values[j] > pivot) j--;
      if (i <= j) {
        const swapped = values[i];
        values[i++] = values[j];
        values[j--] = swapped;
      }
    }
    if (n <= j) high = j;
    else if (n >= i) low = i;
    else return values[n];
  }
  return values[n];
}

// How often each file has been asked for lately, approximately and in fixed memory: a count-min sketch of small
// counters, all halved every `sampleSize` counts so that old popularity fades (TinyLFU's frequency estimate, Einziger,
// Friedman & Manes, "TinyLFU: A Highly Efficient Cache Admission Policy", ACM ToS 2017). The shard cache admits a
// file over the ones it would evict only when this says it is asked for more often.

/** Rows of the sketch: a file's estimate is the least of its counters, one a row. */
const ROWS = 4;
/** A counter's most (four bits' worth, as TinyLFU's): enough to rank files, small enough to fade fast. */
const MAX_COUNT = 15;

export class FrequencySketch {
  private counters = new Uint8Array(0);
  private mask = 0;
  private counted = 0;
  /** Counts between halvings: ten for each file the cache may hold (TinyLFU's sample). */
  sampleSize = 0;
  private files = 0;

  constructor(files = 0) {
    this.fit(files);
  }

  /**
   * Sizes the sketch for a cache of `files` files (the next power of two, at least 16): a sample of 10 × files
   * counts, rows four times as wide so that few files share a counter. It only grows, and starts afresh when it does
   * (counts cannot be spread over wider rows without their files).
   */
  fit(files: number): void {
    const capacity = 2 ** Math.ceil(Math.log2(Math.max(files, 16)));
    if (capacity <= this.files) return;
    this.files = capacity;
    this.counters = new Uint8Array(ROWS * 4 * capacity);
    this.mask = 4 * capacity - 1;
    this.sampleSize = 10 * capacity;
    this.counted = 0;
  }

  /** Counts one request for `file`. */
  increment(file: string): void {
    const [h1, h2] = hashes(file);
    for (let row = 0; row < ROWS; row++) {
      const at = this.slot(row, h1, h2);
      if (this.counters[at] < MAX_COUNT) this.counters[at]++;
    }
    if (++this.counted >= this.sampleSize) this.halve();
  }

  /** The estimated requests for `file` since its counters were last halved (never less than the true count, capped at 15). */
  frequency(file: string): number {
    const [h1, h2] = hashes(file);
    let least = MAX_COUNT;
    for (let row = 0; row < ROWS; row++) least = Math.min(least, this.counters[this.slot(row, h1, h2)]);
    return least;
  }

  private slot(row: number, h1: number, h2: number): number {
    return row * (this.mask + 1) + ((h1 + row * h2) & this.mask);
  }

  private halve(): void {
    for (let i = 0; i < this.counters.length; i++) this.counters[i] >>= 1;
    this.counted = 0;
  }
}

/** Two independent 32-bit hashes of a name (FNV-1a, then a murmur3 finalizer of it), combined per row as h1 + row·h2. */
function hashes(name: string): [number, number] {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
  let g = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  g = Math.imul(g ^ (g >>> 13), 0xc2b2ae35);
  return [h >>> 0, ((g ^ (g >>> 16)) | 1) >>> 0];
}

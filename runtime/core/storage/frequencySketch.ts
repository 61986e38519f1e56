// How often each file has been asked for lately, approximately and in little memory: a count-min sketch of small
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
  private sample = 0;
  private files = 0;

  constructor(files = 0) {
    this.fit(files);
  }

  /** Counts between halvings: ten for each file the cache may hold (TinyLFU's sample). */
  get sampleSize(): number {
    return this.sample;
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
    this.sample = 10 * capacity;
    this.counted = 0;
  }

  /** Counts one request for the file of hash `h` (fileHash). */
  increment(h: number): void {
    const h2 = rehash(h);
    for (let row = 0, width = this.mask + 1; row < ROWS; row++) {
      const at = row * width + ((h + row * h2) & this.mask);
      if (this.counters[at] < MAX_COUNT) this.counters[at]++;
    }
    if (++this.counted >= this.sample) this.halve();
  }

  /**
   * The estimated requests for the file of hash `h` since its counters were last halved (never less than the true
   * count, capped at 15).
   */
  frequency(h: number): number {
    const h2 = rehash(h);
    let least = MAX_COUNT;
    for (let row = 0, width = this.mask + 1; row < ROWS; row++)
      least = Math.min(least, this.counters[row * width + ((h + row * h2) & this.mask)]);
    return least;
  }

  private halve(): void {
    for (let i = 0; i < this.counters.length; i++) this.counters[i] >>= 1;
    this.counted = 0;
  }
}

/** A file name's 32-bit hash (FNV-1a), what the sketch counts by; a row's counter is at hash + row · rehash(hash). */
export function fileHash(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** A second hash, independent of the first (murmur3's finalizer), odd so that rows differ. */
function rehash(h: number): number {
  let g = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  g = Math.imul(g ^ (g >>> 13), 0xc2b2ae35);
  return ((g ^ (g >>> 16)) | 1) >>> 0;
}

// The distinct mass keys a search found in its window, as one bit per key of the window: counted and paged in
// ascending order without sorting what was found (a heavy window finds tens of thousands of peptides on a few
// thousand keys; a window spans at most a few million keys, a few hundred KB of bits).

/** Bits set in a 32-bit word. */
function bitCount(word: number): number {
  word -= (word >>> 1) & 0x55555555;
  word = (word & 0x33333333) + ((word >>> 2) & 0x33333333);
  return (Math.imul((word + (word >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 63;
}

/** A set of integer keys in [low, high]. */
export class KeySet {
  private readonly words: Uint32Array;

  constructor(
    private readonly low: number,
    high: number,
  ) {
    this.words = new Uint32Array(high < low ? 0 : ((high - low) >>> 5) + 1);
  }

  /** Adds `key`, which must lie in [low, high]. */
  add(key: number): void {
    const i = key - this.low;
    this.words[i >>> 5] |= 1 << (i & 31);
  }

  /** How many distinct keys were added. */
  get size(): number {
    let n = 0;
    for (let w = 0; w < this.words.length; w++) if (this.words[w] !== 0) n += bitCount(this.words[w]);
    return n;
  }

  /** The keys ranked `from` to `from + count - 1` (0-based) in ascending order, fewer past the last. */
  slice(from: number, count: number): number[] {
    const out: number[] = [];
    let skip = from;
    for (let w = 0; w < this.words.length && out.length < count; w++) {
      let word = this.words[w];
      if (word === 0) continue;
      const bits = bitCount(word);
      if (bits <= skip) {
        skip -= bits;
        continue;
      }
      for (; word !== 0 && out.length < count; word &= word - 1) {
        if (skip > 0) skip--;
        else out.push(this.low + w * 32 + (31 - Math.clz32(word & -word)));
      }
    }
    return out;
  }
}

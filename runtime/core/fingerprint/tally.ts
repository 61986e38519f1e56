// Peaks matched per contender — a protein's rank, a taxon's node — counted in flat arrays: a peak list's candidates
// name hundreds of thousands of proteins, too many for a Map entry each, and too few of the dataset's for an array
// over all its ranks.

/** Distinct peaks per key, the peaks given in ascending order (a peak counts once per key however often it comes). */
export class PeakTally {
  /** Open addressing: keys[slot] is -1 when the slot is free. */
  private keys: Int32Array;
  private lastPeak: Int32Array;
  private counts: Int32Array;
  /** The keys in the order first counted, and how many. */
  private order: Int32Array;
  size = 0;

  /** `expected`: about how many keys it will count, so that it is made as large at once rather than grown to it. */
  constructor(expected = 0) {
    let slots = 1024;
    while (slots < 2 * expected) slots *= 2;
    this.keys = new Int32Array(slots).fill(-1);
    this.lastPeak = new Int32Array(slots);
    this.counts = new Int32Array(slots);
    this.order = new Int32Array(slots);
  }

  /** Counts `peak` for `key` (both ≥ 0); whether it was not counted for it yet. */
  add(key: number, peak: number): boolean {
    const slot = this.slotOf(key);
    if (this.keys[slot] === -1) {
      this.keys[slot] = key;
      this.lastPeak[slot] = peak;
      this.counts[slot] = 1;
      this.order[this.size++] = key;
      if (2 * this.size > this.keys.length) this.grow();
      return true;
    }
    if (this.lastPeak[slot] === peak) return false;
    this.lastPeak[slot] = peak;
    this.counts[slot]++;
    return true;
  }

  /** Peaks counted for `key` (0 when none). */
  matched(key: number): number {
    const slot = this.slotOf(key);
    return this.keys[slot] === -1 ? 0 : this.counts[slot];
  }

  /** The keys counted, in the order first counted. */
  counted(): Int32Array {
    return this.order.subarray(0, this.size);
  }

  /** The slot holding `key`, or the free slot where it goes. */
  private slotOf(key: number): number {
    const mask = this.keys.length - 1;
    let slot = Math.imul(key, 0x9e3779b1) & mask;
    while (this.keys[slot] !== -1 && this.keys[slot] !== key) slot = (slot + 1) & mask;
    return slot;
  }

  private grow(): void {
    const [keys, lastPeak, counts] = [this.keys, this.lastPeak, this.counts];
    this.keys = new Int32Array(2 * keys.length).fill(-1);
    this.lastPeak = new Int32Array(2 * keys.length);
    this.counts = new Int32Array(2 * keys.length);
    const order = new Int32Array(2 * keys.length);
    order.set(this.order);
    this.order = order;
    for (let s = 0; s < keys.length; s++) {
      if (keys[s] === -1) continue;
      const slot = this.slotOf(keys[s]);
      this.keys[slot] = keys[s];
      this.lastPeak[slot] = lastPeak[s];
      this.counts[slot] = counts[s];
    }
  }
}

/** What IntMap.get gives for a key it does not hold. */
export const MISSING = -2;

/** A map of integers ≥ 0 to integers ≥ -1, in flat arrays (a peak list looks one up per candidate). */
export class IntMap {
  private keys = new Int32Array(1024).fill(-1);
  private values = new Int32Array(1024);
  private size = 0;

  get(key: number): number {
    const slot = this.slotOf(key);
    return this.keys[slot] === -1 ? MISSING : this.values[slot];
  }

  set(key: number, value: number): void {
    const slot = this.slotOf(key);
    if (this.keys[slot] === -1) {
      this.keys[slot] = key;
      if (2 * ++this.size > this.keys.length) {
        this.values[slot] = value;
        return this.grow();
      }
    }
    this.values[slot] = value;
  }

  private slotOf(key: number): number {
    const mask = this.keys.length - 1;
    let slot = Math.imul(key, 0x9e3779b1) & mask;
    while (this.keys[slot] !== -1 && this.keys[slot] !== key) slot = (slot + 1) & mask;
    return slot;
  }

  private grow(): void {
    const [keys, values] = [this.keys, this.values];
    this.keys = new Int32Array(2 * keys.length).fill(-1);
    this.values = new Int32Array(2 * keys.length);
    for (let s = 0; s < keys.length; s++) {
      if (keys[s] === -1) continue;
      const slot = this.slotOf(keys[s]);
      this.keys[slot] = keys[s];
      this.values[slot] = values[s];
    }
  }
}

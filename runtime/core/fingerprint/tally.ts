// Peaks matched per contender — a protein's rank, a taxon's node — counted in flat arrays: a peak list's candidates
// name hundreds of thousands of proteins, too many for a Map entry each, and too few of the dataset's for an array
// over all its ranks. And integer lookups: hashed (IntMap), or an array over a known bound (DenseMap) for what is
// kept between lists of one dataset.

/** Distinct peaks per key, the peaks given in ascending order (a peak counts once per key however often it comes). */
export class PeakTally {
  /**
   * Open addressing, a slot's key, last peak and place in `order` side by side (one cache line for the three: the
   * tally is larger than the caches, and each find's ranks land anywhere in it); a free slot's key is -1.
   */
  private slots: Int32Array;
  /** The keys in the order first counted, how many peaks each, and how many keys. */
  private order: Int32Array;
  private counts: Int32Array;
  size = 0;

  /** `expected`: about how many keys it will count, so that it is made as large at once rather than grown to it. */
  constructor(expected = 0) {
    let slots = 1024;
    while (slots < 2 * expected) slots *= 2;
    this.slots = new Int32Array(3 * slots).fill(-1);
    this.order = new Int32Array(slots);
    this.counts = new Int32Array(slots);
  }

  /** Counts `peak` for `key` (both ≥ 0); whether it was not counted for it yet. */
  add(key: number, peak: number): boolean {
    const at = this.slotOf(key);
    const slots = this.slots;
    if (slots[at] === -1) {
      slots[at] = key;
      slots[at + 1] = peak;
      slots[at + 2] = this.size;
      this.order[this.size] = key;
      this.counts[this.size++] = 1;
      if (2 * this.size > this.order.length) this.grow();
      return true;
    }
    if (slots[at + 1] === peak) return false;
    slots[at + 1] = peak;
    this.counts[slots[at + 2]]++;
    return true;
  }

  /** Peaks counted for `key` (0 when none). */
  matched(key: number): number {
    const at = this.slotOf(key);
    return this.slots[at] === -1 ? 0 : this.counts[this.slots[at + 2]];
  }

  /** The keys counted, in the order first counted. */
  counted(): Int32Array {
    return this.order.subarray(0, this.size);
  }

  /** The peaks counted for each key of counted(), in its order. */
  matches(): Int32Array {
    return this.counts.subarray(0, this.size);
  }

  /** Where the slot holding `key` starts, or the free slot where it goes. */
  private slotOf(key: number): number {
    const slots = this.slots;
    const mask = this.order.length - 1;
    let slot = Math.imul(key, 0x9e3779b1) & mask;
    while (slots[3 * slot] !== -1 && slots[3 * slot] !== key) slot = (slot + 1) & mask;
    return 3 * slot;
  }

  private grow(): void {
    const old = this.slots;
    this.slots = new Int32Array(2 * old.length).fill(-1);
    for (const name of ['order', 'counts'] as const) {
      const grown = new Int32Array(2 * this[name].length);
      grown.set(this[name]);
      this[name] = grown;
    }
    for (let s = 0; s < old.length; s += 3) {
      if (old[s] === -1) continue;
      const at = this.slotOf(old[s]);
      this.slots[at] = old[s];
      this.slots[at + 1] = old[s + 1];
      this.slots[at + 2] = old[s + 2];
    }
  }
}

/** What IntMap.get gives for a key it does not hold. */
export const MISSING = -2;

/** Integers ≥ 0 mapped to integers ≥ -1: IntMap, or DenseMap over keys below a known bound. */
export interface IntLookup {
  readonly size: number;
  get(key: number): number;
  set(key: number, value: number): void;
}

/** An IntLookup over keys 0 .. keys − 1 as one array (for a bound small enough to hold whole). */
export class DenseMap implements IntLookup {
  private readonly values: Int32Array;
  size = 0;

  constructor(keys: number) {
    this.values = new Int32Array(keys).fill(MISSING);
  }

  get(key: number): number {
    return this.values[key];
  }

  set(key: number, value: number): void {
    if (this.values[key] === MISSING) this.size++;
    this.values[key] = value;
  }
}

/** A map of integers ≥ 0 to integers ≥ -1 in one flat array, each key beside its value (a peak list looks one up per candidate). */
export class IntMap implements IntLookup {
  /** Key, value, key, value, ...; a free slot's key is -1. */
  private slots = new Int32Array(2 * 1024).fill(-1);
  /** Keys held. */
  size = 0;

  get(key: number): number {
    const at = this.slotOf(key);
    return this.slots[at] === -1 ? MISSING : this.slots[at + 1];
  }

  set(key: number, value: number): void {
    const at = this.slotOf(key);
    if (this.slots[at] === -1) {
      this.slots[at] = key;
      if (4 * ++this.size > this.slots.length) {
        this.slots[at + 1] = value;
        return this.grow();
      }
    }
    this.slots[at + 1] = value;
  }

  private slotOf(key: number): number {
    const slots = this.slots;
    const mask = (slots.length >> 1) - 1;
    let slot = Math.imul(key, 0x9e3779b1) & mask;
    while (slots[2 * slot] !== -1 && slots[2 * slot] !== key) slot = (slot + 1) & mask;
    return 2 * slot;
  }

  private grow(): void {
    const old = this.slots;
    this.slots = new Int32Array(2 * old.length).fill(-1);
    for (let s = 0; s < old.length; s += 2) {
      if (old[s] === -1) continue;
      const at = this.slotOf(old[s]);
      this.slots[at] = old[s];
      this.slots[at + 1] = old[s + 1];
    }
  }
}

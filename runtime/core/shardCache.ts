// Decoded files kept in memory — shards, and the protein table's pages — as an LRU bounded by bytes, with values
// derived from a shard (such as its entries as ready JSON) memoized beside it and charged to the same budget.
import type { Shard } from '../model/format.js';

/** A value derived from a shard and the memory it holds. */
export interface Derived<T> {
  value: T;
  bytes: number;
}

interface Slot {
  /** The decoded file: a Shard, or another decoded file of the dataset. */
  shard: object;
  /** Bytes charged: the decoded shard's estimate plus its derived values. */
  cost: number;
  /** Times the shard was taken from the cache after it was put there. */
  hits: number;
  derived: Map<string, unknown>;
}

export class ShardCache {
  private slots = new Map<string, Slot>();
  /** The file of each shard object still cached. */
  private fileOf = new WeakMap<object, string>();
  private used = 0;

  constructor(private budget: number) {}

  /** Shards cached now and the bytes charged for them (with what is derived from them). */
  get stats(): { shards: number; bytes: number; budget: number } {
    return { shards: this.slots.size, bytes: this.used, budget: this.budget };
  }

  /** The cached decoded file `file` (a Shard unless said otherwise), now the most recently used; undefined when it is not cached. */
  get<T extends object = Shard>(file: string): T | undefined {
    const slot = this.slots.get(file);
    if (!slot) return undefined;
    slot.hits++;
    this.slots.delete(file);
    this.slots.set(file, slot);
    return slot.shard as T;
  }

  put(file: string, shard: object, cost: number): void {
    const replaced = this.slots.get(file);
    if (replaced) this.used -= replaced.cost;
    this.slots.delete(file);
    this.slots.set(file, { shard, cost, hits: 0, derived: new Map() });
    this.fileOf.set(shard, file);
    this.used += cost;
    this.evict(file);
  }

  /**
   * `build(shard)` memoized under `key` while the shard stays cached — built only once the shard has been
   * asked for again after it was loaded, and only while it fits without evicting (under a cache that keeps
   * evicting, building it would cost more than it saves). Otherwise undefined: the caller works without it.
   */
  derive<T>(shard: Shard, key: string, build: (shard: Shard) => Derived<T>): T | undefined {
    const file = this.fileOf.get(shard);
    const slot = file === undefined ? undefined : this.slots.get(file);
    if (!slot || slot.shard !== shard) return undefined;
    if (slot.derived.has(key)) return slot.derived.get(key) as T;
    if (slot.hits === 0 || this.used + slot.cost > this.budget) return undefined;
    const { value, bytes } = build(shard);
    slot.derived.set(key, value);
    slot.cost += bytes;
    this.used += bytes;
    this.evict(file!);
    return value;
  }

  /** Drops least recently used shards until the cache fits its budget; never `keep`. */
  private evict(keep: string): void {
    for (const [oldest, { cost }] of this.slots) {
      if (this.used <= this.budget) break;
      if (oldest === keep) continue;
      this.slots.delete(oldest);
      this.used -= cost;
    }
  }
}

// Decoded files kept in memory — shards, index and table pages — bounded by bytes, with values derived from a shard
// (such as its entries as ready JSON) memoized beside it and charged to the same budget. A W-TinyLFU cache (Einziger,
// Friedman & Manes, ACM ToS 2017): a file just read enters a small recent window (LRU); leaving it, it joins the main
// part (LRU) only if it has been asked for more often than every file it would push out. Plain LRU keeps nothing
// under a stream of queries wider than the budget that comes round again (each file is evicted just before its
// reuse); this keeps the files asked for most and serves those from memory.
import type { Shard } from '../../model/format.js';
import { fileHash, FrequencySketch } from './frequencySketch.js';

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
  /** The file name's hash, as the frequency sketch counts it. */
  hash: number;
  /** Bytes of `derived`, part of `cost`. */
  derivedBytes: number;
}

/**
 * The recent window's share of the budget (W-TinyLFU's 1 %): room for a query's files between its two reads of them.
 */
const WINDOW_SHARE = 0.01;
/**
 * Decoded bytes of a typical file, to size the frequency sketch for a budget (a shard decodes to ~40 KB, index pages to
 * less).
 */
const TYPICAL_FILE_BYTES = 16 * 1024;

export class ShardCache {
  /** Files read lately, least recently used first; the file put last always stays, even alone over budget. */
  private recent = new Map<string, Slot>();
  /** Files admitted from the window, least recently used first. */
  private main = new Map<string, Slot>();
  /** The file of each shard object still cached. */
  private fileOf = new WeakMap<object, string>();
  /** Requests per file lately: sized for the budget's worth of typical files, grown if the cache holds more. */
  private frequency: FrequencySketch;
  private used = 0;
  private recentBytes = 0;
  /** Bytes of the main part's derived values (part of `used`). */
  private mainDerivedBytes = 0;
  /** Files put so far; until `quietFrom` of them, the cache is under pressure (see derive). */
  private puts = 0;
  private quietFrom = 0;
  private windowBytes: number;
  /** The file `get` found last, while it is still the most recently used of its part (nothing put or moved since). */
  private lastFound?: string;

  constructor(private budget: number) {
    this.windowBytes = budget * WINDOW_SHARE;
    this.frequency = new FrequencySketch(budget / TYPICAL_FILE_BYTES);
  }

  /** Files cached now and the bytes charged for them (with what is derived from them). */
  get stats(): { shards: number; bytes: number; budget: number } {
    return { shards: this.recent.size + this.main.size, bytes: this.used, budget: this.budget };
  }

  /**
   * The cached decoded file `file` (a Shard unless said otherwise), now the most recently used of its part; undefined
   * when it is not cached. Counts the request either way.
   */
  get<T extends object = Shard>(file: string): T | undefined {
    let part = this.main;
    let slot = part.get(file);
    if (!slot) slot = (part = this.recent).get(file);
    this.frequency.increment(slot ? slot.hash : fileHash(file));
    if (!slot) return undefined;
    slot.hits++;
    if (file !== this.lastFound) {
      part.delete(file);
      part.set(file, slot);
      this.lastFound = file; // a query reads its shards up to three times in a row: they need not move again
    }
    return slot.shard as T;
  }

  /**
   * Caches `shard` as file `file`, charged `cost` bytes, in the recent window; what leaves the window then is admitted
   * or dropped.
   */
  put(file: string, shard: object, cost: number): void {
    this.drop(file);
    this.recent.set(file, { shard, cost, hits: 0, derived: new Map(), hash: fileHash(file), derivedBytes: 0 });
    this.fileOf.set(shard, file);
    this.used += cost;
    this.recentBytes += cost;
    this.puts++;
    this.settle(file);
    this.frequency.fit(this.recent.size + this.main.size);
  }

  /**
   * `build(shard)` memoized under `key` while the shard stays cached — built only once the shard has been
   * asked for again after it was loaded, only while it fits without evicting, and only when the cache has taken in
   * as many files as it held when it last had to drop anything (under a cache that keeps dropping, a derived value
   * would soon be released again: building it would cost more than it saves). Otherwise undefined: the caller works
   * without it.
   */
  derive<T>(shard: Shard, key: string, build: (shard: Shard) => Derived<T>): T | undefined {
    const file = this.fileOf.get(shard);
    if (file === undefined) return undefined;
    const inRecent = this.recent.get(file)?.shard === shard;
    const slot = (inRecent ? this.recent : this.main).get(file);
    if (!slot || slot.shard !== shard) return undefined;
    if (slot.derived.has(key)) return slot.derived.get(key) as T;
    if (slot.hits === 0 || this.used + slot.cost > this.budget || this.underPressure) return undefined;
    const { value, bytes } = build(shard);
    slot.derived.set(key, value);
    slot.cost += bytes;
    slot.derivedBytes += bytes;
    this.used += bytes;
    if (inRecent) this.recentBytes += bytes;
    else this.mainDerivedBytes += bytes;
    this.settle(file);
    return value;
  }

  /** Whether the cache has had to drop anything within as many puts as it held files then. */
  private get underPressure(): boolean {
    return this.puts < this.quietFrom;
  }

  /** Notes that the cache had to drop something — `file`, dropped now, a file not admitted, or a derived value. */
  private dropped(file?: string): void {
    this.quietFrom = this.puts + this.recent.size + this.main.size;
    if (file !== undefined) this.drop(file);
  }

  /** Removes `file` if cached, releasing its bytes. */
  private drop(file: string): void {
    const inRecent = this.recent.get(file);
    const slot = inRecent ?? this.main.get(file);
    if (!slot) return;
    (inRecent ? this.recent : this.main).delete(file);
    this.used -= slot.cost;
    if (inRecent) this.recentBytes -= slot.cost;
    else this.mainDerivedBytes -= slot.derivedBytes;
  }

  /**
   * Brings the cache back within its budget, never dropping `keep`: files past the window's share leave it, oldest
   * first, for the main part (on admission); then, while over budget, derived values go, then the main part's least
   * recently used files.
   */
  private settle(keep: string): void {
    this.lastFound = undefined; // files move or leave below (every drop happens within a put, hence a settle)
    for (const [file, slot] of this.recent) {
      if (this.recentBytes <= this.windowBytes || file === keep) break;
      this.recent.delete(file);
      this.recentBytes -= slot.cost;
      this.used -= slot.cost;
      this.admit(file, slot);
    }
    this.releaseDerived(this.used - this.budget, keep);
    for (const file of this.main.keys()) {
      if (this.used <= this.budget) break;
      if (file !== keep) this.dropped(file);
    }
  }

  /**
   * Puts a file leaving the window in the main part when it fits, or when it is asked for more often than each file it
   * would push out.
   */
  private admit(file: string, slot: Slot): void {
    let over = this.used + slot.cost - this.budget;
    if (over > 0) over -= this.releaseDerived(over);
    const victims: string[] = [];
    if (over > 0) {
      const wanted = this.frequency.frequency(slot.hash);
      for (const [victim, { cost, hash }] of this.main) {
        if (over <= 0) break;
        if (this.frequency.frequency(hash) >= wanted) return this.dropped(); // not admitted: the cache keeps what is asked for more
        victims.push(victim);
        over -= cost;
      }
      if (over > 0) return this.dropped(); // the window alone fills the budget
    }
    for (const victim of victims) this.dropped(victim);
    this.main.set(file, slot);
    this.used += slot.cost;
    this.mainDerivedBytes += slot.derivedBytes;
  }

  /**
   * Frees up to `bytes` (at least, when there is that much) by dropping the main part's derived values, least recently
   * used first, never `keep`'s: under pressure a decoded file is worth more than a faster answer from one. Returns the
   * bytes freed.
   */
  private releaseDerived(bytes: number, keep?: string): number {
    let freed = 0;
    for (const [file, slot] of this.main) {
      if (freed >= bytes || this.mainDerivedBytes === 0) break;
      if (slot.derivedBytes === 0 || file === keep) continue;
      this.dropped();
      freed += slot.derivedBytes;
      this.used -= slot.derivedBytes;
      this.mainDerivedBytes -= slot.derivedBytes;
      slot.cost -= slot.derivedBytes;
      slot.derivedBytes = 0;
      slot.derived.clear();
    }
    return freed;
  }
}

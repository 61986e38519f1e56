// Tests runtime/core/shardCache.ts: a byte-bounded W-TinyLFU cache — what fits is kept, the file just put is never
// dropped, a full cache admits a file only when it is asked for more often than what it would push out (so a stream
// wider than the budget that comes round again keeps hitting a stable part, where LRU would hit nothing, and one-off
// reads cannot flush the files asked for often), a new working set takes over once asked for more; `derive` built
// only after a second use and only while it fits, memoized, charged to (and released with) its shard, released
// first under pressure and not built again until the pressure has passed; and `stats`.
import { describe, expect, it } from 'vitest';
import { ShardCache } from '../../../../runtime/core/storage/shardCache.js';
import type { Shard } from '../../../../runtime/model/format.js';

/** A distinct shard object (the cache only keeps and compares them). */
const shard = (): Shard => ({ massKeys: new Uint32Array(0) }) as unknown as Shard;

/** Which of `files` the cache holds, without touching recency more than `get` would for all of them. */
const held = (cache: ShardCache, files: string[]) => files.filter((f) => cache.get(f) !== undefined);

/** Reads `file` as the dataset does: from the cache, else loaded and put (charged `cost`). Whether it was a hit. */
const read = (cache: ShardCache, file: string, cost: number): boolean => {
  if (cache.get(file) !== undefined) return true;
  cache.put(file, shard(), cost);
  return false;
};

/** Hits of reading `files` in order, `passes` times, the last pass counted. */
function lastPassHits(cache: ShardCache, files: string[], cost: number, passes: number): number {
  let hits = 0;
  for (let pass = 0; pass < passes; pass++) {
    hits = 0;
    for (const f of files) if (read(cache, f, cost)) hits++;
  }
  return hits;
}

/**
 * LRU by bytes, from its definition (the cache's former policy), to compare hits with: the file read last always stays.
 */
class ReferenceLru {
  private files = new Map<string, number>();
  private used = 0;
  constructor(private budget: number) {}
  read(file: string, cost: number): boolean {
    const hit = this.files.delete(file);
    if (!hit) this.used += cost;
    this.files.set(file, cost);
    for (const [oldest, bytes] of this.files) {
      if (this.used <= this.budget || oldest === file) break;
      this.files.delete(oldest);
      this.used -= bytes;
    }
    return hit;
  }
}

const names = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

/** A decoded file's size as the cache is sized for (runtime/core/shardCache.ts: 16 KB; a shard is ~40 KB). */
const KB16 = 16 * 1024;

describe('ShardCache: bounded by bytes', () => {
  it('holds what fits and reports it in stats', () => {
    const cache = new ShardCache(100);
    expect(cache.stats).toEqual({ shards: 0, bytes: 0, budget: 100 });
    const a = shard();
    cache.put('a', a, 40);
    cache.put('b', shard(), 60);
    expect(cache.stats).toEqual({ shards: 2, bytes: 100, budget: 100 });
    expect(cache.get('a')).toBe(a);
    expect(cache.get('missing')).toBeUndefined();
  });

  it('stays within its budget over a long random stream, its stats count what it holds, and it hits more than LRU', () => {
    const budget = 40 * KB16;
    const cache = new ShardCache(budget);
    const lru = new ReferenceLru(budget);
    let state = 1;
    const next = (n: number) => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) >>> 16) % n;
    const costOf = (i: number) => KB16 / 4 + ((i * 37) % 8) * (KB16 / 4); // 4 to 32 KB
    const hits = { ours: 0, lru: 0, oursPopular: 0, lruPopular: 0 };
    for (let n = 0; n < 20_000; n++) {
      const popular = next(8) === 0;
      const i = popular ? next(10) : next(300); // ten files asked for far more often
      const [ours, theirs] = [read(cache, `f${i}`, costOf(i)), lru.read(`f${i}`, costOf(i))];
      hits.ours += +ours;
      hits.lru += +theirs;
      if (popular) [hits.oursPopular, hits.lruPopular] = [hits.oursPopular + +ours, hits.lruPopular + +theirs];
      expect(cache.stats.bytes).toBeLessThanOrEqual(budget);
    }
    const held = names('f', 300).filter((f) => cache.get(f) !== undefined);
    expect(cache.stats.shards).toBe(held.length);
    expect(cache.stats.bytes).toBe(held.reduce((sum, f) => sum + costOf(Number(f.slice(1))), 0));
    expect(hits.ours).toBeGreaterThan(hits.lru * 1.1);
    expect(hits.oursPopular).toBeGreaterThan(hits.lruPopular * 1.3);
  });

  it('a stream wider than the budget, read round and round, keeps hitting a stable part (LRU hits nothing)', () => {
    const files = names('s', 100);
    const cache = new ShardCache(50 * KB16); // room for 50 of the 100 files
    const hits = lastPassHits(cache, files, KB16, 5);
    expect(hits).toBeGreaterThanOrEqual(45);
    expect(hits).toBeLessThanOrEqual(50);
    const lru = new ReferenceLru(50 * KB16);
    for (let pass = 0; pass < 5; pass++) expect(files.filter((f) => lru.read(f, KB16))).toEqual([]);
  });

  it('one-off reads do not flush the files asked for often', () => {
    const cache = new ShardCache(50 * KB16);
    const hot = names('hot', 20);
    lastPassHits(cache, hot, KB16, 5);
    for (const f of names('once', 500)) read(cache, f, KB16); // 25 times as many as the hot files, within one sample of the counts
    expect(hot.filter((f) => cache.get(f) !== undefined)).toEqual(hot);
  });

  it('a new working set takes over once it is asked for more often than the old (counts fade)', () => {
    const cache = new ShardCache(50 * KB16);
    const old = names('old', 40);
    const next = names('new', 40);
    lastPassHits(cache, old, KB16, 10);
    expect(lastPassHits(cache, next, KB16, 200)).toBe(40);
    expect(old.filter((f) => cache.get(f) !== undefined).length).toBeLessThanOrEqual(10);
  });

  it('never evicts the entry just put, even when it alone exceeds the budget', () => {
    const cache = new ShardCache(100);
    cache.put('a', shard(), 40);
    const big = shard();
    cache.put('big', big, 150);
    expect(cache.stats).toEqual({ shards: 1, bytes: 150, budget: 100 });
    expect(cache.get('big')).toBe(big);
    cache.put('small', shard(), 10); // now big leaves the window and does not fit
    expect(cache.stats).toEqual({ shards: 1, bytes: 10, budget: 100 });
    expect(held(cache, ['big', 'small'])).toEqual(['small']);
  });

  it('the main part pushes out its least recently used file: read again after a file was admitted behind it, a file moves behind that one', () => {
    const cache = new ShardCache(300); // three files of 100: a window of the file put last, two in the main part
    const get = (file: string, times = 1) => {
      for (let i = 0; i < times; i++) expect(cache.get(file), file).toBeDefined();
    };
    for (const f of ['a', 'b', 'c']) cache.put(f, shard(), 100); // main: a, b; window: c
    get('c', 3);
    get('a'); // main: b, a
    cache.put('d', shard(), 100); // c (asked for 3 times) is admitted in place of b (never asked for): main a, c
    get('a'); // read again right after c was admitted behind it: main c, a
    get('d', 5);
    cache.put('e', shard(), 100); // d (5) pushes out the least recently used: c (3), not a
    expect(held(cache, ['a', 'c', 'd', 'e'])).toEqual(['a', 'd', 'e']);
  });

  it('putting a file again replaces it: its old cost is not charged twice', () => {
    const cache = new ShardCache(1000);
    cache.put('a', shard(), 40);
    cache.put('a', shard(), 40);
    expect(cache.stats).toEqual({ shards: 1, bytes: 40, budget: 1000 });
  });

  it('with a zero budget keeps only the latest shard', () => {
    const cache = new ShardCache(0);
    cache.put('a', shard(), 5);
    cache.put('b', shard(), 5);
    expect(cache.stats).toEqual({ shards: 1, bytes: 5, budget: 0 });
    expect(held(cache, ['a', 'b'])).toEqual(['b']);
  });
});

describe('ShardCache.derive', () => {
  /** A build that counts its calls and charges `bytes`. */
  const counter = (bytes: number) => {
    const calls: Shard[] = [];
    return { calls, build: (s: Shard) => (calls.push(s), { value: `derived ${calls.length}`, bytes }) };
  };

  it('builds nothing for a shard not yet asked for again after it was put', () => {
    const cache = new ShardCache(1000);
    const a = shard();
    cache.put('a', a, 10);
    const { calls, build } = counter(5);
    expect(cache.derive(a, 'json', build)).toBeUndefined();
    expect(calls).toEqual([]);
    expect(cache.stats.bytes).toBe(10);
  });

  it('after a second use, builds once per key, memoizes it and charges its bytes', () => {
    const cache = new ShardCache(1000);
    const a = shard();
    cache.put('a', a, 10);
    cache.get('a');
    const json = counter(5);
    expect(cache.derive(a, 'json', json.build)).toBe('derived 1');
    expect(cache.derive(a, 'json', json.build)).toBe('derived 1');
    expect(json.calls).toEqual([a]);
    expect(cache.stats).toEqual({ shards: 1, bytes: 15, budget: 1000 });
    const tsv = counter(7);
    expect(cache.derive(a, 'tsv', tsv.build)).toBe('derived 1');
    expect(tsv.calls).toEqual([a]);
    expect(cache.stats.bytes).toBe(22);
  });

  it('builds nothing while the shard would not fit again beside what is cached', () => {
    const cache = new ShardCache(100);
    const a = shard();
    cache.put('a', a, 40);
    cache.put('b', shard(), 40);
    cache.get('a');
    const { calls, build } = counter(1);
    expect(cache.derive(a, 'json', build)).toBeUndefined(); // 80 used + 40 > 100
    expect(calls).toEqual([]);
    const c = new ShardCache(120);
    const x = shard();
    c.put('x', x, 40);
    c.put('y', shard(), 40);
    c.get('x');
    expect(c.derive(x, 'json', build)).toBe('derived 1'); // 80 + 40 <= 120
  });

  it('returns undefined for a shard the cache does not hold (never put, evicted, or replaced)', () => {
    const cache = new ShardCache(50);
    const { calls, build } = counter(1);
    expect(cache.derive(shard(), 'json', build)).toBeUndefined();
    const a = shard();
    cache.put('a', a, 30);
    cache.get('a');
    const b1 = shard();
    cache.put('b', b1, 30); // a evicted
    expect(cache.derive(a, 'json', build)).toBeUndefined();
    cache.get('b');
    cache.put('b', shard(), 30); // b's file now holds another object: the old one is not the cached shard
    expect(cache.derive(b1, 'json', build)).toBeUndefined();
    expect(calls).toEqual([]);
  });

  it('charges derived bytes to the shard: they can evict others and leave with it', () => {
    const cache = new ShardCache(100);
    const a = shard();
    const b = shard();
    cache.put('a', a, 20);
    cache.put('b', b, 20);
    cache.get('b');
    expect(cache.derive(b, 'json', counter(70).build)).toBe('derived 1'); // 40 + 20 fits; then 110 → a goes, never b
    expect(cache.stats).toEqual({ shards: 1, bytes: 90, budget: 100 });
    expect(cache.get('b')).toBe(b);
    cache.put('c', shard(), 20); // 110 → b goes with its 90 bytes
    expect(cache.stats).toEqual({ shards: 1, bytes: 20, budget: 100 });
  });

  it('under pressure, derived values go before any file: the shard stays, its value is built again only with room', () => {
    const cache = new ShardCache(100);
    const a = shard();
    cache.put('a', a, 20);
    cache.put('b', shard(), 20); // a leaves the recent window for the main part
    cache.get('a');
    expect(cache.derive(a, 'json', counter(30).build)).toBe('derived 1');
    expect(cache.stats.bytes).toBe(70);
    cache.put('c', shard(), 30);
    cache.put('d', shard(), 30); // c leaving the window needs 30: a's derived value goes, no file does
    expect(cache.stats).toEqual({ shards: 4, bytes: 100, budget: 100 });
    expect(held(cache, ['a', 'b', 'c', 'd'])).toEqual(['a', 'b', 'c', 'd']);
    const again = counter(30);
    expect(cache.derive(a, 'json', again.build)).toBeUndefined(); // no longer memoized, and no room to build it
    expect(again.calls).toEqual([]);
  });

  it('builds nothing for a while after the cache had to drop something: as many puts as it held files then', () => {
    const cache = new ShardCache(100);
    const a = shard();
    cache.put('a', a, 10);
    cache.put('b', shard(), 80); // a in the main part
    cache.get('a');
    cache.put('c', shard(), 20); // b leaves the window and is not admitted (a is asked for more): dropped, a and c held
    expect(cache.stats).toEqual({ shards: 2, bytes: 30, budget: 100 });
    const { calls, build } = counter(5);
    expect(cache.derive(a, 'json', build)).toBeUndefined(); // room enough, but the cache is under pressure
    cache.put('y', shard(), 1);
    expect(cache.derive(a, 'json', build)).toBeUndefined();
    cache.put('z', shard(), 1); // two puts without dropping anything
    expect(cache.derive(a, 'json', build)).toBe('derived 1');
    expect(calls).toEqual([a]);
  });
});

// Tests runtime/core/shardCache.ts: an LRU bounded by bytes — eviction order, the entry just put never evicted,
// `get` refreshing recency, `derive` built only after a second use and only while it fits, memoized, its bytes
// charged to (and released with) its shard, and `stats`.
import { describe, expect, it } from 'vitest';
import { ShardCache } from '../../../runtime/core/shardCache.js';
import type { Shard } from '../../../runtime/model/format.js';

/** A distinct shard object (the cache only keeps and compares them). */
const shard = (): Shard => ({ massKeys: new Uint32Array(0) }) as unknown as Shard;

/** Which of `files` the cache holds, without touching recency more than `get` would for all of them. */
const held = (cache: ShardCache, files: string[]) => files.filter((f) => cache.get(f) !== undefined);

describe('ShardCache: LRU by bytes', () => {
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

  it('evicts least recently put first, as many as needed', () => {
    const cache = new ShardCache(100);
    cache.put('a', shard(), 30);
    cache.put('b', shard(), 30);
    cache.put('c', shard(), 30);
    cache.put('d', shard(), 30); // 120: a goes
    expect(cache.stats).toEqual({ shards: 3, bytes: 90, budget: 100 });
    cache.put('e', shard(), 70); // 160: b and c go
    expect(cache.stats).toEqual({ shards: 2, bytes: 100, budget: 100 });
    expect(held(cache, ['a', 'b', 'c', 'd', 'e'])).toEqual(['d', 'e']);
  });

  it('get refreshes recency: the shard just read outlives older puts', () => {
    const cache = new ShardCache(100);
    cache.put('a', shard(), 40);
    cache.put('b', shard(), 40);
    expect(cache.get('a')).toBeDefined();
    cache.put('c', shard(), 40); // b is now the least recently used
    expect(cache.stats.bytes).toBe(80);
    expect(held(cache, ['a', 'b', 'c'])).toEqual(['a', 'c']);
  });

  it('never evicts the entry just put, even when it alone exceeds the budget', () => {
    const cache = new ShardCache(100);
    cache.put('a', shard(), 40);
    const big = shard();
    cache.put('big', big, 150);
    expect(cache.stats).toEqual({ shards: 1, bytes: 150, budget: 100 });
    expect(cache.get('big')).toBe(big);
    cache.put('small', shard(), 10); // now big is the oldest and goes
    expect(cache.stats).toEqual({ shards: 1, bytes: 10, budget: 100 });
    expect(held(cache, ['big', 'small'])).toEqual(['small']);
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

  it("charges derived bytes to the shard: they can evict others and leave with it", () => {
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
});

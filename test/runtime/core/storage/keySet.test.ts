// Tests runtime/core/keySet.ts against a brute-force reference (a Set of the keys, sorted): for random windows
// (at word edges, one key wide, empty, millions of keys) and random keys added in any order, with repeats, the
// count and every page of every size equal the reference's — keys at bit 31 and the window's ends included.
import { describe, expect, it } from 'vitest';
import { KeySet } from '../../../../runtime/core/storage/keySet.js';
import { prng } from '../../../helpers/prng.js';

/** The reference: distinct keys, ascending. */
const sortedDistinct = (keys: number[]) => [...new Set(keys)].sort((a, b) => a - b);

describe('KeySet', () => {
  it('counts and pages like a sorted set of distinct keys, for random windows and keys', () => {
    const random = prng(12);
    for (let round = 0; round < 400; round++) {
      const low = Math.floor(random() * 1e8);
      const span = [1, 31, 32, 33, 64, 65, 1000, 5000][round % 8] + (round % 3 === 0 ? Math.floor(random() * 200) : 0);
      const high = low + span - 1;
      const dense = random() < 0.5;
      const keys = Array.from(
        { length: Math.floor(random() * (dense ? 3 * span : 40)) },
        () => low + Math.floor(random() * span),
      );
      if (random() < 0.3) keys.push(low, high, low + Math.min(31, span - 1)); // the ends and bit 31 of the first word
      const set = new KeySet(low, high);
      for (const key of keys) set.add(key);
      const reference = sortedDistinct(keys);
      expect(set.size).toBe(reference.length);
      for (const pageSize of [1, 3, 32, 100]) {
        for (let from = 0; from <= reference.length + pageSize; from += pageSize)
          expect(set.slice(from, pageSize)).toEqual(reference.slice(from, from + pageSize));
      }
    }
  });

  it('holds nothing for an empty window (high below low), and a window of millions of keys', () => {
    const empty = new KeySet(10, 9);
    expect([empty.size, empty.slice(0, 5)]).toEqual([0, []]);
    const wide = new KeySet(0, 3_000_000);
    const keys = [3_000_000, 0, 2_999_999, 1_234_567, 31, 32, 1_234_567];
    for (const key of keys) wide.add(key);
    expect([wide.size, wide.slice(0, 10), wide.slice(2, 2)]).toEqual([
      6,
      sortedDistinct(keys),
      sortedDistinct(keys).slice(2, 4),
    ]);
  });
});

// Tests runtime/core/fingerprint/tally.ts against JavaScript's Map: PeakTally's keys in the order first counted, the
// distinct peaks of each, and whether an add counted; IntMap and DenseMap holding what a Map holds, through growth.
import { describe, expect, it } from 'vitest';
import { DenseMap, IntMap, MISSING, PeakTally } from '../../../../runtime/core/fingerprint/tally.js';
import { prng } from '../../../helpers/prng.js';

describe('PeakTally', () => {
  it('counts each key’s distinct peaks, in the order keys first came, through growth', () => {
    const random = prng(3301);
    for (const [keys, expected] of [
      [50, 0],
      [5000, 0],
      [5000, 5000],
      [200_000, 10],
    ]) {
      const tally = new PeakTally(expected);
      const peaksOf = new Map<number, Set<number>>();
      let wrong = 0;
      for (let peak = 0; peak < 40; peak++)
        for (let n = 0; n < keys / 8; n++) {
          const key = Math.floor(random() * keys);
          const seen = peaksOf.get(key) ?? new Set<number>();
          if (tally.add(key, peak) !== !seen.has(peak)) wrong++;
          peaksOf.set(key, seen.add(peak));
        }
      expect(wrong).toBe(0);
      expect(Array.from(tally.counted())).toEqual([...peaksOf.keys()]);
      expect(Array.from(tally.matches())).toEqual([...peaksOf.values()].map((s) => s.size));
      for (const [key, peaks] of peaksOf) if (tally.matched(key) !== peaks.size) wrong++;
      expect(wrong).toBe(0);
      expect(tally.matched(keys + 1)).toBe(0);
    }
  });
});

describe('IntMap and DenseMap', () => {
  it('hold what a Map holds, MISSING for keys never set', () => {
    const random = prng(3302);
    const bound = 100_000;
    const [hashed, dense, reference] = [new IntMap(), new DenseMap(bound), new Map<number, number>()];
    for (let n = 0; n < 60_000; n++) {
      const key = Math.floor(random() * bound);
      const value = Math.floor(random() * 1000) - 1;
      hashed.set(key, value);
      dense.set(key, value);
      reference.set(key, value);
    }
    expect(hashed.size).toBe(reference.size);
    expect(dense.size).toBe(reference.size);
    for (let key = 0; key < bound; key++) {
      const want = reference.get(key) ?? MISSING;
      if (hashed.get(key) !== want || dense.get(key) !== want)
        expect([key, hashed.get(key), dense.get(key)]).toBe(want);
    }
  });
});

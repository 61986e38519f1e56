// Tests runtime/model/editDistance.ts: known distances (case ignored, a swap of neighbours one edit), symmetry and
// the plain Levenshtein distance as an upper bound on random names, and which known name a typo is taken for.
import { describe, expect, it } from 'vitest';
import { editDistance, nearestName, typoLimit } from '../../../runtime/model/editDistance.js';
import { levenshtein } from '../../helpers/levenshtein.js';
import { prng } from '../../helpers/prng.js';

describe('editDistance', () => {
  it('counts insertions, deletions, substitutions and swaps of neighbours, case ignored', () => {
    const cases: [string, string, number][] = [
      ['pagesize', 'pageSize', 0],
      ['page_size', 'pageSize', 1],
      ['mss1', 'mass1', 1],
      ['toelrance', 'tolerance', 1],
      ['kitten', 'sitting', 3],
      ['', 'abc', 3],
      ['ppm', 'tolerance', 9],
    ];
    for (const [a, b, d] of cases) expect(editDistance(a, b), `${a} ${b}`).toBe(d);
  });

  it('is symmetric and at most the Levenshtein distance, which a swap can exceed by one per swap', () => {
    const random = prng(11);
    const word = () =>
      Array.from({ length: Math.floor(random() * 8) }, () => 'abcAB'[Math.floor(random() * 5)]).join('');
    for (let i = 0; i < 2000; i++) {
      const [a, b] = [word(), word()];
      expect(editDistance(a, b)).toBe(editDistance(b, a));
      expect(editDistance(a, b)).toBeLessThanOrEqual(levenshtein(a, b));
      expect(editDistance(a, b)).toBeGreaterThanOrEqual(Math.abs(a.length - b.length));
    }
  });
});

describe('nearestName', () => {
  it('takes a name for the nearest known one within what its length allows', () => {
    expect([typoLimit('mz'), typoLimit('page'), typoLimit('tolerance')]).toEqual([0, 1, 2]);
    const known = ['input', 'out', 'enzyme', 'missed-cleavages', 'threads'];
    expect(nearestName('ouput', known)).toBeUndefined(); // "out" is too short to guess at
    expect(nearestName('OUT', known)).toBe('out');
    expect(nearestName('inptu', known)).toBe('input');
    expect(nearestName('missed-cleavage', known)).toBe('missed-cleavages');
    expect(nearestName('thread', known)).toBe('threads');
    expect(nearestName('foo', known)).toBeUndefined();
  });
});

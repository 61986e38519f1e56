// Tests runtime/core/fingerprint/chance.ts against brute force: the Poisson binomial tail summed over every outcome
// of up to 12 events, the binomial law when the chances are equal, and a peak's chance against the count of the
// protein's peptide placements that leave its window empty.
import { describe, expect, it } from 'vitest';
import { atLeast, expectOf, peakChance, scoreOf, tailsOf } from '../../../../runtime/core/fingerprint/chance.js';
import { prng } from '../../../helpers/prng.js';

/** P(at least k happen) over all 2^n outcomes. */
function bruteAtLeast(k: number, chances: readonly number[]): number {
  let total = 0;
  for (let outcome = 0; outcome < 1 << chances.length; outcome++) {
    let p = 1;
    let happened = 0;
    chances.forEach((c, i) => {
      const yes = (outcome >> i) & 1;
      happened += yes;
      p *= yes ? c : 1 - c;
    });
    if (happened >= k) total += p;
  }
  return total;
}

const binomial = (n: number, k: number) => {
  let c = 1;
  for (let i = 1; i <= k; i++) c = (c * (n - k + i)) / i;
  return c;
};

describe('atLeast', () => {
  it('equals the sum over every outcome, for random chances and every k', () => {
    const random = prng(41);
    for (let trial = 0; trial < 200; trial++) {
      const chances = Array.from({ length: 1 + Math.floor(random() * 12) }, () =>
        random() < 0.1 ? 0 : random() < 0.1 ? 1 : random() ** 3,
      );
      for (let k = 0; k <= chances.length + 1; k++)
        expect(atLeast(k, chances)).toBeCloseTo(bruteAtLeast(k, chances), 12);
    }
  });

  it('is the binomial tail when every chance is the same', () => {
    for (const [n, p] of [
      [30, 0.01],
      [100, 0.2],
      [8, 0.5],
    ] as const)
      for (const k of [1, 2, n >> 1, n]) {
        let tail = 0;
        for (let j = k; j <= n; j++) tail += binomial(n, j) * p ** j * (1 - p) ** (n - j);
        expect(atLeast(k, new Array(n).fill(p)) / tail).toBeCloseTo(1, 9);
      }
  });

  it('keeps tiny tails: 40 of 40 peaks at 1 % each', () => {
    expect(atLeast(40, new Array(40).fill(0.01)) / 1e-80).toBeCloseTo(1, 9);
  });
});

describe('tailsOf', () => {
  it('gives every tail up to its depth as the sum over every outcome', () => {
    const random = prng(43);
    for (let trial = 0; trial < 200; trial++) {
      const chances = Array.from({ length: Math.floor(random() * 13) }, () =>
        random() < 0.1 ? 0 : random() < 0.1 ? 1 : random() ** 3,
      );
      const most = Math.floor(random() * (chances.length + 1));
      const tails = tailsOf(chances, most);
      expect(tails).toHaveLength(most + 1);
      for (let k = 0; k <= most; k++) expect(tails[k]).toBeCloseTo(bruteAtLeast(k, chances), 12);
    }
  });

  it('keeps each tiny tail to its relative precision: 30 peaks at 0.1 % each', () => {
    const tails = tailsOf(new Array(30).fill(1e-3), 30);
    for (let k = 1; k <= 30; k++) {
      let tail = 0;
      for (let j = k; j <= 30; j++) tail += binomial(30, j) * 1e-3 ** j * (1 - 1e-3) ** (30 - j);
      expect(tails[k] / tail).toBeCloseTo(1, 9);
    }
  });
});

describe('peakChance', () => {
  it('is the chance that not all of m random peptides miss the window', () => {
    // A dataset of 20 peptides, 3 in the window; a protein of 2 drawn at random (with replacement): 1 − (17/20)^2.
    expect(peakChance(3, 20, 2)).toBeCloseTo(1 - (17 / 20) ** 2, 15);
    // Counted: of the 20 × 20 ordered pairs, those with at least one in the window.
    let hit = 0;
    for (let a = 0; a < 20; a++) for (let b = 0; b < 20; b++) if (a < 3 || b < 3) hit++;
    expect(peakChance(3, 20, 2)).toBeCloseTo(hit / 400, 15);
  });

  it('is exact for tiny densities, and 0 or 1 at the ends', () => {
    expect(peakChance(1, 1e12, 50) / (50 / 1e12)).toBeCloseTo(1, 6);
    expect([peakChance(0, 100, 5), peakChance(5, 100, 0), peakChance(100, 100, 1)]).toEqual([0, 0, 1]);
  });
});

describe('scoreOf and expectOf', () => {
  it('are −10 log10 p and p times the candidates tested', () => {
    expect(scoreOf(1e-5)).toBeCloseTo(50, 12);
    expect(scoreOf(1)).toBe(0);
    expect(scoreOf(0)).toBe(3000);
    expect(expectOf(1e-5, 2000)).toBeCloseTo(0.02, 15);
  });
});

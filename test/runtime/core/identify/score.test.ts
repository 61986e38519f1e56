// Tests runtime/core/identify/score.ts against a brute force written from the definitions: on random spectra and
// fragment lists, the top-N peaks (the precursor's left out), each fragment's most intense peak within the tolerance
// (ppm and Da) found by scanning every peak, and the hyperscore from factorials computed by multiplication.
import { describe, expect, it } from 'vitest';
import { fragmentIons, type Fragment } from '../../../../runtime/core/identify/fragments.js';
import {
  hyperscore,
  lnFactorial,
  matchForm,
  matchFragments,
  topPeaks,
  type FragmentTolerance,
} from '../../../../runtime/core/identify/score.js';
import { decoyOf } from '../../../../runtime/core/identify/decoy.js';
import { prng } from '../../../helpers/prng.js';

describe('scoring a candidate', () => {
  it('keeps the top peaks, matches each fragment to the most intense peak in tolerance, and scores as defined', () => {
    const random = prng(48);
    for (let trial = 0; trial < 300; trial++) {
      const n = 1 + Math.floor(random() * 300);
      // Intensities from a few levels: ties are common.
      const mz = Array.from({ length: n }, () => 100 + random() * 1900);
      const intensity = Array.from({ length: n }, () => 1 + Math.floor(random() * 20) * 50);
      const top = Math.floor(random() * 200) + 1;
      const precursor = { mz: 100 + random() * 1900, da: random() * 2 };
      const peaks = topPeaks(mz, intensity, top, precursor);
      // Brute force: the peaks not near the precursor, ranked by intensity then m/z, the first `top`.
      const ranked = mz
        .map((m, i) => ({ m, i: intensity[i] }))
        .filter((p) => Math.abs(p.m - precursor.mz) > precursor.da)
        .sort((a, b) => b.i - a.i || a.m - b.m)
        .slice(0, top)
        .sort((a, b) => a.m - b.m);
      expect([...peaks.mz]).toEqual(ranked.map((p) => p.m));
      expect([...peaks.intensity]).toEqual(ranked.map((p) => p.i));

      const tolerance: FragmentTolerance =
        random() < 0.5 ? { value: 5 + random() * 50, unit: 'ppm' } : { value: random() * 0.6, unit: 'Da' };
      const fragments: Fragment[] = Array.from({ length: 1 + Math.floor(random() * 60) }, (_, k) => ({
        kind: random() < 0.5 ? 'b' : 'y',
        residues: k + 1,
        charge: 1,
        // Near a peak often, anywhere sometimes.
        mz:
          random() < 0.7 && ranked.length
            ? ranked[Math.floor(random() * ranked.length)].m + (random() - 0.5) * 0.02
            : 100 + random() * 1900,
      }));
      const expected = { b: 0, y: 0, summedB: 0, summedY: 0, weightedPpm: 0 };
      for (const f of fragments) {
        const within = ranked.filter(
          (p) => Math.abs(p.m - f.mz) <= (tolerance.unit === 'ppm' ? (f.mz * tolerance.value) / 1e6 : tolerance.value),
        );
        if (within.length === 0) continue;
        const best = within.reduce((a, p) => (p.i > a.i ? p : a)); // the first (lowest m/z) of the most intense
        if (f.kind === 'b') expected.b++, (expected.summedB += best.i);
        else expected.y++, (expected.summedY += best.i);
        expected.weightedPpm += (best.i * Math.abs(best.m - f.mz)) / (f.mz / 1e6);
      }
      const { weightedPpm, ...matched } = matchFragments(peaks, fragments, tolerance);
      const { weightedPpm: expectedPpm, ...counts } = expected;
      expect(matched).toEqual(counts);
      expect(weightedPpm).toBeCloseTo(expectedPpm, 6);
      const factorial = (k: number) => Array.from({ length: k }, (_, i) => i + 1).reduce((a, b) => a * b, 1);
      const score = Math.log(
        (expected.summedB + 1) * (expected.summedY + 1) * factorial(expected.b) * factorial(expected.y),
      );
      expect(hyperscore({ ...matched, weightedPpm })).toBeCloseTo(score, 9);
    }
  });

  it("matches a form's ions without making them exactly as matching its fragment list", () => {
    const random = prng(4504);
    for (let trial = 0; trial < 500; trial++) {
      const sequence = Array.from(
        { length: 5 + Math.floor(random() * 25) },
        () => 'ACDEFGHIKLMNPQRSTVWY'[Math.floor(random() * 20)],
      ).join('');
      const carried = {
        residues: [...sequence].map(() => (random() < 0.2 ? Math.round((random() - 0.3) * 1e12) : 0)),
        nTerm: random() < 0.3 ? 420105646837 : 0,
        cTerm: random() < 0.2 ? -9840155848 : 0,
      };
      const maxCharge = 1 + Math.floor(random() * 3);
      const ions = fragmentIons(sequence, carried, maxCharge);
      // Peaks near half of the ions, and noise.
      const mz = [
        ...ions.filter(() => random() < 0.5).map((ion) => ion.mz + (random() - 0.5) * 0.04),
        ...Array.from({ length: 40 }, () => 100 + random() * 2000),
      ];
      const peaks = topPeaks(
        mz,
        mz.map(() => Math.floor(random() * 50)),
        150,
      );
      const tolerance: FragmentTolerance = random() < 0.5 ? { value: 20, unit: 'ppm' } : { value: 0.02, unit: 'Da' };
      expect(matchForm(peaks, sequence, carried, maxCharge, tolerance)).toEqual(matchFragments(peaks, ions, tolerance));
      // The decoy's ions, matched without making the decoy.
      const decoy = decoyOf({ sequence, residues: carried.residues });
      if (!decoy) continue;
      const decoyIons = fragmentIons(decoy.sequence, { ...carried, residues: decoy.residues as number[] }, maxCharge);
      expect(matchForm(peaks, sequence, carried, maxCharge, tolerance, true)).toEqual(
        matchFragments(peaks, decoyIons, tolerance),
      );
    }
  });

  it('finds peaks near m/z 0 and past the last whole m/z', () => {
    const peaks = topPeaks([0.2, 0.9, 1.0, 3.5, 3.99, 4.0], [5, 1, 2, 3, 4, 6], 10);
    const da = (value: number): FragmentTolerance => ({ value, unit: 'Da' });
    expect(matchFragments(peaks, [{ kind: 'b', residues: 1, charge: 1, mz: 0.05 }], da(0.2))).toMatchObject({
      b: 1,
      summedB: 5,
    });
    expect(matchFragments(peaks, [{ kind: 'y', residues: 1, charge: 1, mz: 0.95 }], da(0.06))).toMatchObject({
      y: 1,
      summedY: 2,
    });
    expect(matchFragments(peaks, [{ kind: 'y', residues: 1, charge: 1, mz: 3.995 }], da(0.01))).toMatchObject({
      y: 1,
      summedY: 6,
    });
    expect(matchFragments(peaks, [{ kind: 'y', residues: 1, charge: 1, mz: 4.2 }], da(0.1))).toMatchObject({ y: 0 });
    expect(matchFragments(peaks, [{ kind: 'b', residues: 1, charge: 1, mz: 2.5 }], da(0.4))).toMatchObject({ b: 0 });
  });

  it('takes ln n! exactly', () => {
    expect([0, 1, 2, 5, 10].map((n) => lnFactorial(n))).toEqual([
      0,
      0,
      Math.log(2),
      expect.closeTo(Math.log(120), 12),
      expect.closeTo(Math.log(3628800), 12),
    ]);
  });
});

// Tests runtime/core/identify/discriminant.ts: the solver against products computed back; the fit against Fisher's
// definition computed independently (class means and within-class covariances summed by brute force, w checked by
// Sw·w = μ_targets − μ_decoys), and on seeded Gaussian classes with a known shared covariance, the direction
// Σ⁻¹ Δμ recovered; too few of a class, and a constant feature, handled.
import { describe, expect, it } from 'vitest';
import { fitDiscriminant, MIN_PER_CLASS, project, solve } from '../../../../runtime/core/identify/discriminant.js';
import { prng } from '../../../helpers/prng.js';

const gaussian = (random: () => number) => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());

describe('solve', () => {
  it('gives x with a x = b for random well-conditioned systems', () => {
    const random = prng(4507);
    for (let trial = 0; trial < 200; trial++) {
      const n = 1 + Math.floor(random() * 12);
      const a = Array.from({ length: n }, (_, i) =>
        Array.from({ length: n }, (_, j) => (i === j ? n : 0) + random() - 0.5),
      );
      const b = Array.from({ length: n }, () => random() * 10 - 5);
      const x = solve(a, b)!;
      a.forEach((row, i) => expect(row.reduce((s, v, j) => s + v * x[j], 0)).toBeCloseTo(b[i], 9));
    }
    expect(
      solve(
        [
          [0, 0],
          [0, 0],
        ],
        [1, 1],
      ),
    ).toBeUndefined();
  });
});

describe('fitDiscriminant', () => {
  it("is Fisher's discriminant: Sw w = μ_targets − μ_decoys", () => {
    const random = prng(4508);
    const d = 5;
    const rows = Array.from({ length: 300 }, () => Array.from({ length: d }, () => random() * 4));
    const decoy = rows.map(() => random() < 0.4);
    rows.forEach((row, i) => decoy[i] || (row[1] += 1.5));
    const w = fitDiscriminant(rows, decoy)!;
    const of = (isDecoy: boolean) => rows.filter((_, i) => decoy[i] === isDecoy);
    const mean = (c: number[][]) => Array.from({ length: d }, (_, j) => c.reduce((s, r) => s + r[j], 0) / c.length);
    const [t, f] = [of(false), of(true)];
    const [mt, mf] = [mean(t), mean(f)];
    const sw = Array.from({ length: d }, (_, i) =>
      Array.from({ length: d }, (_, j) =>
        [
          [t, mt],
          [f, mf],
        ].reduce(
          (s, [c, m]) =>
            s +
            (c as number[][]).reduce((z, r) => z + (r[i] - (m as number[])[i]) * (r[j] - (m as number[])[j]), 0) /
              c.length,
          0,
        ),
      ),
    );
    sw.forEach((row, i) => expect(row.reduce((s, v, j) => s + v * w[j], 0)).toBeCloseTo(mt[i] - mf[i], 6));
    // Targets project higher on average.
    const avg = (c: number[][]) => c.reduce((s, r) => s + project(w, r), 0) / c.length;
    expect(avg(t)).toBeGreaterThan(avg(f));
  });

  it('recovers the direction of Σ⁻¹ Δμ on Gaussian classes with a shared covariance', () => {
    const random = prng(4509);
    // Σ = L Lᵀ with L lower triangular; Δμ = (1, 0, -0.5).
    const L = [
      [1, 0, 0],
      [0.8, 0.6, 0],
      [0.2, -0.3, 0.9],
    ];
    const delta = [1, 0, -0.5];
    const draw = (shift: number) => {
      const z = [gaussian(random), gaussian(random), gaussian(random)];
      return L.map((row, i) => row.reduce((s, v, j) => s + v * z[j], 0) + shift * delta[i]);
    };
    const rows: number[][] = [];
    const decoy: boolean[] = [];
    for (let i = 0; i < 20_000; i++) {
      const isDecoy = i % 2 === 0;
      rows.push(draw(isDecoy ? 0 : 1));
      decoy.push(isDecoy);
    }
    const w = fitDiscriminant(rows, decoy)!;
    const sigma = L.map((ri) => L.map((rj) => ri.reduce((s, v, k) => s + v * rj[k], 0)));
    const expected = solve(sigma, delta)!;
    const cosine = w.reduce((s, v, i) => s + v * expected[i], 0) / (Math.hypot(...w) * Math.hypot(...expected));
    expect(cosine).toBeGreaterThan(0.999);
  });

  it('fits nothing on too few of a class, and gives a constant feature no weight', () => {
    const random = prng(4510);
    const rows = Array.from({ length: 100 }, () => [random(), 7, random()]);
    const few = rows.map((_, i) => i < MIN_PER_CLASS - 1);
    expect(fitDiscriminant(rows, few)).toBeUndefined();
    const decoy = rows.map((_, i) => i % 3 === 0);
    rows.forEach((row, i) => decoy[i] || (row[0] += 1));
    const w = fitDiscriminant(rows, decoy)!;
    expect(w.every(Number.isFinite)).toBe(true);
    expect(Math.abs(w[1])).toBeLessThan(1e-6 * Math.abs(w[0]));
  });
});

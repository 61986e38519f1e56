// Tests runtime/api/matchTsv.ts's writeMassText against toFixed(6) on the quotient, over the masses candidates have,
// the remainders either side of a half, carries into the whole daltons, exact halves, non-integers and the ends of the
// safe integers; writePpmText against String(ppmOf()) over random errors, near-halves and errors past its range.
// (writePrecursorRows: test/runtime/entries/cli/match.test.ts, TSV against the JSON row by row.)
import { describe, expect, it } from 'vitest';
import { AsciiWriter } from '../../../runtime/api/asciiWriter.js';
import { ppmOf, writeMassKeyText, writeMassText, writePpmText } from '../../../runtime/api/numberText.js';
import { UNITS_PER_DA } from '../../../runtime/model/chemistry.js';
import { prng } from '../../helpers/prng.js';

const expected = (units: number) => (units / UNITS_PER_DA).toFixed(6);

function written(units: number, trimmed = false): string {
  const w = new AsciiWriter();
  writeMassText(w, units, trimmed);
  return Buffer.from(w.takeBytes()).toString('latin1');
}

function ppmWritten(centre: number, mass: number): string {
  const w = new AsciiWriter();
  writePpmText(w, centre, mass);
  return Buffer.from(w.takeBytes()).toString('latin1');
}

describe('writeMassText', () => {
  it('writes what toFixed(6) writes, over random masses of 0–10,000 Da and every kind of remainder', () => {
    let seed = 12345;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const cases: number[] = [
      0,
      1,
      4_999,
      5_000,
      5_001,
      9_999,
      10_000,
      99_995_000,
      999_995_000,
      UNITS_PER_DA - 5_000,
      UNITS_PER_DA - 4_999,
      UNITS_PER_DA,
    ];
    for (let i = 0; i < 20_000; i++) {
      const micro = Math.floor(random() * 1e10); // up to 10,000 Da in millionths
      for (const remainder of [0, 1, 4_999, 5_000, 5_001, 9_999, Math.floor(random() * 10_000)])
        cases.push(micro * 10_000 + remainder);
    }
    for (const whole of [1, 9, 10, 999, 1_000, 8_500, 9_999])
      for (const r of [-5_001, -5_000, -4_999, 4_999, 5_000, 5_001]) cases.push(whole * UNITS_PER_DA + r);
    cases.push(Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER - 5_000, 2 ** 53 - 4_999);
    const wrong = cases.filter((units) => written(units) !== expected(units));
    expect(wrong.map((units) => [units, written(units), expected(units)])).toEqual([]);
    // Trimmed, as JSON writes Number(toFixed(6)): 1000.5, 1000, 0.000001.
    const json = (units: number) => String(Number(expected(units)));
    const wrongJson = cases.filter((units) => written(units, true) !== json(units));
    expect(wrongJson.map((units) => [units, written(units, true), json(units)])).toEqual([]);
    expect(new Set(cases.map((units) => written(units, true).split('.')[1]?.length ?? 0))).toEqual(
      new Set([0, 1, 2, 3, 4, 5, 6]),
    );
    expect(cases.length).toBeGreaterThan(140_000);
  });

  it('leaves what is not a non-negative safe integer to toFixed', () => {
    for (const units of [0.5, 12_345.25, -1, -12_345_678_905_000, 2 ** 60, 1e21]) {
      expect(written(units)).toBe(expected(units));
      expect(written(units, true)).toBe(String(Number(expected(units))));
    }
  });
});

describe('writePpmText', () => {
  it('writes what String(ppmOf()) writes: random errors within ±1,000 ppm, tiny ones, halves of a hundredth, whole and one-decimal values', () => {
    let seed = 777;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const pairs: [number, number][] = [];
    for (let i = 0; i < 100_000; i++) {
      const mass = 300 + random() * 9_700;
      const ppm = [
        (random() - 0.5) * 2_000,
        (random() - 0.5) * 0.02,
        Math.round((random() - 0.5) * 4_000) / 200 + 0.005,
        Math.round((random() - 0.5) * 200) / 10,
      ][i % 4];
      pairs.push([mass * (1 + ppm / 1e6), mass]);
    }
    pairs.push([1000, 1000], [1000.005, 1000], [999.995, 1000], [1000.000125, 1000], [1000.0000125, 1000]);
    // Exact halves of a hundredth (errors of k/8 ppm against 1,000 Da): toFixed rounds them away from zero.
    for (let k = -400; k <= 400; k++) pairs.push([1000 + ((k / 8) * 1000) / 1e6, 1000]);
    const wrong = pairs.filter(([c, m]) => ppmWritten(c, m) !== String(ppmOf(c, m)));
    expect(wrong.map(([c, m]) => [c, m, ppmWritten(c, m), String(ppmOf(c, m))])).toEqual([]);
    // Not vacuous: negative, positive, zero, one- and two-decimal texts all seen.
    const texts = new Set(pairs.map(([c, m]) => ppmWritten(c, m)));
    for (const pattern of [/^-\d+\.\d\d$/, /^\d+\.\d\d$/, /^-?\d+\.\d$/, /^-?\d+$/, /^0$/])
      expect(
        [...texts].some((t) => pattern.test(t)),
        String(pattern),
      ).toBe(true);
  });

  it('errors of 10,000 ppm and more are written as ppmOf gives them', () => {
    for (const [c, m] of [
      [1100, 1000],
      [500, 1000],
      [1e6, 1],
      [1000, 1e-9],
    ] as [number, number][])
      expect(ppmWritten(c, m)).toBe(String(ppmOf(c, m)));
  });
});

describe('writeMassKeyText', () => {
  /**
   * Java's Double.toString of key / 10^4 for keys below 10^7 × 10^4, from JS's shortest round-trip text: a point and at
   * least one decimal.
   */
  const javaText = (key: number) => {
    const text = String(key / 10_000);
    return text.includes('.') ? text : `${text}.0`;
  };
  const written = (key: number) => {
    const w = new AsciiWriter();
    writeMassKeyText(w, key);
    return Buffer.from(w.takeBytes()).toString('latin1');
  };

  it('writes what Double.toString writes of key / 10^4: every key below 30 Da, keys around whole daltons, random keys up to 2^32 − 1', () => {
    const next = prng(21);
    const keys = [
      ...Array.from({ length: 300_000 }, (_, k) => k),
      ...Array.from({ length: 20_000 }, () => Math.floor(next() * 2 ** 32)),
    ];
    for (const whole of [1, 99, 100, 999, 1000, 9999, 10_000, 429_496])
      for (let d = -2; d <= 2; d++) keys.push(whole * 10_000 + d);
    keys.push(2 ** 32 - 1);
    expect(
      keys.filter((key) => written(key) !== javaText(key)).map((key) => [key, written(key), javaText(key)]),
    ).toEqual([]);
  });
});

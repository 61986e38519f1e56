// Mass keys as text (runtime/model/massKey.ts): Java-style formatting of a group's key, and exact parsing of
// user masses into key bounds, against the reference's own key text and exact decimal arithmetic.
import { describe, expect, it } from 'vitest';
import { formatMassKey, parseMass } from '../../../runtime/model/massKey.js';
import { prng } from '../../bench/synthetic.js';
import { referenceKeyBounds, referenceKeyText } from '../../helpers/reference.js';

describe('formatMassKey (Java Double.toString of key / 10^4)', () => {
  it.each([
    [10_000_000, '1000.0'],
    [15_006_000, '1500.6'],
    [12_476_087, '1247.6087'],
    [10_985_240, '1098.524'],
    [12_476_080, '1247.608'],
    [12_476_000, '1247.6'],
    [12_470_087, '1247.0087'],
    [10_000_001, '1000.0001'],
    [10_000_010, '1000.001'],
    [6_000_000, '600.0'],
    [43_121_280, '4312.128'],
    [640_685_570, '64068.557'],
    [10_000, '1.0'],
    [10_001, '1.0001'],
  ])('%i → %s', (key, text) => {
    expect(formatMassKey(key)).toBe(text);
  });

  it('equals the shortest round-trip text (plus ".0") for 20,000 random keys of peptide masses', () => {
    const random = prng(7);
    const wrong: unknown[] = [];
    for (let i = 0; i < 20_000; i++) {
      const key = 4_000_000 + Math.floor(random() * 600_000_000); // 400 .. 60,400 Da
      const text = formatMassKey(key);
      const shortest = text.endsWith('.0') || !text.endsWith('0'); // no trailing zero but ".0"
      if (
        text !== referenceKeyText(key) ||
        !/^\d+\.\d{1,4}$/.test(text) ||
        !shortest ||
        Math.round(Number(text) * 10_000) !== key
      )
        wrong.push([key, text]);
    }
    expect(wrong).toEqual([]);
  });
});

describe('parseMass: exact key bounds of a user-typed mass', () => {
  it.each([
    // text, value, ceilKey (lowest key >= mass), floorKey (highest key <= mass)
    ['1247.6087', 1247.6087, 12_476_087, 12_476_087],
    ['1098.524', 1098.524, 10_985_240, 10_985_240],
    ['1100.0004', 1100.0004, 11_000_004, 11_000_004],
    ['1000', 1000, 10_000_000, 10_000_000],
    ['1000.', 1000, 10_000_000, 10_000_000],
    ['.5', 0.5, 5_000, 5_000],
    ['1000.00005', 1000.00005, 10_000_001, 10_000_000],
    ['1247.60870000000000000001', 1247.6087, 12_476_088, 12_476_087],
    ['1247.60869999999999999999', 1247.6087, 12_476_087, 12_476_086],
    ['1.2476087e3', 1247.6087, 12_476_087, 12_476_087],
    ['12476087E-4', 1247.6087, 12_476_087, 12_476_087],
    ['  1500.6  ', 1500.6, 15_006_000, 15_006_000],
    ['+1500.6', 1500.6, 15_006_000, 15_006_000],
    ['0', 0, 0, 0],
    ['-0', 0, 0, 0],
    ['0.00001', 0.00001, 1, 0],
  ])('%j', (text, value, ceilKey, floorKey) => {
    expect(parseMass(text)).toEqual({ value, ceilKey, floorKey });
  });

  it('keeps a mass typed exactly as a key on that key, where floating point would not (x * 10^4 is not an integer)', () => {
    // 1100.0004 * 10000 === 11000003.999999998 in floating point; the bound must still be key 11000004.
    expect(1100.0004 * 10_000).toBeLessThan(11_000_004);
    expect(parseMass('1100.0004')!.ceilKey).toBe(11_000_004);
    expect(parseMass('1100.0004')!.floorKey).toBe(11_000_004);
  });

  it('agrees with exact decimal arithmetic on 20,000 random masses of up to 8 decimals', () => {
    const random = prng(11);
    const wrong: unknown[] = [];
    for (let i = 0; i < 20_000; i++) {
      const decimals = Math.floor(random() * 9);
      const whole = String(Math.floor(random() * 70_000));
      const fraction = Array.from({ length: decimals }, () => Math.floor(random() * 10)).join('');
      const text = decimals ? `${whole}.${fraction}` : whole;
      const parsed = parseMass(text);
      const exact = referenceKeyBounds(text);
      if (
        !parsed ||
        parsed.value !== Number(text) ||
        parsed.ceilKey !== exact.ceilKey ||
        parsed.floorKey !== exact.floorKey
      )
        wrong.push([text, parsed, exact]);
    }
    expect(wrong).toEqual([]);
  });

  it.each([
    '',
    ' ',
    'abc',
    '1,5',
    '0x10',
    'NaN',
    'Infinity',
    '-Infinity',
    '1e400',
    '1.2.3',
    '12f',
    '1d',
    '--1',
    'e5',
    '.',
  ])('%j is not a finite number', (text) => {
    expect(parseMass(text)).toBeUndefined();
  });

  it('reports negative masses with their value (the API refuses them)', () => {
    expect(parseMass('-5')!.value).toBe(-5);
    expect(parseMass('-0.0001')!.value).toBe(-0.0001);
  });
});

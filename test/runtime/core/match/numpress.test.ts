// Tests runtime/core/match/numpress.ts against an encoder written here from MS-Numpress's definition (Teleman et al.
// 2014): integers as a half-byte count of leading 0 (or, plus 8, of leading 0xf) half-bytes and the rest lowest
// first, packed high half first and padded with a 0 half-byte; linear as a big-endian fixed point, two little-endian
// 32-bit integers and the differences from linear prediction; pic as the integers; slof as a fixed point and 16-bit
// integers. Random data of each kind decodes exactly to the integers over the fixed point; cut or odd data is refused.
// Real files are checked against OpenMS in mzml.test.ts and mzml.ms1.test.ts.
import { describe, expect, it } from 'vitest';
import { decodeNumpress, NumpressError } from '../../../../runtime/core/match/numpress.js';
import { prng } from '../../../helpers/prng.js';

/** The half-bytes of a 32-bit integer (as an unsigned value) by the definition. */
function halfBytesOf(x: number): number[] {
  const nibbles = Array.from({ length: 8 }, (_, i) => (x >>> (4 * i)) & 0xf); // lowest first
  const top = nibbles.slice().reverse();
  const zeros = top.findIndex((n) => n !== 0);
  if (zeros !== 0) {
    const n = zeros < 0 ? 8 : zeros;
    return [n, ...nibbles.slice(0, 8 - n)];
  }
  if (top[0] === 0xf) {
    const ones = top.findIndex((n) => n !== 0xf);
    const n = ones < 0 ? 7 : Math.min(ones, 7);
    return [n + 8, ...nibbles.slice(0, 8 - n)];
  }
  return [0, ...nibbles];
}

/** Half-bytes packed two a byte, high half first, a last lone one padded with 0. */
function packed(halves: number[]): number[] {
  const bytes: number[] = [];
  for (let i = 0; i < halves.length; i += 2) bytes.push((halves[i] << 4) | (halves[i + 1] ?? 0));
  return bytes;
}

const fixedPointBytes = (fixedPoint: number) => {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, fixedPoint, false);
  return [...new Uint8Array(view.buffer)];
};
const uint32Le = (x: number) => [x & 0xff, (x >>> 8) & 0xff, (x >>> 16) & 0xff, (x >>> 24) & 0xff];

function encodeLinear(ints: number[], fixedPoint: number): Uint8Array {
  const bytes = fixedPointBytes(fixedPoint);
  ints.slice(0, 2).forEach((x) => bytes.push(...uint32Le(x)));
  const halves: number[] = [];
  for (let i = 2; i < ints.length; i++) halves.push(...halfBytesOf((ints[i] - (2 * ints[i - 1] - ints[i - 2])) >>> 0));
  return Uint8Array.from([...bytes, ...packed(halves)]);
}

const encodePic = (ints: number[]) => Uint8Array.from(packed(ints.flatMap(halfBytesOf)));

function encodeSlof(shorts: number[], fixedPoint: number): Uint8Array {
  return Uint8Array.from([...fixedPointBytes(fixedPoint), ...shorts.flatMap((x) => [x & 0xff, x >>> 8])]);
}

describe('decodeNumpress', () => {
  it('linear: random m/z-like runs, rises and falls, decode to their integers over the fixed point', () => {
    const random = prng(2014);
    for (let trial = 0; trial < 300; trial++) {
      const fixedPoint = [1e5, 6.5e5, 3.1e6][trial % 3] + random();
      const n = Math.floor(random() * 200);
      const ints: number[] = [];
      let x = Math.floor(random() * 2e9);
      for (let i = 0; i < n; i++) {
        // Mostly steady steps (small differences), sometimes jumps either way (long ones, negative ones).
        x += random() < 0.8 ? 1000 + Math.floor(random() * 50) : Math.floor((random() - 0.5) * 4e6);
        x = Math.min(Math.max(x, 0), 0xffffffff);
        ints.push(x);
      }
      const decoded = decodeNumpress('linear', encodeLinear(ints, fixedPoint));
      expect(Array.from(decoded)).toEqual(ints.map((i) => i / fixedPoint));
    }
  });

  it('pic: random non-negative integers, from 0 to 2^32 − 1', () => {
    const random = prng(2013);
    for (let trial = 0; trial < 300; trial++) {
      const ints = Array.from({ length: Math.floor(random() * 100) }, () =>
        Math.floor(random() ** (1 + 8 * random()) * 0x100000000),
      );
      ints.push(0, 0xffffffff, 15, 16);
      expect(Array.from(decodeNumpress('pic', encodePic(ints)))).toEqual(ints);
    }
  });

  it('slof: exp(x / fixed point) − 1 of each 16-bit integer', () => {
    const random = prng(2012);
    const fixedPoint = 4000.5;
    const shorts = Array.from({ length: 500 }, () => Math.floor(random() * 0x10000));
    expect(Array.from(decodeNumpress('slof', encodeSlof(shorts, fixedPoint)))).toEqual(
      shorts.map((x) => Math.exp(x / fixedPoint) - 1),
    );
  });

  it('short arrays: none, one and two values', () => {
    expect(Array.from(decodeNumpress('linear', encodeLinear([], 1000)))).toEqual([]);
    expect(Array.from(decodeNumpress('linear', encodeLinear([5000], 1000)))).toEqual([5]);
    expect(Array.from(decodeNumpress('linear', encodeLinear([5000, 6000], 1000)))).toEqual([5, 6]);
    expect(Array.from(decodeNumpress('pic', new Uint8Array(0)))).toEqual([]);
    expect(Array.from(decodeNumpress('slof', encodeSlof([], 10)))).toEqual([]);
  });

  it('refuses data cut short or of the wrong length, saying why', () => {
    const refused = (run: () => unknown) => {
      try {
        run();
      } catch (e) {
        expect(e).toBeInstanceOf(NumpressError);
        return (e as Error).message;
      }
      return 'decoded';
    };
    expect(refused(() => decodeNumpress('linear', new Uint8Array(5)))).toBe('fewer than 8 bytes: no fixed point');
    expect(refused(() => decodeNumpress('linear', encodeLinear([1, 2], 10).slice(0, 14)))).toBe(
      'a first or second value cut short',
    );
    // An integer whose head says seven half-bytes follow, with two there.
    expect(refused(() => decodeNumpress('pic', Uint8Array.of(0x11, 0x10)))).toBe('an integer cut short');
    expect(refused(() => decodeNumpress('slof', Uint8Array.from([...encodeSlof([1], 10), 7])))).toBe(
      'an odd number of bytes after the fixed point',
    );
  });
});

// runtime/model/varint.ts against a reference written from the unsigned LEB128 rule (docs/format.md,
// "Varints"; BigInt arithmetic, byte by byte): boundaries of every length, random values, and what must throw.
import { describe, expect, it } from 'vitest';
import { prng } from '../../helpers/prng.js';
import { decodeVarints, encodeVarints } from '../../../runtime/model/varint.js';

/** Unsigned LEB128 of one value: 7 bits a byte, least significant first, 0x80 on every byte but the last. */
function referenceVarint(value: number | bigint): number[] {
  let rest = BigInt(value);
  const bytes: number[] = [];
  for (;;) {
    const low = Number(rest & 0x7fn);
    rest >>= 7n;
    if (rest === 0n) return [...bytes, low];
    bytes.push(low | 0x80);
  }
}

const referenceColumn = (values: readonly number[]) => Uint8Array.from(values.flatMap((v) => referenceVarint(v)));

const BOUNDARIES: [number, number][] = [
  // value, bytes
  [0, 1],
  [1, 1],
  [127, 1],
  [128, 2],
  [16383, 2],
  [16384, 3],
  [2 ** 21 - 1, 3],
  [2 ** 21, 4],
  [2 ** 28 - 1, 4],
  [2 ** 28, 5],
  [2 ** 31, 5],
  [2 ** 32 - 1, 5],
];

describe('the reference', () => {
  it("is docs/format.md's table", () => {
    expect(referenceVarint(0)).toEqual([0x00]);
    expect(referenceVarint(127)).toEqual([0x7f]);
    expect(referenceVarint(128)).toEqual([0x80, 0x01]);
    expect(referenceVarint(300)).toEqual([0xac, 0x02]);
    expect(referenceVarint(16384)).toEqual([0x80, 0x80, 0x01]);
    expect(referenceVarint(2 ** 32 - 1)).toEqual([0xff, 0xff, 0xff, 0xff, 0x0f]);
  });
});

describe('encodeVarints and decodeVarints', () => {
  for (const [value, length] of BOUNDARIES) {
    it(`${value}: ${length} byte(s), as the reference`, () => {
      const bytes = encodeVarints([value]);
      expect(Array.from(bytes)).toEqual(referenceVarint(value));
      expect(bytes.length).toBe(length);
      expect(Array.from(decodeVarints(bytes))).toEqual([value]);
    });
  }

  it('every boundary in one column, both ways', () => {
    const values = BOUNDARIES.map(([v]) => v);
    const column = referenceColumn(values);
    expect(encodeVarints(values)).toEqual(column);
    expect(encodeVarints(Uint32Array.from(values))).toEqual(column);
    const decoded = decodeVarints(column);
    expect(decoded).toBeInstanceOf(Uint32Array);
    expect(Array.from(decoded)).toEqual(values);
  });

  it('random values of every length: 20 columns of 1,000, both ways', () => {
    const next = prng(12);
    for (let run = 0; run < 20; run++) {
      // A random bit width 0..32 per value, so each byte length is common.
      const values = Array.from({ length: 1000 }, () => Math.floor(next() * 2 ** Math.floor(next() * 33)));
      const column = referenceColumn(values);
      expect(encodeVarints(values)).toEqual(column);
      expect(Array.from(decodeVarints(column))).toEqual(values);
    }
  });

  it('an empty column', () => {
    expect(encodeVarints([])).toEqual(new Uint8Array(0));
    expect(decodeVarints(new Uint8Array(0))).toEqual(new Uint32Array(0));
  });

  it('decodes a view into a larger buffer by its own bytes only', () => {
    const buffer = Uint8Array.from([0xff, ...referenceVarint(300), ...referenceVarint(5), 0x80]);
    expect(Array.from(decodeVarints(buffer.subarray(1, 4)))).toEqual([300, 5]);
  });
});

describe('what decodeVarints refuses', () => {
  it('a column that ends inside a value (cut short)', () => {
    for (const bytes of [
      [0x80],
      [0xff, 0xff],
      [0x05, 0x80],
      [0x01, 0xff, 0xff, 0xff, 0xff],
      [...referenceVarint(2 ** 32 - 1).slice(0, 4)],
    ]) {
      expect(() => decodeVarints(Uint8Array.from(bytes)), bytes.join(' ')).toThrow(/ends inside a value/);
    }
  });

  it('a value of 32 bits or more: 2^32, 2^35 - 1, six bytes, far longer', () => {
    for (const bytes of [
      referenceVarint(2n ** 32n),
      referenceVarint(2n ** 35n - 1n),
      referenceVarint(2n ** 40n),
      referenceVarint(2n ** 64n + 5n),
      [0x01, ...referenceVarint(2n ** 32n + 7n), 0x01],
    ]) {
      expect(() => decodeVarints(Uint8Array.from(bytes)), bytes.join(' ')).toThrow(/32 bits/);
    }
  });
});

describe('what encodeVarints refuses', () => {
  for (const value of [-1, -0.5, 0.5, 1.5, 2 ** 32, 2 ** 32 + 1, 2 ** 53, NaN, Infinity, -Infinity]) {
    it(`${value}`, () => {
      expect(() => encodeVarints([1, value, 2])).toThrow(RangeError);
    });
  }
});

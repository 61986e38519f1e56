// Tests runtime/model/letterTriples.ts against plain strings: every sequence of capitals packs and unpacks to
// itself, packed sequences compared byte by byte (then by length) sort as the strings do, a packed sequence's
// residue mass equals the reference's (its own residue table), and anything but a capital letter is refused.
import { describe, expect, it } from 'vitest';
import { packedLength, packedResidueUnits, packLetters, unpackLetters } from '../../../runtime/model/letterTriples.js';
import { decimalToUnits, REFERENCE_RESIDUE_MASS, REFERENCE_WATER, referenceUnits } from '../../helpers/reference.js';
import { prng } from '../../helpers/prng.js';
import { letterBytes } from '../../helpers/letters.js';

const random = prng(41);
const CAPITALS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const sequenceOf = (alphabet: string, length: number) =>
  Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');

function pack(text: string): Uint8Array {
  const out = new Uint8Array(packedLength(text.length) + 4);
  const n = packLetters(letterBytes('..' + text + '..'), 2, 2 + text.length, out, 2); // a slice of a longer text, packed at an offset
  expect(n).toBe(packedLength(text.length));
  return out.subarray(2, 2 + n);
}

const compareBytes = (a: Uint8Array, b: Uint8Array) => {
  for (let i = 0; i < a.length && i < b.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
};

describe('letterTriples', () => {
  it('packs any sequence of capitals and unpacks it to itself', () => {
    const texts = [
      '',
      'A',
      'Z',
      'ZZ',
      'ZZZ',
      'AZA',
      ...Array.from({ length: 3000 }, () => sequenceOf(CAPITALS, Math.floor(random() * 62))),
      sequenceOf(CAPITALS, 1000),
    ];
    for (const text of texts) {
      const packed = pack(text);
      const out = new Uint8Array(text.length + 6);
      const n = unpackLetters(packed, 0, packed.length, out, 3);
      expect(String.fromCharCode(...out.subarray(3, 3 + n))).toBe(text);
    }
  });

  it('keeps the order: packed sequences compare as their letters do', () => {
    // Short sequences over few letters, so many share prefixes and some are prefixes of others.
    const texts = Array.from({ length: 4000 }, () => sequenceOf('ACMZ', Math.floor(random() * 8)));
    const byString = [...texts].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const byPacked = texts
      .map((text) => ({ text, packed: pack(text) }))
      .sort((a, b) => compareBytes(a.packed, b.packed))
      .map((e) => e.text);
    expect(byPacked).toEqual(byString);
  });

  it('weighs a packed sequence exactly', () => {
    const letters = Object.keys(REFERENCE_RESIDUE_MASS).join('');
    const water = Number(decimalToUnits(REFERENCE_WATER));
    for (let n = 0; n < 2000; n++) {
      const text = sequenceOf(letters, 1 + Math.floor(random() * 50));
      const packed = pack(text);
      expect(packedResidueUnits(packed, 0, packed.length) + water, text).toBe(referenceUnits(text));
    }
  });

  it('refuses anything but capital letters', () => {
    for (const text of ['PEPtIDE', 'PEP*', 'PE PT', '@'])
      expect(() => packLetters(letterBytes(text), 0, text.length, new Uint8Array(16), 0)).toThrow(RangeError);
  });
});

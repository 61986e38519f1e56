// Tests runtime/model/byteRun.ts against a byte-by-byte copy: copyRun for every length 0..40 from every source
// offset mod 8 into every target alignment mod 8, between views of subarrays (byte offsets of their own), touching
// nothing outside the run; pieceOf/putPiece for every length 0..16, writing the text and 16 bytes in all, refusing
// a text longer than 16.
import { describe, expect, it } from 'vitest';
import { copyRun, pieceOf, putPiece, viewOf } from '../../../runtime/model/byteRun.js';

/** n bytes of a fixed sequence, high bits set in some (not ASCII only: a copy must not care). */
const bytesOf = (n: number, seed: number) =>
  Uint8Array.from({ length: n }, (_, i) => (i * 151 + seed * 37 + ((i * i) >> 3)) & 255);

describe('copyRun', () => {
  it('copies bytes start..end to at, returns at + their count, and writes nothing else: any length, offset and alignment', () => {
    const source = bytesOf(120, 1).subarray(5, 100);
    const from = viewOf(source);
    for (let start = 0; start < 8; start++) {
      for (let length = 0; length <= 40; length++) {
        for (let at = 0; at < 8; at++) {
          const target = new Uint8Array(80).fill(0xaa).subarray(3, 70);
          const expected = Uint8Array.from(target);
          for (let i = 0; i < length; i++) expected[at + i] = source[start + i];
          expect(copyRun(viewOf(target), at, from, start, start + length)).toBe(at + length);
          expect(Array.from(target), `start ${start}, length ${length}, at ${at}`).toEqual(Array.from(expected));
          expect(
            new Uint8Array(target.buffer, 0, 3).every((b) => b === 0xaa) &&
              new Uint8Array(target.buffer, 70).every((b) => b === 0xaa),
          ).toBe(true);
        }
      }
    }
  });

  it('refuses to read or write past the end of a view', () => {
    const view = viewOf(new Uint8Array(10));
    expect(() => copyRun(view, 8, viewOf(new Uint8Array(10)), 0, 4)).toThrow(RangeError);
    expect(() => copyRun(viewOf(new Uint8Array(20)), 0, view, 6, 11)).toThrow(RangeError);
  });
});

describe('pieceOf and putPiece', () => {
  it('write the text at `at`, return where it ends, and write 16 bytes in all: every length 0..16', () => {
    const alphabet = '{"seq":acc[],}x\\';
    for (let length = 0; length <= 16; length++) {
      const text = Array.from({ length }, (_, i) => alphabet[(i * 7) % alphabet.length]).join('');
      const piece = pieceOf(text);
      expect(piece.length).toBe(length);
      for (let at = 0; at < 4; at++) {
        const bytes = new Uint8Array(40).fill(0xaa);
        expect(putPiece(viewOf(bytes), at, piece)).toBe(at + length);
        expect(String.fromCharCode(...bytes.subarray(at, at + length))).toBe(text);
        expect(bytes.subarray(0, at).every((b) => b === 0xaa) && bytes.subarray(at + 16).every((b) => b === 0xaa)).toBe(
          true,
        );
      }
    }
  });

  it('pieceOf refuses a text over 16 characters', () => {
    expect(() => pieceOf('x'.repeat(17))).toThrow(/at most 16/);
  });
});

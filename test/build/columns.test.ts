// Tests build/columns.ts: a TextColumn gives back every string pushed (across blocks of 4,096, ASCII, accented,
// astral, empty) and orders any two as JavaScript's `<` does.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TextColumn } from '../../build/columns.js';

const jsOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function filled(texts: readonly string[]): TextColumn {
  const column = new TextColumn();
  for (const text of texts) column.push(text);
  return column;
}

describe('TextColumn', () => {
  it('gives back 10,000 strings across blocks, long ones too', () => {
    const texts = Array.from({ length: 10_000 }, (_, i) => (i % 97 === 0 ? '' : i % 1001 === 0 ? 'x'.repeat(100_000 + i) : `P${i} protéine ${'β'.repeat(i % 5)}`));
    const column = filled(texts);
    expect(column.length).toBe(texts.length);
    expect(Array.from({ length: texts.length }, (_, i) => column.get(i))).toEqual(texts);
  });

  it('orders strings as JavaScript does, surrogate pairs included', () => {
    // U+E000..U+FFFF sorts after a surrogate pair in UTF-16 but before it in UTF-8: the case bytes get wrong.
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.constantFrom('\uE000', '\u{1F600}', 'A0A023', 'A0A0')), { minLength: 2, maxLength: 60 }), (texts) => {
        const column = filled(texts);
        for (let i = 0; i < texts.length; i++) {
          expect(column.get(i)).toBe(texts[i]);
          for (let j = 0; j < texts.length; j++) expect(Math.sign(column.compare(i, j))).toBe(jsOrder(texts[i], texts[j]));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('compares across blocks from bytes', () => {
    const texts = Array.from({ length: 9000 }, (_, i) => `Q${(i * 7919) % 9000}`);
    const column = filled(texts);
    expect(column.surrogates).toBe(false);
    for (const [i, j] of [[0, 8999], [4095, 4096], [8191, 12], [100, 100]]) expect(Math.sign(column.compare(i, j))).toBe(jsOrder(texts[i], texts[j]));
  });
});

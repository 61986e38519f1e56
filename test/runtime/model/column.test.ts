// Tests runtime/model/column.ts: a Column gives back every value of its type as it grows from any size, and
// reserve makes room for n more values without losing any; a BlockColumn, an Ends (against plain arrays, values
// near and far from their group's first, and after clear) and a TextBlocks give back every value
// and string across many blocks (strings that end exactly at a block's end, and ones that move to the next block).
import { describe, expect, it } from 'vitest';
import { BlockColumn, Column, Ends, TextBlocks } from '../../../runtime/model/column.js';
import { prng } from '../../helpers/prng.js';

describe('Column', () => {
  it('keeps every value of its type as it grows', () => {
    const column = new Column(new Int32Array(0));
    for (let i = 0; i < 5000; i++) column.push(i % 3 === 0 ? -1 : i * 1000);
    expect(column.length).toBe(5000);
    expect(Array.from(column.data.subarray(0, column.length))).toEqual(
      Array.from({ length: 5000 }, (_, i) => (i % 3 === 0 ? -1 : i * 1000)),
    );
  });

  it('reserves room for n more values, keeping those it has', () => {
    const column = new Column(new Uint8Array(2));
    column.push(7);
    const data = column.reserve(100);
    expect(data.length).toBeGreaterThanOrEqual(101);
    expect(data[0]).toBe(7);
    expect(column.length).toBe(1);
  });
});

describe('BlockColumn', () => {
  it('gives back every value across many blocks', () => {
    const column = new BlockColumn((n) => new Float64Array(n));
    const values = Array.from({ length: 300_000 }, (_, i) => i * 1e7 + (i % 7) * 0.5);
    for (const v of values) column.push(v);
    expect(column.length).toBe(values.length);
    expect(values.every((v, i) => column.at(i) === v)).toBe(true);
  });
});

describe('Ends', () => {
  /** Non-decreasing values: mostly small steps, some large (past a group's 16-bit reach), some none. */
  const ends = (count: number, seed: number) => {
    const random = prng(seed);
    const values: number[] = [];
    for (let v = 0, i = 0; i < count; i++)
      values.push(
        (v +=
          random() < 0.002 ? 20_000 + Math.floor(random() * 70_000) : random() < 0.1 ? 0 : Math.floor(random() * 40)),
      );
    return values;
  };

  it("gives back every value, near its group's first or far from it, across many groups and blocks", () => {
    const column = new Ends();
    const values = ends(300_000, 41);
    for (const v of values) column.push(v);
    expect(column.length).toBe(values.length);
    expect(values.every((v, i) => column.at(i) === v)).toBe(true);
    expect(values.at(-1)).toBeGreaterThan(2 ** 24); // large values, and (by the large steps) values kept far
  });

  it('gives back values up to 2^32 - 1 and a value exactly at the 16-bit reach and past it', () => {
    const column = new Ends();
    const values = [0, 0xfffe, 0xffff, 0x10000, 2 ** 32 - 2, 2 ** 32 - 1];
    for (const v of values) column.push(v);
    expect(values.map((_, i) => column.at(i))).toEqual(values);
  });

  it('holds the next values alone once cleared (no value of before read back)', () => {
    const column = new Ends();
    for (const v of ends(5_000, 42)) column.push(v + 1_000_000);
    column.clear();
    const values = ends(3_000, 43);
    for (const v of values) column.push(v);
    expect(column.length).toBe(values.length);
    expect(values.every((v, i) => column.at(i) === v)).toBe(true);
  });
});

describe('TextBlocks', () => {
  const ascii = (text: string) => new TextEncoder().encode(text);
  const read = (texts: TextBlocks, i: number) => {
    const { bytes, from, to } = texts.where(i);
    return new TextDecoder().decode(bytes.subarray(from, to));
  };

  it('gives back every string, each from one block, over several blocks', () => {
    const random = prng(31);
    const texts = new TextBlocks();
    const added: string[] = [];
    let total = 0;
    while (total < 3.5 * 2 ** 20) {
      const length = random() < 0.01 ? 1000 : random() < 0.01 ? 0 : 1 + Math.floor(random() * 60);
      const text = Array.from({ length }, () => 'ACDEFGHIKLMNPQRSTVWY'[Math.floor(random() * 20)]).join('');
      const pad = Math.floor(random() * 3);
      texts.add(ascii('xx' + text + 'y'.repeat(pad)), 2, 2 + length); // a slice of a longer text, as a shard's sequences
      added.push(text);
      total += length;
    }
    expect(texts.length).toBe(added.length);
    added.forEach((text, i) => {
      const { bytes, from, to } = texts.where(i);
      expect(to - from).toBe(text.length);
      expect(to).toBeLessThanOrEqual(bytes.length);
    });
    expect(added.every((text, i) => read(texts, i) === text)).toBe(true);
  });

  it('fills a block to its last byte, and moves a string that does not fit to the next block', () => {
    const block = 2 ** 20;
    const texts = new TextBlocks();
    const long = (c: string, n: number) => c.repeat(n);
    texts.add(ascii(long('A', block - 10)), 0, block - 10);
    texts.add(ascii(long('C', 10)), 0, 10); // ends exactly at the block's end
    texts.add(ascii(long('D', 5)), 0, 5); // the next block's first string
    texts.add(ascii(long('E', block - 7)), 0, block - 7);
    texts.add(ascii(long('F', 3)), 0, 3); // 2 bytes left: moves on
    texts.add(ascii(''), 0, 0);
    texts.add(ascii(long('G', 3)), 0, 3);
    expect([0, 1, 2, 3, 4, 5, 6].map((i) => read(texts, i))).toEqual([
      long('A', block - 10),
      long('C', 10),
      long('D', 5),
      long('E', block - 7),
      long('F', 3),
      '',
      long('G', 3),
    ]);
    expect(texts.where(4).from).toBe(0);
  });
});

// Tests runtime/model/column.ts: a Column gives back every value of its type as it grows from any size, and
// reserve makes room for n more values without losing any.
import { describe, expect, it } from 'vitest';
import { Column } from '../../../runtime/model/column.js';

describe('Column', () => {
  it('keeps every value of its type as it grows', () => {
    const column = new Column(new Int32Array(0));
    for (let i = 0; i < 5000; i++) column.push(i % 3 === 0 ? -1 : i * 1000);
    expect(column.length).toBe(5000);
    expect(Array.from(column.data.subarray(0, column.length))).toEqual(Array.from({ length: 5000 }, (_, i) => (i % 3 === 0 ? -1 : i * 1000)));
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

// Tests runtime/core/frequencySketch.ts against exact counts kept in a Map: an estimate is never below the true
// count (capped at 15), nearly always equal to it when the sketch is wide for the files it sees, and every count
// halves (rounding down, plus collisions) once `sampleSize` counts were added.
import { describe, expect, it } from 'vitest';
import { fileHash, FrequencySketch } from '../../../../runtime/core/storage/frequencySketch.js';

/** Seeded pseudo-random integers in [0, n) (a 32-bit LCG; the test's draws repeat run to run). */
function draws(seed: number): (n: number) => number {
  let state = seed >>> 0;
  return (n) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state % n;
  };
}

const name = (i: number) => `${i.toString(16).padStart(8, '0')}deadbeef.msgpack.gz`;

describe('FrequencySketch', () => {
  it('is sized for a power of two of files, at least 16, halving every 10 × that many counts; it only grows', () => {
    expect(new FrequencySketch(1000).sampleSize).toBe(10240);
    expect(new FrequencySketch().sampleSize).toBe(160);
    const sketch = new FrequencySketch(16385);
    expect(sketch.sampleSize).toBe(327680);
    sketch.fit(100);
    expect(sketch.sampleSize).toBe(327680);
    sketch.fit(40_000);
    expect(sketch.sampleSize).toBe(655360);
  });

  it('starts afresh when it grows', () => {
    const sketch = new FrequencySketch(64);
    for (let n = 0; n < 5; n++) sketch.increment(fileHash('a'));
    sketch.fit(64);
    expect(sketch.frequency(fileHash('a'))).toBe(5);
    sketch.fit(65);
    expect(sketch.sampleSize).toBe(1280);
    expect(sketch.frequency(fileHash('a'))).toBe(0);
  });

  it('never estimates below the true count (capped at 15), and nearly always exactly', () => {
    const sketch = new FrequencySketch(4096);
    const exact = new Map<number, number>();
    const next = draws(7);
    for (let n = 0; n < 3000; n++) {
      // A skewed stream: a few files asked for often, many rarely (under sampleSize: no halving yet).
      const i = next(4) === 0 ? next(20) : next(1500);
      sketch.increment(fileHash(name(i)));
      exact.set(i, (exact.get(i) ?? 0) + 1);
    }
    let equal = 0;
    for (const [i, count] of exact) {
      const estimate = sketch.frequency(fileHash(name(i)));
      expect(estimate).toBeGreaterThanOrEqual(Math.min(count, 15));
      expect(estimate).toBeLessThanOrEqual(15);
      if (estimate === Math.min(count, 15)) equal++;
    }
    expect(equal / exact.size).toBeGreaterThan(0.97);
    expect(sketch.frequency(fileHash(name(99_999)))).toBeLessThanOrEqual(1); // never asked for
  });

  it('halves every count after sampleSize counts: old popularity fades', () => {
    const sketch = new FrequencySketch(1024);
    for (let n = 0; n < 12; n++) sketch.increment(fileHash('hot'));
    expect(sketch.frequency(fileHash('hot'))).toBe(12);
    for (let i = 0; i < sketch.sampleSize - 13; i++) sketch.increment(fileHash(name(i))); // one count short of the sample
    const before = sketch.frequency(fileHash('hot'));
    expect(before).toBeGreaterThanOrEqual(12); // collisions only add
    sketch.increment(fileHash(name(sketch.sampleSize))); // the sample's last count: every counter halves
    expect(sketch.frequency(fileHash('hot'))).toBe(before >> 1);
    expect(sketch.frequency(fileHash('hot'))).toBeGreaterThanOrEqual(6);
    // The next sample starts from zero: as many counts again halve once more, not sooner.
    for (let i = 0; i < sketch.sampleSize - 1; i++) sketch.increment(fileHash(`other ${i}`));
    const later = sketch.frequency(fileHash('hot'));
    sketch.increment(fileHash('last'));
    expect(sketch.frequency(fileHash('hot'))).toBe(later >> 1);
  });
});

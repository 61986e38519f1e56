// Tests runtime/model/eta.ts: at a steady rate the estimate is the time left exactly; under uneven steps it moves
// smoothly (no estimate jumps by more than the time the step took, give or take the step's own unevenness); none
// before the task settles; durations written as people read them.
import { describe, expect, it } from 'vitest';
import { durationText, Eta } from '../../../runtime/model/eta.js';
import { prng } from '../../helpers/prng.js';

describe('Eta', () => {
  it('gives the time left exactly at a steady rate, and none before the task settles', () => {
    const eta = new Eta(0);
    expect(eta.update(50, 1000, 500)).toBeUndefined(); // half a second in
    for (let t = 1000; t <= 9000; t += 1000) expect(eta.update(t / 10, 1000, t)).toBeCloseTo((10_000 - t) / 1000, 9);
    expect(eta.update(1000, 1000, 10_000)).toBe(0);
  });

  it('moves smoothly when work arrives in uneven steps', () => {
    const random = prng(7);
    const eta = new Eta(0);
    let done = 0;
    let previous: number | undefined;
    const jumps: number[] = [];
    for (let t = 500; done < 100_000; t += 500) {
      done = Math.min(100_000, done + Math.floor(random() * 2000)); // 0 to 4,000 units a second, 2,000 on average
      const left = eta.update(done, 100_000, t);
      if (left !== undefined && previous !== undefined && done < 100_000) jumps.push(Math.abs(left - previous));
      previous = left;
    }
    jumps.sort((a, b) => a - b);
    // A raw estimate from the last step alone jumps by tens of seconds; the smoothed one by a few.
    expect(jumps[Math.floor(jumps.length * 0.9)]).toBeLessThan(8);
  });
});

describe('durationText', () => {
  it('writes seconds, minutes and hours', () => {
    const cases: [number | undefined, string][] = [
      [undefined, '…'],
      [Number.POSITIVE_INFINITY, '…'],
      [0.4, '<1s'],
      [42.4, '42s'],
      [59.6, '1m 00s'],
      [185, '3m 05s'],
      [3720, '1h 02m'],
    ];
    for (const [seconds, text] of cases) expect(durationText(seconds), String(seconds)).toBe(text);
  });
});

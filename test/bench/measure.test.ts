// Tests test/bench/measure.ts's summaries: summarize's nearest-rank percentiles and medianOfPasses (each statistic's
// median over passes), against sorting by hand.
import { describe, expect, it } from 'vitest';
import { medianOfPasses, summarize, type Summary } from './measure.js';
import { prng } from './synthetic.js';

describe('summarize', () => {
  it('takes nearest-rank percentiles of the latencies', () => {
    const ms = Array.from({ length: 200 }, (_, i) => 200 - i); // 200 .. 1
    expect(summarize(ms)).toEqual({ count: 200, p50: 100, p95: 190, p99: 198, max: 200, mean: 100.5 });
  });
});

describe('medianOfPasses', () => {
  it('is each statistic’s median over the passes, whichever pass it comes from', () => {
    const random = prng(9);
    for (const n of [1, 2, 3, 5, 6]) {
      const passes: Summary[] = Array.from({ length: n }, () => summarize(Array.from({ length: 50 }, () => random() * 10)));
      const median = (pick: (s: Summary) => number) => passes.map(pick).sort((a, b) => a - b)[Math.floor((n - 1) / 2)];
      expect(medianOfPasses(passes)).toEqual({ count: 50, p50: median((s) => s.p50), p95: median((s) => s.p95), p99: median((s) => s.p99), max: median((s) => s.max), mean: median((s) => s.mean) });
    }
  });

  it('is not moved by one slow pass', () => {
    const quiet = summarize([1, 2, 3, 4]);
    const slow = summarize([10, 20, 30, 40]);
    expect(medianOfPasses([quiet, slow, quiet, quiet, quiet])).toEqual(quiet);
  });
});

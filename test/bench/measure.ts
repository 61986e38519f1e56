// Benchmark measuring tools: seeded query sets, percentiles, machine facts.
import { cpus, totalmem } from 'node:os';
import { prng } from './synthetic.js';

export interface Summary {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
}

/** Percentiles (nearest rank) of latencies in ms. */
export function summarize(ms: number[]): Summary {
  const sorted = Float64Array.from(ms).sort();
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
  const mean = sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length);
  return { count: sorted.length, p50: at(0.5), p95: at(0.95), p99: at(0.99), max: sorted[sorted.length - 1] ?? 0, mean };
}

/**
 * Passes over a query set measured for one figure: each statistic is the median of the passes' (a shared VM has slow
 * spells of a minute or so, seen doubling a single pass's p99; a spell then moves one pass, not the figure).
 */
export const MEASURED_PASSES = 5;

/** Each statistic's median over the summaries of several passes over the same queries. */
export function medianOfPasses(passes: Summary[]): Summary {
  const median = (pick: (s: Summary) => number) => Float64Array.from(passes, pick).sort()[(passes.length - 1) >> 1];
  return { count: passes[0].count, p50: median((s) => s.p50), p95: median((s) => s.p95), p99: median((s) => s.p99), max: median((s) => s.max), mean: median((s) => s.mean) };
}

export const fmt = (ms: number) => (ms < 1 ? ms.toFixed(3) : ms < 100 ? ms.toFixed(2) : ms.toFixed(0));

/** `count` mass windows, centres uniform in [lo, hi] Da: ±halfWidthDa, or ±ppm when ppm is given. */
export function massWindows(count: number, seed: number, opts: { lo: number; hi: number; halfWidthDa?: number; ppm?: number }): [string, string][] {
  const random = prng(seed);
  return Array.from({ length: count }, () => {
    const centre = opts.lo + random() * (opts.hi - opts.lo);
    const half = opts.ppm !== undefined ? (centre * opts.ppm) / 1e6 : opts.halfWidthDa!;
    return [(centre - half).toFixed(4), (centre + half).toFixed(4)];
  });
}

/** `count` ranges inside [0, maxDa] of widths uniform in [0, maxDa] (the cold "any width" set). */
export function anyWidthRanges(count: number, seed: number, maxDa: number): [string, string][] {
  const random = prng(seed);
  return Array.from({ length: count }, () => {
    const width = random() * maxDa;
    const lo = random() * (maxDa - width);
    return [lo.toFixed(4), (lo + width).toFixed(4)];
  });
}

export function machine(): string {
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  return `${cpus().length} × ${cpu}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB RAM, Node ${process.version}, ${process.platform} ${process.arch}`;
}

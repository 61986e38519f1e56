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
  return {
    count: sorted.length,
    p50: at(0.5),
    p95: at(0.95),
    p99: at(0.99),
    max: sorted[sorted.length - 1] ?? 0,
    mean,
  };
}

export const fmt = (ms: number) => (ms < 1 ? ms.toFixed(3) : ms < 100 ? ms.toFixed(2) : ms.toFixed(0));

/** `count` mass windows, centres uniform in [lo, hi] Da: ±halfWidthDa, or ±ppm when ppm is given. */
export function massWindows(
  count: number,
  seed: number,
  opts: { lo: number; hi: number; halfWidthDa?: number; ppm?: number },
): [string, string][] {
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

// `npm run load`: 60 s of mixed HTTP load (autocannon) against `npm start`'s server on 127.0.0.1 over the
// bundled dataset: valid and invalid queries, narrow and wide ranges, dataset files, conditional requests.
// Every request kind has an expected status; any other status is counted as unexpected (must be 0).
// Reports latency percentiles, server RSS before/after and every 5 s (/proc/<pid>/status) and the longest event-loop
// stall measured inside the server (LOOP_MONITOR=1, read on SIGUSR2), and writes them into docs/reliability.md.
// Options: --seconds N (default 60), --connections N (default 16), --no-write.
// test/runtime/entries/node/server.load.test.ts runs the same code for ~3 s.
import type { ChildProcess } from 'node:child_process';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { freePort, peakRssMb, rssMb, startServer } from '../bench/http.js';
import { prng } from '../bench/synthetic.js';
import {
  decodeTabled,
  bundledDataset,
  readAccessionTable,
  readManifest,
  readStored,
  shardEntries,
} from '../helpers/datasets.js';
import { writeSection } from './report.js';
import { cutLetters } from '../helpers/letters.js';

export interface RequestSpec {
  kind: string;
  method: string;
  path: string;
  status: number;
  headers?: Record<string, string>;
}

export interface LoadFigures {
  seconds: number;
  shards: number;
  connections: number;
  requests: number;
  requestsPerSecond: number;
  /** Responses by kind: count and statuses seen. */
  kinds: Record<string, { expected: number; count: number; statuses: Record<string, number> }>;
  unexpected: number;
  examples: string[];
  errors: number;
  timeouts: number;
  latency: { p50: number; p90: number; p99: number; p999: number; max: number; mean: number };
  rssBeforeMb: number;
  rssAfterMb: number;
  rssPeakMb: number;
  /** Server RSS sampled every 5 s during the run (MB), to show whether it levels off. */
  rssSeriesMb: number[];
  loop: { maxMs: number; p99Ms: number; meanMs: number };
}

/** The request mix over a dataset folder: `count` requests, seeded. */
export function requestMix(dir: string, count = 4000, seed = 7): RequestSpec[] {
  const manifest = readManifest(dir);
  const shards = shardEntries(dir);
  const table = readAccessionTable(dir);
  const rnd = prng(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rnd() * list.length)];
  // Real peptides from a few shards.
  const peptides: string[] = [];
  for (let i = 0; i < 8; i++) {
    const s = decodeTabled(readStored(dir, pick(shards).file, manifest.compression), table);
    for (let j = 0; j < 25; j++) {
      const p = Math.floor(rnd() * s.sequenceEnds.length);
      peptides.push(cutLetters(s.sequences, s.sequenceEnds, p));
    }
  }
  const mass = () => {
    const s = pick(shards);
    return (s.firstKey + Math.floor(rnd() * (s.lastKey - s.firstKey + 1))) / 10_000;
  };
  const kinds: [number, () => RequestSpec][] = [
    [20, () => ({ kind: 'narrow search.php', method: 'GET', path: '', status: 200 })],
    [15, () => ({ kind: 'narrow search-taxonomy.php', method: 'GET', path: '', status: 200 })],
    [8, () => ({ kind: 'wide search-taxonomy.php, pageSize 1000', method: 'GET', path: '', status: 200 })],
    [
      6,
      () => ({
        kind: 'whole mass line, deep page',
        method: 'GET',
        path: `/search.php?mass1=0&mass2=1e9&page=${1 + Math.floor(rnd() * 77_000)}&pageSize=10`,
        status: 200,
      }),
    ],
    [
      12,
      () => ({
        kind: 'search-peptide.php',
        method: 'GET',
        path: `/search-peptide.php?peptide=${rnd() < 0.3 ? pick(peptides).toLowerCase() : pick(peptides)}`,
        status: 200,
      }),
    ],
    [
      4,
      () => ({
        kind: 'search.php by peptide',
        method: 'GET',
        path: `/search.php?peptide=${pick(peptides)}&pageSize=3`,
        status: 200,
      }),
    ],
    [
      3,
      () => ({
        kind: 'page past the end',
        method: 'GET',
        path: `/search-taxonomy.php?mass1=1000&mass2=1000.5&page=${5000 + Math.floor(rnd() * 1000)}`,
        status: 200,
      }),
    ],
    [
      3,
      () => ({
        kind: 'conditional (If-None-Match)',
        method: 'GET',
        path: `/search.php?mass1=${(1000 + rnd() * 1000).toFixed(2)}&mass2=2000`,
        status: 304,
        headers: { 'if-none-match': `W/"${manifest.datasetVersion}"` },
      }),
    ],
    [
      4,
      () => ({
        kind: 'bad mass',
        method: 'GET',
        path: `/search.php?mass1=${pick(['abc', '1,5', '0x10', 'NaN', '-1', '1e400', ''])}&mass2=1000`,
        status: 400,
      }),
    ],
    [
      3,
      () => ({ kind: 'mass1 > mass2', method: 'GET', path: '/search-taxonomy.php?mass1=2000&mass2=1000', status: 400 }),
    ],
    [
      3,
      () => ({
        kind: 'bad peptide',
        method: 'GET',
        path: `/search-peptide.php?peptide=${pick(['PEPBIDE', 'PEP%20TIDE', '%00', 'PEP%E0%A4%A', 'x'.repeat(1200)])}`,
        status: 400,
      }),
    ],
    [
      2,
      () => ({
        kind: 'non-integer page on search-peptide.php',
        method: 'GET',
        path: `/search-peptide.php?peptide=PEPTIDE&page=${pick(['1.5', 'abc', ''])}`,
        status: 500,
      }),
    ],
    [
      2,
      () => ({
        kind: 'pageSize out of range',
        method: 'GET',
        path: `/search.php?mass1=1000&mass2=1001&pageSize=${pick(['0', '1001', '-1'])}`,
        status: 400,
      }),
    ],
    [
      2,
      () => ({
        kind: 'repeated parameter',
        method: 'GET',
        path: '/search.php?mass1=1000&mass1=1001&mass2=1002',
        status: 400,
      }),
    ],
    [
      1,
      () => ({
        kind: 'query string too long',
        method: 'GET',
        path: `/search.php?mass1=${'1'.repeat(5000)}&mass2=1`,
        status: 414,
      }),
    ],
    [
      2,
      () => ({
        kind: 'unknown path',
        method: 'GET',
        path: pick(['/nowhere', '/search', '/index.php', '/search.php/x']),
        status: 404,
      }),
    ],
    [
      2,
      () => ({
        kind: 'path traversal',
        method: 'GET',
        path: pick([
          '/shards/../package.json',
          '/shards/%2e%2e/package.json',
          '/shards/..%2fpackage.json',
          '/shards/package.json',
        ]),
        status: 404,
      }),
    ],
    [
      2,
      () => ({
        kind: 'method not allowed',
        method: pick(['POST', 'PUT', 'DELETE']),
        path: '/search.php?mass1=1000&mass2=1001',
        status: 405,
      }),
    ],
    [2, () => ({ kind: 'manifest.json', method: 'GET', path: '/shards/manifest.json', status: 200 })],
    [1, () => ({ kind: 'shard file', method: 'GET', path: `/shards/${pick(shards).file}`, status: 200 })],
  ];
  // The ranges of the range kinds (their paths are left empty above).
  const fill = (spec: RequestSpec): RequestSpec => {
    if (spec.kind === 'narrow search.php' || spec.kind === 'narrow search-taxonomy.php') {
      const low = mass();
      const endpoint = spec.kind === 'narrow search.php' ? '/search.php' : '/search-taxonomy.php';
      return { ...spec, path: `${endpoint}?mass1=${low}&mass2=${(low + rnd() * 0.05).toFixed(4)}` };
    }
    if (spec.kind.startsWith('wide')) {
      const low = 500 + rnd() * 2500;
      return {
        ...spec,
        path: `/search-taxonomy.php?mass1=${low.toFixed(3)}&mass2=${(low + 1 + rnd() * 500).toFixed(3)}&pageSize=1000&page=${1 + Math.floor(rnd() * 5)}`,
      };
    }
    return spec;
  };
  const total = kinds.reduce((sum, [w]) => sum + w, 0);
  return Array.from({ length: count }, () => {
    let r = rnd() * total;
    for (const [w, make] of kinds) if ((r -= w) < 0) return fill(make());
    return fill(kinds[0][1]());
  });
}

/** `npm start`'s entry (runtime/entries/node/start.ts) with LOOP_MONITOR=1; resolves once it listens. */
async function startMonitoredServer(
  dir: string,
): Promise<{ child: ChildProcess; port: number; loopReport: () => Promise<LoadFigures['loop']> }> {
  const port = await freePort();
  const child = await startServer(dir, port, { LOOP_MONITOR: '1' });
  const waiters: ((line: string) => void)[] = [];
  child.stderr!.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) if (line.startsWith('loop: ')) waiters.shift()?.(line);
  });
  const loopReport = () =>
    new Promise<LoadFigures['loop']>((resolve) => {
      waiters.push((line) => {
        const [, max, p99, mean] = (
          /max ([\d.]+) ms, p99 ([\d.]+) ms, mean ([\d.]+) ms/.exec(line) ?? [line, NaN, NaN, NaN]
        ).map(Number);
        resolve({ maxMs: max, p99Ms: p99, meanMs: mean });
      });
      child.kill('SIGUSR2');
    });
  return { child, port, loopReport };
}

/** Runs the mixed load for `seconds` against a fresh server over `dir`. */
export async function runLoad(options: { dir: string; seconds: number; connections?: number }): Promise<LoadFigures> {
  const connections = options.connections ?? 16;
  const specs = requestMix(options.dir);
  const { child, port, loopReport } = await startMonitoredServer(options.dir);
  try {
    const rssBeforeMb = rssMb(child.pid!);
    await loopReport(); // start the event-loop measurement now
    const kinds: LoadFigures['kinds'] = {};
    const examples: string[] = [];
    let unexpected = 0;
    let next = 0;
    const rssSeriesMb: number[] = [];
    const sampler = setInterval(() => rssSeriesMb.push(rssMb(child.pid!)), 5000);
    const result = await autocannon({
      url: `http://127.0.0.1:${port}`,
      connections,
      duration: options.seconds,
      timeout: 10,
      requests: [
        {
          setupRequest: (req, context: { queue?: RequestSpec[] }) => {
            const spec = specs[next++ % specs.length];
            (context.queue ??= []).push(spec);
            return { ...req, method: spec.method as 'GET', path: spec.path, headers: { ...(spec.headers ?? {}) } };
          },
          onResponse: (status, body, context: { queue?: RequestSpec[] }) => {
            const spec = context.queue!.shift()!;
            const k = (kinds[spec.kind] ??= { expected: spec.status, count: 0, statuses: {} });
            k.count++;
            k.statuses[status] = (k.statuses[status] ?? 0) + 1;
            const jsonExpected = !spec.path.startsWith('/shards/') || status !== 200;
            const bodyOk =
              status === 304 ||
              !jsonExpected ||
              (status === 200
                ? body.startsWith('{"totalResult"') || body.startsWith('{\n')
                : body.startsWith('{"error":"'));
            if (status !== spec.status || !bodyOk) {
              unexpected++;
              if (examples.length < 10)
                examples.push(`${spec.method} ${spec.path.slice(0, 120)} → ${status} ${body.slice(0, 120)}`);
            }
          },
        },
      ],
    });
    clearInterval(sampler);
    const loop = await loopReport();
    return {
      seconds: options.seconds,
      shards: readManifest(options.dir).totals.shards,
      connections,
      requests: result.requests.total,
      requestsPerSecond: result.requests.average,
      kinds,
      unexpected,
      examples,
      errors: result.errors,
      timeouts: result.timeouts,
      latency: {
        p50: result.latency.p50,
        p90: result.latency.p90,
        p99: result.latency.p99,
        p999: result.latency.p99_9,
        max: result.latency.max,
        mean: result.latency.average,
      },
      rssBeforeMb,
      rssAfterMb: rssMb(child.pid!),
      rssPeakMb: peakRssMb(child.pid!),
      rssSeriesMb,
      loop,
    };
  } finally {
    child.kill('SIGTERM');
  }
}

/** RSS change from the middle sample to the last one: near zero once the shard cache has filled. */
function rssGrowth(series: number[]): { text: string; fraction: number } {
  if (series.length < 2) return { text: 'n/a (run too short)', fraction: 0 };
  const mid = series[Math.floor(series.length / 2)];
  const last = series[series.length - 1];
  const fraction = (last - mid) / mid;
  return {
    text: `${mid.toFixed(0)} MB → ${last.toFixed(0)} MB (${fraction >= 0 ? '+' : ''}${(fraction * 100).toFixed(1)} %)`,
    fraction,
  };
}

function report(f: LoadFigures): string {
  const rows = Object.entries(f.kinds)
    .sort((a, b) => b[1].count - a[1].count)
    .map(
      ([kind, k]) =>
        `| ${kind} | ${k.expected} | ${k.count.toLocaleString('en')} | ${Object.entries(k.statuses)
          .map(([s, n]) => `${s}: ${n}`)
          .join(', ')} |`,
    );
  return [
    `Command: \`npm run load\` (= \`tsx test/reliability/load.ts --seconds ${f.seconds} --connections ${f.connections}\`), ${new Date().toISOString().slice(0, 10)}, on ${process.platform} with Node ${process.version}.`,
    '',
    `${f.seconds} s of mixed load by autocannon (${f.connections} connections) against \`runtime/entries/node/server.ts\` on 127.0.0.1 over the`,
    `bundled dataset (${f.shards} shards, default 256 MB cache, cold at the start). The event-loop stall is measured inside`,
    'the server (`LOOP_MONITOR=1`: `perf_hooks.monitorEventLoopDelay`, reported on SIGUSR2).',
    '',
    '| figure | value |',
    '|---|---|',
    `| requests | ${f.requests.toLocaleString('en')} (${Math.round(f.requestsPerSecond).toLocaleString('en')}/s) |`,
    `| **unexpected statuses** | **${f.unexpected}** |`,
    `| connection errors / timeouts | ${f.errors} / ${f.timeouts} |`,
    `| latency p50 / p90 / p99 / p99.9 / max | ${f.latency.p50} / ${f.latency.p90} / ${f.latency.p99} / ${f.latency.p999} / ${f.latency.max} ms (mean ${f.latency.mean.toFixed(1)} ms) |`,
    `| server RSS before → after (peak) | ${f.rssBeforeMb.toFixed(0)} MB → ${f.rssAfterMb.toFixed(0)} MB (${f.rssPeakMb.toFixed(0)} MB) |`,
    `| server RSS every 5 s | ${f.rssSeriesMb.map((v) => v.toFixed(0)).join(', ')} MB |`,
    `| RSS growth over the second half of the run | ${rssGrowth(f.rssSeriesMb).text} |`,
    `| **event-loop stall (max)** | **${f.loop.maxMs} ms** (p99 ${f.loop.p99Ms} ms, mean ${f.loop.meanMs} ms) |`,
    '',
    '| request kind | expected status | responses | statuses seen |',
    '|---|---|---|---|',
    ...rows,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      seconds: { type: 'string', default: '60' },
      connections: { type: 'string', default: '16' },
      'no-write': { type: 'boolean' },
    },
  });
  const figures = await runLoad({
    dir: await bundledDataset(),
    seconds: Number(values.seconds),
    connections: Number(values.connections),
  });
  console.log(JSON.stringify(figures, null, 1));
  if (!values['no-write']) writeSection('Load', report(figures));
  const flat = rssGrowth(figures.rssSeriesMb).fraction < 0.1;
  const ok =
    figures.unexpected === 0 && figures.errors === 0 && figures.timeouts === 0 && figures.loop.maxMs < 100 && flat;
  if (!ok)
    console.error(
      'load: FAILED (unexpected statuses, errors, an event-loop stall of 100 ms or more, or RSS still growing by 10 % or more in the second half)',
    );
  process.exitCode = ok ? 0 : 1;
}

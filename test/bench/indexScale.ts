// A simulated 10-million-shard index: synthetic shard entries indexed by the build's own writers
// (test/bench/indexScaleData.ts), served by a local node:http server that waits before every response, and cold
// lookups through the runtime (a fresh Dataset over a fresh HttpSource each: manifest, index pages, then the shard and
// the accession table beside it), counting requests, bytes and sequential round trips — by the chain of reads and by
// wall time over the injected latency. `npx tsx test/bench/indexScale.ts [shards]` prints JSON and the section.
import { mkdtempSync, readFile, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { INDEX_SHAPE, type IndexShape } from '../../builder/writers/indexPages.js';
import { createAnswerer } from '../../runtime/api/handler.js';
import { Dataset } from '../../runtime/core/storage/dataset.js';
import { HttpSource } from '../../runtime/core/storage/source.js';
import { nodeCodecs } from '../../runtime/entries/node/platform.js';
import { prng } from '../helpers/prng.js';
import { machine, summarize } from './measure.js';
import { roundTrips, ReadLog, type FileKind } from './reads.js';
import { bruteForceShard, syntheticKeys, writeSyntheticDataset, type SyntheticKeys } from './indexScaleData.js';

export interface IndexScaleConfig {
  /** A folder the run may fill (the caller removes it). */
  dir: string;
  shards: number;
  lookups: number;
  /** Milliseconds the server waits before every response. */
  latencyMs: number;
  seed: number;
  shape?: IndexShape;
}

export const INDEX_SCALE_FULL: Omit<IndexScaleConfig, 'dir'> = {
  shards: 10_000_000,
  lookups: 50,
  latencyMs: 20,
  seed: 15,
};
/** `npm run bench -- --smoke` size: 274 leaf pages, past the root's 256, so the root lists an inner page (2 levels), in seconds. */
export const INDEX_SCALE_SMOKE: Omit<IndexScaleConfig, 'dir'> = {
  shards: 70_000,
  lookups: 20,
  latencyMs: 20,
  seed: 15,
};
export const MANIFEST_LIMIT = 64 * 1024;
export const INDEX_READS_LIMIT = 2;
export const ROUND_TRIPS_LIMIT = 3;

/** Reads of one cold lookup, up to the shard located (manifest and index pages) or to the answer. */
export interface Reads {
  requests: number;
  bytes: number;
  /** Sequential round trips: the longest chain of reads each started after the one before ended (reads.ts). */
  roundTrips: number;
  /** From the manifest's request to the last read's end (locate) or to the answer. */
  ms: number;
  /** Of that, the time some read was in flight (the union of the reads' spans): wall time less the client's own work between reads. */
  waitingMs: number;
}

/** One read of a lookup: its kind, stored bytes, and when it was asked for and came, in ms from the lookup's start. */
export interface TimedRead {
  kind: FileKind;
  bytes: number;
  start: number;
  end: number;
}

export interface ColdLookup {
  key: number;
  /** The shard brute force finds over the key arrays, the one the runtime located, and the shard file it read. */
  expected: number;
  located: number;
  shardFile: string | null;
  indexPages: number;
  locate: Reads;
  query: Reads & { kinds: Partial<Record<FileKind, number>>; status: number };
  reads: TimedRead[];
  /** Requests the server answered during the lookup. */
  served: number;
  /** Whether the accession table was requested before the shard's response came (the same round trip). */
  tableBesideShard: boolean;
}

export interface LevelRow {
  /** 1: listed by the manifest's root. */
  depth: number;
  leaf: boolean;
  pages: number;
  bytes: number;
  minBytes: number;
  maxBytes: number;
}

export interface IndexScaleRun {
  config: Omit<IndexScaleConfig, 'dir'>;
  machine: string;
  manifestBytes: number;
  rootEntries: number;
  levels: number;
  levelRows: LevelRow[];
  totals: { shards: number; massGroups: number; peptides: number; bytes: number };
  seconds: { keys: number; template: number; bodies: number; index: number };
  peakRssMb: number;
  /** The 1-minute load average when the lookups ended (other work on the machine stalls some reads). */
  loadAverage: number;
  /** Shards a ±10 ppm window around each lookup's mass spans (context: what a real search would read). */
  tenPpmShards: { mean: number; max: number };
  /** The shard files written with bodies, by shard number (the rest are absent). */
  bodies: Record<number, string>;
  /** A first lookup, not counted: the process's first run of the query code (JIT), its data as cold as the others'. */
  warmUp: ColdLookup;
  lookups: ColdLookup[];
}

/** Serves the files of `dir` (flat names only), each response `latencyMs` after its request; counts requests. */
async function latencyServer(
  dir: string,
  latencyMs: number,
): Promise<{ url: string; served: () => number; close: () => Promise<void> }> {
  let served = 0;
  const server: Server = createServer((req, res) => {
    served++;
    const name = decodeURIComponent(new URL(req.url ?? '/', 'http://local').pathname.slice(1));
    setTimeout(() => {
      if (!/^[A-Za-z0-9._-]+$/.test(name)) return res.writeHead(404).end();
      readFile(join(dir, name), (error, data) => {
        if (error) return res.writeHead(404).end();
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': data.length }).end(data);
      });
    }, latencyMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/`,
    served: () => served,
    close: () => new Promise((resolve) => (server.close(() => resolve()), server.closeAllConnections())),
  };
}

/** Lookup masses as the peptides lie: a random shard, a random key within it (so every lookup reads one shard). */
export function lookupKeys(keys: SyntheticKeys, count: number, seed: number): number[] {
  const random = prng(seed);
  return Array.from({ length: count }, () => {
    const i = Math.floor(random() * keys.firstKeys.length);
    return keys.firstKeys[i] + Math.floor(random() * (keys.lastKeys[i] - keys.firstKeys[i] + 1));
  });
}

const round = (ms: number) => Math.round(ms * 10) / 10;

/** One cold lookup: a fresh Dataset over a fresh HttpSource answers search.php for the mass of `key` (mass1 = mass2). */
async function coldLookup(url: string, served: () => number, keys: SyntheticKeys, key: number): Promise<ColdLookup> {
  const log = new ReadLog(new HttpSource(url));
  const servedBefore = served();
  const started = performance.now();
  const dataset = await Dataset.open(log, { ...nodeCodecs, cacheBytes: 2 ** 28 });
  const mass = (key / 10_000).toFixed(4);
  const answer = await createAnswerer(async () => dataset)({
    method: 'GET',
    url: new URL(`http://bench/search.php?mass1=${mass}&mass2=${mass}`),
  });
  const ms = performance.now() - started;
  const reads = [...log.reads];
  const located = await dataset.index.lastStartingAtOrBelow(key); // its pages were read by the query: no read
  if (log.reads.length !== reads.length) throw new Error('bench: locating again read more pages');
  const before = reads.filter((r) => r.kind === 'manifest' || r.kind === 'index');
  const shard = reads.find((r) => r.kind === 'shard');
  const table = reads.find((r) => r.kind === 'accessions');
  const kinds: Partial<Record<FileKind, number>> = {};
  for (const r of reads) kinds[r.kind] = (kinds[r.kind] ?? 0) + 1;
  const sum = (list: typeof reads) => list.reduce((s, r) => s + r.bytes, 0);
  return {
    key,
    expected: bruteForceShard(keys, key),
    located: located?.index ?? -1,
    shardFile: shard?.file ?? null,
    indexPages: before.length - 1,
    locate: {
      requests: before.length,
      bytes: sum(before),
      roundTrips: roundTrips(before),
      ms: Math.max(...before.map((r) => r.end)) - started,
      waitingMs: unionMs(before),
    },
    query: {
      requests: reads.length,
      bytes: sum(reads),
      roundTrips: roundTrips(reads),
      ms,
      waitingMs: unionMs(reads),
      kinds,
      status: answer.status,
    },
    reads: reads.map((r) => ({
      kind: r.kind,
      bytes: r.bytes,
      start: round(r.start - started),
      end: round(r.end - started),
    })),
    served: served() - servedBefore,
    tableBesideShard: !!shard && !!table && table.start < shard.end && shard.start < table.end,
  };
}

/** Time covered by at least one of `spans`. */
export function unionMs(spans: readonly { start: number; end: number }[]): number {
  let total = 0;
  let reach = -Infinity;
  for (const { start, end } of [...spans].sort((a, b) => a.start - b.start)) {
    total += Math.max(0, end - Math.max(start, reach));
    reach = Math.max(reach, end);
  }
  return total;
}

/** Pages per level of the tree, from the root down. */
function levelRows(pages: { bytes: number; height: number }[], levels: number): LevelRow[] {
  return Array.from({ length: levels }, (_, k) => {
    const height = levels - 1 - k;
    const sizes = pages.filter((p) => p.height === height).map((p) => p.bytes);
    return {
      depth: k + 1,
      leaf: height === 0,
      pages: sizes.length,
      bytes: sizes.reduce((a, b) => a + b, 0),
      minBytes: Math.min(...sizes),
      maxBytes: Math.max(...sizes),
    };
  });
}

/** Shards a ±10 ppm window around `key` overlaps. */
function windowShards(keys: SyntheticKeys, key: number): number {
  const half = Math.round(key * 1e-5);
  const first = bruteForceShard(keys, key - half);
  const firstOverlapping = first >= 0 && keys.lastKeys[first] >= key - half ? first : first + 1;
  return bruteForceShard(keys, key + half) - firstOverlapping + 1;
}

export async function benchIndexScale(
  config: IndexScaleConfig,
  log: (line: string) => void = () => {},
): Promise<IndexScaleRun> {
  const { dir, shape = INDEX_SHAPE, ...settings } = config;
  const started = performance.now();
  const keys = syntheticKeys(config.shards, config.seed);
  const keySeconds = (performance.now() - started) / 1000;
  const [warmKey, ...probes] = lookupKeys(keys, config.lookups + 1, config.seed + 1);
  log(`${config.shards} shard keys in ${keySeconds.toFixed(1)} s; writing the index`);
  const data = await writeSyntheticDataset(
    dir,
    keys,
    [warmKey, ...probes].map((k) => bruteForceShard(keys, k)),
    shape,
  );
  const levels = data.manifest.shardIndex?.levels ?? 1;
  log(
    `index written in ${data.seconds.index.toFixed(1)} s (${data.pages.length} pages, ${levels} levels); manifest ${data.manifestBytes} bytes; ${config.lookups} cold lookups`,
  );
  const server = await latencyServer(data.dir, config.latencyMs);
  const lookups: ColdLookup[] = [];
  let warmUp: ColdLookup;
  try {
    warmUp = await coldLookup(server.url, server.served, keys, warmKey);
    for (const key of probes) lookups.push(await coldLookup(server.url, server.served, keys, key));
  } finally {
    await server.close();
  }
  const ppm = probes.map((k) => windowShards(keys, k));
  const { totals } = data.manifest;
  return {
    config: { ...settings, ...(config.shape ? { shape } : {}) },
    machine: machine(),
    manifestBytes: data.manifestBytes,
    rootEntries: data.manifest.shardIndex?.pages.length ?? 0,
    levels,
    levelRows: levelRows(data.pages, levels),
    totals: { shards: totals.shards, massGroups: totals.massGroups, peptides: totals.peptides, bytes: totals.bytes },
    seconds: { keys: keySeconds, ...data.seconds },
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    loadAverage: loadavg()[0],
    tenPpmShards: { mean: ppm.reduce((a, b) => a + b, 0) / ppm.length, max: Math.max(...ppm) },
    bodies: Object.fromEntries(data.bodies),
    warmUp,
    lookups,
  };
}

const int = (n: number) => Math.round(n).toLocaleString('en-US');
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const verdict = (met: boolean) => (met ? '**met**' : '**missed**');
const ms1 = (x: number) => x.toFixed(1);

/** Mean / max, or median / max with `median`, of one figure over the lookups, formatted. */
function spread(xs: number[], f: (x: number) => string, median = false): string {
  const { mean, p50, max } = summarize(xs);
  return `${f(median ? p50 : mean)} / ${f(max)}`;
}

/** The BENCHMARKS.md section of a run. */
export function indexScaleSection(run: IndexScaleRun): string[] {
  const { lookups, config } = run;
  const lat = config.latencyMs;
  const pick = <T>(f: (l: ColdLookup) => T) => lookups.map(f);
  const byTime = (ms: number) => Math.floor(ms / lat);
  const maxIndexReads = Math.max(...pick((l) => l.indexPages));
  const maxLocate = Math.max(...pick((l) => l.locate.roundTrips));
  const locateMs = summarize(pick((l) => l.locate.ms));
  const withinByTime = lookups.filter((l) => byTime(l.locate.ms) <= ROUND_TRIPS_LIMIT).length;
  const slowest = lookups.reduce((a, b) => (b.locate.ms > a.locate.ms ? b : a));
  const slowestRead = Math.max(
    ...slowest.reads.filter((r) => r.kind === 'manifest' || r.kind === 'index').map((r) => r.end - r.start),
  );
  const maxQuery = Math.max(...pick((l) => l.query.roundTrips));
  const agreeing = lookups.filter((l) => l.located === l.expected && l.shardFile === run.bodies[l.expected]).length;
  const beside = lookups.filter((l) => l.tableBesideShard).length;
  const row = (name: string, r: (l: ColdLookup) => Reads) =>
    `| ${name} | ${spread(
      pick((l) => r(l).requests),
      (x) => x.toFixed(2),
    )} | ${spread(
      pick((l) => r(l).bytes),
      kb,
    )} | ${spread(
      pick((l) => r(l).roundTrips),
      (x) => x.toFixed(2),
    )} | ` +
    `${spread(
      pick((l) => r(l).ms),
      ms1,
      true,
    )} | ${spread(
      pick((l) => r(l).waitingMs),
      ms1,
      true,
    )} | ${spread(
      pick((l) => byTime(r(l).ms)),
      String,
      true,
    )} |`;
  return [
    `## ${run.totals.shards === 10_000_000 ? '10-million' : int(run.totals.shards)}-shard index (simulated)`,
    '',
    `\`npx tsx test/bench/indexScale.ts ${config.shards}\`: ${int(run.totals.shards)} synthetic shard entries — keys from 500 to 6,000 Da under a gamma-shaped density (mode 1,050 Da, half the shards in 1,000–2,000 Da), content-like names and sha256, 14–21 KB each, seeded — ` +
      `indexed by the build's own writers (builder/writers/indexPages.ts writeLeafPage and shardIndexTree, 256 entries at a time), in a manifest taken from a real build of the sample's first 200 records (its accession table, protein page and taxonomy are real files). ` +
      `Only the ${Object.keys(run.bodies).length} shards the lookups read were written (real bodies of the entries' keys and counts); no other shard file exists. ` +
      `A local node:http server waits ${lat} ms before every response; each of ${lookups.length} cold lookups (after one not counted, below) opens a fresh Dataset over a fresh HttpSource (the manifest read first) and answers search.php for one mass (mass1 = mass2), drawn as the peptides lie (a random shard, a random key in it). ${run.machine}; load average ${run.loadAverage.toFixed(1)}.`,
    '',
    '| level | pages | bytes on disk | per page min / mean / max |',
    '|---|---:|---:|---|',
    `| manifest (root: ${run.rootEntries} ${run.rootEntries === 1 ? 'entry' : 'entries'}) | 1 | ${int(run.manifestBytes)} | — |`,
    ...run.levelRows.map(
      (r) =>
        `| ${r.depth}: ${r.leaf ? 'leaf pages (≤ 256 shards)' : 'inner pages (≤ 1,024 pages)'} | ${int(r.pages)} | ${int(r.bytes)} | ${kb(r.minBytes)} / ${kb(r.bytes / r.pages)} / ${kb(r.maxBytes)} |`,
    ),
    '',
    `Written in ${(run.seconds.keys + run.seconds.index).toFixed(1)} s (keys ${run.seconds.keys.toFixed(1)} s; entries, index pages compressed and written ${run.seconds.index.toFixed(1)} s; the template build ${run.seconds.template.toFixed(1)} s and the ${Object.keys(run.bodies).length} bodies ${run.seconds.bodies.toFixed(1)} s apart), peak RSS ${int(run.peakRssMb)} MB.`,
    '',
    `| cold lookup (${lookups.length}) | requests mean / max | bytes mean / max | round trips counted, mean / max | wall ms median / max | in flight ms median / max | ⌊wall / ${lat} ms⌋ median / max |`,
    '|---|---|---|---|---|---|---|',
    row('to the shard located (manifest, index pages)', (l) => l.locate),
    row('to the answer (+ the shard and the accession table)', (l) => l.query),
    '',
    '| bound | measured | verdict |',
    '|---|---|---|',
    `| manifest ≤ 64 KB | ${int(run.manifestBytes)} bytes (${kb(run.manifestBytes)}) | ${verdict(run.manifestBytes <= MANIFEST_LIMIT)} |`,
    `| ≤ ${INDEX_READS_LIMIT} index page reads after the manifest before the shard | ${maxIndexReads} at most (${run.levels} levels) | ${verdict(maxIndexReads <= INDEX_READS_LIMIT)} |`,
    `| ≤ ${ROUND_TRIPS_LIMIT} sequential round trips from a cold start to the shard located, counted (longest chain of reads each started after the one before ended) | ${maxLocate} at most | ${verdict(maxLocate <= ROUND_TRIPS_LIMIT)} |`,
    `| the same, from wall time: ⌊ms / ${lat}⌋ of the median lookup | ${byTime(locateMs.p50)} (${ms1(locateMs.p50)} ms); ${withinByTime} of ${lookups.length} lookups under ${(ROUND_TRIPS_LIMIT + 1) * lat} ms, the slowest ${ms1(slowest.locate.ms)} ms (one read of it took ${ms1(slowestRead)} ms; its chain: ${slowest.locate.roundTrips}) | ${verdict(byTime(locateMs.p50) <= ROUND_TRIPS_LIMIT)} |`,
    `| every lookup located brute force's shard (binary search over the entries) and read it | ${agreeing} of ${lookups.length} | ${verdict(agreeing === lookups.length)} |`,
    '',
    `Reading the shard itself is **+1 round trip** (${maxQuery} at most to the answer); the accession table, which the first query of a process reads, went out beside the shard (same round trip) in ${beside} of ${lookups.length} lookups — every lookup here is a first query, so each read it (shard and table: ${kb(summarize(pick((l) => l.query.bytes - l.locate.bytes)).mean)} on average; the template's table is small, a TrEMBL-sized one would not be). ` +
      `Before them, one lookup not counted runs the query code once (a fresh process's first lookup: ${ms1(run.warmUp.locate.ms)} ms to the shard located, ${ms1(run.warmUp.query.ms)} ms to the answer, ${run.warmUp.locate.roundTrips} + ${run.warmUp.query.roundTrips - run.warmUp.locate.roundTrips} round trips: the extra time is compiling, not reading). ` +
      `Node's fetch reuses connections, so no TCP or TLS set-up is counted. Context: at this density a ±10 ppm window spans ${run.tenPpmShards.mean.toFixed(1)} shards on average (${run.tenPpmShards.max} at most) — a real search reads that many shards, not one.`,
    '',
  ];
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { lookups: { type: 'string' }, latency: { type: 'string' }, smoke: { type: 'boolean' } },
  });
  const base = values.smoke ? INDEX_SCALE_SMOKE : INDEX_SCALE_FULL;
  const config = {
    ...base,
    shards: Number(positionals[0] ?? base.shards),
    lookups: Number(values.lookups ?? base.lookups),
    latencyMs: Number(values.latency ?? base.latencyMs),
  };
  if (![config.shards, config.lookups].every((n) => Number.isInteger(n) && n > 0) || !(config.latencyMs >= 0))
    throw new Error('usage: indexScale.ts [shards] [--lookups n] [--latency ms]');
  const dir = mkdtempSync(join(tmpdir(), 'dp-index-scale-'));
  try {
    const run = await benchIndexScale({ dir, ...config }, (line) => process.stderr.write(line + '\n'));
    console.log(JSON.stringify(run, null, 1));
    console.log(indexScaleSection(run).join('\n'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();

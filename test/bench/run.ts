// `npm run bench`: every figure of BENCHMARKS.md, measured on this machine — Swiss-Prot-sized builds (gzip and
// brotli, default and the original's parameters), in-process queries (warm, cache-bounded, cold), SQLite side by
// side, cold queries over HTTP, a ≥100,000-shard index, HTTP load, precursor search, MGF matching, identification,
// and fully, semi- and non-specific builds of the real sample.
// `--smoke` runs the same code on a small synthetic set and writes nothing in the repo.
// `--only match|identify|fingerprint|digestion|precursor|scale|partitioned|serve|cold` measures one section again over the last
// run's BENCHMARKS.json; the build scale curve (`--only scale [--multiples K] [--scale-proteins N]`,
// test/bench/scale.ts) is never part of the full run.
// Long on purpose: the report is one table per section of BENCHMARKS.md, each beside the run that fills it.
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sampleStats, SWISS_PROT, writeSynthetic } from './synthetic.js';
import { freePort, load, rssMb, serveOwn, serveShared, startServer, type HttpRun, type Serve } from './http.js';
import { anyWidthRanges, fmt, machine, massWindows } from './measure.js';
import { apiSearchUrl, benchCold, benchWarm, peptideUrl, samplePeptides, searchUrl, type QueryRun } from './queries.js';
import { COMPLETE_VIEW, hypothesisCounts, PRECURSOR_MODS, precursorUrl, windowCentres } from './precursor.js';
import { BACTERIA, lookupUrl, organismSection, SPECIES, taxonSearchUrl, type OrganismRuns } from './organisms.js';
import type { Summary } from './measure.js';
import { benchColdHttp, type ColdHttpRun } from './coldHttp.js';
import { benchIdentify, identifySection, type IdentifyConfig, type IdentifyRuns } from './identify.js';
import { benchFingerprint, FINGERPRINT, fingerprintSection, type FingerprintRuns } from './fingerprint.js';
import { benchDigestion, DIGESTION, digestionSection, type DigestionConfig, type DigestionRuns } from './digestion.js';
import { inProcessBuild, measuredBuild, type Build, type BuildRun } from './measuredBuild.js';
import { buildsSection, coldHttpSection, GOALS, goalsSection, memorySection, sizeSection } from './sections.js';
import { benchSqlite, buildSqlite, loadSqlite } from './sqlite.js';
import {
  benchMatch,
  matchRun,
  matchSection,
  MATCH_SPECTRA,
  writeBenchMgf,
  type MatchRun,
  type MatchRuns,
} from './match.js';
import { benchScale, SCALE_MULTIPLES, scaleSection, type ScaleRuns } from './scale.js';
import { benchPartitioned, partitionedSection, type PartitionedRun } from './partitioned.js';
import {
  benchIndexScale,
  INDEX_SCALE_FULL,
  INDEX_SCALE_SMOKE,
  indexScaleSection,
  type IndexScaleRun,
} from './indexScale.js';

const defaultPage = (w: [string, string]) => searchUrl(w).replace('&pageSize=1000', '');
/** The default build's arguments (default parameters, the bundled taxonomy). */
const DEFAULT_BUILD_ARGS = ['--taxdump', 'data/taxdump'];
/** The original service's download parameters. */
const ORIGINAL_PARAMETERS = ['--missed-cleavages', '1', '--min-length', '7', '--max-length', '30'];

export interface BenchConfig {
  dir: string;
  proteins: number;
  queries: number;
  coldQueries: number;
  httpSeconds: number;
  /** Target shard size of the ≥100,000-shard simulation build (on the bundled sample). */
  tinyShardBytes: number;
  tinyInput: string;
  /** Cold queries over HTTP: first queries of a fresh process (default 20), and later cold queries (default 200). */
  coldHttpFirst?: number;
  coldHttpNext?: number;
  /** Precursors of the MGF matching benchmark (default 10,000). */
  matchSpectra?: number;
  /** The identification benchmark's proteome and spectra (default test/bench/identify.ts IDENTIFY). */
  identify?: IdentifyConfig;
  /** The fingerprinting benchmark's lists (default test/bench/fingerprint.ts FINGERPRINT). */
  fingerprint?: typeof FINGERPRINT;
  /** The digestion benchmark's inputs and queries (default test/bench/digestion.ts DIGESTION). */
  digestion?: DigestionConfig;
  /** Arguments added to every build of the run but the scale curve's (the smoke test's `--threads 0`); none by default. */
  buildArgs?: string[];
  /**
   * The runs whose process the smoke test checks nothing of in this process, unmeasured: every build but the
   * default one, the identification run, the MGF match on the view, the one-process fingerprinting run. By default
   * each is a child process, measured.
   */
  inProcess?: boolean;
  /**
   * One server for the sections that only read the dataset's files over HTTP (MGF matching, cold queries over
   * HTTP), their figures being the client's (the smoke test's); by default each starts its own.
   */
  sharedServer?: boolean;
  /**
   * npm start under the default cache after the warm-up too (default true; the smoke test leaves it out: the
   * whole-cache run makes the same warm-up).
   */
  budgetWarmHttp?: boolean;
}

/** How the run builds every dataset but the default one. */
const builderOf = (config: BenchConfig): Build => (config.inProcess ? inProcessBuild : measuredBuild);

export const FULL: Omit<BenchConfig, 'dir'> = {
  proteins: SWISS_PROT.proteins,
  queries: 10_000,
  coldQueries: 2_000,
  httpSeconds: 30,
  tinyShardBytes: 300,
  tinyInput: 'data/uniprot-sample.fasta.gz',
  coldHttpFirst: 20,
  coldHttpNext: 200,
};

/** The precursor benchmark on one dataset: hypotheses per query, then warm, under a 256 MB cache, cold. */
export interface PrecursorRuns {
  hypotheses: Summary;
  warm: QueryRun;
  budget: QueryRun;
  cold: QueryRun;
}

export interface BenchResults {
  config: BenchConfig;
  /** gzip (the default compression): default parameters and the original's. */
  build: BuildRun;
  original: BuildRun;
  /** The same two builds with --compression br. */
  brotli?: { build: BuildRun; original: BuildRun };
  warm: Record<string, QueryRun>;
  budget: Record<string, QueryRun>;
  cold: Record<string, QueryRun>;
  sqlite?: Record<string, { latency: QueryRun['latency']; hitsMean: number }>;
  /** ±10 ppm queries read over HTTP from a cold start. */
  coldHttp?: Record<string, ColdHttpRun>;
  tiny: { build: BuildRun; rootBytes: number; pages: number; cold: Record<string, QueryRun> };
  /**
   * `npm start` as it is (256 MB cache, cold), the same after two warm-up passes (`budgetWarm`), and with the whole
   * dataset cached after those passes.
   */
  http: { budget: HttpRun; warm: HttpRun; budgetWarm?: HttpRun };
  /** /api/v1/search at the ±10 ppm windows' centres, with the benchmark's modifications (PRECURSOR_MODS). */
  precursor: PrecursorRuns;
  /**
   * The same input built with a view of the fixed modification (`--view Carbamidomethyl@C`): its build, the
   * precursor benchmark and an all-candidates MGF match on it.
   */
  view?: { build: BuildRun; precursor: PrecursorRuns; match: MatchRun };
  /**
   * The same input built with the complete view of the benchmark's modifications (`--view fixed=…&variable=…&maxVariable=2`)
   * and the precursor benchmark on it.
   */
  complete?: { build: BuildRun; precursor: PrecursorRuns };
  /** /api/v1/search filtered by taxon, and /api/v1/peptide look-ups. */
  organisms?: OrganismRuns;
  /** MGF matching (`npm run query -- match`). */
  match?: MatchRuns;
  /** Identification (`npm run query -- identify`) beside Comet. */
  identify?: IdentifyRuns;
  /** Peptide mass fingerprinting on the default dataset. */
  fingerprint?: FingerprintRuns;
  /** Fully, semi- and non-specific builds of the bundled real sample and ±10 ppm queries on each. */
  digestion?: DigestionRuns;
  /** The build scale curve (`--only scale` alone; a full run keeps the last one). */
  scale?: ScaleRuns;
  /** A 4-part build of the full run's input merged against a single build (`--only scale` too). */
  partitioned?: PartitionedRun;
  /** A simulated 10-million-shard index read cold over HTTP with 20 ms a request (`--only scale` too). */
  indexScale?: IndexScaleRun;
}

export async function runBench(config: BenchConfig, log: (line: string) => void): Promise<BenchResults> {
  mkdirSync(config.dir, { recursive: true });
  const fasta = join(config.dir, `synthetic-v2-${config.proteins}.fasta`);
  if (!existsSync(fasta)) {
    log(`generating ${fasta}`);
    const residues = (SWISS_PROT.residues / SWISS_PROT.proteins) * config.proteins;
    await writeSynthetic(fasta + '.part', config.proteins, residues, 1, await sampleStats());
    renameSync(fasta + '.part', fasta);
  }
  // Folder names keep their "v2-" prefix: `--only` runs find a full run's datasets by them.
  const folder = (name: string) => join(config.dir, `v2-${name}-${config.proteins}`);
  const dir = folder('dataset');
  const extra = config.buildArgs ?? [];
  const otherBuild = builderOf(config);
  log('build, default parameters (gzip)');
  const build = await measuredBuild(fasta, dir, [...DEFAULT_BUILD_ARGS, ...extra]);
  log(
    `  ${build.seconds.toFixed(0)} s, peak RSS ${build.peakRssMb.toFixed(0)} MB, ${(build.allFilesBytes / build.manifest.totals.peptides).toFixed(2)} B/peptide`,
  );
  log("build, the original's download parameters (gzip)");
  const original = await otherBuild(fasta, folder('original'), [...ORIGINAL_PARAMETERS, ...extra]);
  log('builds again with --compression br');
  const brotli = {
    build: await otherBuild(fasta, folder('dataset-br'), [
      '--taxdump',
      'data/taxdump',
      '--compression',
      'br',
      ...extra,
    ]),
    original: await otherBuild(fasta, folder('original-br'), [...ORIGINAL_PARAMETERS, '--compression', 'br', ...extra]),
  };

  const n = config.queries;
  const sets = await querySets(dir, n);
  const wide = anyWidthRanges(config.coldQueries, 4, 9000).map(searchUrl);
  const { warm, budget } = await benchQueries(dir, sets, log);
  log('precursor search (/api/v1/search)');
  const centres = precursorCentres(config.queries);
  const precursor = await benchPrecursor(dir, config);
  log('organisms and proteins (taxon filters, peptide look-ups)');
  const stored = await samplePeptides(dir, n, 6);
  const organisms: OrganismRuns = {
    unfiltered: await benchWarm(dir, centres.map(apiSearchUrl), 2 ** 40),
    bacteria: await benchWarm(dir, centres.map(taxonSearchUrl(BACTERIA)), 2 ** 40),
    species: await benchWarm(dir, centres.map(taxonSearchUrl(SPECIES)), 2 ** 40),
    lookup: await benchWarm(dir, stored.map(lookupUrl(false)), 2 ** 40),
    lookupIL: await benchWarm(dir, stored.map(lookupUrl(true)), 2 ** 40),
    lookupBudget: await benchWarm(dir, stored.map(lookupUrl(false)), 256 * 2 ** 20),
  };
  // A shared server left running by a failure is stopped when this process exits (startServer).
  const shared = config.sharedServer ? serveShared() : undefined;
  const serve = shared?.serve ?? serveOwn;
  log('MGF matching (npm run query -- match)');
  const match = await benchMatch(dir, join(config.dir, 'bench.mgf'), config.matchSpectra, serve);
  log('identification (npm run query -- identify) beside Comet');
  const identify = await benchIdentify(join(config.dir, 'identify'), config.identify, extra, config.inProcess);
  log('peptide mass fingerprinting');
  const fingerprint = await benchFingerprint(dir, fasta, config.fingerprint ?? FINGERPRINT, log, config.inProcess);
  log('digestion: fully, semi- and non-specific builds of the real sample');
  const digestion = await benchDigestion(
    join(config.dir, 'digestion'),
    config.digestion ?? DIGESTION,
    log,
    extra,
    otherBuild,
  );
  const view = await benchView(fasta, config, log);
  const complete = await benchComplete(fasta, config, log);
  const { cold, coldHttp } = await benchColdSets(dir, config, sets, centres, log, serve);
  shared?.close();
  const sqlite = await benchSqliteSets(dir, config, log);

  log('≥100,000-shard simulation');
  const tinyDir = join(config.dir, 'v2-tiny-shards');
  const tinyBuild = await otherBuild(config.tinyInput, tinyDir, [
    '--shard-bytes',
    String(config.tinyShardBytes),
    ...extra,
  ]);
  const tiny = {
    build: tinyBuild,
    rootBytes: statSync(join(tinyDir, 'manifest.json')).size,
    pages: tinyBuild.manifest.shardIndex?.pages.length ?? 0,
    cold: {
      // Default page size (10): these rows measure the index, not the payload of 1000-group pages.
      '±0.1 Da, pageSize 10': await benchCold(
        tinyDir,
        massWindows(config.coldQueries, 5, { lo: 360, hi: 6000, halfWidthDa: 0.1 }).map(defaultPage),
      ),
      'any width, pageSize 10': await benchCold(
        tinyDir,
        wide.map((u) => u.replace('&pageSize=1000', '')),
      ),
    },
  };

  const http = await benchHttp(dir, sets['±10 ppm'], config, log);
  return {
    config,
    build,
    original,
    brotli,
    warm,
    budget,
    cold,
    sqlite,
    coldHttp,
    tiny,
    http,
    precursor,
    organisms,
    match,
    identify,
    fingerprint,
    digestion,
    view,
    complete,
  };
}

/** The benchmark's three query sets (±0.1 Da and ±10 ppm windows, stored peptides) over the dataset in `dir`. */
async function querySets(dir: string, n: number): Promise<Record<string, string[]>> {
  return {
    '±0.1 Da': massWindows(n, 1, { lo: 360, hi: 8500, halfWidthDa: 0.1 }).map(searchUrl),
    '±10 ppm': massWindows(n, 2, { lo: 360, hi: 8500, ppm: 10 }).map(searchUrl),
    'search-peptide': (await samplePeptides(dir, n, 3)).map(peptideUrl),
  };
}

/** Each set warm (whole dataset cached) and under the default 256 MB cache. */
async function benchQueries(
  dir: string,
  sets: Record<string, string[]>,
  log: (line: string) => void,
): Promise<Pick<BenchResults, 'warm' | 'budget'>> {
  const warm: Record<string, QueryRun> = {};
  const budget: Record<string, QueryRun> = {};
  for (const [name, urls] of Object.entries(sets)) {
    log(`queries warm: ${name}`);
    warm[name] = await benchWarm(dir, urls, 2 ** 40);
    budget[name] = await benchWarm(dir, urls, 256 * 2 ** 20);
  }
  return { warm, budget };
}

/** Cold queries in process (reads counted through the ShardSource) and over HTTP from a cold start. */
async function benchColdSets(
  dir: string,
  config: BenchConfig,
  sets: Record<string, string[]>,
  centres: number[],
  log: (line: string) => void,
  serve: Serve = serveOwn,
): Promise<Pick<BenchResults, 'cold' | 'coldHttp'>> {
  log('queries cold');
  const wide = anyWidthRanges(config.coldQueries, 4, 9000).map(searchUrl);
  // Cold ranges of any width at search.php's default page (10 groups): two edge shards and the page's.
  // At pageSize 1000 a page in the densest masses spans several shards: reported, not held to the target.
  const cold = {
    '±0.1 Da, pageSize 1000': await benchCold(dir, sets['±0.1 Da'].slice(0, config.coldQueries)),
    'any width, pageSize 10': await benchCold(
      dir,
      wide.map((u) => u.replace('&pageSize=1000', '')),
    ),
    'any width, pageSize 1000': await benchCold(dir, wide),
  };
  log('cold queries over HTTP');
  const firstCount = config.coldHttpFirst ?? 20;
  const nextCount = config.coldHttpNext ?? 200;
  const ppm = sets['±10 ppm'];
  const coldHttp = {
    'search.php, pageSize 1000': await benchColdHttp(
      dir,
      ppm.slice(0, firstCount),
      ppm.slice(firstCount, firstCount + nextCount),
      serve,
    ),
    '/api/v1/search, default page': await benchColdHttp(
      dir,
      centres.slice(0, firstCount).map(apiSearchUrl),
      centres.slice(firstCount, firstCount + nextCount).map(apiSearchUrl),
      serve,
    ),
  };
  return { cold, coldHttp };
}

/** SQLite on the same peptides and windows (undefined when better-sqlite3 is not installed). */
async function benchSqliteSets(
  dir: string,
  config: BenchConfig,
  log: (line: string) => void,
): Promise<BenchResults['sqlite']> {
  if (!loadSqlite()) {
    log('better-sqlite3 is not installed: SQLite baseline skipped');
    return undefined;
  }
  log('SQLite import and queries');
  const db = await buildSqlite(dir, join(config.dir, `sqlite-${config.proteins}.db`));
  const n = config.queries;
  const sqlite = {
    '±0.1 Da': benchSqlite(db, massWindows(n, 1, { lo: 360, hi: 8500, halfWidthDa: 0.1 })),
    '±10 ppm': benchSqlite(db, massWindows(n, 2, { lo: 360, hi: 8500, ppm: 10 })),
  };
  db.close();
  return sqlite;
}

/** npm start's server under load (±10 ppm): the default cache from cold and after a warm-up, and the whole dataset cached after one. */
async function benchHttp(
  dir: string,
  ppm: string[],
  config: BenchConfig,
  log: (line: string) => void,
): Promise<BenchResults['http']> {
  log(`HTTP load, ${config.httpSeconds} s, ${config.budgetWarmHttp === false ? 'twice' : 'three times'}`);
  const paths = ppm.map((u) => u.replace('http://bench', ''));
  const httpRun = async (cacheBytes: number, warmUp: boolean): Promise<HttpRun> => {
    const port = await freePort();
    const server = await startServer(dir, port, { SHARD_CACHE_BYTES: String(cacheBytes) });
    try {
      if (warmUp) await load(port, paths, 0, 16, 2 * paths.length); // decodes the shards, then builds their entry JSON
      const rssBeforeMb = rssMb(server.pid!);
      const run = await load(port, paths, config.httpSeconds);
      return { ...run, rssBeforeMb, rssAfterMb: rssMb(server.pid!) };
    } finally {
      server.kill();
    }
  };
  const budget = await httpRun(256 * 2 ** 20, false);
  const budgetWarm = config.budgetWarmHttp === false ? undefined : await httpRun(256 * 2 ** 20, true);
  return { budget, ...(budgetWarm ? { budgetWarm } : {}), warm: await httpRun(2 ** 33, true) };
}

/** The complete view section: the input built with the complete view of the benchmark's modifications, then precursor search on it. */
async function benchComplete(
  fasta: string,
  config: BenchConfig,
  log: (line: string) => void,
): Promise<NonNullable<BenchResults['complete']>> {
  const dir = join(config.dir, `v2-complete-${config.proteins}`);
  log(`build with --view ${COMPLETE_VIEW}`);
  const build = await builderOf(config)(fasta, dir, [
    '--taxdump',
    'data/taxdump',
    '--view',
    COMPLETE_VIEW,
    ...(config.buildArgs ?? []),
  ]);
  log('precursor search on the complete view');
  return { build, precursor: await benchPrecursor(dir, config) };
}

/** The view section: the input built with `--view` of the benchmark's fixed modification, then precursor search and an MGF match on it. */
async function benchView(
  fasta: string,
  config: BenchConfig,
  log: (line: string) => void,
): Promise<NonNullable<BenchResults['view']>> {
  const dir = join(config.dir, `v2-view-${config.proteins}`);
  log(`build with --view ${PRECURSOR_MODS.fixed}`);
  const build = await builderOf(config)(fasta, dir, [
    '--taxdump',
    'data/taxdump',
    '--view',
    PRECURSOR_MODS.fixed,
    ...(config.buildArgs ?? []),
  ]);
  log('precursor search on the view');
  const precursor = await benchPrecursor(dir, config);
  log('MGF matching on the view');
  const mgf = join(config.dir, 'bench.mgf');
  writeBenchMgf(mgf, config.matchSpectra ?? MATCH_SPECTRA);
  return { build, precursor, match: await matchRun(mgf, dir, config.inProcess) };
}

const TARGETS = {
  buildSeconds: 600,
  buildRssMb: 2048,
  p50: 0.2,
  p99: 2,
  coldShards: 3,
  coldBytes: 1e6,
  rps: 5000,
  precursorColdShards: 6,
};
const met = (ok: boolean) => (ok ? 'met' : '**missed**');

/** Bytes per distinct peptide of the default build, every file of its folder. */
const bytesPerPeptide = (x: BenchResults) => x.build.allFilesBytes / x.build.manifest.totals.peptides;

/** Key figures of this run beside the previous one (BENCHMARKS.json as it was before this run). */
function comparison(r: BenchResults, before: BenchResults | undefined): string[] {
  if (!before) return [];
  const rows: [string, (x: BenchResults) => number | undefined, string][] = [
    ['build wall time', (x) => x.build.seconds, 's'],
    ['build peak RSS', (x) => x.build.peakRssMb, 'MB'],
    ['dataset bytes per distinct peptide', bytesPerPeptide, 'B'],
    ...Object.keys(r.warm).flatMap((name): [string, (x: BenchResults) => number | undefined, string][] => [
      [`warm ${name} p50`, (x) => x.warm[name]?.latency.p50, 'ms'],
      [`warm ${name} p99`, (x) => x.warm[name]?.latency.p99, 'ms'],
      [`256 MB budget ${name} p50`, (x) => x.budget[name]?.latency.p50, 'ms'],
      [`256 MB budget ${name} p99`, (x) => x.budget[name]?.latency.p99, 'ms'],
    ]),
    ...Object.keys(r.cold).map((name): [string, (x: BenchResults) => number | undefined, string] => [
      `cold ${name} p50`,
      (x) => x.cold[name]?.latency.p50,
      'ms',
    ]),
    ...Object.keys(r.cold).map((name): [string, (x: BenchResults) => number | undefined, string] => [
      `cold ${name} bytes read, mean`,
      (x) => x.cold[name]?.reads?.bytesMean,
      'B',
    ]),
    ['HTTP, whole dataset cached', (x) => x.http.warm.requestsPerSecond, 'req/s'],
    ['HTTP, 256 MB cache', (x) => x.http.budget.requestsPerSecond, 'req/s'],
  ];
  const num = (v: number | undefined) => (v === undefined || Number.isNaN(v) ? '—' : v >= 100 ? v.toFixed(0) : fmt(v));
  const formats = `format ${before.build.manifest.formatVersion} → ${r.build.manifest.formatVersion}`;
  return [
    '## Compared with the previous run',
    '',
    `The previous run is the BENCHMARKS.json this run replaced (same machine kind, same seeds; ${formats}). Between runs on`,
    'this 2-core machine p99 varies by up to ~3× (a few GC pauses among 10,000 queries); p50 and throughput are steadier.',
    'Bytes per peptide: every file of the folder. Cold bytes: stored (compressed) bytes of the files a query read (the',
    'accession table, read once per process, not counted).',
    '',
    '| figure | previous | this run |',
    '|---|---|---|',
    ...rows.map(([name, get, unit]) => `| ${name} (${unit}) | ${num(get(before))} | ${num(get(r))} |`),
    '',
  ];
}

export function report(r: BenchResults, command: string, before?: BenchResults): string {
  const t = r.build.manifest.totals;
  const lat = (q: { latency: QueryRun['latency'] }) =>
    `${fmt(q.latency.p50)} | ${fmt(q.latency.p95)} | ${fmt(q.latency.p99)} | ${fmt(q.latency.max)}`;
  const lines = [
    '# Benchmarks',
    '',
    `Latest run: ${new Date().toISOString().slice(0, 10)}, command \`${command}\`, machine of this run: ${machine()} (a section from another run may come from another machine: compare figures within a section).`,
    `Data: synthetic Swiss-Prot-sized FASTA (${r.config.proteins.toLocaleString('en')} proteins, seeded, generated by test/bench/synthetic.ts from the real sample's statistics; benchmark only). Dataset format ${r.build.manifest.formatVersion}, ${r.build.manifest.compression} unless stated. Latencies in ms.`,
    '',
    ...goalsSection(r),
    ...sizeSection(r),
    '## Build (default parameters: trypsin, 2 missed cleavages, length 6–50; gzip)',
    '',
    '| figure | measured | target |',
    '|---|---|---|',
    `| wall time | ${r.build.seconds.toFixed(0)} s | ≤ ${TARGETS.buildSeconds} s: ${met(r.build.seconds <= TARGETS.buildSeconds)} |`,
    `| peak RSS (all threads) | ${r.build.peakRssMb.toFixed(0)} MB | ≤ ${TARGETS.buildRssMb} MB: ${met(r.build.peakRssMb <= TARGETS.buildRssMb)} |`,
    `| temporary disk (partitions) | ${r.build.tempMb} MB | reported |`,
    `| proteins / distinct peptides / mass groups / shards | ${t.proteins.toLocaleString('en')} / ${t.peptides.toLocaleString('en')} / ${t.massGroups.toLocaleString('en')} / ${t.shards.toLocaleString('en')} | |`,
    '',
    'Every build of this run:',
    '',
    ...buildsSection(r),
    ...(r.scale ? scaleSection(r.scale) : []),
    ...(r.partitioned ? partitionedSection(r.partitioned) : []),
    ...(r.indexScale ? indexScaleSection(r.indexScale) : []),
    '## Queries in process (count + first page of up to 1000 mass groups, JSON body built)',
    '',
    `${r.config.queries.toLocaleString('en')} queries per set, mass windows centred uniformly in 360–8500 Da. Warm: every shard a query needs already decoded and its entry JSON built (two passes over the set before the measured one); "256 MB budget": the same passes with the cache bounded as on a function instance, so shards are evicted and read again.`,
    '',
    '| set | cache | p50 | p95 | p99 | max | mean hits | target |',
    '|---|---|---|---|---|---|---|---|',
    ...Object.entries(r.warm).map(
      ([name, q]) =>
        `| ${name} | warm | ${lat(q)} | ${q.hitsMean.toFixed(1)} | p50 ≤ ${TARGETS.p50}: ${met(q.latency.p50 <= TARGETS.p50)}, p99 ≤ ${TARGETS.p99}: ${met(q.latency.p99 <= TARGETS.p99)} |`,
    ),
    ...Object.entries(r.budget).map(
      ([name, q]) =>
        `| ${name} | 256 MB budget | ${lat(q)} | ${q.hitsMean.toFixed(1)} | ${r.sqlite?.[name] ? 'beside SQLite below' : 'reported'} |`,
    ),
    '',
    ...memorySection(r),
    '## Cold queries in process (empty caches; reads counted through the ShardSource)',
    '',
    'Each query on a freshly opened dataset (manifest parsed) whose accession table is already in memory: a process',
    'reads it once (its cost: the HTTP section below). Bytes: stored (compressed) bytes of every file the query read.',
    'Held to the target: ranges of any width at the default page (10 groups), and the ±0.1 Da windows with',
    'pages of 1000 groups. The latter can miss by construction: in the low-mass region a 0.2 Da window holds',
    'short peptides shared by thousands of proteins, and its answer alone is up to ~1 MB of JSON, so the',
    'shards holding it cannot be fewer or smaller. Any width at pageSize 1000 is reported only.',
    '',
    '| dataset | set | p50 | p95 | p99 | max | shard reads mean / max | index pages max | bytes mean / max | target |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...Object.entries(r.cold).map(([name, q]) =>
      coldRow('Swiss-Prot-sized', name, q, lat, !name.endsWith('pageSize 1000') || name.startsWith('±')),
    ),
    ...Object.entries(r.tiny.cold).map(([name, q]) =>
      coldRow(
        `${r.tiny.build.manifest.totals.shards.toLocaleString('en')} tiny shards (simulation)`,
        name,
        q,
        lat,
        false,
      ),
    ),
    '',
    ...coldHttpSection(r),
    '## SQLite side by side, fully cached (same peptides, same windows, count + first page, body built)',
    '',
    ...(r.sqlite
      ? [
          '| set | ours p50 | SQLite p50 | ours p99 | SQLite p99 | p50 ratio (target ≥ 1) | p99 ratio (target ≥ 3) |',
          '|---|---|---|---|---|---|---|',
          ...Object.entries(r.sqlite).map(([name, s]) => {
            const ours = r.warm[name].latency;
            const p50 = s.latency.p50 / ours.p50;
            const p99 = s.latency.p99 / ours.p99;
            return `| ${name} | ${fmt(ours.p50)} | ${fmt(s.latency.p50)} | ${fmt(ours.p99)} | ${fmt(s.latency.p99)} | ${p50.toFixed(2)}× ${met(p50 >= 1)} | ${p99.toFixed(2)}× ${met(p99 >= 3)} |`;
          }),
        ]
      : ['better-sqlite3 was not installed on this machine: no SQLite figures.']),
    '',
    '## Beyond one machine: ≥100,000 shards',
    '',
    `The bundled sample built with \`--shard-bytes ${r.config.tinyShardBytes}\`: ${r.tiny.build.manifest.totals.shards.toLocaleString('en')} shards, ` +
      `root index (manifest.json) ${(r.tiny.rootBytes / 1024).toFixed(1)} KiB with ${r.tiny.pages} index pages; cold reads per query in the in-process cold table above.`,
    '',
    `## HTTP (npm start's server on loopback, autocannon, ${r.config.httpSeconds} s, 16 connections, ±10 ppm queries)`,
    '',
    'The same server three times: as `npm start` runs by default (`SHARD_CACHE_BYTES` 256 MB), starting cold (the first',
    'pass over the queries reads and decodes their shards) and again after two warm-up passes over the',
    `${r.config.queries.toLocaleString('en')} queries (steady state: the cache keeps what it can of a working set larger than its budget); and with`,
    '`SHARD_CACHE_BYTES=8589934592` after the same warm-up (the whole dataset decoded in memory: what a dedicated 24 GB',
    "server would run). autocannon runs in the benchmark's process on the same 2 cores.",
    '',
    '| server | requests/s | requests | errors | non-2xx | p50 | p90 | p99 | max | RSS before → after | target |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    httpRow(
      '256 MB cache (default), cold start',
      r.http.budget,
      `≥ ${GOALS.rps} req/s, 0 errors: ${met(r.http.budget.requestsPerSecond >= GOALS.rps && r.http.budget.errors === 0 && r.http.budget.non2xx === 0)}`,
    ),
    ...(r.http.budgetWarm ? [httpRow('256 MB cache (default), after the warm-up', r.http.budgetWarm, 'reported')] : []),
    httpRow(
      'whole dataset cached, warm',
      r.http.warm,
      `≥ ${TARGETS.rps} req/s, 0 errors: ${met(r.http.warm.requestsPerSecond >= TARGETS.rps && r.http.warm.errors === 0 && r.http.warm.non2xx === 0)}`,
    ),
    '',
    ...precursorSection(r, lat),
    ...(r.match ? matchSection(r.match, r.config.matchSpectra ?? MATCH_SPECTRA, r.view?.match) : []),
    ...(r.identify ? identifySection(r.identify) : []),
    ...(r.fingerprint ? fingerprintSection(r.fingerprint) : []),
    ...(r.digestion ? digestionSection(r.digestion) : []),
    ...(r.organisms ? organismSection(r.organisms, lat) : []),
    ...comparison(r, before),
  ];
  return lines.join('\n');
}

/** `; 97.5 % of queries within` when the run counted queries by shard reads. */
function within(reads: NonNullable<QueryRun['reads']>, most: number): string {
  const histogram = reads.shardsHistogram;
  if (!histogram) return '';
  const counts = Object.entries(histogram).map(([reads, n]) => [Number(reads), n] as const);
  const total = counts.reduce((sum, [, n]) => sum + n, 0);
  return `; ${((100 * counts.filter(([reads]) => reads <= most).reduce((sum, [, n]) => sum + n, 0)) / total).toFixed(1)} % of queries within`;
}

function precursorSection(r: BenchResults, lat: (q: QueryRun) => string): string[] {
  const hypotheses = ({ hypotheses: h }: PrecursorRuns) =>
    `p50 ${h.p50}, p95 ${h.p95}, p99 ${h.p99}, max ${h.max}, mean ${h.mean.toFixed(1)}`;
  const rows = (dataset: string, p: PrecursorRuns) => {
    const reads = p.cold.reads!;
    return [
      `| ${dataset} | warm | ${lat(p.warm)} | ${p.warm.hitsMean.toFixed(1)} | | | p50 ≤ ${TARGETS.p50}: ${met(p.warm.latency.p50 <= TARGETS.p50)}, p99 ≤ ${TARGETS.p99}: ${met(p.warm.latency.p99 <= TARGETS.p99)} |`,
      `| ${dataset} | 256 MB budget | ${lat(p.budget)} | ${p.budget.hitsMean.toFixed(1)} | | | reported |`,
      `| ${dataset} | cold | ${lat(p.cold)} | ${p.cold.hitsMean.toFixed(1)} | ${reads.shardsMean.toFixed(2)} / ${reads.shardsMax} | ${(reads.bytesMean / 1e3).toFixed(0)} KB / ${(reads.bytesMax / 1e3).toFixed(0)} KB | ≤ ${TARGETS.precursorColdShards} shard reads (the most any query makes): ${met(reads.shardsMax <= TARGETS.precursorColdShards)}; mean: ${met(reads.shardsMean <= TARGETS.precursorColdShards)}${within(reads, TARGETS.precursorColdShards)} |`,
    ];
  };
  const v = r.view;
  const viewBytes = v?.build.manifest.views?.[0]?.totals.bytes;
  const c = r.complete;
  const completeView = c?.build.manifest.views?.[0];
  return [
    '## Precursor search (/api/v1/search)',
    '',
    `The ±10 ppm windows' centres as neutral masses, fixed ${PRECURSOR_MODS.fixed}, variable ${PRECURSOR_MODS.variable}, maxVariable ${PRECURSOR_MODS.maxVariable},`,
    'default page (100 groups), body built. Each hypothesis (a count of C and of oxidised M) is one range read of',
    'unmodified masses; shards whose residue maxima cannot hold the counts are skipped unread. On a dataset built',
    `with \`--view ${PRECURSOR_MODS.fixed}\` (docs/format.md "Views"), the peptides holding a C are read from the view, whose`,
    'keys carry the modification on every C: one range per count of oxidised M instead of one per count of C and of M.',
    '',
    `On a dataset built with the complete view \`--view ${COMPLETE_VIEW}\` (docs/format.md "Complete views"), every`,
    'peptide is in the view once per count of oxidised M (0 to 2), keyed by its modified mass: the query is one range of it.',
    '',
    `Hypotheses per query: ${hypotheses(r.precursor)} (they grow with the mass — a heavier peptide can hold more C — up to the most C and M any peptide of the dataset holds: no hypothesis is made beyond, by the index's residue maxima)` +
      (v ? `; with the view: ${hypotheses(v.precursor)}` : '') +
      (c
        ? `; with the complete view: ${hypotheses(c.precursor)} (one per count of oxidised M, all read in one range)`
        : '') +
      '.',
    ...(v && viewBytes !== undefined
      ? [
          '',
          `The view holds ${v.build.manifest.views![0].totals.peptides.toLocaleString('en')} of the ${v.build.manifest.totals.peptides.toLocaleString('en')} peptides in ${v.build.manifest.views![0].totals.shards.toLocaleString('en')} shards, ` +
            `${(viewBytes / 1e6).toFixed(0)} MB beside the dataset's ${(v.build.manifest.totals.bytes / 1e6).toFixed(0)} MB of shards (+${((100 * viewBytes) / v.build.manifest.totals.bytes).toFixed(0)} %); ` +
            `its build took ${v.build.seconds.toFixed(0)} s (peak RSS ${v.build.peakRssMb.toFixed(0)} MB; the last full run's build without it: ${r.build.seconds.toFixed(0)} s, ${r.build.peakRssMb.toFixed(0)} MB).`,
        ]
      : []),
    ...(c && completeView
      ? [
          '',
          `The complete view holds ${completeView.totals.peptides.toLocaleString('en')} entries (the ${c.build.manifest.totals.peptides.toLocaleString('en')} peptides, those with M again per count) in ${completeView.totals.shards.toLocaleString('en')} shards, ` +
            `${(completeView.totals.bytes / 1e6).toFixed(0)} MB beside the dataset's ${(c.build.manifest.totals.bytes / 1e6).toFixed(0)} MB of shards (+${((100 * completeView.totals.bytes) / c.build.manifest.totals.bytes).toFixed(0)} %); ` +
            `its build took ${c.build.seconds.toFixed(0)} s (peak RSS ${c.build.peakRssMb.toFixed(0)} MB).`,
        ]
      : []),
    '',
    '| dataset | cache | p50 | p95 | p99 | max | mean hits | shard reads mean / max | bytes mean / max | target |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...rows('no view', r.precursor),
    ...(v ? rows(`--view ${PRECURSOR_MODS.fixed}`, v.precursor) : []),
    ...(c ? rows('complete view', c.precursor) : []),
    '',
  ];
}

function httpRow(name: string, h: HttpRun, target: string): string {
  return `| ${name} | ${h.requestsPerSecond.toFixed(0)} | ${h.requests} | ${h.errors} | ${h.non2xx} | ${h.latency.p50} | ${h.latency.p90} | ${h.latency.p99} | ${h.latency.max} | ${h.rssBeforeMb.toFixed(0)} → ${h.rssAfterMb.toFixed(0)} MB | ${target} |`;
}

function coldRow(dataset: string, name: string, q: QueryRun, lat: (q: QueryRun) => string, held: boolean): string {
  const reads = q.reads!;
  const ok = reads.shardsMax <= TARGETS.coldShards && reads.bytesMax <= TARGETS.coldBytes;
  const verdict = held ? `≤ ${TARGETS.coldShards} shards, ≤ 1 MB: ${met(ok)}` : 'reported';
  const kb = (b: number) => `${(b / 1e3).toFixed(0)} KB`;
  return `| ${dataset} | ${name} | ${lat(q)} | ${reads.shardsMean.toFixed(2)} / ${reads.shardsMax} | ${reads.pagesMax} | ${kb(reads.bytesMean)} / ${kb(reads.bytesMax)} | ${verdict} |`;
}

/** Centres of the seed's ±10 ppm windows (the same draws), as neutral masses. */
const precursorCentres = (count: number) => windowCentres(count, 2, 360, 8500);

/** Precursor search (/api/v1/search) at the centres of the seed's ±10 ppm windows: warm, under 256 MB, cold. */
async function benchPrecursor(dir: string, config: BenchConfig): Promise<PrecursorRuns> {
  const centres = precursorCentres(config.queries);
  const urls = centres.map(precursorUrl);
  return {
    hypotheses: await hypothesisCounts(dir, centres),
    warm: await benchWarm(dir, urls, 2 ** 40),
    budget: await benchWarm(dir, urls, 256 * 2 ** 20),
    cold: await benchCold(dir, urls.slice(0, config.coldQueries)),
  };
}

/** The runs of `--only <section>`: one section measured again, every other figure the last run's (BENCHMARKS.json). */
const ONLY = [
  'match',
  'identify',
  'fingerprint',
  'digestion',
  'precursor',
  'scale',
  'partitioned',
  'serve',
  'cold',
] as const;

const USAGE = `Usage: npm run bench -- [--smoke] [--only ${ONLY.join('|')}] [--multiples K] [--scale-proteins N]
                        [--dir <work dir>] [--out <BENCHMARKS.md>]
  (no flag)   the full run (long): writes BENCHMARKS.md and BENCHMARKS.json
  --smoke     the same code on a small synthetic set, written under the work dir
  --only X    one section measured again over the last run's BENCHMARKS.json
              (scale: the build scale curve, the partitioned build and the simulated 10-million-shard index)
`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      smoke: { type: 'boolean' },
      out: { type: 'string' },
      dir: { type: 'string' },
      only: { type: 'string' },
      multiples: { type: 'string' },
      'scale-proteins': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  const dir = values.dir ?? join(tmpdir(), values.smoke ? 'digested-peptides-bench-smoke' : 'digested-peptides-bench');
  const config: BenchConfig = values.smoke
    ? {
        dir,
        proteins: 2000,
        queries: 200,
        coldQueries: 50,
        httpSeconds: 2,
        tinyShardBytes: 256,
        tinyInput: join(dir, 'synthetic-v2-2000.fasta'),
        coldHttpFirst: 5,
        coldHttpNext: 20,
        matchSpectra: 200,
        identify: { proteins: 2000, residues: 1_140_000, spectra: 500 },
        fingerprint: { lists: 20, imaging: 200, peaks: 100 },
        digestion: { records: 300, noneRecords: 50, queries: 200 },
      }
    : { dir, ...FULL };
  const scaleConfig = {
    dir,
    proteinsPerMultiple: Number(values['scale-proteins'] ?? (values.smoke ? 2000 : SWISS_PROT.proteins)),
    multiples: Number(values.multiples ?? (values.smoke ? 2 : SCALE_MULTIPLES)),
  };
  if (![scaleConfig.proteinsPerMultiple, scaleConfig.multiples].every((n) => Number.isInteger(n) && n >= 1))
    throw new Error('--multiples and --scale-proteins take positive integers');
  const out = values.out ?? (values.smoke ? join(dir, 'BENCHMARKS.md') : 'BENCHMARKS.md');
  const previous = out.replace(/\.md$/, '.json');
  const before = existsSync(previous) ? (JSON.parse(readFileSync(previous, 'utf8')) as BenchResults) : undefined;
  const log = (line: string) => process.stderr.write(line + '\n');
  const args = `npm run bench -- ${process.argv.slice(2).join(' ')}`.trim();
  let results: BenchResults;
  let command = values.smoke ? 'npm run bench -- --smoke' : 'npm run bench';
  const only = values.only as (typeof ONLY)[number] | undefined;
  if (only !== undefined && !ONLY.includes(only)) throw new Error(`--only takes ${ONLY.join(' or ')}, not ${only}`);
  if (only !== undefined && !before) throw new Error(`--only ${only} needs ${previous} from a full run`);
  if (only === 'match' || only === 'precursor') {
    mkdirSync(config.dir, { recursive: true });
    const datasetDir = join(config.dir, `v2-dataset-${before!.config.proteins}`);
    if (!existsSync(join(datasetDir, 'manifest.json')))
      throw new Error(`--only ${only} needs the full run's dataset in ${datasetDir}`);
    const runConfig = {
      ...config,
      proteins: before!.config.proteins,
      queries: before!.config.queries,
      coldQueries: before!.config.coldQueries,
    };
    const fasta = join(config.dir, `synthetic-v2-${before!.config.proteins}.fasta`);
    results =
      only === 'match'
        ? { ...before!, match: await benchMatch(datasetDir, join(config.dir, 'bench.mgf'), config.matchSpectra) }
        : { ...before!, precursor: await benchPrecursor(datasetDir, runConfig) };
    results.view = await benchView(fasta, runConfig, log); // both sections report the view's figures
    if (only === 'precursor') results.complete = await benchComplete(fasta, runConfig, log);
  } else if (only === 'serve') {
    // What the query engine and its cache decide, measured again on the full run's dataset: queries warm and under
    // 256 MB, SQLite beside them, npm start under load. Builds, cold reads and the other sections stay the last run's.
    const datasetDir = join(config.dir, `v2-dataset-${before!.config.proteins}`);
    if (!existsSync(join(datasetDir, 'manifest.json')))
      throw new Error(`--only serve needs the full run's dataset in ${datasetDir}`);
    const runConfig = { ...config, proteins: before!.config.proteins, queries: before!.config.queries };
    const sets = await querySets(datasetDir, runConfig.queries);
    results = {
      ...before!,
      ...(await benchQueries(datasetDir, sets, log)),
      sqlite: await benchSqliteSets(datasetDir, runConfig, log),
    };
    results.http = await benchHttp(datasetDir, sets['±10 ppm'], runConfig, log);
  } else if (only === 'cold') {
    // What a cold query reads depends on the build (the index's shape): the full run's input built again with
    // today's code (its figures replace the default build's), then cold queries in process and over HTTP.
    const datasetDir = join(config.dir, `v2-dataset-${before!.config.proteins}`);
    const fasta = join(config.dir, `synthetic-v2-${before!.config.proteins}.fasta`);
    if (!existsSync(fasta)) throw new Error(`--only cold needs the full run's input in ${fasta}`);
    const runConfig = {
      ...config,
      proteins: before!.config.proteins,
      queries: before!.config.queries,
      coldQueries: before!.config.coldQueries,
    };
    log('build, default parameters (gzip)');
    const build = await measuredBuild(fasta, datasetDir, DEFAULT_BUILD_ARGS);
    const sets = await querySets(datasetDir, runConfig.queries);
    results = {
      ...before!,
      build,
      ...(await benchColdSets(datasetDir, runConfig, sets, precursorCentres(runConfig.queries), log)),
    };
  } else if (only === 'fingerprint') {
    const datasetDir = join(config.dir, `v2-dataset-${before!.config.proteins}`);
    const fasta = join(config.dir, `synthetic-v2-${before!.config.proteins}.fasta`);
    if (!existsSync(join(datasetDir, 'manifest.json')) || !existsSync(fasta))
      throw new Error(`--only fingerprint needs the full run's input and dataset in ${config.dir}`);
    results = {
      ...before!,
      fingerprint: await benchFingerprint(datasetDir, fasta, config.fingerprint ?? FINGERPRINT, log),
    };
  } else if (only === 'identify') {
    mkdirSync(config.dir, { recursive: true });
    results = { ...before!, identify: await benchIdentify(join(config.dir, 'identify'), config.identify) };
  } else if (only === 'digestion') {
    // Independent of the full run's datasets: the bundled real sample, built at each specificity.
    results = {
      ...before!,
      digestion: await benchDigestion(join(config.dir, 'digestion'), config.digestion ?? DIGESTION, log),
    };
  } else if (only === 'partitioned') {
    results = {
      ...before!,
      partitioned: await benchPartitioned(
        join(config.dir, `synthetic-v2-${before!.config.proteins}.fasta`),
        join(config.dir, 'partitioned'),
      ),
    };
  } else if (only === 'scale') {
    mkdirSync(config.dir, { recursive: true });
    results = {
      ...before!,
      scale: await benchScale(scaleConfig, args, log),
      partitioned: await benchPartitioned(
        join(config.dir, `synthetic-v2-${before!.config.proteins}.fasta`),
        join(config.dir, 'partitioned'),
      ),
      indexScale: await benchIndexScale({ dir: join(config.dir, 'index-scale'), ...INDEX_SCALE_FULL }, log),
    };
  } else {
    results = await runBench(config, log);
    // The scale curve is not part of a full run: the smoke run measures a tiny one, a full run keeps the last.
    results.scale = values.smoke ? await benchScale(scaleConfig, args, log) : before?.scale;
    results.partitioned = values.smoke
      ? await benchPartitioned(
          join(config.dir, `synthetic-v2-${config.proteins}.fasta`),
          join(config.dir, 'partitioned'),
          3,
        )
      : before?.partitioned;
    results.indexScale = values.smoke
      ? await benchIndexScale({ dir: join(config.dir, 'index-scale'), ...INDEX_SCALE_SMOKE }, log)
      : before?.indexScale;
  }
  if (only)
    command = `${args}\` (${{ match: 'MGF matching', identify: 'identification beside Comet', fingerprint: 'peptide mass fingerprinting', digestion: 'fully, semi- and non-specific builds of the real sample', precursor: 'precursor search', scale: 'build scale curve, partitioned build, 10-million-shard index', partitioned: 'partitioned build', serve: 'queries warm and under 256 MB, SQLite, HTTP load', cold: 'default build, cold queries in process and over HTTP' }[only]}); every other section from its own later \`--only\` run or the last full \`npm run bench`;
  const text = report(results, command, only ? undefined : before);
  writeFileSync(out, text);
  writeFileSync(
    out.replace(/\.md$/, '.json'),
    JSON.stringify(results, (k, v) => ((k === 'shards' || k === 'pages') && Array.isArray(v) ? undefined : v), 1),
  );
  process.stdout.write(text);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((e: Error) => {
    process.stderr.write(`bench: error: ${e.message}\n`);
    process.exitCode = 1;
  });
}

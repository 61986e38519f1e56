// In-process query benchmarks: the real handler over a dataset folder, warm, under a cache budget, and cold.
import { prng } from './synthetic.js';
import { Dataset } from '../../runtime/core/storage/dataset.js';
import { sequenceOf } from '../../runtime/model/format.js';
import { createAnswerer, type Call } from '../../runtime/api/handler.js';
import type { Answer } from '../../runtime/api/answer.js';
import type { AccessionTable } from '../../runtime/model/format.js';
import type { ShardSource } from '../../runtime/core/storage/source.js';
import { FileSource } from '../../runtime/entries/node/fileSource.js';
import { nodeCodecs, nodeDecompress } from '../../runtime/entries/node/platform.js';
import { decodeAccessionPage } from '../../runtime/model/shardCodec.js';
import { summarize, type Summary } from './measure.js';
import { ReadLog } from './reads.js';

export interface QueryRun {
  latency: Summary;
  /** Mean and max of matching mass groups per query (totalResult). */
  hitsMean: number;
  hitsMax: number;
  /**
   * Cold runs only: dataset files read per query (shards; index pages counted apart), stored (compressed) bytes
   * of all of them, and the sequential round trips they took (reads that overlap in time count once).
   */
  reads?: {
    shardsMean: number;
    shardsMax: number;
    /** Queries by the number of shards they read. */
    shardsHistogram?: Record<number, number>;
    pagesMax: number;
    bytesMean: number;
    bytesMax: number;
    roundTripsMean?: number;
    roundTripsMax?: number;
  };
}

export const searchUrl = ([m1, m2]: [string, string]) =>
  `http://bench/search.php?mass1=${m1}&mass2=${m2}&pageSize=1000`;
export const apiSearchUrl = (centre: number) => `http://bench/api/v1/search?mass=${centre.toFixed(4)}&tolerance=10`;
export const peptideUrl = (seq: string) => `http://bench/search-peptide.php?peptide=${seq}`;

/** `count` peptides of the dataset, drawn at random groups (seeded). */
export async function samplePeptides(dir: string, count: number, seed: number): Promise<string[]> {
  const dataset = await Dataset.open(new FileSource(dir), { cacheBytes: 2 ** 31, ...nodeCodecs });
  const random = prng(seed);
  const peptides: string[] = [];
  while (peptides.length < count) {
    const located = await dataset.index.shardOfGroup(Math.floor(random() * dataset.index.groupCount));
    const shard = await dataset.shard(located.entry);
    for (let k = 0; k < 20 && peptides.length < count; k++) {
      const p = Math.floor(random() * shard.sequenceEnds.length);
      peptides.push(sequenceOf(shard, p));
    }
  }
  return peptides;
}

/** Times the service core (parse, search, page objects, JSON body text) on each URL. */
async function timeAll(answerer: (call: Call) => Promise<Answer>, urls: string[]) {
  const ms: number[] = [];
  const hits: number[] = [];
  for (const url of urls) {
    const t = performance.now();
    const answer = await answerer({ method: 'GET', url: new URL(url) });
    ms.push(performance.now() - t);
    const head =
      typeof answer.body === 'string' ? answer.body : Buffer.from(answer.body!.subarray(0, 64)).toString('latin1');
    if (answer.status !== 200) throw new Error(`${url}: HTTP ${answer.status} ${head}`);
    // Read totalResult off the body's start: parsing whole bodies here would add the harness's own garbage
    // (and its GC pauses) to the next queries' times.
    // Look-up answers (strings, no envelope) count their peptides.
    const total = /^\{"totalResult":(\d+),/.exec(head);
    hits.push(total ? Number(total[1]) : String(answer.body).split('{"seq":').length - 1);
  }
  return { ms, hits };
}

function run(ms: number[], hits: number[]): QueryRun {
  return {
    latency: summarize(ms),
    hitsMean: hits.reduce((a, b) => a + b, 0) / hits.length,
    hitsMax: Math.max(...hits),
  };
}

/**
 * Warm: two passes to fill the cache (the first decodes the shards, the second builds their entry JSON, which
 * the Dataset builds on a shard's second use), then the measured pass. `cacheBytes` below the working set
 * forces evictions.
 */
export async function benchWarm(dir: string, urls: string[], cacheBytes: number): Promise<QueryRun> {
  const dataset = await Dataset.open(new FileSource(dir), { cacheBytes, ...nodeCodecs }); // as npm start opens it
  const handler = createAnswerer(async () => dataset);
  await timeAll(handler, urls);
  await timeAll(handler, urls);
  const { ms, hits } = await timeAll(handler, urls);
  return run(ms, hits);
}

/**
 * A freshly opened Dataset (manifest read, nothing else) over `source` whose accession table is `table`, already
 * decoded (the accessionTable option): what a long-running process holds after its first query; coldQuery checks
 * that no query then reads the table.
 */
export async function openCold(source: ShardSource, table?: Promise<AccessionTable>): Promise<Dataset> {
  return Dataset.open(source, {
    cacheBytes: 2 ** 30,
    ...nodeCodecs,
    ...(table ? { accessionTable: await table } : {}),
  });
}

/** The dataset's accession table, decoded, and its stored size and decode time (read once, apart from the queries). */
export async function readAccessionTable(
  source: ShardSource,
): Promise<{ table: Promise<AccessionTable>; bytes: number; ms: number }> {
  const dataset = await Dataset.open(source, nodeCodecs);
  const t = performance.now();
  const [entry] = dataset.manifest.accessions.pages; // the bench's datasets have a one-page table (no levels)
  if (dataset.manifest.accessions.pages.length !== 1) throw new Error('bench: the accession table is not one page');
  const table = decodeAccessionPage(await nodeDecompress(await source.get(entry.file), dataset.manifest.compression));
  return {
    table: Promise.resolve(table),
    bytes: dataset.manifest.accessions.pages.reduce((total, page) => total + page.bytes, 0),
    ms: performance.now() - t,
  };
}

/** One cold query on `dataset` through `log` (reset first): its time, hits and what it read. */
export async function coldQuery(dataset: Dataset, log: ReadLog, url: string, tableSeeded: boolean) {
  log.reset();
  const timed = await timeAll(
    createAnswerer(async () => dataset),
    [url],
  );
  if (tableSeeded && log.of('accessions').length > 0)
    throw new Error('bench: the seeded accession table was read again (has Dataset renamed its field?)');
  return {
    ms: timed.ms[0],
    hits: timed.hits[0],
    shards: log.of('shard').length,
    pages: log.of('index').length,
    bytes: log.bytes,
    roundTrips: log.roundTrips,
    reads: [...log.reads],
  };
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** The per-query reads of cold queries as a QueryRun. */
export function coldRun(queries: Awaited<ReturnType<typeof coldQuery>>[]): QueryRun {
  const pick = (f: (q: (typeof queries)[number]) => number) => queries.map(f);
  return {
    ...run(
      pick((q) => q.ms),
      pick((q) => q.hits),
    ),
    reads: {
      shardsMean: mean(pick((q) => q.shards)),
      shardsMax: Math.max(...pick((q) => q.shards)),
      shardsHistogram: pick((q) => q.shards).reduce<Record<number, number>>((h, n) => {
        h[n] = (h[n] ?? 0) + 1;
        return h;
      }, {}),
      pagesMax: Math.max(...pick((q) => q.pages)),
      bytesMean: mean(pick((q) => q.bytes)),
      bytesMax: Math.max(...pick((q) => q.bytes)),
      roundTripsMean: mean(pick((q) => q.roundTrips)),
      roundTripsMax: Math.max(...pick((q) => q.roundTrips)),
    },
  };
}

/**
 * Cold: every query on a freshly opened dataset (manifest parsed, the accession table already decoded: it is read
 * once per process), counting what it reads from the folder.
 */
export async function benchCold(dir: string, urls: string[]): Promise<QueryRun> {
  const log = new ReadLog(new FileSource(dir));
  const { table } = await readAccessionTable(log);
  const queries = [];
  for (const url of urls) queries.push(await coldQuery(await openCold(log, table), log, url, true));
  return coldRun(queries);
}

// In-process query benchmarks: the real handler over a dataset folder, warm, under a cache budget, and cold.
import { prng } from './synthetic.js';
import { Dataset } from '../../runtime/core/dataset.js';
import { sequenceOf } from '../../runtime/model/format.js';
import { createAnswerer, type Call } from '../../runtime/api/handler.js';
import type { Answer } from '../../runtime/api/answer.js';
import { FileSource } from '../../runtime/entries/node/fileSource.js';
import { nodeSha256 } from '../../runtime/entries/node/platform.js';
import { CountingSource } from '../helpers/countingSource.js';
import { summarize, type Summary } from './measure.js';

export interface QueryRun {
  latency: Summary;
  /** Mean and max of matching mass groups per query (totalResult). */
  hitsMean: number;
  hitsMax: number;
  /** Cold runs only: dataset files read per query (shards; index pages counted apart) and bytes. */
  reads?: { shardsMean: number; shardsMax: number; pagesMax: number; bytesMean: number; bytesMax: number };
}

export const searchUrl = ([m1, m2]: [string, string]) => `http://bench/search.php?mass1=${m1}&mass2=${m2}&pageSize=1000`;
export const peptideUrl = (seq: string) => `http://bench/search-peptide.php?peptide=${seq}`;

/** `count` peptides of the dataset, drawn at random groups (seeded). */
export async function samplePeptides(dir: string, count: number, seed: number): Promise<string[]> {
  const dataset = await Dataset.open(new FileSource(dir), { cacheBytes: 2 ** 31 });
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
    const head = typeof answer.body === 'string' ? answer.body : Buffer.from(answer.body!.subarray(0, 64)).toString('latin1');
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
  return { latency: summarize(ms), hitsMean: hits.reduce((a, b) => a + b, 0) / hits.length, hitsMax: Math.max(...hits) };
}

/**
 * Warm: two passes to fill the cache (the first decodes the shards, the second builds their entry JSON, which
 * the Dataset builds on a shard's second use), then the measured pass. `cacheBytes` below the working set
 * forces evictions.
 */
export async function benchWarm(dir: string, urls: string[], cacheBytes: number): Promise<QueryRun> {
  const dataset = await Dataset.open(new FileSource(dir), { cacheBytes, sha256: nodeSha256 }); // as npm start opens it
  const handler = createAnswerer(async () => dataset);
  await timeAll(handler, urls);
  await timeAll(handler, urls);
  const { ms, hits } = await timeAll(handler, urls);
  return run(ms, hits);
}

/** Cold: every query on a freshly opened dataset (manifest already parsed), counting what it reads. */
export async function benchCold(dir: string, urls: string[]): Promise<QueryRun> {
  const source = new CountingSource(new FileSource(dir));
  const shards: number[] = [];
  const pages: number[] = [];
  const bytes: number[] = [];
  const ms: number[] = [];
  const hits: number[] = [];
  for (const url of urls) {
    const dataset = await Dataset.open(source, { cacheBytes: 2 ** 30, sha256: nodeSha256 });
    source.reset();
    const handler = createAnswerer(async () => dataset);
    const timed = await timeAll(handler, [url]);
    ms.push(...timed.ms);
    hits.push(...timed.hits);
    shards.push(source.shardReads.length);
    pages.push(source.indexReads.length);
    bytes.push(source.bytes);
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  return {
    ...run(ms, hits),
    reads: { shardsMean: mean(shards), shardsMax: Math.max(...shards), pagesMax: Math.max(...pages), bytesMean: mean(bytes), bytesMax: Math.max(...bytes) },
  };
}

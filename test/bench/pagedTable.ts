// A study for issue 12's first-cold-query miss: the one-page accession table read beside a process's first shard
// against a paged table (pages of N accessions, read for the ranks an answer page lists, after the shard). Builds
// the benchmark's FASTA with default parameters and pages of N accessions (unless the folder holds a dataset
// already), then asks the benchmark's ±10 ppm windows of every dataset given, each from a freshly opened dataset over
// HTTP (npm start's server): stored bytes read after the manifest and sequential round trips, with 6 shards in flight
// and table pages 6 at once (as every file was before pageConcurrency) or 32 (the reader's default).
//   npx tsx test/bench/pagedTable.ts <fasta> <paged dataset dir> [accessions a page, default 2048] [queries, default 200] [other dataset dir ...]
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildDataset, DEFAULT_SHARD_BYTES } from '../../builder/phases/pipeline.js';
import { createAnswerer } from '../../runtime/api/handler.js';
import { Dataset } from '../../runtime/core/storage/dataset.js';
import { HttpSource } from '../../runtime/core/storage/source.js';
import { nodeCodecs } from '../../runtime/entries/node/platform.js';
import { MANIFEST_FILE } from '../../runtime/model/format.js';
import { freePort, startServer } from './http.js';
import { massWindows, summarize } from './measure.js';
import { windowCentres } from './precursor.js';
import { apiSearchUrl, searchUrl } from './queries.js';
import { ReadLog } from './reads.js';

const [fastaArg, pagedArg, perPageArg = '2048', queriesArg = '200', ...others] = process.argv.slice(2);
const [perPage, queries] = [Number(perPageArg), Number(queriesArg)];
if (!fastaArg || !pagedArg || !(perPage >= 1 && queries >= 1))
  throw new Error(
    'usage: pagedTable.ts <fasta> <paged dataset dir> [accessions a page] [queries] [other dataset dir ...]',
  );

const paged = resolve(pagedArg);
if (!existsSync(resolve(paged, MANIFEST_FILE))) {
  const options = {
    inputs: [resolve(fastaArg)],
    out: paged,
    enzyme: 'trypsin',
    missedCleavages: 2,
    minLength: 6,
    maxLength: 50,
  };
  await buildDataset({
    ...options,
    taxdump: 'data/taxdump',
    shardBytes: DEFAULT_SHARD_BYTES,
    threads: 2,
    accessionPageAccessions: perPage,
  });
}

// The benchmark's sets (test/bench/run.ts): search.php ±10 ppm windows at pageSize 1000, /api/v1/search at its default page.
const sets = {
  'search.php, pageSize 1000': massWindows(queries, 2, { lo: 360, hi: 8500, ppm: 10 }).map(searchUrl),
  '/api/v1/search, default page': windowCentres(queries, 2, 360, 8500).map(apiSearchUrl),
};

/** Every URL asked of a freshly opened dataset (manifest read first, not counted): what each then read. */
async function firstQueries(log: ReadLog, urls: string[], pageConcurrency: number) {
  const kib: number[] = [];
  const roundTrips: number[] = [];
  const tableReads: number[] = [];
  for (const url of urls) {
    const dataset = await Dataset.open(log, { ...nodeCodecs, cacheBytes: 2 ** 30, concurrency: 6, pageConcurrency });
    log.reset();
    const answer = await createAnswerer(async () => dataset)({ method: 'GET', url: new URL(url) });
    if (answer.status !== 200) throw new Error(`${url}: HTTP ${answer.status}`);
    kib.push(log.bytes / 1024);
    roundTrips.push(log.roundTrips);
    tableReads.push(log.of('accessions').length);
  }
  const [k, r, t] = [summarize(kib), summarize(roundTrips), summarize(tableReads)];
  const kibOf = (x: number) => +x.toFixed(1);
  return {
    kibMean: kibOf(k.mean),
    kibP50: kibOf(k.p50),
    kibP99: kibOf(k.p99),
    kibMax: kibOf(k.max),
    over128KiB: kib.filter((x) => x > 128).length,
    roundTripsP50: r.p50,
    roundTripsP99: r.p99,
    roundTripsMax: r.max,
    accessionFilesMean: +t.mean.toFixed(1),
  };
}

for (const dir of [paged, ...others.map((d) => resolve(d))]) {
  const port = await freePort();
  const server = await startServer(dir, port);
  try {
    const log = new ReadLog(new HttpSource(`http://127.0.0.1:${port}/shards/`));
    const { manifest } = await Dataset.open(log, nodeCodecs);
    const pages = manifest.accessions.pages.length;
    for (const [name, urls] of Object.entries(sets)) {
      for (const pageConcurrency of [6, 32]) {
        const figures = await firstQueries(log, urls, pageConcurrency);
        console.log(
          JSON.stringify({
            dir,
            accessions: manifest.accessions.count,
            tableLevels: manifest.accessions.levels ?? 1,
            rootPages: pages,
            queries: name,
            pageConcurrency,
            ...figures,
          }),
        );
      }
    }
  } finally {
    server.kill();
  }
}

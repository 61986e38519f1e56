// Cold queries over HTTP: the dataset folder served by `npm start`'s server (/shards/, serve-handler) in a
// process of its own, read through the runtime's HttpSource as a deployed function or a browser reads it.
// Each query opens the dataset afresh (manifest read first, not counted) and logs every file it then reads, with
// start and end times, so the round trips it waits for in sequence can be counted.
import { HttpSource } from '../../runtime/core/storage/source.js';
import { serveOwn, type Serve } from './http.js';
import { coldQuery, coldRun, openCold, readAccessionTable, type QueryRun } from './queries.js';
import { ReadLog, type FileKind } from './reads.js';

/** Cold queries over HTTP: reads per query of each kind of file (mean), and how many queries took each number of round trips. */
export type ColdHttpQueries = QueryRun & {
  kinds: Partial<Record<FileKind, number>>;
  roundTripQueries?: Record<number, number>;
};

export interface ColdHttpRun {
  /** The first query of a fresh process: the accession table is read too, beside the query's first shard. */
  first: ColdHttpQueries;
  /** Later cold queries: new shards and index pages, the accession table already in memory. */
  next: ColdHttpQueries;
  /** The accession table's stored bytes and the time to read and decode it once. */
  table: { bytes: number; ms: number };
}

/** Mean reads per query of each kind of file. */
function kindsOf(queries: { reads: { kind: FileKind }[] }[]): Partial<Record<FileKind, number>> {
  const kinds: Partial<Record<FileKind, number>> = {};
  for (const q of queries) for (const r of q.reads) kinds[r.kind] = (kinds[r.kind] ?? 0) + 1 / queries.length;
  return kinds;
}

function summary(queries: Awaited<ReturnType<typeof coldQuery>>[]): ColdHttpQueries {
  const roundTripQueries: Record<number, number> = {};
  for (const q of queries) roundTripQueries[q.roundTrips] = (roundTripQueries[q.roundTrips] ?? 0) + 1;
  return { ...coldRun(queries), kinds: kindsOf(queries), roundTripQueries };
}

/** The queries on `dir` read from the server `serve` gives: `firstUrls` from a cold start, then `nextUrls`. */
export async function benchColdHttp(
  dir: string,
  firstUrls: string[],
  nextUrls: string[],
  serve: Serve = serveOwn,
): Promise<ColdHttpRun> {
  const served = await serve(dir);
  try {
    const log = new ReadLog(new HttpSource(served.url));
    const first = [];
    for (const url of firstUrls) first.push(await coldQuery(await openCold(log), log, url, false));
    const { table, bytes, ms } = await readAccessionTable(log);
    const next = [];
    for (const url of nextUrls) next.push(await coldQuery(await openCold(log, table), log, url, true));
    return { first: summary(first), next: summary(next), table: { bytes, ms } };
  } finally {
    served.close();
  }
}

// `npm run query -- fingerprint <file|-> [options]`: the peak lists of a file (text or CSV/TSV, MGF records, the MS1
// spectra of an mzML file; gzip whatever its name; or standard input) fingerprinted against a dataset a batch of lists
// at a time, written as they come in file order — TSV rows or the HTTP answer's `{"lists": [...]}` — with a progress
// bar on a terminal and a summary line, so a file of any size (an imaging run's thousands of pixels) streams through.
// Each batch is shared among worker threads, one per core unless told (`--threads`).
import { createReadStream, existsSync, statSync } from 'node:fs';
import { pipeline, Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import {
  fingerprint,
  type Fingerprint,
  type FingerprintQuery,
  type NamedPeakList,
} from '../../core/fingerprint/fingerprint.js';
import { PeakListError, readPeakLists } from '../../core/fingerprint/peakLists.js';
import { MATCH_CACHE_BYTES } from '../../core/match/match.js';
import type { Dataset } from '../../core/storage/dataset.js';
import { statusOf } from '../../api/answer.js';
import { checkRank } from '../../api/fingerprintOperation.js';
import { FINGERPRINT_PARAMS, parseFingerprintQuery } from '../../api/fingerprintParams.js';
import { FINGERPRINT_TSV_HEADER, fingerprintRows } from '../../api/fingerprintTsv.js';
import type { Param, ParamSource } from '../../api/params.js';
import { defaultThreads } from '../node/threadPool.js';
import { FingerprintWorkers } from '../node/fingerprintWorkers.js';
import { UsageError, wholeNumber, type Values } from './command.js';
import { counted, progressBar } from './match.js';
import { errorOut, write, type QueryIo } from './output.js';

/** Peak lists fingerprinted together by default: a batch's peaks are searched as one sweep. */
export const DEFAULT_FINGERPRINT_BATCH = 200;

/** The command's parameters: the endpoint's, but `format`, an option of the command (TSV by default). */
export const FINGERPRINT_CLI_PARAMS: readonly Param[] = FINGERPRINT_PARAMS.filter((p) => p.name !== 'format');

export const FINGERPRINT_OPTIONS = {
  format: 'tsv (default: a row per listed protein and organism of each list) or json (the API answer)',
  batch: `peak lists fingerprinted together (default ${DEFAULT_FINGERPRINT_BATCH})`,
  concurrency: 'shard reads at once (default 6)',
  threads: 'threads fingerprinting at once (default: one per core; 1 fingerprints in this thread)',
};

/** Options of the command beside the query's parameters. */
export interface FingerprintRun {
  input: string;
  format: 'tsv' | 'json';
  batch: number;
  concurrency: number;
  /** Fingerprints a batch elsewhere (worker threads); a batch smaller than `share` lists is fingerprinted here. */
  threads?: { fingerprint(lists: readonly NamedPeakList[]): Promise<Fingerprint[]>; share: number };
}

/** What a run did, for its summary line. */
export interface FingerprintSummary {
  lists: number;
  peaks: number;
  /** Peaks not searched: no positive mass, or too many peptides to examine. */
  unsearched: number;
}

/** Output is gathered into chunks of about this many characters before each write. */
const CHUNK = 1 << 16;

const count = (n: number) => n.toLocaleString('en');

/** node:zlib's gunzip, which reads its input as its output is taken; data it cannot inflate is the file's fault. */
async function* gunzip(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  try {
    // pipeline passes a read error on to the gunzip stream, so the reader sees it (a bare pipe would not).
    yield* pipeline(Readable.from(chunks), createGunzip(), () => {});
  } catch (e) {
    if (!/^Z_/.test((e as NodeJS.ErrnoException).code ?? '')) throw e;
    throw new PeakListError(`gzip-compressed data that cannot be decompressed (${(e as Error).message})`);
  }
}

/** The input's bytes as they are read (a file, or standard input for `-`), its size when known and the bytes read. */
function openInput(input: string, stdin: Readable) {
  let read = 0;
  const stream = input === '-' ? stdin : createReadStream(input);
  stream.on('data', (chunk: Uint8Array) => (read += chunk.length));
  return { stream, size: input === '-' ? undefined : statSync(input).size, read: () => read };
}

/** Fingerprints the file's peak lists and writes their answers; returns the run's summary. */
export async function fingerprintFile(
  dataset: Dataset,
  query: FingerprintQuery,
  run: FingerprintRun,
  io: QueryIo & { stdin: Readable },
): Promise<FingerprintSummary> {
  const started = performance.now();
  const name = run.input === '-' ? 'standard input' : run.input;
  const input = openInput(run.input, io.stdin);
  const bar = progressBar(io, input.size, 'fingerprint', 'fingerprinted', 'lists');
  const summary: FingerprintSummary = { lists: 0, peaks: 0, unsearched: 0 };
  let read = 0;
  let out = run.format === 'tsv' ? FINGERPRINT_TSV_HEADER : '{"lists":[';
  const flush = async (force = false) => {
    if (out.length < CHUNK && !force) return;
    await write(io.stdout, out);
    out = '';
  };
  const answer = async (batch: NamedPeakList[]) => {
    const lists =
      run.threads && batch.length >= run.threads.share
        ? await run.threads.fingerprint(batch)
        : await fingerprint(dataset, query, batch, {
            concurrency: run.concurrency,
            progress: () => bar.update(input.read(), read, summary.lists),
          });
    for (const list of lists) {
      if (run.format === 'tsv') out += fingerprintRows([list], summary.lists + 1);
      else out += `${summary.lists === 0 ? '\n' : ',\n'}${JSON.stringify(list)}`;
      summary.lists++;
      summary.peaks += list.peaks.length;
      summary.unsearched += list.peaks.filter((p) => p.error !== undefined).length;
      await flush();
    }
    bar.update(input.read(), read, summary.lists);
  };
  try {
    let batch: NamedPeakList[] = [];
    for await (const list of counted(readPeakLists(input.stream, query, { gunzip }), () => read++)) {
      if (batch.push(list) < run.batch) continue;
      await answer(batch);
      batch = [];
    }
    if (batch.length > 0) await answer(batch);
  } catch (e) {
    if (e instanceof PeakListError) throw new Error(`${name}: ${e.message}`);
    throw e;
  } finally {
    input.stream.destroy();
    bar.stop();
  }
  out += run.format === 'tsv' ? '' : `${summary.lists === 0 ? '' : '\n'}]}\n`;
  await flush(true);
  const seconds = (performance.now() - started) / 1000;
  await write(
    io.stderr,
    `fingerprint: ${count(summary.lists)} lists, ${count(summary.peaks)} peaks (${count(summary.unsearched)} not searched); ${seconds.toFixed(1)} s\n`,
  );
  return summary;
}

/** What the command needs of the query tool: its flags as a parameter source, and the dataset they name. */
export interface CommandContext {
  source: ParamSource;
  openDataset(values: Values, cacheBytes: number): Promise<Dataset>;
  /** Where the dataset the flags name is, for worker threads to open it again. */
  location(values: Values): string;
  cacheBytes(fallback: number): number;
}

const errorBody = (message: string) => `${JSON.stringify({ error: message })}\n`;

/** The command: a refused parameter (or query) is the API's JSON error, exit 1; a usage error, exit 2. */
export async function fingerprintCommand(
  values: Values,
  positionals: string[],
  io: QueryIo,
  context: CommandContext,
): Promise<number> {
  if (positionals.length !== 1)
    throw new UsageError(
      `fingerprint takes one peak list file: text, CSV/TSV, MGF or mzML (or - for standard input), got ${positionals.length}`,
    );
  const format = (values.format as string | undefined) ?? 'tsv';
  if (format !== 'tsv' && format !== 'json') throw new UsageError(`--format must be tsv or json, got "${format}"`);
  const batch = wholeNumber(values, 'batch', DEFAULT_FINGERPRINT_BATCH, 100_000);
  const concurrency = wholeNumber(values, 'concurrency', 6, 64);
  const threads = wholeNumber(values, 'threads', defaultThreads(), 256);
  const refused = async (e: unknown) => {
    if (statusOf(e) === undefined) throw e;
    await write(errorOut(io, format), errorBody((e as Error).message));
    return 1;
  };
  let query: FingerprintQuery;
  try {
    query = parseFingerprintQuery(context.source).query;
  } catch (e) {
    return refused(e);
  }
  const input = positionals[0];
  if (input !== '-' && !existsSync(input)) throw new Error(`cannot read ${input}: no such file`);
  let workers: FingerprintWorkers | undefined;
  try {
    const cacheBytes = context.cacheBytes(MATCH_CACHE_BYTES);
    const dataset = await context.openDataset(values, cacheBytes);
    await checkRank(dataset, query.rank);
    if (threads > 1)
      workers = new FingerprintWorkers({ location: context.location(values), cacheBytes, query, concurrency }, threads);
    // A batch smaller than a thread's share of a full one (the whole of a small file) is fingerprinted here:
    // starting threads would cost it more.
    const share = Math.ceil(batch / threads);
    const run: FingerprintRun = {
      input,
      format: format as 'tsv' | 'json',
      batch,
      concurrency,
      ...(workers && { threads: { fingerprint: (lists) => workers!.fingerprint(lists), share } }),
    };
    await fingerprintFile(dataset, query, run, { ...io, stdin: io.stdin ?? process.stdin });
    return 0;
  } catch (e) {
    // Awaited here: a rejection returned from a catch with a finally waits unhandled while the finally runs.
    return await refused(e);
  } finally {
    await workers?.close();
  }
}

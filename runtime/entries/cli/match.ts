// `npm run query -- match <file.mgf|-> [options]`: every spectrum of an MGF file (or .mgf.gz, or standard input)
// matched against a dataset batch by batch, written in file order as TSV rows or a JSON array (one object per
// spectrum), with a progress bar on a terminal, each malformed record reported with its line, and a summary.
import { createReadStream, statSync } from 'node:fs';
import { pipeline, Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { SingleBar } from 'cli-progress';
import { durationText, Eta } from '../../model/eta.js';
import type { Dataset } from '../../core/storage/dataset.js';
import { DEFAULT_BATCH, matchSpectra } from '../../core/match/match.js';
import type { MatchQuery } from '../../core/match/matchQuery.js';
import { parseMatchQuery } from '../../api/matchParams.js';
import { readPeakList } from '../../core/match/peakList.js';
import { peekHead, sniffPeakList, SNIFF_BYTES, type PeakListKind } from '../../core/match/peakListKind.js';
import type { ParamSource } from '../../api/params.js';
import { AsciiWriter } from '../../api/asciiWriter.js';
import { MALFORMED_LISTED, MatchSummary, precursorJson } from '../../api/matchJson.js';
import { matchTsvHeader, writePrecursorRows } from '../../api/matchTsv.js';
import { write, type QueryIo } from './output.js';

/** Options of the command beside the query's parameters. */
export interface MatchRun {
  input: string;
  format: 'tsv' | 'json';
  batch: number;
  concurrency: number;
}

/** Output is gathered into chunks of about this many characters (bytes, for TSV) before each write. */
const CHUNK = 1 << 16;

/** What the command says an input is instead of a peak list. */
const notPeakList = (kind: PeakListKind) =>
  kind.kind === 'json'
    ? 'JSON (the command line reads MGF files; JSON precursors are for POST /api/v1/match)'
    : kind.kind === 'other'
      ? kind.looksLike
      : 'a compressed file inside a compressed file';

/**
 * The input as an MGF byte stream — gunzipped when its content is gzip, whatever its name — with its size when known
 * and a count of bytes read; an Error naming the input and what it looks like when it is not a peak list.
 */
export async function openInput(
  input: string,
  stdin: Readable,
): Promise<{ stream: AsyncIterable<Uint8Array>; size?: number; read: () => number; kind: 'mgf' | 'mzml' }> {
  let read = 0;
  const raw = input === '-' ? stdin : createReadStream(input);
  raw.on('data', (chunk: Uint8Array) => (read += chunk.length));
  const size = input === '-' ? undefined : statSync(input).size;
  let { head, all } = await peekHead(raw, SNIFF_BYTES);
  let kind = sniffPeakList(head);
  if (kind.kind === 'gzip') {
    // pipeline passes a read error on to the gunzip stream, so the reader sees it (a bare pipe would not).
    ({ head, all } = await peekHead(
      pipeline(Readable.from(all), createGunzip(), () => {}),
      SNIFF_BYTES,
    ));
    kind = sniffPeakList(head);
  }
  if (kind.kind !== 'mgf' && kind.kind !== 'mzml') {
    raw.destroy();
    throw new Error(
      `${input === '-' ? 'standard input' : input} is not an MGF or mzML peak list: it looks like ${notPeakList(kind)}`,
    );
  }
  return { stream: all, size, read: () => read, kind: kind.kind };
}

/** The bar's line: the input read, items read and done (matched, identified) as each completes, their rate, a smoothed ETA. */
const barFormat = (command: string, done: string, items: string) =>
  `${command} |{bar}| {percentage}% | {read} ${items} read, {matched} ${done} | {rate} ${items}/s | ETA {left}`;

/**
 * A progress bar over the input's bytes on stderr when it is a terminal: spectra (or other `items`) counted as the
 * reader yields them and as their results are written; the ETA from the bytes' smoothed rate.
 */
export function progressBar(
  io: QueryIo,
  size: number | undefined,
  command = 'match',
  done = 'matched',
  items = 'spectra',
): { update(bytes: number, read: number, matched: number): void; stop(): void } {
  if (size === undefined || !(io.stderr as { isTTY?: boolean }).isTTY) return { update: () => {}, stop: () => {} };
  const bar = new SingleBar({ stream: io.stderr, format: barFormat(command, done, items), hideCursor: true, fps: 5 });
  const started = performance.now();
  const eta = new Eta(started);
  const n = (x: number) => x.toLocaleString('en');
  bar.start(size, 0, { read: 0, matched: 0, rate: '…', left: durationText(undefined) });
  return {
    update: (bytes, read, matched) => {
      const now = performance.now();
      const seconds = (now - started) / 1000;
      bar.update(Math.min(bytes, size), {
        read: n(read),
        matched: n(matched),
        rate: seconds < 1 ? '…' : n(Math.round(matched / seconds)),
        left: durationText(eta.update(bytes, size, now)),
      });
    },
    stop: () => bar.stop(),
  };
}

/** The items of a reader, each seen by `count` as it is read. */
export async function* counted<T>(items: AsyncIterable<T>, count: (item: T) => void): AsyncGenerator<T> {
  for await (const item of items) {
    count(item);
    yield item;
  }
}

/** Matches the file and writes its results; returns the run's summary. Throws what reading the input or the dataset throws. */
export async function matchFile(
  dataset: Dataset,
  query: MatchQuery,
  run: MatchRun,
  io: QueryIo & { stdin: Readable },
): Promise<MatchSummary> {
  const started = performance.now();
  const input = await openInput(run.input, io.stdin);
  const summary = new MatchSummary();
  const bar = progressBar(io, input.size);
  const reported: string[] = [];
  let out = run.format === 'tsv' ? '' : '[';
  const rows = new AsciiWriter();
  rows.write(matchTsvHeader(query));
  let first = true;
  let read = 0;
  const progress = () => bar.update(input.read(), read, summary.precursors);
  try {
    const records = counted(readPeakList(input.kind, input.stream, false), (item) => {
      if ('spectrum' in item) read++;
    });
    const batches = matchSpectra(dataset, query, records, {
      batch: run.batch,
      concurrency: run.concurrency,
      malformed: (m) => {
        if (summary.malformed.push(m) <= MALFORMED_LISTED)
          reported.push(`match: line ${m.line}: ${m.error} (skipped)\n`);
      },
      progress,
    });
    for await (const batch of batches) {
      for (const line of reported.splice(0)) await write(io.stderr, line);
      for (let i = 0; i < batch.precursors.length; i++) {
        if (run.format === 'tsv') {
          const searches = batch.searchIds(i);
          summary.count(searches);
          writePrecursorRows(rows, batch, i, searches);
          if (rows.length >= CHUNK) await write(io.stdout, rows.takeBytes());
        } else {
          const json = precursorJson(batch, i);
          summary.count(json.searches);
          out += `${first ? '\n' : ',\n'}${JSON.stringify(json)}`;
          if (out.length >= CHUNK) {
            await write(io.stdout, out);
            out = '';
          }
        }
        first = false;
      }
      progress();
    }
  } finally {
    bar.stop();
  }
  for (const line of reported) await write(io.stderr, line);
  const unlisted = summary.malformed.length - MALFORMED_LISTED;
  if (unlisted > 0)
    await write(io.stderr, `match: ${unlisted.toLocaleString('en')} more malformed records not listed\n`);
  await write(io.stdout, run.format === 'tsv' ? rows.takeBytes() : `${out}${first ? '' : '\n'}]\n`);
  await write(io.stderr, `match: ${summary.line(performance.now() - started)}\n`);
  return summary;
}

/** The query of the command's flags (the table's parameters), and its own options checked. */
export function matchOptions(
  source: ParamSource,
  values: Record<string, string | boolean | undefined>,
): { query: MatchQuery; format: 'tsv' | 'json'; batch: number; concurrency: number } {
  const query = parseMatchQuery(source);
  const format = (values.format as string | undefined) ?? 'tsv';
  if (format !== 'tsv' && format !== 'json') throw new RangeError(`--format must be tsv or json, got "${format}"`);
  const batch = countOption(values, 'batch', DEFAULT_BATCH, 1_000_000);
  return { query, format, batch, concurrency: countOption(values, 'concurrency', 6, 64) };
}

/** A flag that counts: a whole number from 1 to `max`, `fallback` when not given; RangeError naming it otherwise. */
export function countOption(
  values: Record<string, string | boolean | undefined>,
  name: string,
  fallback: number,
  max: number,
): number {
  const text = values[name] as string | undefined;
  const n = text === undefined ? fallback : /^\d+$/.test(text) ? Number(text) : NaN;
  if (!(n >= 1 && n <= max)) throw new RangeError(`--${name} must be a whole number from 1 to ${max}, got "${text}"`);
  return n;
}

// The peak lists of a file to fingerprint, read from its bytes as they arrive: gzip undone whatever the file's name,
// then read by what its first bytes say it is (peakListKind.ts) — an MGF file gives one list per record (its peaks;
// the record's precursor plays no part), an mzML file one per MS1 spectrum (its native id as the title), and other
// text one list (readPeakText: one peak a line, or a CSV/TSV table). Lists are yielded one at a time, so a file of
// any size (an imaging run's thousands of pixels) is never held whole. A file that is not a peak list is refused with
// what it looks like, and one that cannot be read with the line where it fails: a peak skipped is a peak not matched.
// Web-standard APIs only (TextDecoder, DecompressionStream): the same code runs in Node and in the browser.
import { readMzmlMs1 } from '../match/mzml.js';
import { peekHead, sniffPeakList, type PeakListKind } from '../match/peakListKind.js';
import { embeddedTitle, type EmbeddedQuery } from './mascotParameters.js';
import { COMMENT_LINE, PeakTextError, readPeakText } from './peakText.js';
import type { NamedPeakList } from './types.js';

/**
 * A file that is not a peak list, or cannot be read as one: the message says what it looks like, or names the line;
 * it reads after the file's name (`run.mgf: line 12: …`).
 */
export class PeakListError extends Error {}

type Chunks = AsyncIterable<Uint8Array> | Iterable<Uint8Array>;

/** What a file must be, said after what it looks like. */
const WANTED =
  'a fingerprint reads peaks as text (one m/z a line, optionally its intensity; or a CSV/TSV table with a header), MGF records or the MS1 spectra of an mzML file';

/** How a platform may read a file's peak lists. */
export interface PeakListOptions {
  /**
   * Decompresses a gzip stream as it is read (default: the web platform's DecompressionStream). Node's reads its
   * input megabytes ahead of its reader, so a Node entry gives node:zlib's, which reads as its output is taken.
   */
  gunzip?: (chunks: AsyncIterable<Uint8Array>) => AsyncIterable<Uint8Array>;
}

/**
 * The peak lists of a file given as byte chunks, in file order; PeakListError when it is not one or cannot be read,
 * or when the search parameters a text list embeds ask for another search than `query`.
 */
export async function* readPeakLists(
  chunks: Chunks,
  query: EmbeddedQuery,
  options: PeakListOptions = {},
): AsyncGenerator<NamedPeakList> {
  let { head, all } = await peekHead(chunks);
  let kind = sniffPeakList(head);
  if (kind.kind === 'gzip') {
    ({ head, all } = await peekHead((options.gunzip ?? gunzip)(all)));
    kind = sniffPeakList(head);
  }
  if (kind.kind === 'mgf' || kind.kind === 'mzml') {
    let lists = 0;
    for await (const list of kind.kind === 'mgf' ? mgfLists(all) : mzmlLists(all)) {
      lists++;
      yield list;
    }
    if (lists === 0)
      throw new PeakListError(
        kind.kind === 'mgf'
          ? 'an MGF file without a BEGIN IONS … END IONS record'
          : 'an mzML file without an MS1 spectrum (its MS/MS spectra are for identify)',
      );
  } else if (kind.kind === 'other' && kind.plainText) yield textList(await textOf(all), query);
  else throw new PeakListError(`not a peak list: it looks like ${looksLike(kind)}; ${WANTED}`);
}

const looksLike = (kind: PeakListKind) =>
  kind.kind === 'json'
    ? 'JSON'
    : kind.kind === 'other'
      ? kind.looksLike
      : kind.kind === 'gzip'
        ? 'a compressed file inside a compressed file'
        : kind.kind;

/** The decompressed chunks of a gzip stream; a PeakListError when it is not valid gzip (the input's own errors pass). */
async function* gunzip(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const iterator = chunks[Symbol.asyncIterator]();
  let failed: { error: unknown } | undefined;
  const source = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await iterator.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      } catch (error) {
        failed = { error };
        throw error;
      }
    },
    async cancel() {
      await iterator.return?.();
    },
  });
  const reader = source
    .pipeThrough(new DecompressionStream('gzip') as unknown as TransformStream<Uint8Array, Uint8Array>)
    .getReader();
  let done = false;
  try {
    for (let r = await reader.read(); !r.done; r = await reader.read()) yield r.value;
    done = true;
  } catch (e) {
    if (failed) throw failed.error;
    throw new PeakListError(`gzip-compressed data that cannot be decompressed (${(e as Error).message})`);
  } finally {
    if (!done) await reader.cancel().catch(() => undefined);
  }
}

/** The whole text of a stream (UTF-8). */
async function textOf(chunks: AsyncIterable<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  const parts: string[] = [];
  for await (const chunk of chunks) parts.push(decoder.decode(chunk, { stream: true }));
  parts.push(decoder.decode());
  return parts.join('');
}

/** One text peak list, titled by its COM parameter; its refusal, naming the line, as a PeakListError. */
function textList(text: string, query: EmbeddedQuery): NamedPeakList {
  let read: ReturnType<typeof readPeakText>;
  try {
    read = readPeakText(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    if (e instanceof PeakTextError) throw new PeakListError(e.message);
    throw e;
  }
  const { parameters, ...list } = read;
  const titled = embeddedTitle(parameters, query);
  if ('error' in titled) throw new PeakListError(titled.error);
  return { ...titled, ...list };
}

/** The lines of a stream (UTF-8), without their line ends. */
async function* linesOf(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let rest = '';
  for await (const chunk of chunks) {
    const lines = (rest + decoder.decode(chunk, { stream: true })).split('\n');
    rest = lines.pop()!;
    yield* lines;
  }
  rest += decoder.decode();
  if (rest !== '') yield* rest.split('\n');
}

/** `KEY=value`: a key starts with a letter. */
const PARAMETER = /^([A-Za-z][^=]*)=(.*)$/;
/** A peak line starts with a number: m/z, then optionally its intensity (and a charge or annotation, not read). */
const PEAK = /^[+-]?(\d|\.\d)/;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

const quoted = (text: string, length = 40) => JSON.stringify(text.length > length ? `${text.slice(0, length)}…` : text);

/** An MGF record being read: where it begins, its title and peaks. */
interface MgfRecord {
  line: number;
  title?: string;
  mz: number[];
  intensity: number[];
  /** Whether its peaks give intensities: set by its first peak. */
  withIntensity?: boolean;
}

/** The peaks of each BEGIN IONS … END IONS record of an MGF file, titled by its TITLE. */
async function* mgfLists(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<NamedPeakList> {
  let n = 0;
  let open: MgfRecord | undefined;
  for await (const raw of linesOf(chunks)) {
    const at = `line ${++n}`;
    const text = raw.trim();
    if (text === '' || COMMENT_LINE.test(text)) continue;
    const upper = text.length <= 10 ? text.toUpperCase() : '';
    if (upper === 'BEGIN IONS') {
      if (open) throw new PeakListError(`line ${open.line}: a record with no END IONS before the BEGIN IONS of ${at}`);
      open = { line: n, mz: [], intensity: [] };
    } else if (upper === 'END IONS') {
      if (!open) throw new PeakListError(`${at}: END IONS without a BEGIN IONS`);
      yield listOf(open);
      open = undefined;
    } else if (PARAMETER.test(text)) {
      const [, key, value] = PARAMETER.exec(text)!;
      if (open && key.trim().toUpperCase() === 'TITLE') open.title = value.trim();
    } else if (!open) {
      throw new PeakListError(`${at}: ${quoted(text)} is outside any BEGIN IONS … END IONS record`);
    } else if (!PEAK.test(text)) {
      throw new PeakListError(`${at}: ${quoted(text)} is neither a parameter nor a peak`);
    } else peakOf(open, text.split(/\s+/), at);
  }
  if (open) throw new PeakListError(`line ${open.line}: a record with no END IONS before the end of the file`);
}

/** Adds a peak line's m/z and intensity to `record`; a PeakListError naming the line when they are not a peak's. */
function peakOf(record: MgfRecord, [mzText, intensityText]: string[], at: string): void {
  const mz = NUMBER.test(mzText) ? Number(mzText) : NaN;
  if (!(mz > 0)) throw new PeakListError(`${at}: ${quoted(mzText)} is not a positive m/z`);
  const withIntensity = intensityText !== undefined;
  record.withIntensity ??= withIntensity;
  if (record.withIntensity !== withIntensity)
    throw new PeakListError(
      `${at}: ${withIntensity ? 'an intensity, where the peaks before give none' : 'no intensity, where the peaks before give one'}`,
    );
  record.mz.push(mz);
  if (!withIntensity) return;
  const intensity = NUMBER.test(intensityText) ? Number(intensityText) : NaN;
  if (!(intensity >= 0)) throw new PeakListError(`${at}: ${quoted(intensityText)} is not an intensity (a number ≥ 0)`);
  record.intensity.push(intensity);
}

const listOf = ({ title, mz, intensity, withIntensity }: MgfRecord): NamedPeakList => ({
  ...(title !== undefined && { title }),
  mz: Float64Array.from(mz),
  ...(withIntensity && { intensity: Float64Array.from(intensity) }),
});

/** The peaks of each MS1 spectrum of an mzML file, titled by its native id; a profile spectrum is refused. */
async function* mzmlLists(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<NamedPeakList> {
  for await (const item of readMzmlMs1(chunks)) {
    if ('malformed' in item) throw new PeakListError(`line ${item.malformed.line}: ${item.malformed.error}`);
    const { title, line, representation, peaks } = item.ms1;
    if (representation === 'profile')
      throw new PeakListError(
        `line ${line}: spectrum ${title === undefined ? 'without an id' : quoted(title, 60)} is a profile spectrum (MS:1000128): a fingerprint needs its peaks picked (centroided) first, e.g. with msconvert --filter "peakPicking true 1-"`,
      );
    yield { ...(title !== undefined && { title }), mz: peaks.mz, intensity: peaks.intensity };
  }
}

// A peak-list file the page holds (a File or Blob), read as the command line reads one: its first bytes say what it
// is (sniffPeakList), gzip is undone by the browser's DecompressionStream whatever the file's name, and MGF or mzML
// records are read as a stream, so a file of any size is never held whole. The page and its identification worker
// both read files through it.
import type { MgfItem, Spectrum } from '../../core/match/mgf.js';
import { readPeakList } from '../../core/match/peakList.js';
import { sniffPeakList, SNIFF_BYTES, type PeakListKind } from '../../core/match/peakListKind.js';

/** A file whose content says it is a peak list. */
export interface PeakFile {
  blob: Blob;
  name: string;
  kind: 'mgf' | 'mzml';
  gzip: boolean;
}

/** A file that cannot be read as a peak list: the message says what it is instead. */
export class PeakFileError extends Error {}

/** What a file that is not a peak list looks like, in the command line's words. */
const looksLike = (kind: PeakListKind) =>
  kind.kind === 'json'
    ? 'JSON (identification reads MGF or mzML spectra with their peaks)'
    : kind.kind === 'other'
      ? kind.looksLike
      : 'a compressed file inside a compressed file';

const gunzip = (stream: ReadableStream<Uint8Array>) =>
  stream.pipeThrough(new DecompressionStream('gzip') as unknown as TransformStream<Uint8Array, Uint8Array>);

/** A stream's chunks; stopping early cancels it (the rest of the file is not read). */
async function* chunksOf(stream: ReadableStream<Uint8Array>, what: string): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  let done = false;
  try {
    for (let r = await reader.read(); !r.done; r = await reader.read()) yield r.value;
    done = true;
  } catch (e) {
    throw new PeakFileError(`${what} cannot be read (${(e as Error).message})`);
  } finally {
    if (!done) await reader.cancel().catch(() => undefined);
  }
}

/** The first `n` bytes of a stream, or all of a shorter one. */
async function head(stream: ReadableStream<Uint8Array>, n: number, what: string): Promise<Uint8Array> {
  const out = new Uint8Array(n);
  let length = 0;
  for await (const chunk of chunksOf(stream, what)) {
    out.set(chunk.subarray(0, n - length), length);
    length += Math.min(chunk.length, n - length);
    if (length === n) break;
  }
  return out.subarray(0, length);
}

/** The file as a peak list; a PeakFileError saying what it looks like when it is none. */
export async function openPeakFile(blob: Blob, name: string): Promise<PeakFile> {
  let kind = sniffPeakList(new Uint8Array(await blob.slice(0, SNIFF_BYTES).arrayBuffer()));
  const gzip = kind.kind === 'gzip';
  if (gzip) kind = sniffPeakList(await head(gunzip(blob.stream()), SNIFF_BYTES, `${name} (gzip)`));
  if (kind.kind !== 'mgf' && kind.kind !== 'mzml')
    throw new PeakFileError(`${name} is not an MGF or mzML peak list: it looks like ${looksLike(kind)}`);
  return { blob, name, kind: kind.kind, gzip };
}

/**
 * The file's records in file order, with their peaks when `keepPeaks` (mzML's always have them); `onBytes` is told
 * the bytes of the file read so far (compressed ones for a gzip file: the progress through the file).
 */
export function peakItems(
  file: PeakFile,
  keepPeaks: boolean,
  onBytes?: (bytes: number) => void,
): AsyncIterable<MgfItem> {
  let stream = file.blob.stream() as ReadableStream<Uint8Array>;
  if (onBytes) {
    let read = 0;
    stream = stream.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, out) {
          onBytes((read += chunk.length));
          out.enqueue(chunk);
        },
      }),
    );
  }
  const chunks = chunksOf(file.gzip ? gunzip(stream) : stream, file.name);
  return readPeakList(file.kind, chunks, keepPeaks);
}

/** A spectrum's name in the answer's `scannr`: its MGF TITLE or mzML id, else its ordinal in the file. */
export const spectrumName = (spectrum: Pick<Spectrum, 'title' | 'index'>) => spectrum.title ?? String(spectrum.index);

/** The spectrum `scannr` names, with its peaks (the first of that name); undefined when the file has none. */
export async function findSpectrum(file: PeakFile, scannr: string): Promise<Spectrum | undefined> {
  for await (const item of peakItems(file, true))
    if ('spectrum' in item && spectrumName(item.spectrum) === scannr) return item.spectrum;
  return undefined;
}

/** What a file without a single spectrum is told. */
export const noSpectra = (name: string) =>
  `${name} holds no spectra: an MGF file needs BEGIN IONS … END IONS records with their peaks`;

/** The spectra of the file, counted up to one past `limit` (reading stops there). */
export async function countSpectra(file: PeakFile, limit: number): Promise<number> {
  let count = 0;
  for await (const item of peakItems(file, false)) if ('spectrum' in item && ++count > limit) break;
  return count;
}

// A request body that should hold a peak list, unwrapped as clients send it: gzip (by Content-Encoding or by its
// magic number), a multipart/form-data upload (`curl -F file=@run.mgf`: its file part), then judged by its content
// so that anything that is not a peak list is refused with what it looks like, then read into spectra within a limit. Web-standard APIs only
// (DecompressionStream, Response.formData): the same code runs in Node, at the edge and in the browser.
import type { Malformed, Spectrum } from '../core/match/mgf.js';
import { readPeakList } from '../core/match/peakList.js';
import { sniffPeakList, SNIFF_BYTES, type PeakListKind } from '../core/match/peakListKind.js';
import type { Call } from './call.js';
import { QueryError } from './params.js';
import { joinBytes, MAX_DECOMPRESSED_BYTES } from './bytes.js';

/** The bytes of a gzip stream, at most `limit` of them (413 beyond); 400 when they are not gzip. */
async function gunzip(bytes: Uint8Array<ArrayBuffer>, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  const reader = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip')).getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  try {
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      length += r.value.length;
      if (length > limit) {
        await reader.cancel();
        throw new QueryError(
          413,
          `the body decompresses to more than ${limit / 2 ** 20} MiB; send fewer spectra per request`,
        );
      }
      chunks.push(r.value);
    }
  } catch (e) {
    if (e instanceof QueryError) throw e;
    throw new QueryError(400, `the body is gzip-compressed but cannot be decompressed (${(e as Error).message})`);
  }
  return joinBytes(chunks, length);
}

/** The file of a multipart/form-data body: its first file part, else its first field. */
async function uploadedFile(contentType: string, bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  let form: FormData;
  try {
    form = await new Response(bytes, { headers: { 'Content-Type': contentType } }).formData();
  } catch (e) {
    throw new QueryError(400, `the multipart/form-data body cannot be read (${(e as Error).message})`);
  }
  const values = [...form.values()];
  const file = values.find((v): v is File => typeof v !== 'string') ?? values[0];
  if (file === undefined)
    throw new QueryError(400, 'the multipart/form-data body holds no file; send it as file=@run.mgf');
  return typeof file === 'string' ? new TextEncoder().encode(file) : new Uint8Array(await file.arrayBuffer());
}

/**
 * The body's bytes unwrapped from Content-Encoding gzip, a multipart upload and a gzip file (at most
 * MAX_DECOMPRESSED_BYTES, 413 beyond), and what their head looks like.
 */
export async function unwrapBody(
  call: Call,
  body: Uint8Array<ArrayBuffer>,
): Promise<{ bytes: Uint8Array<ArrayBuffer>; kind: PeakListKind }> {
  let bytes = body;
  if (/\bgzip\b/i.test(call.contentEncoding ?? '')) {
    if (sniffPeakList(bytes.subarray(0, 2)).kind !== 'gzip')
      throw new QueryError(400, 'the body is sent with Content-Encoding: gzip but is not gzip-compressed');
    bytes = await gunzip(bytes, MAX_DECOMPRESSED_BYTES);
  }
  if (/^multipart\/form-data\b/i.test(call.contentType ?? '')) bytes = await uploadedFile(call.contentType!, bytes);
  let kind: PeakListKind = sniffPeakList(bytes.subarray(0, SNIFF_BYTES));
  if (kind.kind === 'gzip') {
    bytes = await gunzip(bytes, MAX_DECOMPRESSED_BYTES);
    kind = sniffPeakList(bytes.subarray(0, SNIFF_BYTES));
  }
  return { bytes, kind };
}

/**
 * The body's peak-list bytes and what they are (MGF or JSON): unwrapped (unwrapBody); a QueryError (400) naming what
 * the body looks like when it is neither.
 */
export async function peakListBody(
  call: Call,
  body: Uint8Array<ArrayBuffer>,
): Promise<{ bytes: Uint8Array<ArrayBuffer>; kind: 'mgf' | 'mzml' | 'json' }> {
  const { bytes, kind } = await unwrapBody(call, body);
  if (/^application\/json\b/i.test(call.contentType ?? '') || kind.kind === 'json') return { bytes, kind: 'json' };
  if (kind.kind === 'mgf' || kind.kind === 'mzml') return { bytes, kind: kind.kind };
  const looksLike = kind.kind === 'other' ? kind.looksLike : 'a compressed file inside a compressed file';
  throw new QueryError(
    400,
    `the body is not an MGF or mzML peak list or JSON precursors: it looks like ${looksLike}; send an MGF file (BEGIN IONS … END IONS) or an mzML file, plain, gzipped or as a multipart upload`,
  );
}

/**
 * The spectra of a peak-list body (MGF, with its peaks when `keepPeaks`; mzML) and its malformed records; a 413 past
 * `limit` spectra, before reading more.
 */
export async function spectraOfBody(
  bytes: Uint8Array,
  kind: 'mgf' | 'mzml',
  keepPeaks: boolean,
  limit: number,
): Promise<{ spectra: Spectrum[]; malformed: Malformed[] }> {
  const spectra: Spectrum[] = [];
  const malformed: Malformed[] = [];
  for await (const item of readPeakList(kind, [bytes], keepPeaks)) {
    if ('malformed' in item) malformed.push(item.malformed);
    else if (spectra.push(item.spectrum) > limit)
      throw new QueryError(
        413,
        `the body holds more than ${limit.toLocaleString('en')} spectra; send at most ${limit.toLocaleString('en')} per request`,
      );
  }
  return { spectra, malformed };
}

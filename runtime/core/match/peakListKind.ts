// What the first bytes of an input say it is: gzip (to decompress, then look again), an MGF or mzML peak list, JSON
// precursors, or something else named for the user (a FASTA file, an mzXML file, binary data): a file that is not a
// peak list is refused with what it looks like, never read as a peak list of "malformed" records. A stream's head is
// looked at without consuming it (peekHead).

/** What an input's head looks like. */
export type PeakListKind =
  | { kind: 'gzip' }
  | { kind: 'mgf' }
  | { kind: 'mzml' }
  | { kind: 'json' }
  /** `plainText`: text that may be a list of peaks as text (a list of numbers, or text without a BEGIN IONS line). */
  | { kind: 'other'; looksLike: string; plainText?: true };

/** How much of an input is looked at. */
export const SNIFF_BYTES = 64 * 1024;

/** Magic numbers of files people send by mistake, and what to call them. */
const MAGIC: readonly [bytes: readonly number[], name: string][] = [
  [[0x50, 0x4b, 0x03, 0x04], 'a zip archive'],
  [[0x25, 0x50, 0x44, 0x46], 'a PDF document'],
  [[0x89, 0x50, 0x4e, 0x47], 'a PNG image'],
  [[0x42, 0x5a, 0x68], 'a bzip2 archive (decompress it first)'],
  [[0xfd, 0x37, 0x7a, 0x58, 0x5a], 'an xz archive (decompress it first)'],
  [[0x28, 0xb5, 0x2f, 0xfd], 'a zstd archive (decompress it first)'],
  [[0x01, 0xa1, 0x46, 0x00], 'a Thermo RAW file (convert it to MGF, e.g. with msconvert)'],
  [[0x53, 0x51, 0x4c, 0x69, 0x74, 0x65], 'an SQLite database'],
];

const startsWith = (head: Uint8Array, bytes: readonly number[]) => bytes.every((b, i) => head[i] === b);

/** Bytes that do not occur in text: NUL and most C0 controls. */
function isBinary(head: Uint8Array): boolean {
  let controls = 0;
  const n = Math.min(head.length, 4096);
  for (let i = 0; i < n; i++) {
    const b = head[i];
    if (b === 0) return true;
    if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c) controls++;
  }
  return controls > n / 100;
}

/** A line of an MGF file outside its records: a `KEY=value` global parameter, a comment or nothing. */
const MGF_PREAMBLE = /^\s*$|^[#;!/]|^[A-Za-z_][A-Za-z0-9_ ]*=/;

/** What a text head looks like when it is not a peak list, named by its first meaningful line. */
function otherText(text: string): PeakListKind {
  const first = text.replace(/^\uFEFF/, '').trimStart();
  const line = first.split(/\r?\n/, 1)[0];
  const other = (looksLike: string, plainText = false): PeakListKind => ({
    kind: 'other',
    looksLike,
    ...(plainText && { plainText: true }),
  });
  if (line.startsWith('>')) return other('a FASTA file (sequences, not spectra)');
  if (/<mzXML\b/.test(first.slice(0, 4096))) return other('an mzXML file (convert it to MGF, e.g. with msconvert)');
  if (/^<\?xml|^</.test(line)) return other('an XML or HTML document');
  if (/^H\t/.test(line) && /^S\t/m.test(first)) return other('an MS2 file (convert it to MGF, e.g. with msconvert)');
  if (/^\d+(\.\d+)?([ \t,;]+\d+(\.\d+)?([eE][+-]?\d+)?)?\s*$/.test(line))
    return other(
      'a list of numbers without BEGIN IONS records (a peak list needs BEGIN IONS … END IONS around each spectrum)',
      true,
    );
  return other(
    `text without a BEGIN IONS line (it starts with ${JSON.stringify(line.length > 40 ? `${line.slice(0, 40)}…` : line)})`,
    true,
  );
}

/**
 * What `head` (the first SNIFF_BYTES of an input, or all of a shorter one) looks like. An MGF file is text with a
 * BEGIN IONS line, or text that so far holds only what comes before its first record (global parameters,
 * comments).
 */
export function sniffPeakList(head: Uint8Array): PeakListKind {
  if (head[0] === 0x1f && head[1] === 0x8b) return { kind: 'gzip' };
  for (const [bytes, name] of MAGIC) if (startsWith(head, bytes)) return { kind: 'other', looksLike: name };
  if (head.length === 0) return { kind: 'other', looksLike: 'nothing (it is empty)' };
  if (isBinary(head)) return { kind: 'other', looksLike: 'binary data, not text' };
  const text = new TextDecoder().decode(head);
  const start = text.replace(/^\uFEFF/, '').trimStart();
  if (start === '') return { kind: 'other', looksLike: 'nothing but white space' };
  if (start.startsWith('{') || start.startsWith('[')) return { kind: 'json' };
  // Checked before BEGIN IONS: the upload's file part may well hold one.
  if (/^-{2,}\S/.test(start) && /^content-disposition:/im.test(start.slice(0, 4096)))
    return { kind: 'other', looksLike: 'a multipart/form-data upload sent without its Content-Type header' };
  if (/^\s*BEGIN IONS\s*$/im.test(text)) return { kind: 'mgf' };
  if (/^<\?xml[^>]*>\s*(<!--[\s\S]*?-->\s*)*<(indexedmzML|mzML)\b/.test(start) || /^<(indexedmzML|mzML)\b/.test(start))
    return { kind: 'mzml' };
  // A head cut mid-line: its last line is not judged.
  const lines = text.split(/\r?\n/);
  if (head.length >= SNIFF_BYTES) lines.pop();
  if (lines.every((line) => MGF_PREAMBLE.test(line)) && lines.some((line) => line.includes('=')))
    return { kind: 'mgf' };
  return otherText(text);
}

/**
 * The first `bytes` of a stream (all of a shorter one), and the whole stream again (those chunks, then the rest): a
 * look at its kind without consuming it.
 */
export async function peekHead(
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  bytes = SNIFF_BYTES,
): Promise<{ head: Uint8Array; all: AsyncIterable<Uint8Array> }> {
  const iterator = (Symbol.asyncIterator in chunks ? chunks[Symbol.asyncIterator]() : chunks[Symbol.iterator]()) as
    | AsyncIterator<Uint8Array>
    | Iterator<Uint8Array>;
  const seen: Uint8Array[] = [];
  let length = 0;
  let done = false;
  while (length < bytes) {
    const next = await iterator.next();
    if (next.done) {
      done = true;
      break;
    }
    seen.push(next.value);
    length += next.value.length;
  }
  const head = new Uint8Array(Math.min(length, bytes));
  let at = 0;
  for (const chunk of seen) {
    if (at === head.length) break;
    head.set(chunk.subarray(0, head.length - at), at);
    at += Math.min(chunk.length, head.length - at);
  }
  async function* all(): AsyncGenerator<Uint8Array> {
    yield* seen;
    if (done) return;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  }
  return { head, all: all() };
}

// Tests runtime/core/fingerprint/peakLists.ts: the peak lists of real files read as an independent reading gives them
// (test/helpers/referenceMs1.ts) — every MGF fixture one list per record with its TITLE, pymzML's gzipped mzML one per
// MS1 spectrum with its native id, text one list as readPeakText reads it — gzipped or not, in any chunking; the
// input streamed (a list comes before the file is read through, gzip too with a streaming gunzip); and each refusal: what a file that is not a peak list
// looks like, the line of a record or spectrum that cannot be read, a profile spectrum, a file with no list.
import { readdirSync, readFileSync } from 'node:fs';
import { pipeline, Readable } from 'node:stream';
import { createGunzip, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { NamedPeakList } from '../../../../runtime/core/fingerprint/fingerprint.js';
import { PeakListError, readPeakLists } from '../../../../runtime/core/fingerprint/peakLists.js';
import { readPeakText } from '../../../../runtime/core/fingerprint/peakText.js';
import { prng } from '../../../helpers/prng.js';
import { referenceMgf, referenceMs1, textOf, type RefList } from '../../../helpers/referenceMs1.js';

const FIXTURES = new URL('../../../fixtures/', import.meta.url);
const bytesOf = (path: string) => readFileSync(new URL(path, FIXTURES));
const MGF_FILES = readdirSync(new URL('mgf/', FIXTURES)).filter((f) => f.endsWith('.mgf'));
const PYMZML = 'mzml/pymzml_example.mzML.gz';

type Chunks = Iterable<Uint8Array> | AsyncIterable<Uint8Array>;
/** What the query says of the peaks, which a text list's Mascot parameters must also say. */
const QUERY = { ion: 'mh', tolerance: { unit: 'ppm', below: 50, above: 50 } } as const;

async function read(chunks: Chunks): Promise<RefList[]> {
  const lists: RefList[] = [];
  for await (const list of readPeakLists(chunks, QUERY)) lists.push(plain(list));
  return lists;
}

const plain = ({ title, mz, intensity }: NamedPeakList): RefList => ({
  ...(title !== undefined && { title }),
  mz: Array.from(mz),
  ...(intensity && { intensity: Array.from(intensity) }),
});

/** `bytes` in chunks of random sizes up to `size`. */
function chunked(bytes: Uint8Array, size: number, seed: number): Uint8Array[] {
  const random = prng(seed);
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; ) {
    const n = 1 + Math.floor(random() * size);
    chunks.push(bytes.subarray(at, at + n));
    at += n;
  }
  return chunks;
}

/** The message readPeakLists refuses `bytes` with. */
async function refusal(bytes: Uint8Array | string): Promise<string> {
  try {
    await read([typeof bytes === 'string' ? Buffer.from(bytes) : bytes]);
  } catch (e) {
    expect(e).toBeInstanceOf(PeakListError);
    return (e as Error).message;
  }
  throw new Error('not refused');
}

describe('MGF', () => {
  it.each(MGF_FILES)('%s: one list per record, its TITLE and peaks', async (file) => {
    const bytes = bytesOf(`mgf/${file}`);
    const expected = referenceMgf(bytes.toString('utf8'));
    expect(expected.length).toBe((bytes.toString('latin1').match(/^BEGIN IONS/gm) ?? []).length);
    expect(await read([bytes])).toEqual(expected);
  });

  it('reads the same lists gzipped, and in chunks of any size (inside CRLF line ends)', async () => {
    const bytes = bytesOf('mgf/mpa_Test_100.mgf');
    const expected = await read([bytes]);
    expect(expected).toHaveLength(100);
    expect(await read(chunked(bytes, 7, 1))).toEqual(expected);
    expect(await read([gzipSync(bytes)])).toEqual(expected);
    expect(await read(chunked(gzipSync(bytes), 300, 2))).toEqual(expected);
  });

  it('takes records without PEPMASS or CHARGE, and without intensities; keeps an empty record as an empty list', async () => {
    const text = 'BEGIN IONS\nTITLE=spot A1\n1000.5\n1200.25\nEND IONS\nBEGIN IONS\nEND IONS\n';
    expect(await read([Buffer.from(text)])).toEqual([{ title: 'spot A1', mz: [1000.5, 1200.25] }, { mz: [] }]);
  });

  it.each([
    ['BEGIN IONS\n1000.5 10\nbad line\nEND IONS\n', 'line 3: "bad line" is neither a parameter nor a peak'],
    ['BEGIN IONS\n-1000.5 10\nEND IONS\n', 'line 2: "-1000.5" is not a positive m/z'],
    ['BEGIN IONS\n1000.5 ten\nEND IONS\n', 'line 2: "ten" is not an intensity (a number ≥ 0)'],
    ['BEGIN IONS\n1000.5 10\n1001.5\nEND IONS\n', 'line 3: no intensity, where the peaks before give one'],
    ['BEGIN IONS\n1000.5\n1001.5 3\nEND IONS\n', 'line 3: an intensity, where the peaks before give none'],
    ['BEGIN IONS\n1000.5 10\n', 'line 1: a record with no END IONS before the end of the file'],
    ['BEGIN IONS\n1000.5\nBEGIN IONS\nEND IONS\n', 'line 1: a record with no END IONS before the BEGIN IONS of line 3'],
    ['BEGIN IONS\nEND IONS\nEND IONS\n', 'line 3: END IONS without a BEGIN IONS'],
    ['BEGIN IONS\nEND IONS\n1000.5\n', 'line 3: "1000.5" is outside any BEGIN IONS … END IONS record'],
    ['COM=nothing yet\nCHARGE=1+\n', 'an MGF file without a BEGIN IONS … END IONS record'],
  ])('refuses %j: %s', async (text, message) => {
    expect(await refusal(text)).toBe(message);
  });
});

describe('mzML', () => {
  it("pymzML's gzipped run: one list per MS1 spectrum, its native id the title, in any chunking", async () => {
    const bytes = bytesOf(PYMZML);
    const expected = referenceMs1(textOf(bytes)).map(({ representation: _, ...list }) => list);
    expect(expected).toHaveLength(11);
    expect(await read([bytes])).toEqual(expected);
    expect(await read(chunked(bytes, 5000, 3))).toEqual(expected);
    expect(await read([Buffer.from(textOf(bytes))])).toEqual(expected);
  });

  it("pyteomics' file: its three MS1 spectra, the empty one an empty list; its MS2 spectrum skipped", async () => {
    const lists = await read([bytesOf('mzml/pyteomics_tiny.pwiz.1.1.mzML')]);
    expect(lists.map((l) => [l.title, l.mz.length])).toEqual([
      ['scan=19', 15],
      ['scan=21', 0],
      ['sample=1 period=1 cycle=22 experiment=1', 15],
    ]);
  });

  it('refuses a profile spectrum and a file of MS/MS spectra only, by line and why', async () => {
    expect(await refusal(bytesOf('mzml/mzdata_three_test_scans.mzML'))).toBe(
      'line 73: spectrum "controllerType=0 controllerNumber=1 scan=10014" is a profile spectrum (MS:1000128): a fingerprint needs its peaks picked (centroided) first, e.g. with msconvert --filter "peakPicking true 1-"',
    );
    expect(await refusal(bytesOf('sage/LQSRPAAPPAPGPGQLTLR.mzML'))).toBe(
      'an mzML file without an MS1 spectrum (its MS/MS spectra are for identify)',
    );
  });
});

describe('text', () => {
  it('is one list, as readPeakText reads it: one peak a line, or a CSV/TSV table with a header', async () => {
    for (const text of [
      '1000.5\n1200.25\n1500.75\n',
      '1000.5 10\n1200.25 20\n',
      'm/z,intensity\n1000.5,10\n1200.25,20\n',
      '\uFEFF# exported\nMass\tIntensity\n1000.5\t10\n',
    ]) {
      const expected = plain(readPeakText(text.replace(/^\uFEFF/, '')));
      expect(await read([Buffer.from(text)]), text).toEqual([expected]);
      expect(await read([gzipSync(text)]), text).toEqual([expected]);
    }
  });

  it('refuses a line that is not a peak, naming it', async () => {
    expect(await refusal('1000.5\n1200.25\nabc\n')).toBe('line 3: "abc" is not a positive m/z');
    expect(await refusal('peaks of spot A1\n1000.5\n')).toMatch(/^line 1: .* neither a peak nor a header/);
  });
});

describe('what is not a peak list', () => {
  it.each([
    ['a FASTA file', bytesOf('sage/Q99536.fasta'), 'a FASTA file (sequences, not spectra)'],
    ['JSON', Buffer.from('{"precursors":[{"mz":650.3}]}'), 'JSON'],
    ['a zip archive', Buffer.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]), 'a zip archive'],
    ['binary data', Buffer.from([1, 2, 0, 4, 5, 6, 7, 8]), 'binary data, not text'],
    ['nothing', Buffer.alloc(0), 'nothing (it is empty)'],
    ['an XML document', Buffer.from('<?xml version="1.0"?>\n<mzXML>\n'), 'an mzXML file'],
    ['gzip inside gzip', gzipSync(gzipSync('1000.5\n')), 'a compressed file inside a compressed file'],
  ])('%s: says what it looks like and what a fingerprint reads', async (_name, bytes, looksLike) => {
    const message = await refusal(bytes);
    expect(message.startsWith(`not a peak list: it looks like ${looksLike}`), message).toBe(true);
    expect(message).toMatch(/a fingerprint reads peaks as text .* MGF records or the MS1 spectra of an mzML file$/);
  });

  it('gzip that cannot be decompressed', async () => {
    const broken = gzipSync(Buffer.from('1000.5\n'.repeat(1000))).subarray(0, 40);
    expect(await refusal(broken)).toMatch(/^gzip-compressed data that cannot be decompressed \(/);
  });
});

describe('streaming', () => {
  /** `total` chunks of an MGF file of one record each, counting how many the reader has taken. */
  function records(total: number, gzip: boolean) {
    const record = (i: number) => `BEGIN IONS\nTITLE=${i}\n${1000 + i}.5 10\nEND IONS\n`;
    const taken = { count: 0 };
    const text = Array.from({ length: total }, (_, i) => record(i)).join('');
    const bytes = gzip ? gzipSync(text) : Buffer.from(text);
    async function* chunks(): AsyncGenerator<Uint8Array> {
      for (let at = 0; at < bytes.length; at += 256) {
        taken.count++;
        yield bytes.subarray(at, at + 256);
      }
    }
    return { chunks: chunks(), taken, all: Math.ceil(bytes.length / 256) };
  }

  /** node:zlib's streaming gunzip, as a Node entry gives it (Node's DecompressionStream reads far ahead). */
  async function* nodeGunzip(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
    yield* pipeline(Readable.from(chunks), createGunzip(), () => {});
  }

  it.each([false, true])('yields the first list long before the file is read through (gzip: %s)', async (gzip) => {
    const { chunks, taken, all } = records(100_000, gzip);
    const lists = readPeakLists(chunks, QUERY, { gunzip: nodeGunzip });
    const first = await lists.next();
    expect(first.value).toMatchObject({ title: '0' });
    expect(all).toBeGreaterThan(100);
    expect(taken.count).toBeLessThan(all / 4);
    let count = 1;
    for await (const _ of lists) count++;
    expect(count).toBe(100_000);
    expect(taken.count).toBe(all);
  });

  it("passes the input's own error on, not as a peak list's (gzip or not)", async () => {
    for (const gzip of [false, true]) {
      const random = prng(5);
      const mgf = Array.from({ length: 20_000 }, () => `BEGIN IONS\n${1000 + random() * 2000}\nEND IONS\n`).join('');
      const bytes = gzip ? gzipSync(mgf) : Buffer.alloc(200_000, 0x31);
      expect(bytes.length).toBeGreaterThan(70_000);
      async function* failing(): AsyncGenerator<Uint8Array> {
        yield bytes.subarray(0, 70_000);
        throw new Error('disk on fire');
      }
      await expect(read(failing())).rejects.toThrow(/^disk on fire$/);
    }
  });
});

// Tests runtime/core/match/mzml.ts's MS1 reader (readMzmlMs1) against an independent whole-text reading
// (test/helpers/referenceMs1.ts: regular expressions, Buffer, zlib) on the real files: pymzML's centroided Q Exactive
// MS1 spectra, pyteomics' MS1 spectra (one empty, levels from a referenceableParamGroup too), mzdata's profile MS1
// among MS2 spectra, OpenMS's MS-Numpress MS1 spectra as OpenMS's FileConverter decodes them (fails without topp); the
// same items whatever the chunking; the MS/MS reader (readMzml) still skipping every MS1 spectrum; and a spectrum
// without a level, or cut short, reported.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { readMzml, readMzmlMs1, type Ms1Item } from '../../../../runtime/core/match/mzml.js';
import { removeTempDirs } from '../../../helpers/datasets.js';
import { fileConverted } from '../../../helpers/fileConverter.js';
import { prng } from '../../../helpers/prng.js';
import { referenceMs1 } from '../../../helpers/referenceMs1.js';

const FIXTURES = new URL('../../../fixtures/mzml/', import.meta.url);
const bytesOf = (file: string) => readFileSync(new URL(file, FIXTURES));
const PYMZML = 'pymzml_example.mzML.gz';
const TINY = 'pyteomics_tiny.pwiz.1.1.mzML';
const THREE = 'mzdata_three_test_scans.mzML';
const NUMPRESS = 'openms_FileFilter_49_output.mzML';
const textOf = (file: string) => (file.endsWith('.gz') ? gunzipSync(bytesOf(file)) : bytesOf(file)).toString('utf8');

afterAll(removeTempDirs);

async function collect(chunks: Iterable<string | Uint8Array>): Promise<Ms1Item[]> {
  const items: Ms1Item[] = [];
  for await (const item of readMzmlMs1(chunks)) items.push(item);
  return items;
}

/** Lines of the `<spectrum ` start tags of MS1 spectra in `text`, counted from 1. */
const startLines = (text: string, ids: readonly (string | undefined)[]) =>
  ids.map((id) => text.split('\n').findIndex((l) => l.includes('<spectrum ') && l.includes(`id="${id}"`)) + 1);

/** The items as plain values: titles, representations and peaks as arrays. */
const plain = (items: Ms1Item[]) =>
  items.map((item) =>
    'malformed' in item
      ? item
      : {
          title: item.ms1.title,
          representation: item.ms1.representation,
          mz: Array.from(item.ms1.peaks.mz),
          intensity: Array.from(item.ms1.peaks.intensity),
        },
  );

describe('readMzmlMs1 on the real files', () => {
  it.each([PYMZML, TINY, THREE])('%s: the MS1 spectra of the reference, in order, at their lines', async (file) => {
    const text = textOf(file);
    const expected = referenceMs1(text);
    expect(expected.length).toBeGreaterThan(0);
    const items = await collect([Buffer.from(text)]);
    expect(plain(items)).toEqual(expected);
    const ms1 = items.map((item) => ('ms1' in item ? item.ms1 : undefined));
    expect(ms1.map((s) => s?.index)).toEqual(expected.map((_, i) => i + 1));
    expect(ms1.map((s) => s?.line)).toEqual(
      startLines(
        text,
        expected.map((e) => e.title),
      ),
    );
  });

  it("pymzML's file: 11 centroided spectra of 917 to 1,231 peaks, scan start times in minutes", async () => {
    const items = await collect([Buffer.from(textOf(PYMZML))]);
    expect(items).toHaveLength(11);
    const spectra = items.map((item) => ('ms1' in item ? item.ms1 : undefined)!);
    expect(spectra.map((s) => s.title)).toEqual(
      Array.from({ length: 11 }, (_, i) => `controllerType=0 controllerNumber=1 scan=${i + 1}`),
    );
    expect(new Set(spectra.map((s) => s.representation))).toEqual(new Set(['centroid']));
    const sizes = spectra.map((s) => s.peaks.mz.length);
    expect([Math.min(...sizes), Math.max(...sizes)]).toEqual([917, 1231]);
    expect(spectra[0].rtSeconds).toBeCloseTo(0.0014658998 * 60, 12);
  });

  it("pyteomics' file: three MS1 spectra, the second empty; its MS2 spectrum is not one of them", async () => {
    const items = await collect([bytesOf(TINY)]);
    expect(plain(items).map((i) => ('title' in i ? [i.title, i.mz.length] : i))).toEqual([
      ['scan=19', 15],
      ['scan=21', 0],
      ['sample=1 period=1 cycle=22 experiment=1', 15],
    ]);
  });

  it("OpenMS's MS-Numpress MS1 spectra: their values as OpenMS decodes them", async () => {
    const expected = referenceMs1(fileConverted(new URL(NUMPRESS, FIXTURES).pathname));
    expect(expected).toHaveLength(50);
    expect(plain(await collect([bytesOf(NUMPRESS)]))).toEqual(expected);
  });

  it('gives the same items in 1-byte, 13-byte and random chunks, as bytes or as text', async () => {
    const bytes = Buffer.from(textOf(TINY));
    const whole = await collect([bytes]);
    const cut = (size: number, random?: () => number) => {
      const chunks: Uint8Array[] = [];
      for (let at = 0; at < bytes.length; ) {
        const n = random ? 1 + Math.floor(random() * size) : size;
        chunks.push(bytes.subarray(at, at + n));
        at += n;
      }
      return chunks;
    };
    expect(await collect(cut(1))).toEqual(whole);
    expect(await collect(cut(13))).toEqual(whole);
    const random = prng(7);
    for (let round = 0; round < 5; round++) expect(await collect(cut(4000, random))).toEqual(whole);
    expect(await collect([bytes.toString('utf8')])).toEqual(whole);
  });

  it('reports a spectrum whose level is missing (it may be an MS1 spectrum), and a file cut inside one', async () => {
    const text = textOf(TINY);
    // Neither its own ms level nor the group that says MS1 spectrum.
    const noLevel = text.replace(
      /(<spectrum index="0"[^>]*>)\s*<referenceableParamGroupRef ref="CommonMS1SpectrumParams"\/>\s*<cvParam cvRef="MS" accession="MS:1000511" name="ms level" value="1"\/>/,
      '$1\n\n',
    );
    expect(noLevel).not.toBe(text);
    const items = await collect([noLevel]);
    expect(items[0]).toEqual({
      malformed: { line: startLines(text, ['scan=19'])[0], error: 'spectrum "scan=19" gives no ms level (MS:1000511)' },
    });
    expect(items.slice(1).map((i) => ('ms1' in i ? i.ms1.title : i))).toEqual([
      'scan=21',
      'sample=1 period=1 cycle=22 experiment=1',
    ]);
    const at = text.indexOf('<spectrum index="2"');
    const cutShort = await collect([text.slice(0, at + 200)]);
    expect(cutShort.at(-1)).toEqual({
      malformed: {
        line: startLines(text, ['scan=21'])[0],
        error: 'spectrum "scan=21" is cut short: the file ends before its </spectrum>',
      },
    });
  });
});

describe('readMzml (MS/MS) is unchanged by the MS1 reader', () => {
  it("skips every MS1 spectrum: pymzML's file gives nothing, pyteomics' one MS2 spectrum", async () => {
    const items = async (text: string) => {
      const out = [];
      for await (const item of readMzml([text])) out.push(item);
      return out;
    };
    expect(await items(textOf(PYMZML))).toEqual([]);
    const tiny = await items(textOf(TINY));
    expect(tiny.map((i) => ('spectrum' in i ? [i.spectrum.index, i.spectrum.title] : i))).toEqual([[1, 'scan=20']]);
  });
});

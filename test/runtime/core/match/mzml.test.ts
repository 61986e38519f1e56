// Tests runtime/core/match/mzml.ts: readMzml on every real file of test/fixtures/mzml (and Sage's) against an
// independent whole-text reference reader written here (regular expressions over the file, Node's Buffer for base64
// and zlib.inflateSync; an MS-Numpress array's values as OpenMS's FileConverter decodes the file); the same items
// whatever the chunking (1 byte, 7 bytes, random, text or bytes, inside multi-byte UTF-8 characters); MS1 spectra
// skipped; and edits of the real files that each make one spectrum malformed (no precursor, bad base64, bad zlib,
// corrupt numpress, mismatched or missing arrays, a cut-short file) while the others are still read, plus the fields
// the edits change (polarity, possible charges, units, entities, order). Without FileConverter it fails: install topp.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Malformed, MgfItem, Spectrum } from '../../../../runtime/core/match/mgf.js';
import { readMzml } from '../../../../runtime/core/match/mzml.js';
import { removeTempDirs } from '../../../helpers/datasets.js';
import { fileConverted } from '../../../helpers/fileConverter.js';
import { prng } from '../../../helpers/prng.js';

// ---- Helpers

const FIXTURES = new URL('../../../fixtures/mzml/', import.meta.url);
const SAGE = new URL('../../../fixtures/sage/LQSRPAAPPAPGPGQLTLR.mzML', import.meta.url);
const FILES = readdirSync(FIXTURES)
  .filter((f) => f.endsWith('.mzML'))
  .sort();
const README = readFileSync(new URL('README.md', FIXTURES), 'utf8');
const bytesOf = (file: string) => readFileSync(file === 'sage' ? SAGE : new URL(file, FIXTURES));
const textOf = (file: string) => bytesOf(file).toString('utf8');
const THREE = 'mzdata_three_test_scans.mzML';
const TINY = 'pyteomics_tiny.pwiz.1.1.mzML';
const NUMPRESS = 'openms_FileFilter_49_output.mzML';

type Chunk = string | Uint8Array;

async function collect(chunks: Iterable<Chunk> | AsyncIterable<Chunk>): Promise<MgfItem[]> {
  const out: MgfItem[] = [];
  for await (const item of readMzml(chunks)) out.push(item);
  return out;
}
const read = (text: string) => collect([text]);
const spectraOf = (items: MgfItem[]): Spectrum[] => items.flatMap((i) => ('spectrum' in i ? [i.spectrum] : []));
const malformedOf = (items: MgfItem[]): Malformed[] => items.flatMap((i) => ('malformed' in i ? [i.malformed] : []));

/** `bytes` cut into chunks of `size` bytes (or of random sizes up to `size` with `random`). */
function split(bytes: Uint8Array, size: number, random?: () => number): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; ) {
    const n = random ? 1 + Math.floor(random() * size) : size;
    chunks.push(bytes.subarray(at, at + n));
    at += n;
  }
  return chunks;
}

// ---- The reference: whole text, regular expressions, Buffer and zlib

type Attributes = Record<string, string>;
const XML_ENTITIES: [RegExp, (m: string, x: string) => string][] = [
  [/&#x([0-9a-f]+);/gi, (_, x) => String.fromCodePoint(parseInt(x, 16))],
  [/&#(\d+);/g, (_, x) => String.fromCodePoint(Number(x))],
  [/&lt;/g, () => '<'],
  [/&gt;/g, () => '>'],
  [/&quot;/g, () => '"'],
  [/&apos;/g, () => "'"],
  [/&amp;/g, () => '&'],
];
const decodeXml = (text: string) => XML_ENTITIES.reduce((t, [re, f]) => t.replace(re, f), text);
const attrs = (tag: string): Attributes =>
  Object.fromEntries([...tag.matchAll(/([\w:]+)="([^"]*)"/g)].map((m) => [m[1], decodeXml(m[2])]));
const cvParams = (xml: string): Attributes[] => [...xml.matchAll(/<cvParam\s[^>]*>/g)].map((m) => attrs(m[0]));
const byName = (params: Attributes[], name: string) => params.find((p) => p.name === name);

/** The values of a binaryDataArray's text, by its cvParams' names. */
function referenceValues(arrayXml: string): number[] {
  const names = cvParams(arrayXml).map((p) => p.name);
  let buffer = Buffer.from(/<binary>([^<]*)<\/binary>/.exec(arrayXml)?.[1] ?? '', 'base64');
  if (names.includes('zlib compression')) buffer = inflateSync(buffer);
  const single = names.includes('32-bit float');
  const values: number[] = [];
  for (let at = 0; at < buffer.length; at += single ? 4 : 8)
    values.push(single ? buffer.readFloatLE(at) : buffer.readDoubleLE(at));
  return values;
}

/** What the reference expects of each MS2+ spectrum. */
type Expected = { spectrum: Spectrum };

/** Each spectrum's m/z and intensity values by id, as OpenMS's FileConverter decodes a numpress file. */
type Decoded = Map<string, { mz: number[]; intensity: number[] }>;

/** The numpress fixture's arrays decoded by OpenMS, by spectrum id. */
let openmsDecoded: Decoded;
beforeAll(() => {
  const text = fileConverted(new URL(NUMPRESS, FIXTURES).pathname);
  openmsDecoded = new Map(
    [...text.matchAll(/<spectrum\s[^>]*>[\s\S]*?<\/spectrum>/g)].map((m) => {
      const arrays = [...m[0].matchAll(/<binaryDataArray[\s>][\s\S]*?<\/binaryDataArray>/g)].map((a) => a[0]);
      const values = (name: string) => referenceValues(arrays.find((a) => byName(cvParams(a), name))!);
      const id = attrs(/<spectrum\s[^>]*>/.exec(m[0])![0]).id;
      return [id, { mz: values('m/z array'), intensity: values('intensity array') }];
    }),
  );
});
afterAll(removeTempDirs);

function referenceRead(text: string): Expected[] {
  const groups = new Map<string, string>();
  for (const m of text.matchAll(/<referenceableParamGroup id="([^"]*)">([\s\S]*?)<\/referenceableParamGroup>/g))
    groups.set(m[1], m[2]);
  const out: Expected[] = [];
  for (const m of text.matchAll(/<spectrum\s[^>]*>[\s\S]*?<\/spectrum>/g)) {
    const line = text.slice(0, m.index).split('\n').length;
    const xml = m[0].replace(/<referenceableParamGroupRef ref="([^"]*)"\s*\/>/g, (_, ref) => groups.get(ref)!);
    const outside = xml
      .replace(/<precursorList[\s\S]*?<\/precursorList>/, '')
      .replace(/<binaryDataArrayList[\s\S]*?<\/binaryDataArrayList>/, '');
    if (byName(cvParams(outside), 'ms level')?.value === '1') continue;
    const arrays = [...xml.matchAll(/<binaryDataArray[\s>][\s\S]*?<\/binaryDataArray>/g)].map((a) => a[0]);
    const mzXml = arrays.find((a) => byName(cvParams(a), 'm/z array'))!;
    const intensityXml = arrays.find((a) => byName(cvParams(a), 'intensity array'))!;
    const id = attrs(/<spectrum\s[^>]*>/.exec(m[0])![0]).id;
    const numpress = /name="MS-Numpress/.test(mzXml + intensityXml);
    const selectedIon = /<selectedIon>[\s\S]*?<\/selectedIon>/.exec(xml)![0];
    const ion = cvParams(selectedIon);
    const sign = byName(cvParams(outside), 'negative scan') ? -1 : 1;
    const time = byName(cvParams(outside), 'scan start time');
    const { mz, intensity } = numpress
      ? openmsDecoded.get(id)!
      : { mz: referenceValues(mzXml), intensity: referenceValues(intensityXml) };
    const order = mz.map((_, i) => i).sort((a, b) => mz[a] - mz[b]);
    const peakIntensity = byName(ion, 'peak intensity')?.value;
    out.push({
      spectrum: {
        index: out.length + 1,
        line,
        title: id,
        scans: /\bscan=(\d+)/.exec(id)?.[1],
        rtSeconds: time && parseFloat(time.value) * (time.unitName === 'minute' ? 60 : 1),
        mz: parseFloat(byName(ion, 'selected ion m/z')!.value),
        intensity: peakIntensity === undefined ? undefined : parseFloat(peakIntensity),
        charges: ion.filter((p) => p.name === 'charge state').map((p) => sign * parseInt(p.value, 10)),
        peaks: {
          mz: Float64Array.from(order, (i) => mz[i]),
          intensity: Float64Array.from(order, (i) => intensity[i]),
        },
      },
    });
  }
  return out;
}

/** What readMzml gives, in the reference's terms (every item a spectrum). */
function asExpected(items: MgfItem[]): Expected[] {
  expect(malformedOf(items)).toEqual([]);
  return items as Expected[];
}

// ---- Real files

describe('readMzml on the real files', () => {
  it('has the files the README lists, byte for byte', () => {
    expect(FILES).toHaveLength(3);
    for (const file of FILES) {
      const row = README.split('\n').find((l) => l.startsWith(`| \`${file}\``));
      const hash = /\| `([0-9a-f]{64})` \|/.exec(row ?? '')?.[1];
      expect(createHash('sha256').update(bytesOf(file)).digest('hex'), file).toBe(hash);
    }
  });

  it.each([...FILES, 'sage'])('%s: the same items as the reference reader', async (file) => {
    const expected = referenceRead(textOf(file));
    expect(expected.length).toBeGreaterThan(0);
    expect(asExpected(await collect([bytesOf(file)]))).toEqual(expected);
  });

  it("Sage's spectrum: precursor 643.034396630915 at charge 3, 299 peaks, 108.2854 min", async () => {
    const [s] = spectraOf(await collect([bytesOf('sage')]));
    expect(s).toMatchObject({ index: 1, line: 68, mz: 643.034396630915, charges: [3], scans: '30069' });
    expect(s.title).toBe('controllerType=0 controllerNumber=1 scan=30069');
    expect(s.rtSeconds).toBeCloseTo(108.2854 * 60, 9);
    expect(s.intensity).toBe(3.0614616075e8);
    expect(s.peaks!.mz).toHaveLength(299);
  });

  it('skips MS1 spectra silently: the counts of the README', async () => {
    const counts = async (file: string) => {
      const items = await collect([bytesOf(file)]);
      return [spectraOf(items).length, malformedOf(items).length];
    };
    expect(await counts(THREE)).toEqual([2, 0]);
    expect(await counts(TINY)).toEqual([1, 0]);
    expect(await counts(NUMPRESS)).toEqual([50, 0]);
    const [s] = spectraOf(await collect([bytesOf(TINY)]));
    expect(s).toMatchObject({ index: 1, title: 'scan=20', mz: 445.34, charges: [2], intensity: 120053 });
    expect([...s.peaks!.mz]).toEqual([0, 2, 4, 6, 8, 10, 12, 14, 16, 18]);
  });
});

// ---- Chunking

describe('readMzml chunking', () => {
  const cases = [...FILES, 'sage'];
  it.each(cases)(
    '%s: the same items in 1-byte, 7-byte and random chunks, bytes or text, sync or async',
    async (file) => {
      const bytes = bytesOf(file);
      const whole = await collect([bytes]);
      const random = prng(20250101);
      expect(await collect(split(bytes, 1)), '1 byte').toEqual(whole);
      expect(await collect(split(bytes, 7)), '7 bytes').toEqual(whole);
      for (let round = 0; round < 4; round++) {
        const chunks = split(bytes, round % 2 ? 50 : 5000, random);
        async function* slowly() {
          for (const chunk of chunks) {
            await Promise.resolve();
            yield chunk;
          }
        }
        expect(await collect(round < 2 ? chunks : slowly()), `round ${round}`).toEqual(whole);
      }
      const text = bytes.toString('utf8');
      const pieces: string[] = [];
      for (let at = 0; at < text.length; at += 13) pieces.push(text.slice(at, at + 13));
      expect(await collect(pieces), 'text').toEqual(whole);
    },
  );

  it('splits inside multi-byte UTF-8 characters and keeps them (an id with é, ☺ and 😀)', async () => {
    const text = textOf(TINY).replace('id="scan=20"', 'id="scan=20 é☺😀"');
    const whole = await read(text);
    expect(spectraOf(whole)[0].title).toBe('scan=20 é☺😀');
    const bytes = new TextEncoder().encode(text);
    expect(await collect(split(bytes, 1))).toEqual(whole);
    const random = prng(3);
    for (let round = 0; round < 20; round++) expect(await collect(split(bytes, 9, random))).toEqual(whole);
    expect(await collect([new Uint8Array([0xef, 0xbb, 0xbf]), bytes])).toEqual(whole); // a BOM
  });
});

// ---- Edits of the real files

/**
 * `text` with its `n`-th spectrum element (from 0, MS1 ones included) passed through `edit`; line ends the edit removes
 * are added after the element, so that the lines of the elements after it do not move.
 */
function editSpectrum(text: string, n: number, edit: (xml: string) => string): string {
  let k = 0;
  return text.replace(/<spectrum\s[^>]*>[\s\S]*?<\/spectrum>/g, (xml) => {
    if (k++ !== n) return xml;
    const edited = edit(xml);
    expect(edited, 'the edit changes the spectrum').not.toBe(xml);
    const lineEnds = (t: string) => t.split('\n').length - 1;
    return edited + '\n'.repeat(Math.max(0, lineEnds(xml) - lineEnds(edited)));
  });
}
/** `xml` with its `n`-th binaryDataArray element (from 0) passed through `edit`. */
function editArray(xml: string, n: number, edit: (array: string) => string): string {
  let k = 0;
  return xml.replace(/<binaryDataArray[\s>][\s\S]*?<\/binaryDataArray>/g, (a) => (k++ === n ? edit(a) : a));
}
/** The `<binary>` text of `text`'s `n`-th binaryDataArray. */
const binaryOf = (text: string, n: number) => [...text.matchAll(/<binary>([^<]*)<\/binary>/g)][n][1];
const base64Of = (values: number[], bytes: 4 | 8, integer = false) => {
  const buffer = Buffer.alloc(values.length * bytes);
  values.forEach((v, i) => (integer ? buffer.writeInt32LE(v, i * 4) : buffer.writeDoubleLE(v, i * 8)));
  return buffer.toString('base64');
};

describe('readMzml on malformed spectra', () => {
  // mzdata_three_test_scans.mzML: element 0 is the MS1 spectrum, elements 1 and 2 the MS2 spectra (scans 10015, 10016).
  const three = textOf(THREE);
  const lineOf = (n: number) => three.split('\n').findIndex((l) => l.includes(`<spectrum index="${n}"`)) + 1;

  /** The first MS2 spectrum, edited by `edit`, is one malformed item with `message`; the second still comes. */
  async function oneMalformed(edit: (xml: string) => string, message: RegExp): Promise<void> {
    const whole = await read(three);
    const items = await read(editSpectrum(three, 1, edit));
    expect(items).toEqual([{ malformed: { line: lineOf(1), error: expect.stringMatching(message) } }, whole[1]]);
    expect(malformedOf(items)[0].error).toMatch(/^spectrum "controllerType=0 controllerNumber=1 scan=10015" /);
  }

  it('a spectrum without its precursor, counted in the ordinals', async () => {
    await oneMalformed((x) => x.replace(/<precursorList[\s\S]*<\/precursorList>/, ''), /has no precursor m\/z/);
    expect(spectraOf(await read(three)).map((s) => s.index)).toEqual([1, 2]);
  });

  it('bad base64, bad zlib, a cut zlib stream', async () => {
    await oneMalformed((x) => x.replace('<binary>eA', '<binary>*A'), /m\/z array that is not base64/);
    await oneMalformed((x) => x.replace('<binary>eA', '<binary>e'), /m\/z array that is not base64/);
    await oneMalformed(
      (x) => x.replace(/<binary>eA[^<]*/, '<binary>AAAAAAAA'),
      /zlib-compressed m\/z array that cannot be inflated/,
    );
    await oneMalformed(
      (x) => x.replace(/<binary>(eA[^<]*)/, (_, b: string) => `<binary>${b.slice(0, 400)}`),
      /zlib-compressed m\/z array that cannot be inflated/,
    );
  });

  it('m/z and intensity arrays of different lengths, or one missing', async () => {
    const otherIntensities = binaryOf(three, 5); // the second MS2's: 5390 values against 3493
    await oneMalformed(
      (x) => editArray(x, 1, (a) => a.replace(binaryOf(a, 0), otherIntensities)),
      /has 3493 m\/z values but 5390 intensities/,
    );
    await oneMalformed((x) => editArray(x, 1, () => ''), /has no intensity array/);
    await oneMalformed((x) => editArray(x, 0, () => ''), /has no m\/z array/);
  });

  it('MS-Numpress data that cannot be decoded, named as such', async () => {
    // zlib-compressed floats read as numpress linear: a fixed point, then integers cut short.
    await oneMalformed(
      (x) =>
        x.replace(
          'accession="MS:1000574" name="zlib compression"',
          'accession="MS:1002746" name="MS-Numpress linear prediction compression followed by zlib compression"',
        ),
      /has an MS-Numpress linear m\/z array that cannot be decoded \(/,
    );
  });

  it('a precursor m/z or a charge that is not one', async () => {
    await oneMalformed(
      (x) => x.replace('value="562.739745982435" unitCvRef', 'value="abc" unitCvRef'),
      /precursor m\/z "abc"/,
    );
    await oneMalformed(
      (x) => x.replace('name="charge state" value="2"', 'name="charge state" value="11"'),
      /charge state "11"/,
    );
  });

  it('a file cut inside a spectrum: the spectra before it, then one malformed item at its line', async () => {
    const cut = three.slice(0, three.indexOf('<binary>', three.indexOf('scan=10016">')) + 100);
    const items = await read(cut);
    expect(items).toHaveLength(2);
    expect(items[0]).toEqual((await read(three))[0]);
    expect(items[1]).toEqual({
      malformed: {
        line: lineOf(2),
        error: expect.stringMatching(/"controllerType=0 controllerNumber=1 scan=10016" is cut short/),
      },
    });
    // Cut inside the MS1 spectrum: nothing can be known of it but that it is cut.
    const early = await read(three.slice(0, three.indexOf('</spectrum>')));
    expect(early).toEqual([{ malformed: { line: lineOf(0), error: expect.stringContaining('cut short') } }]);
  });

  it('never throws on text that is not mzML, or cut anywhere', async () => {
    expect(await read('BEGIN IONS\nPEPMASS=500\nEND IONS\n')).toEqual([]);
    expect(await read('')).toEqual([]);
    const tiny = textOf(TINY);
    const whole = await read(tiny);
    for (let k = 0; k < tiny.length; k += 97) {
      const items = await read(tiny.slice(0, k));
      const malformed = malformedOf(items);
      expect(malformed.length, `cut at ${k}`).toBeLessThanOrEqual(1);
      for (const m of malformed) expect(m.error).toContain('cut short');
      expect(spectraOf(items), `cut at ${k}`).toEqual(spectraOf(whole).slice(0, spectraOf(items).length));
    }
  });
});

describe('readMzml fields the edits change', () => {
  const tiny = textOf(TINY);
  const only = async (text: string) => {
    const items = await read(text);
    expect(malformedOf(items)).toEqual([]);
    return spectraOf(items)[0];
  };

  it('takes polarity from a referenceableParamGroup: negative scan makes the charges negative', async () => {
    const negative = tiny.replace(
      /(<referenceableParamGroup id="CommonMS2SpectrumParams">[\s\S]*?)MS:1000130" name="positive scan"/,
      '$1MS:1000129" name="negative scan"',
    );
    expect(negative).not.toBe(tiny);
    expect((await only(negative)).charges).toEqual([-2]);
  });

  it('takes the ms level from a referenceableParamGroup too', async () => {
    const moved = tiny
      .replace(
        '<referenceableParamGroup id="CommonMS1SpectrumParams">',
        '$&<cvParam cvRef="MS" accession="MS:1000511" name="ms level" value="1"/>',
      )
      .replaceAll(/<cvParam [^>]*"MS:1000511" name="ms level" value="1"\/>\s*(?=<cvParam [^>]*"MS:1000127")/g, '');
    expect(moved.match(/name="ms level" value="1"/g)).toHaveLength(1);
    const items = await read(moved);
    expect(malformedOf(items)).toEqual([]);
    expect(spectraOf(items).map((s) => s.title)).toEqual(['scan=20']);
  });

  it('gives every possible charge state when no charge state is given', async () => {
    const possible = tiny.replace(
      '<cvParam cvRef="MS" accession="MS:1000041" name="charge state" value="2"/>',
      [2, 3].map((z) => `<cvParam accession="MS:1000633" name="possible charge state" value="${z}"/>`).join(''),
    );
    expect((await only(possible)).charges).toEqual([2, 3]);
    const none = tiny.replace('<cvParam cvRef="MS" accession="MS:1000041" name="charge state" value="2"/>', '');
    expect((await only(none)).charges).toEqual([]);
  });

  it('reads scan start time in seconds, and a unit it does not know as no time', async () => {
    const seconds = tiny.replace(
      'value="5.9904999999999999" unitCvRef="UO" unitAccession="UO:0000031" unitName="minute"',
      'value="359.43" unitCvRef="UO" unitAccession="UO:0000010" unitName="second"',
    );
    expect((await only(seconds)).rtSeconds).toBe(359.43);
    const hours = seconds.replace(
      'unitAccession="UO:0000010" unitName="second"',
      'unitAccession="UO:0000032" unitName="hour"',
    );
    expect((await only(hours)).rtSeconds).toBeUndefined();
  });

  it('decodes the XML entities of the id', async () => {
    const text = tiny.replace(
      'id="scan=20"',
      'id="a &amp; b &lt;c&gt; &quot;d&quot; &apos;e&apos; &#233;&#x263A; scan=20"',
    );
    expect(await only(text)).toMatchObject({ title: `a & b <c> "d" 'e' é☺ scan=20`, scans: '20' });
  });

  it('sorts peaks that are not in ascending m/z, each intensity with its m/z; reads 32-bit integers', async () => {
    const mz = [18, 2, 4, 6, 8, 10, 12, 14, 16, 0];
    const intensity = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    const edited = editSpectrum(tiny, 1, (spectrum) =>
      editArray(
        editArray(spectrum, 0, (a) => a.replace(binaryOf(a, 0), base64Of(mz, 8))),
        1,
        (a) =>
          a
            .replace(binaryOf(a, 0), base64Of(intensity, 4, true))
            .replace('MS:1000523" name="64-bit float"', 'MS:1000519" name="32-bit integer"'),
      ),
    );
    const s = await only(edited);
    expect([...s.peaks!.mz]).toEqual([0, 2, 4, 6, 8, 10, 12, 14, 16, 18]);
    expect([...s.peaks!.intensity]).toEqual([10, 2, 3, 4, 5, 6, 7, 8, 9, 1]);
  });
});

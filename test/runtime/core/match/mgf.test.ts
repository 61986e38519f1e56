// Tests runtime/core/mgf.ts: parseCharges on the CHARGE forms of the Mascot spec and the ones it must refuse;
// MgfReader and readMgf on hand-made records (LF and CRLF, comment and blank lines, TITLE / PEPMASS / CHARGE /
// RTINSECONDS / SCANS forms, peak lines, lower-case delimiters, a file-wide CHARGE, record ordinals and line numbers);
// malformed records and stray lines, each reported once at its BEGIN IONS (or its own) line and skipped while the
// following records are still read; readMgf's chunking (every byte and character boundary, so inside CRLF pairs and
// multi-byte UTF-8 characters, random splits, a BOM); and every real file of test/fixtures/mgf/ against an
// independent line-based reference reader written here and against the facts its README states.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  MAX_CHARGE,
  MgfReader,
  parseCharges,
  readMgf,
  type Malformed,
  type MgfItem,
  type Spectrum,
} from '../../../../runtime/core/match/mgf.js';
import { PRECURSOR_PARAMS } from '../../../../runtime/api/precursorParams.js';
import { prng } from '../../../helpers/prng.js';

// ---- Helpers

/** The real files, and their README. */
const FIXTURES = new URL('../../../fixtures/mgf/', import.meta.url);
const FILES = readdirSync(FIXTURES)
  .filter((f) => f.endsWith('.mgf'))
  .sort();
const README = readFileSync(new URL('README.md', FIXTURES), 'utf8');
const bytesOf = (file: string) => readFileSync(new URL(file, FIXTURES));
const textOf = (file: string) => bytesOf(file).toString('utf8');

type Chunk = string | Uint8Array;

async function collect(chunks: Iterable<Chunk> | AsyncIterable<Chunk>): Promise<MgfItem[]> {
  const out: MgfItem[] = [];
  for await (const item of readMgf(chunks)) out.push(item);
  return out;
}
const read = (text: string) => collect([text]);
const spectraOf = (items: MgfItem[]): Spectrum[] => items.flatMap((i) => ('spectrum' in i ? [i.spectrum] : []));
const malformedOf = (items: MgfItem[]): Malformed[] => items.flatMap((i) => ('malformed' in i ? [i.malformed] : []));

/** 1-based number of the only line of `text` that is exactly `wanted` (CR of a CRLF ignored). */
function lineOf(text: string, wanted: string): number {
  const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
  const found = lines.flatMap((l, i) => (l === wanted ? [i + 1] : []));
  expect(found, `exactly one line ${JSON.stringify(wanted)}`).toHaveLength(1);
  return found[0];
}
/** 1-based numbers of the BEGIN IONS lines of `text` (any case, surrounding white space allowed). */
const beginLines = (text: string) => text.split('\n').flatMap((l, i) => (/^\s*begin ions\s*$/i.test(l) ? [i + 1] : []));

/** One record: BEGIN IONS, the given lines, one peak, END IONS; LF line ends. */
const ions = (...lines: string[]) => ['BEGIN IONS', ...lines, '100.1 10', 'END IONS'].join('\n') + '\n';

/** The one spectrum `text` holds; fails on anything else. */
async function only(text: string): Promise<Spectrum> {
  const items = await read(text);
  expect(malformedOf(items)).toEqual([]);
  expect(items).toHaveLength(1);
  return spectraOf(items)[0];
}

// ---- parseCharges

describe('parseCharges', () => {
  // CHARGE values as the Mascot spec and the converters write them; signed, distinct, in the order given.
  const accepted: [string, number[]][] = [
    ['2+', [2]],
    ['+2', [2]],
    ['2', [2]],
    ['3-', [-3]],
    ['-3', [-3]],
    ['2.0+', [2]],
    ['2+ and 3+', [2, 3]],
    ['2+ and 3+ and 4+', [2, 3, 4]],
    ['2+,3+', [2, 3]],
    ['2+, 3+', [2, 3]],
    ['2+ 3+', [2, 3]],
    ['1+, 2+ and 3+', [1, 2, 3]],
    ['2+ and 2+', [2]],
    ['3+,2+,3+,2', [3, 2]],
    ['2+ 2-', [2, -2]],
    ['1+', [1]],
    ['  4+  ', [4]],
    ['2,3', [2, 3]],
  ];
  it.each(accepted)('reads %j as %j', (text, charges) => {
    expect(parseCharges(text)).toEqual(charges);
  });

  it('accepts charges up to MAX_CHARGE, the search API limit, in absolute value', () => {
    const apiCharge = PRECURSOR_PARAMS.find((p) => p.name === 'charge') as { max?: number } | undefined;
    expect(MAX_CHARGE).toBe(apiCharge?.max);
    expect(parseCharges(`${MAX_CHARGE}+`)).toEqual([MAX_CHARGE]);
    expect(parseCharges(`${MAX_CHARGE}-`)).toEqual([-MAX_CHARGE]);
    expect(typeof parseCharges(`${MAX_CHARGE + 1}+`)).toBe('string');
    expect(typeof parseCharges(`-${MAX_CHARGE + 1}`)).toBe('string');
  });

  const refused = ['0', '0+', '-0', '11+', 'abc', '2+-', '+2+', '-2+', '2.5+', '2+ and x', '', '   ', '2+;3+', '1e1'];
  it.each(refused)('refuses %j with a message', (text) => {
    const result = parseCharges(text);
    expect(typeof result).toBe('string');
    expect((result as string).length).toBeGreaterThan(0);
  });

  it('names the offending token in its message', () => {
    expect(parseCharges('2+ and 11+')).toContain('11+');
    expect(parseCharges('2+,abc')).toContain('abc');
  });
});

// ---- Hand-made records

describe('readMgf on hand-made records', () => {
  const LF = [
    '# a comment before the first record',
    'MASS=Monoisotopic',
    '',
    'BEGIN IONS',
    'TITLE=first',
    'PEPMASS=500.25 1200',
    'CHARGE=2+',
    '100.5 20',
    '200.25 30',
    'END IONS',
    '',
    'BEGIN IONS',
    'TITLE=second',
    'PEPMASS=650.5',
    'CHARGE=3+',
    '300 40',
    'END IONS',
    '',
  ].join('\n');
  const EXPECTED = [
    { index: 1, line: 4, title: 'first', mz: 500.25, intensity: 1200, charges: [2] },
    { index: 2, line: 12, title: 'second', mz: 650.5, charges: [3] },
  ];

  it('reads LF, CRLF and mixed line ends alike, with or without a final line end', async () => {
    expect(beginLines(LF)).toEqual([4, 12]);
    const variants = [
      LF,
      LF.replaceAll('\n', '\r\n'),
      LF.replace(/\n$/, ''),
      LF.replaceAll('\n', '\r\n').replace(/\r\n$/, ''),
      LF.split('\n')
        .map((l, i) => (i % 2 ? `${l}\r` : l))
        .join('\n'),
    ];
    for (const text of variants) {
      const items = await read(text);
      expect(items).toEqual(EXPECTED.map((spectrum) => ({ spectrum })));
      for (const s of spectraOf(items)) expect(s.intensity === undefined || Number.isFinite(s.intensity)).toBe(true);
      expect(spectraOf(items)[1].intensity).toBeUndefined();
    }
  });

  it('skips #, ;, ! and / comment lines outside and inside records', async () => {
    const text = [
      '#hash outside',
      ';semicolon outside',
      '!bang outside',
      '/slash outside',
      '# ',
      'BEGIN IONS',
      '#CHARGE=5+',
      ';PEPMASS=999',
      '!TITLE=not this one',
      '/SCANS=9',
      'TITLE=kept',
      'PEPMASS=400.2',
      '# a comment between peaks',
      '100 1',
      'END IONS',
      '   # an indented comment',
      '',
    ].join('\n');
    expect(await only(text)).toEqual({ index: 1, line: 6, title: 'kept', mz: 400.2, charges: [] });
  });

  it('skips blank and white-space-only lines inside records', async () => {
    const text = [
      'BEGIN IONS',
      '',
      'TITLE=t',
      '   ',
      'PEPMASS=300.5',
      '\t',
      'CHARGE=2+',
      '',
      '100 1',
      '',
      '200 2',
      ' \t ',
      'END IONS',
    ].join('\n');
    expect(await only(text)).toEqual({ index: 1, line: 1, title: 't', mz: 300.5, charges: [2] });
  });

  const titles: [string, string][] = [
    ['TITLE=Cmpd 1, +MSn(759.7913), 7.3 min', 'Cmpd 1, +MSn(759.7913), 7.3 min'],
    ['TITLE= Cmpd 1, +MSn(759.7913), 7.3 min', 'Cmpd 1, +MSn(759.7913), 7.3 min'],
    [
      'TITLE=  File:"small.RAW", NativeID:"controllerType=0 controllerNumber=1 scan=3"  ',
      'File:"small.RAW", NativeID:"controllerType=0 controllerNumber=1 scan=3"',
    ],
    ['TITLE=id=PXD002579;F001490.dat-pride.xml;spectrum=14', 'id=PXD002579;F001490.dat-pride.xml;spectrum=14'],
    ['TITLE=\'single\' "double" a:b=c==d', '\'single\' "double" a:b=c==d'],
    ['TITLE==leading equals', '=leading equals'],
    ['TITLE=1: Scan 2 (rt=9.8) [\\\\host\\a b\\c.wiff]\t', '1: Scan 2 (rt=9.8) [\\\\host\\a b\\c.wiff]'],
  ];
  it.each(titles)('keeps the whole TITLE after the first "=", trimmed: %j', async (line, title) => {
    expect((await only(ions(line, 'PEPMASS=500'))).title).toBe(title);
  });

  const pepmasses: [string, number, number | undefined][] = [
    ['PEPMASS=500.25', 500.25, undefined],
    ['PEPMASS=500.25 1234.5', 500.25, 1234.5],
    ['PEPMASS=500.25\t1234.5', 500.25, 1234.5],
    ['PEPMASS=500.25\t', 500.25, undefined],
    ['PEPMASS=500.25 ', 500.25, undefined],
    ['PEPMASS= 500.25  7.5E5 ', 500.25, 750000],
    ['PEPMASS=829.30847\t7931', 829.30847, 7931],
    ['PEPMASS=1e3', 1000, undefined],
    ['PEPMASS=.5', 0.5, undefined],
    ['PEPMASS=100000', 100000, undefined],
  ];
  it.each(pepmasses)('reads %j as m/z %d, intensity %s', async (line, mz, intensity) => {
    const s = await only(ions(line));
    expect(s.mz).toBe(mz);
    expect(s.intensity).toBe(intensity);
  });

  const charges: [string, number[]][] = [
    ['2+', [2]],
    ['+2', [2]],
    ['2', [2]],
    ['3-', [-3]],
    ['2.0+', [2]],
    ['2+ and 3+', [2, 3]],
    ['2+,3+', [2, 3]],
    ['2+ 3+', [2, 3]],
    ['2+ and 3+ and 2+', [2, 3]],
    ['3+,3+', [3]],
  ];
  it.each(charges)('reads CHARGE=%s in a record as %j', async (value, expected) => {
    expect((await only(ions('PEPMASS=500', `CHARGE=${value}`))).charges).toEqual(expected);
    // Wherever the CHARGE line stands in the record.
    expect((await only(ions(`CHARGE=${value}`, 'TITLE=x', 'PEPMASS=500'))).charges).toEqual(expected);
  });

  it('gives no charges to a record without CHARGE', async () => {
    expect((await only(ions('TITLE=none', 'PEPMASS=500'))).charges).toEqual([]);
  });

  it("applies a CHARGE given before the first BEGIN IONS to records without their own; a record's CHARGE wins", async () => {
    const text = [
      'COM=Conversion to mascot generic',
      'CHARGE=2+ and 3+',
      ions('TITLE=a', 'PEPMASS=500'),
      ions('TITLE=b', 'PEPMASS=501', 'CHARGE=4+'),
      ions('TITLE=c', 'PEPMASS=502'),
    ].join('\n');
    const items = await read(text);
    expect(malformedOf(items)).toEqual([]);
    expect(spectraOf(items).map((s) => [s.title, s.charges])).toEqual([
      ['a', [2, 3]],
      ['b', [4]],
      ['c', [2, 3]],
    ]);
  });

  // Keys are trimmed inside a record and before the first one alike.
  it('treats a file-wide "CHARGE =2+" (space before "=") as it treats the same line inside a record', async () => {
    expect((await only(ions('PEPMASS=500', 'CHARGE =3+'))).charges).toEqual([3]);
    expect((await only(`CHARGE =2+\n${ions('PEPMASS=500')}`)).charges).toEqual([2]);
  });

  it('reads RTINSECONDS plain, with an exponent, and as a range (its start)', async () => {
    expect((await only(ions('PEPMASS=500', 'RTINSECONDS=589.136'))).rtSeconds).toBe(589.136);
    expect((await only(ions('PEPMASS=500', 'RTINSECONDS=5.89136e2'))).rtSeconds).toBe(589.136);
    expect((await only(ions('PEPMASS=500', 'RTINSECONDS=5.89136E+2'))).rtSeconds).toBe(589.136);
    expect((await only(ions('PEPMASS=500', 'RTINSECONDS=589.136-591.2'))).rtSeconds).toBe(589.136);
    expect((await only(ions('PEPMASS=500'))).rtSeconds).toBeUndefined();
  });

  it('never gives a wrong retention time for a comma list or a value that is not a time', async () => {
    // A list (summed scans) has no single time: either nothing or its first value is defensible, nothing else.
    const list = (await only(ions('PEPMASS=500', 'RTINSECONDS=589.136,591.224'))).rtSeconds;
    expect([undefined, 589.136]).toContain(list);
    const garbage = (await only(ions('PEPMASS=500', 'RTINSECONDS=soon'))).rtSeconds;
    expect(garbage).toBeUndefined();
  });

  it('keeps SCANS as text', async () => {
    expect((await only(ions('PEPMASS=500', 'SCANS=F1:2478'))).scans).toBe('F1:2478');
    expect((await only(ions('PEPMASS=500', 'SCANS=2510,2514-2520'))).scans).toBe('2510,2514-2520');
    expect((await only(ions('PEPMASS=500', 'SCANS=0042'))).scans).toBe('0042');
  });

  it('accepts peak lines of two and three columns, tab or space separated, with trailing white space', async () => {
    const peaks = [
      '100.5 20',
      '100.5\t20',
      '554.67877\t426\t',
      '554.67877\t426\t1+',
      '224.8084 1417.0000\t3+',
      '1.5e2 3E4',
      '.5 10',
      '300 40 ',
      '400 50 2+ b3',
    ];
    const s = await only(['BEGIN IONS', 'TITLE=p', 'PEPMASS=600.3', ...peaks, 'END IONS'].join('\n'));
    expect(s).toEqual({ index: 1, line: 1, title: 'p', mz: 600.3, charges: [] });
  });

  it('reads BEGIN IONS and END IONS in any case and with surrounding white space', async () => {
    const text = [
      'begin ions',
      'PEPMASS=500',
      'end ions',
      'Begin Ions',
      'PEPMASS=501',
      'End Ions',
      '  BEGIN IONS\t',
      'PEPMASS=502',
      ' END IONS ',
    ].join('\n');
    const items = await read(text);
    expect(malformedOf(items)).toEqual([]);
    expect(spectraOf(items).map((s) => [s.index, s.line, s.mz])).toEqual([
      [1, 1, 500],
      [2, 4, 501],
      [3, 7, 502],
    ]);
  });

  it('numbers records from 1 counting malformed ones, and gives each the line of its BEGIN IONS', async () => {
    const text = [
      '# header',
      'MASS=Monoisotopic',
      '',
      ions('TITLE=one', 'PEPMASS=500'),
      '### between',
      ions('TITLE=two (no PEPMASS)'),
      '',
      '',
      ions('TITLE=three', 'PEPMASS=502'),
      ions('TITLE=four', 'PEPMASS=-1'),
      ions('TITLE=five', 'PEPMASS=504'),
    ].join('\n');
    const begins = beginLines(text);
    expect(begins).toHaveLength(5);
    const items = await read(text);
    expect(
      items.map((i) =>
        'spectrum' in i
          ? ['spectrum', i.spectrum.index, i.spectrum.line, i.spectrum.title]
          : ['malformed', i.malformed.line],
      ),
    ).toEqual([
      ['spectrum', 1, begins[0], 'one'],
      ['malformed', begins[1]],
      ['spectrum', 3, begins[2], 'three'],
      ['malformed', begins[3]],
      ['spectrum', 5, begins[4], 'five'],
    ]);
  });

  it('yields nothing for an empty input', async () => {
    expect(await collect([])).toEqual([]);
    expect(await read('')).toEqual([]);
    expect(await read('\n\r\n# only a comment\n')).toEqual([]);
  });

  it('MgfReader returns each item from the line that completes it, and end() the unfinished record', () => {
    const reader = new MgfReader();
    expect(reader.line('BEGIN IONS')).toBeUndefined();
    expect(reader.line('TITLE=r')).toBeUndefined();
    expect(reader.line('PEPMASS=500\r')).toBeUndefined();
    expect(reader.line('100 1')).toBeUndefined();
    expect(reader.line('END IONS\r')).toEqual({ spectrum: { index: 1, line: 1, title: 'r', mz: 500, charges: [] } });
    expect(reader.line('')).toBeUndefined();
    expect(reader.line('BEGIN IONS')).toBeUndefined();
    expect(reader.line('PEPMASS=600')).toBeUndefined();
    const last = reader.end();
    expect(last && 'malformed' in last && last.malformed.line).toBe(7);
    expect(last && 'malformed' in last && last.malformed.error).toMatch(/END IONS/);
    expect(reader.end()).toBeUndefined();
  });
});

// ---- Malformed records

describe('readMgf on malformed records', () => {
  const BEFORE = ['BEGIN IONS', 'TITLE=before', 'PEPMASS=400.5', 'CHARGE=2+', '100 1', 'END IONS'];
  const AFTER = ['BEGIN IONS', 'TITLE=after', 'PEPMASS=600.5', 'CHARGE=3+', '100 1', 'END IONS'];

  interface Case {
    name: string;
    /** Lines between a good record and another good record. */
    bad: string[];
    /** What the message must say. */
    error: RegExp;
    /** Index in `bad` of the line the report must name (the BEGIN IONS, or the stray line): 0 unless told. */
    at?: number;
    /** Whether `bad` is a record (counted in the ordinals) or a stray line. */
    record?: boolean;
  }
  const record = (...lines: string[]) => ['BEGIN IONS', 'TITLE=bad', ...lines, '100 1', '200 2', 'END IONS'];
  const cases: Case[] = [
    { name: 'missing PEPMASS', bad: record('CHARGE=2+'), error: /PEPMASS/ },
    { name: 'PEPMASS not a number', bad: record('PEPMASS=abc'), error: /PEPMASS/ },
    { name: 'PEPMASS NaN', bad: record('PEPMASS=NaN'), error: /PEPMASS/ },
    { name: 'PEPMASS with a decimal comma', bad: record('PEPMASS=500,25'), error: /PEPMASS/ },
    { name: 'PEPMASS empty', bad: record('PEPMASS='), error: /PEPMASS/ },
    { name: 'PEPMASS zero', bad: record('PEPMASS=0'), error: /PEPMASS/ },
    { name: 'PEPMASS negative', bad: record('PEPMASS=-500.5'), error: /PEPMASS/ },
    { name: 'PEPMASS above 100000', bad: record('PEPMASS=100000.0001'), error: /PEPMASS/ },
    { name: 'PEPMASS far above 100000', bad: record('PEPMASS=1e6 100'), error: /PEPMASS/ },
    { name: 'CHARGE 0', bad: record('PEPMASS=500', 'CHARGE=0'), error: /CHARGE/ },
    { name: 'CHARGE 11+', bad: record('PEPMASS=500', 'CHARGE=11+'), error: /CHARGE/ },
    { name: 'CHARGE abc', bad: record('PEPMASS=500', 'CHARGE=abc'), error: /CHARGE/ },
    { name: 'CHARGE 2+-', bad: record('PEPMASS=500', 'CHARGE=2+-'), error: /CHARGE/ },
    { name: 'CHARGE 2.5+', bad: record('PEPMASS=500', 'CHARGE=2.5+'), error: /CHARGE/ },
    { name: 'one bad charge of a list', bad: record('PEPMASS=500', 'CHARGE=2+ and 0+'), error: /CHARGE/ },
    { name: 'PEPMASS given twice', bad: record('PEPMASS=500', 'CHARGE=2+', 'PEPMASS=500'), error: /PEPMASS/ },
    { name: 'CHARGE given twice', bad: record('CHARGE=2+', 'PEPMASS=500', 'CHARGE=3+'), error: /CHARGE/ },
    {
      name: 'a garbage line inside a record',
      bad: record('PEPMASS=500', 'CHARGE=2+', 'hello world'),
      error: /hello world/,
    },
    {
      name: 'a garbage line among the peaks',
      bad: ['BEGIN IONS', 'PEPMASS=500', '100 1', 'oops', '200 2', 'END IONS'],
      error: /oops/,
    },
    {
      name: 'an error then PEPMASS twice (reported once)',
      bad: record('PEPMASS=500', 'junk here', 'PEPMASS=501', 'CHARGE=0'),
      error: /junk here/,
    },
    {
      name: 'BEGIN IONS without END IONS, then BEGIN IONS',
      bad: ['BEGIN IONS', 'TITLE=unfinished', 'PEPMASS=500', 'CHARGE=2+', '100 1'],
      error: /END IONS/,
    },
    { name: 'END IONS without BEGIN IONS', bad: ['END IONS'], error: /END IONS/, record: false },
    { name: 'text outside records', bad: ['this is not a parameter'], error: /this is not a parameter/, record: false },
    { name: 'a peak line outside records', bad: ['#comment', '123.4 567'], error: /123\.4 567/, at: 1, record: false },
    { name: 'a bad CHARGE outside records', bad: ['CHARGE=abc'], error: /CHARGE/, record: false },
  ];

  it.each(cases)(
    '$name: reported once at its line, skipped, the next record read',
    async ({ bad, error, at = 0, record = true }) => {
      for (const eol of ['\n', '\r\n']) {
        const lines = [...BEFORE, '', ...bad, '', ...AFTER, ''];
        const text = lines.join(eol);
        const badLine = BEFORE.length + 2 + at; // 1-based: BEFORE, a blank line, then `bad`
        const items = await read(text);
        expect(malformedOf(items)).toEqual([{ line: badLine, error: expect.stringMatching(error) }]);
        expect(items).toHaveLength(3);
        expect('malformed' in items[1]).toBe(true);
        const [first, next] = spectraOf(items);
        expect(first).toEqual({ index: 1, line: 1, title: 'before', mz: 400.5, charges: [2] });
        expect(next).toEqual({
          index: record ? 3 : 2,
          line: lineOf(text, 'TITLE=after') - 1,
          title: 'after',
          mz: 600.5,
          charges: [3],
        });
      }
    },
  );

  it('accepts PEPMASS at 100000 and CHARGE at MAX_CHARGE, the limits next to the refused values', async () => {
    expect((await only(ions('PEPMASS=100000', `CHARGE=${MAX_CHARGE}+`))).charges).toEqual([MAX_CHARGE]);
  });

  it('reports a file ending inside a record once, at its BEGIN IONS', async () => {
    for (const tail of ['', '\n', '\n\n# trailing comment\n']) {
      const text = [...BEFORE, 'BEGIN IONS', 'TITLE=cut', 'PEPMASS=500', '100 1'].join('\n') + tail;
      const items = await read(text);
      expect(spectraOf(items).map((s) => s.title)).toEqual(['before']);
      expect(malformedOf(items)).toEqual([{ line: BEFORE.length + 1, error: expect.stringMatching(/END IONS/) }]);
      expect('malformed' in items[items.length - 1]).toBe(true);
    }
  });

  it('reports an already malformed record once when the file ends inside it', async () => {
    const items = await read(
      ['BEGIN IONS', 'PEPMASS=500', 'garbage', 'BEGIN IONS', 'PEPMASS=600', 'garbage again'].join('\n'),
    );
    expect(items.map((i) => ('malformed' in i ? i.malformed.line : -1))).toEqual([1, 4]);
  });
});

// ---- Chunking

describe('readMgf chunking', () => {
  const CHUNKED = [
    '# µ-header: é',
    'CHARGE=2+ and 3+',
    'BEGIN IONS',
    'TITLE=µ-scan é € 𝛼 "q" a=b',
    'PEPMASS=512.25\t1000',
    'RTINSECONDS=12.5',
    'SCANS=F1:7',
    '100.5\t20',
    'END IONS',
    'BEGIN IONS',
    'TITLE=naïve',
    'PEPMASS=abc',
    'END IONS',
    'stray line ß',
    'BEGIN IONS',
    'TITLE=Ω own charge',
    'PEPMASS=700.125',
    'CHARGE=4+',
    '',
    '200 3',
    'END IONS',
    'END IONS',
    'BEGIN IONS',
    'TITLE=unfinished ü',
    'PEPMASS=800',
  ].join('\r\n');
  const variants = { 'no final line end': CHUNKED, 'a final CRLF': `${CHUNKED}\r\n` };
  const encoder = new TextEncoder();

  it('reads the text in one chunk as the MGF spec says', async () => {
    for (const text of Object.values(variants)) {
      const items = await read(text);
      expect(spectraOf(items)).toEqual([
        {
          index: 1,
          line: 3,
          title: 'µ-scan é € 𝛼 "q" a=b',
          mz: 512.25,
          intensity: 1000,
          rtSeconds: 12.5,
          scans: 'F1:7',
          charges: [2, 3],
        },
        { index: 3, line: 15, title: 'Ω own charge', mz: 700.125, charges: [4] },
      ]);
      expect(malformedOf(items).map((m) => m.line)).toEqual([10, 14, 22, 23]);
      expect(items.map((i) => ('spectrum' in i ? 'S' : 'M')).join('')).toBe('SMMSMM');
      // The same items from the whole file as one byte chunk.
      expect(await collect([encoder.encode(text)])).toEqual(items);
    }
  });

  it.each(Object.entries(variants))(
    'yields the same items split in two at every byte and every character (%s)',
    async (_, text) => {
      const whole = await read(text);
      const bytes = encoder.encode(text);
      expect(bytes.length).toBeGreaterThan(text.length); // multi-byte characters are there to be split
      for (let k = 0; k <= bytes.length; k++) {
        expect(await collect([bytes.subarray(0, k), bytes.subarray(k)]), `bytes split at ${k}`).toEqual(whole);
      }
      for (let k = 0; k <= text.length; k++) {
        expect(await collect([text.slice(0, k), text.slice(k)]), `text split at ${k}`).toEqual(whole);
      }
    },
  );

  it('yields the same items for random splits into many chunks, bytes, text or both, sync or async', async () => {
    const random = prng(20240611);
    const text = variants['a final CRLF'];
    const whole = await read(text);
    const bytes = encoder.encode(text);
    for (let round = 0; round < 300; round++) {
      const cuts = new Set<number>();
      const count = 1 + Math.floor(random() * 40);
      for (let c = 0; c < count; c++) cuts.add(Math.floor(random() * (bytes.length + 1)));
      const edges = [0, ...[...cuts].sort((a, b) => a - b), bytes.length];
      const chunks: Chunk[] = [];
      for (let e = 1; e < edges.length; e++) chunks.push(bytes.slice(edges[e - 1], edges[e]));
      async function* slowly() {
        for (const chunk of chunks) {
          await Promise.resolve();
          yield chunk;
        }
      }
      expect(await collect(round % 2 ? slowly() : chunks), `round ${round}`).toEqual(whole);
    }
    // Text chunks at random character boundaries (also between the halves of a surrogate pair).
    for (let round = 0; round < 100; round++) {
      const chunks: string[] = [];
      for (let at = 0; at < text.length; ) {
        const size = 1 + Math.floor(random() * 12);
        chunks.push(text.slice(at, at + size));
        at += size;
      }
      expect(await collect(chunks), `text round ${round}`).toEqual(whole);
    }
  });

  it('yields the same items one byte at a time', async () => {
    const text = variants['a final CRLF'];
    const bytes = encoder.encode(text);
    expect(await collect([...bytes].map((b) => Uint8Array.of(b)))).toEqual(await read(text));
  });

  it('ignores a UTF-8 byte order mark, whole or split', async () => {
    const text = variants['a final CRLF'];
    const whole = await read(text);
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...encoder.encode(text)]);
    for (let k = 0; k <= 6; k++)
      expect(await collect([bytes.subarray(0, k), bytes.subarray(k)]), `BOM split at ${k}`).toEqual(whole);
  });

  it('reads a real CRLF file in random byte chunks as in one chunk', async () => {
    const bytes = readFileSync(new URL('mpa_Test_100.mgf', FIXTURES));
    const whole = await collect([bytes]);
    expect(spectraOf(whole)).toHaveLength(100);
    const random = prng(7);
    for (let round = 0; round < 5; round++) {
      const chunks: Uint8Array[] = [];
      for (let at = 0; at < bytes.length; ) {
        const size = 1 + Math.floor(random() * (round === 0 ? 3 : 4096));
        chunks.push(bytes.subarray(at, at + size));
        at += size;
      }
      expect(await collect(chunks), `round ${round}`).toEqual(whole);
    }
  });
});

// ---- Real files

/** What the reference reader takes from a record. */
interface Reference {
  index: number;
  line: number;
  title?: string;
  mz: number;
  intensity?: number;
  charges: number[];
  scans?: string;
  rt?: string;
}

/** A CHARGE value the simple way: `and` and commas are separators; a `-` anywhere makes it negative. */
function referenceCharges(value: string): number[] {
  const charges: number[] = [];
  for (const token of value
    .replace(/\band\b/gi, ' ')
    .replaceAll(',', ' ')
    .split(/\s+/)) {
    if (token === '') continue;
    const magnitude = parseFloat(token.replace(/[+-]/g, ''));
    if (!Number.isInteger(magnitude) || magnitude < 1)
      throw new Error(`reference reader: charge ${JSON.stringify(token)}`);
    const charge = token.includes('-') ? -magnitude : magnitude;
    if (!charges.includes(charge)) charges.push(charge);
  }
  return charges;
}

/**
 * A deliberately simple MGF reader, following the Mascot spec and sharing nothing with mgf.ts: records run from
 * BEGIN IONS to END IONS; a line `KEY=value` inside one is a parameter (the value after the first `=`, trimmed);
 * a CHARGE before the first BEGIN IONS is the default for records without one; everything else (peaks, comments,
 * blank lines) is ignored. It throws on anything the fixtures are not expected to contain.
 */
function referenceRead(text: string): Reference[] {
  const records: Reference[] = [];
  let defaultCharges: number[] = [];
  let seenRecord = false;
  let open: { line: number; fields: Map<string, string> } | undefined;
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (/^BEGIN IONS$/i.test(line)) {
      if (open) throw new Error(`reference reader: BEGIN IONS inside a record at line ${i + 1}`);
      open = { line: i + 1, fields: new Map() };
      seenRecord = true;
      return;
    }
    if (/^END IONS$/i.test(line)) {
      if (!open) throw new Error(`reference reader: END IONS outside a record at line ${i + 1}`);
      const { fields } = open;
      const pepmass = fields.get('PEPMASS');
      if (pepmass === undefined) throw new Error(`reference reader: no PEPMASS in the record of line ${open.line}`);
      const [mz, intensity] = pepmass.split(/[ \t]+/).filter((t) => t !== '');
      const charge = fields.get('CHARGE');
      records.push({
        index: records.length + 1,
        line: open.line,
        title: fields.get('TITLE'),
        mz: parseFloat(mz),
        intensity: intensity === undefined ? undefined : parseFloat(intensity),
        charges: charge === undefined ? defaultCharges : referenceCharges(charge),
        scans: fields.get('SCANS'),
        rt: fields.get('RTINSECONDS'),
      });
      open = undefined;
      return;
    }
    if (/^[#;!/]/.test(line)) return;
    const equals = line.indexOf('=');
    if (equals < 1) return; // a peak or a blank line
    const key = line.slice(0, equals).toUpperCase();
    const value = line.slice(equals + 1).trim();
    if (open) {
      if (open.fields.has(key) && (key === 'PEPMASS' || key === 'CHARGE'))
        throw new Error(`reference reader: ${key} twice at line ${i + 1}`);
      open.fields.set(key, value);
    } else if (key === 'CHARGE' && !seenRecord) defaultCharges = referenceCharges(value);
  });
  if (open) throw new Error('reference reader: the file ends inside a record');
  return records;
}

/** Spectrum counts from the README's summary table. */
function readmeTotals(): Map<string, number> {
  const totals = new Map<string, number>();
  for (const m of README.matchAll(/^\| `([^`]+\.mgf)` \| \**(\d+)\** \|/gm)) totals.set(m[1], Number(m[2]));
  return totals;
}

/** SHA-256 of each file, from the README's per-file sections. */
function readmeHashes(): Map<string, string> {
  const hashes = new Map<string, string>();
  for (const section of README.split(/^### /m).slice(1)) {
    const name = /^`([^`]+\.mgf)`/.exec(section)?.[1];
    const hash = /SHA-256: `([0-9a-f]{64})`/.exec(section)?.[1];
    if (name && hash) hashes.set(name, hash);
  }
  return hashes;
}

describe('readMgf on the real files of test/fixtures/mgf', () => {
  it('has the files the README lists, byte for byte', () => {
    const totals = readmeTotals();
    const hashes = readmeHashes();
    expect(FILES.length).toBeGreaterThanOrEqual(11);
    expect([...totals.keys()].sort()).toEqual(FILES);
    expect([...hashes.keys()].sort()).toEqual(FILES);
    for (const file of FILES)
      expect(createHash('sha256').update(bytesOf(file)).digest('hex'), file).toBe(hashes.get(file));
  });

  it.each(FILES)('%s: the same spectra as the reference reader, none malformed', async (file) => {
    const text = textOf(file);
    const reference = referenceRead(text);
    const beginCount = (text.match(/^BEGIN IONS\r?$/gim) ?? []).length;
    expect(reference).toHaveLength(beginCount);
    expect(reference).toHaveLength(readmeTotals().get(file)!);

    const items = await collect([bytesOf(file)]);
    expect(malformedOf(items)).toEqual([]);
    const spectra = spectraOf(items);
    expect(spectra).toHaveLength(reference.length);
    spectra.forEach((s, i) => {
      const r = reference[i];
      const where = `${file} record ${i + 1} (line ${r.line})`;
      expect(
        {
          index: s.index,
          line: s.line,
          title: s.title,
          mz: s.mz,
          intensity: s.intensity,
          charges: s.charges,
          scans: s.scans,
        },
        where,
      ).toEqual({
        index: r.index,
        line: r.line,
        title: r.title,
        mz: r.mz,
        intensity: r.intensity,
        charges: r.charges,
        scans: r.scans,
      });
      expect(s.intensity === undefined || Number.isFinite(s.intensity), where).toBe(true);
      if (r.rt === undefined) expect(s.rtSeconds, where).toBeUndefined();
      else if (/^\d+(\.\d*)?$/.test(r.rt)) expect(s.rtSeconds, where).toBe(parseFloat(r.rt));
      // A list or a range: nothing, or its first value (see the hand-made RTINSECONDS tests).
      else expect([undefined, parseFloat(r.rt)], where).toContain(s.rtSeconds);
    });
  });

  it('mpa_Test1000Ecoli.mgf: 1000 spectra, 384 without CHARGE, 3 with an empty intensity, TITLEs trimmed', async () => {
    const text = textOf('mpa_Test1000Ecoli.mgf');
    expect(text).not.toContain('\r');
    const spectra = spectraOf(await read(text));
    expect(spectra).toHaveLength(1000);
    expect(spectra.filter((s) => s.charges.length === 0)).toHaveLength(384);
    expect(spectra.filter((s) => s.charges.length > 0)).toHaveLength((text.match(/^CHARGE=/gm) ?? []).length);
    expect(text.match(/^PEPMASS=[\d.]+\t$/gm)).toHaveLength(3);
    expect(spectra.filter((s) => s.intensity === undefined)).toHaveLength(3);
    expect(text.split('\n')[1]).toBe('TITLE= Cmpd 1, +MSn(759.7913), 7.3 min');
    expect(spectra[0]).toEqual({
      index: 1,
      line: 1,
      title: 'Cmpd 1, +MSn(759.7913), 7.3 min',
      mz: 759.79133,
      intensity: 7931,
      charges: [2],
    });
    expect(text.match(/^###/gm)?.length).toBeGreaterThan(0);
  });

  it('galaxyp_searchgui_smallspectra.mgf: every spectrum has charges [2, 3, 4]', async () => {
    const text = textOf('galaxyp_searchgui_smallspectra.mgf');
    expect(text.match(/^CHARGE=2\+ and 3\+ and 4\+$/gm)).toHaveLength(34);
    const spectra = spectraOf(await read(text));
    expect(spectra).toHaveLength(34);
    for (const s of spectra) expect(s.charges).toEqual([2, 3, 4]);
  });

  it('depthcharge_TMT10-Trial-8.mgf: one spectrum of 7 without CHARGE, its TITLE ending in "."', async () => {
    const text = textOf('depthcharge_TMT10-Trial-8.mgf');
    expect(text.match(/^CHARGE=/gm)).toHaveLength(6);
    const spectra = spectraOf(await read(text));
    expect(spectra).toHaveLength(7);
    const uncharged = spectra.filter((s) => s.charges.length === 0);
    expect(uncharged.map((s) => s.title)).toEqual(['TMT10-Trial-8.505.505.']);
    // The others' TITLE ends in their charge (run.scan.scan.z).
    for (const s of spectra) if (s.charges.length) expect(s.charges).toEqual([Number(s.title!.split('.').pop())]);
  });

  it('mpa_Test_100.mgf: CRLF throughout, 3 spectra with CHARGE=2+,3+, SCANS lists kept as text', async () => {
    const bytes = bytesOf('mpa_Test_100.mgf');
    const text = bytes.toString('utf8');
    const lf = text.split('\n').length - 1;
    expect(lf).toBeGreaterThan(4000);
    expect(text.split('\r\n').length - 1).toBe(lf); // every line end is CRLF
    expect(text.replaceAll('\r\n', '')).not.toMatch(/[\r\n]/);
    expect(text.match(/^CHARGE=2\+,3\+\r$/gm)).toHaveLength(3);
    const spectra = spectraOf(await collect([bytes]));
    expect(spectra).toHaveLength(100);
    expect(spectra.filter((s) => s.charges.length === 2)).toHaveLength(3);
    for (const s of spectra.filter((s) => s.charges.length === 2)) expect(s.charges).toEqual([2, 3]);
    expect(spectra.map((s) => s.scans)).toContain('2510,2514,2516,2519-2520');
    for (const s of spectra) expect(s.title ?? '').not.toMatch(/\r/);
  });

  it('galaxyp_pepquery_iTRAQ_f4.mgf: a file-wide CHARGE before the first record, each record with its own', async () => {
    const text = textOf('galaxyp_pepquery_iTRAQ_f4.mgf');
    const lines = text.split('\n');
    expect(lines.slice(0, 3)).toEqual(['COM=Conversion to mascot generic', 'CHARGE=2+ and 3+', 'BEGIN IONS']);
    const own = lines
      .filter((l, i) => i > 2 && l.startsWith('CHARGE='))
      .map((l) => referenceCharges(l.slice('CHARGE='.length)));
    const spectra = spectraOf(await read(text));
    expect(spectra).toHaveLength(4);
    expect(own).toHaveLength(4);
    expect(spectra.map((s) => s.charges)).toEqual(own);
    // Without the records' own CHARGE lines, the file-wide one applies to every record.
    const stripped = lines.filter((l, i) => i < 2 || !l.startsWith('CHARGE=')).join('\n');
    const defaulted = await read(stripped);
    expect(malformedOf(defaulted)).toEqual([]);
    expect(spectraOf(defaulted).map((s) => s.charges)).toEqual([
      [2, 3],
      [2, 3],
      [2, 3],
      [2, 3],
    ]);
    expect(spectraOf(defaulted).map((s) => s.charges)).toEqual(referenceRead(stripped).map((r) => r.charges));
  });

  it('ms2pip, spectracluster and casanovo: unsigned, decimal and plain charges; SCANS such as F1:2478', async () => {
    const ms2pip = spectraOf(await read(textOf('ms2pip_massivekb_selected_500.mgf')));
    const count = (spectra: Spectrum[], charges: number[]) =>
      spectra.filter((s) => JSON.stringify(s.charges) === JSON.stringify(charges)).length;
    expect([count(ms2pip, [2]), count(ms2pip, [3]), count(ms2pip, [4])]).toEqual([251, 190, 59]);
    const cluster = spectraOf(await read(textOf('spectracluster_pride_export_2017.mgf')));
    expect(cluster).toHaveLength(312);
    expect(count(cluster, [2])).toBe(312);
    const casanovo = spectraOf(await read(textOf('casanovo_sample_preprocessed_spectra.mgf')));
    expect(casanovo).toHaveLength(128);
    for (const s of casanovo) {
      expect(s.scans).toMatch(/^F\d+:\d+$/);
      expect(s.rtSeconds).toBeGreaterThan(0);
    }
  });
});

describe('what real writers do that a strict reader would refuse', () => {
  it('RTINSECONDS of summed scans as a list keeps the first value', async () => {
    expect((await only(ions('PEPMASS=500', 'RTINSECONDS=589.136,591.224'))).rtSeconds).toBe(589.136);
    expect((await only(ions('PEPMASS=500', 'RTINSECONDS=589.136-591.2'))).rtSeconds).toBe(589.136);
    expect((await only(ions('PEPMASS=500', 'RTINSECONDS=589-abc'))).rtSeconds).toBeUndefined();
  });

  it('an empty CHARGE= is a missing CHARGE: the file-wide charges apply', async () => {
    expect((await only(`CHARGE=2+ and 3+\n${ions('PEPMASS=500', 'CHARGE=')}`)).charges).toEqual([2, 3]);
    expect((await only(ions('PEPMASS=500', 'CHARGE=  '))).charges).toEqual([]);
  });

  it('keys with other characters (ION-MOBILITY) are parameters, ignored like any unknown one', async () => {
    expect((await only(ions('PEPMASS=500', 'ION-MOBILITY=1.2', 'CHARGE=2+'))).charges).toEqual([2]);
  });

  it('a value may hold a bare CR or a Unicode line separator', async () => {
    expect((await only(ions('TITLE=a\rb\u2028c', 'PEPMASS=500'))).title).toBe('a\rb\u2028c');
  });

  it('records that take the file-wide charges do not share one array', async () => {
    const items = await read(`CHARGE=2+\n${ions('PEPMASS=500')}${ions('PEPMASS=600')}`);
    const [a, b] = spectraOf(items);
    expect(a.charges).toEqual([2]);
    expect(a.charges).not.toBe(b.charges);
  });
});

// POST /api/v1/fingerprint (its row in runtime/api/endpoints.ts, fingerprintParams.ts) through the Fetch handler on
// the bundled dataset: a text list, MGF records and pymzML's gzipped MS1 spectra answered as the core's fingerprint()
// answers the same lists (read here independently) with the query built here from the parameters' meaning; the
// answer valid against the OpenAPI document; TSV as documented, row for row from the JSON; gzip and multipart
// bodies; and every refusal: parameters misspelled, out of range or conflicting, bodies that are not peak lists or
// cannot be read (400 naming what or where), the limits (413), a dataset without peptide counts, other methods.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { createHandler, datasetOnce, type Handler } from '../../../runtime/api/handler.js';
import { openapiDocument } from '../../../runtime/api/openapi.js';
import { fingerprint, type FingerprintQuery } from '../../../runtime/core/fingerprint/fingerprint.js';
import { Dataset } from '../../../runtime/core/storage/dataset.js';
import type { ShardSource } from '../../../runtime/core/storage/source.js';
import { FileSource } from '../../../runtime/entries/node/fileSource.js';
import { nodeCodecs } from '../../../runtime/entries/node/platform.js';
import { parseModifications } from '../../../runtime/model/modifications.js';
import { call, expectErrorBody, folderHandler, stable, type Got } from '../../helpers/api.js';
import { bundledDataset, noTaxonomyDataset } from '../../helpers/datasets.js';
import { documentedTsv } from '../../helpers/fingerprintTsv.js';
import { referenceMgf, referenceMs1, textOf, type RefList } from '../../helpers/referenceMs1.js';

const PATH = '/api/v1/fingerprint';
const FIXTURES = new URL('../../fixtures/', import.meta.url);
const bytesOf = (path: string) => readFileSync(new URL(path, FIXTURES));
const TEXT_LIST = 'pmf/O00746_tryptic.txt';
const MGF = 'mgf/mpa_DumpTest.mgf';
const MZML = 'mzml/pymzml_example.mzML.gz';

/** What the endpoint defaults to: 50 ppm, [M+H]+, species, 20 proteins and 10 organisms. */
const DEFAULTS: FingerprintQuery = {
  tolerance: { unit: 'ppm', below: 50, above: 50 },
  fixed: [],
  variable: [],
  maxVariable: 2,
  filter: { taxa: [] },
  ion: 'mh',
  rank: 'species',
  proteins: 20,
  organisms: 10,
};

let dir: string;
let handler: Handler;
let dataset: Dataset;

beforeAll(async () => {
  dir = await bundledDataset();
  handler = folderHandler(dir);
  dataset = await Dataset.open(new FileSource(dir), nodeCodecs);
});

const post = (body: BodyInit, query = '', headers: Record<string, string> = {}, on = handler) =>
  call(on, `${PATH}${query}`, { method: 'POST', body, headers });

/** A POST's status, headers and text, not read as JSON (a TSV answer). */
async function postText(body: BodyInit, query: string) {
  const response = await handler(new Request(`http://api.test${PATH}${query}`, { method: 'POST', body }));
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** The text list as the reference reads it: one m/z a line, `#` comments. */
const textList = (text: string): RefList => ({
  mz: text
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.startsWith('#'))
    .map(Number),
});

/** What the core answers for `lists` and `query`, as JSON would carry it. */
async function coreLists(lists: readonly RefList[], query: FingerprintQuery) {
  const named = lists.map(({ title, mz, intensity }) => ({
    ...(title !== undefined && { title }),
    mz: Float64Array.from(mz),
    ...(intensity && { intensity: Float64Array.from(intensity) }),
  }));
  return JSON.parse(JSON.stringify(await fingerprint(dataset, query, named)));
}

const validate = new Ajv2020({ strict: false })
  .addSchema(openapiDocument(), 'api')
  .compile({ $ref: 'api#/components/schemas/FingerprintAnswer' });

function expectAnswer(got: Got): void {
  expect(got.status, got.text.slice(0, 300)).toBe(200);
  expect(got.headers.get('content-type')).toBe('application/json');
  expect(got.headers.get('access-control-allow-origin')).toBe('*');
  expect(got.headers.get('cache-control')).toBe('no-store');
  expect(validate(got.body), JSON.stringify(validate.errors)).toBe(true);
  expect(Object.keys(got.body)).toEqual(['lists', 'memory', 'duration']);
}

describe('answers as the core fingerprints the same lists', () => {
  it('a text list with the defaults: one fingerprint, its protein first', async () => {
    const text = bytesOf(TEXT_LIST).toString('utf8');
    const got = await post(text);
    expectAnswer(got);
    expect(got.body.lists).toEqual(await coreLists([textList(text)], DEFAULTS));
    expect(got.body.lists[0].proteins[0].accession).toBe('O00746');
    // The bundled dataset holds its sequences: the protein's coverage comes with it.
    expect(got.body.lists[0].proteins[0].coverage).toBeGreaterThan(0);
  });

  it("a list written for Mascot: its parameters agree with the query's, its COM the list's title", async () => {
    const peaks = bytesOf(TEXT_LIST).toString('utf8');
    const head = 'COM=NDKM spot\nSEARCH=PMF\nMASS=Monoisotopic\nCHARGE=Mr\nTOL=0.1\nTOLU=Da\n';
    const got = await post(head + peaks, '?ion=neutral&tolerance=0.1&unit=Da');
    expectAnswer(got);
    const query: FingerprintQuery = { ...DEFAULTS, ion: 'neutral', tolerance: { unit: 'Da', below: 0.1, above: 0.1 } };
    expect(got.body.lists).toEqual(await coreLists([{ title: 'NDKM spot', ...textList(peaks) }], query));
    // The same head with the query's defaults (±50 ppm, [M+H]+): refused at its first disagreement.
    expectErrorBody(
      await post(head + peaks),
      400,
      /^the body: line 4: CHARGE=Mr says the peaks are neutral masses \(ion=neutral\), but the query reads them as \[M\+H\]\+ \(ion=mh\)/,
    );
  });

  it('MGF records, one list each with its TITLE, with modifications, topPeaks, a rank and counts', async () => {
    const bytes = bytesOf(MGF);
    const got = await post(
      bytes,
      '?fixed=Carbamidomethyl@C&variable=Oxidation@M&maxVariable=1&topPeaks=20&rank=genus&proteins=5&organisms=3',
    );
    expectAnswer(got);
    const lists = referenceMgf(bytes.toString('utf8'));
    expect(got.body.lists).toHaveLength(17);
    const query: FingerprintQuery = {
      ...DEFAULTS,
      fixed: parseModifications('Carbamidomethyl@C'),
      variable: parseModifications('Oxidation@M'),
      maxVariable: 1,
      topPeaks: 20,
      rank: 'genus',
      proteins: 5,
      organisms: 3,
    };
    expect(got.body.lists).toEqual(await coreLists(lists, query));
    expect(got.body.lists.map((l: { title: string }) => l.title)).toEqual(lists.map((l) => l.title));
    expect(Math.max(...got.body.lists.map((l: { peaks: unknown[] }) => l.peaks.length))).toBe(20);
  });

  it("pymzML's gzipped run as it is: one list per MS1 spectrum, with charge, a Da window and filters", async () => {
    const got = await post(bytesOf(MZML), '?charge=1&tolerance=0.02&unit=Da&taxon=2&reviewed=false&proteins=3');
    expectAnswer(got);
    const lists = referenceMs1(textOf(bytesOf(MZML))).map(({ representation: _, ...list }) => list);
    const query: FingerprintQuery = {
      ...DEFAULTS,
      tolerance: { unit: 'Da', below: 0.02, above: 0.02 },
      ion: 1,
      filter: { taxa: [2], reviewed: false },
      proteins: 3,
    };
    expect(got.body.lists).toEqual(await coreLists(lists, query));
    expect(got.body.lists.map((l: { title: string }) => l.title)).toEqual(lists.map((l) => l.title));
  });

  it('neutral masses, and ions of charge 2 (2+ as MGF writes it)', async () => {
    const text = bytesOf(TEXT_LIST).toString('utf8');
    const neutral = await post(text, '?ion=neutral&proteins=2&organisms=2');
    expectAnswer(neutral);
    const list = textList(text);
    expect(neutral.body.lists).toEqual(
      await coreLists([list], { ...DEFAULTS, ion: 'neutral', proteins: 2, organisms: 2 }),
    );
    const doubly = await post(text, '?charge=2%2B&proteins=2&organisms=2');
    expectAnswer(doubly);
    expect(doubly.body.lists).toEqual(await coreLists([list], { ...DEFAULTS, ion: 2, proteins: 2, organisms: 2 }));
    expect(doubly.body.lists[0].peaks[0].mass).toBeCloseTo((909.5516 - 1.007276466621) * 2, 9);
  });

  it('the same answer for the body gzipped (Content-Encoding or a .gz file) and uploaded as multipart', async () => {
    const bytes = bytesOf(MGF);
    const plain = stable((await post(bytes, '?proteins=2&organisms=1')).body);
    expect(stable((await post(gzipSync(bytes), '?proteins=2&organisms=1')).body)).toEqual(plain);
    const encoded = await post(gzipSync(bytes), '?proteins=2&organisms=1', { 'Content-Encoding': 'gzip' });
    expect(stable(encoded.body)).toEqual(plain);
    const form = new FormData();
    form.append('file', new Blob([bytes]), 'spots.mgf');
    expect(stable((await post(form, '?proteins=2&organisms=1')).body)).toEqual(plain);
  });

  it('a dataset without a taxonomy: no organisms, and no rank to check', async () => {
    const other = folderHandler(await noTaxonomyDataset());
    const got = await post('1000.5\n1200.6\n', '?rank=realm', {}, other);
    expectAnswer(got);
    expect(got.body.lists[0].organisms).toBeUndefined();
    expect(got.body.lists[0].tested.taxa).toBeUndefined();
  });
});

describe('format=tsv', () => {
  it('is the documented table, a row per listed protein then organism of each list, with the JSON answer’s values', async () => {
    const bytes = bytesOf(MGF);
    const query = '?proteins=3&organisms=2&fixed=Carbamidomethyl@C';
    const [json, tsv] = await Promise.all([post(bytes, query), postText(bytes, `${query}&format=tsv`)]);
    expect(tsv.status).toBe(200);
    expect(tsv.headers.get('content-type')).toBe('text/tab-separated-values; charset=utf-8');
    expect(tsv.text).toBe(documentedTsv(json.body.lists));
    expect(tsv.text.split('\n').filter((row) => row.includes('\tprotein\t')).length).toBeGreaterThan(17);
  });

  it('gives a list without any hit one row with empty hit columns', async () => {
    const got = await postText('101.5\n', '?format=tsv&taxon=9606&reviewed=true');
    expect(got.status).toBe(200);
    expect(got.text.split('\n')[1]).toBe(`1\t\t1${'\t'.repeat(18)}`);
  });
});

describe('refusals of parameters: 400 naming the parameter', () => {
  it.each([
    ['?tolerence=10', /^unknown parameter "tolerence": did you mean tolerance\?/],
    ['?ppm=10', /^unknown parameter "ppm": did you mean tolerance with unit=ppm\?/],
    ['?z=2', /^unknown parameter "z": did you mean charge\?/],
    ['?maxProteins=5', /^unknown parameter "maxProteins": did you mean proteins\?/],
    ['?page=2', /^unknown parameter "page".*this endpoint takes tolerance, unit, ion, charge, topPeaks/],
    ['?tolerance=0', /^tolerance must be greater than 0, got 0$/],
    ['?tolerance=1001', /^tolerance must be at most 1000 ppm, got 1001$/],
    ['?unit=Da', /^tolerance is required with unit=Da \(its default, 50, is in ppm\)$/],
    ['?unit=Da&tolerance=6', /^tolerance must be at most 5 Da, got 6$/],
    ['?ion=mz', /^ion must be one of mh, neutral, got "mz"$/],
    ['?charge=11', /^charge must be from 1 to 10, got 11$/],
    ['?charge=0', /^charge must be from 1 to 10, got 0$/],
    ['?charge=2&ion=neutral', /^charge goes with ions; with ion=neutral/],
    ['?charge=3&ion=mh', /^charge=3 contradicts ion=mh/],
    ['?topPeaks=0', /^topPeaks must be from 1 to 100000, got 0$/],
    ['?proteins=0', /^proteins must be from 1 to 1000, got 0$/],
    ['?organisms=1001', /^organisms must be from 1 to 1000, got 1001$/],
    ['?rank=specis', /^rank must be one of strain, subspecies, species, genus/],
    [
      '?rank=domain',
      /^rank: this dataset's taxonomy holds no taxon of rank domain; it holds subspecies, species, genus/,
    ],
    ['?format=csv', /^format must be one of json, tsv, got "csv"$/],
    ['?proteins=2&proteins=3', /^proteins is given 2 times; give it once$/],
    ['?fixed=Carbamidomethyl@C&variable=Carbamidomethyl@C', /^variable: Carbamidomethyl@C shares a site with fixed/],
    ['?fixed=Oxydation@M', /^fixed: /],
    ['?taxon=Homo%20sapiens', /^taxon: "Homo sapiens" is a name, not a taxId/],
    ['?reviewed=yes', /^reviewed must be one of true, false, got "yes"$/],
  ])('%s', async (query, message) => {
    expectErrorBody(await post('1000.5\n', query), 400, message);
  });
});

describe('refusals of bodies', () => {
  it.each([
    ['a FASTA file', bytesOf('sage/Q99536.fasta'), /^the body: not a peak list: it looks like a FASTA file/],
    ['JSON', '{"precursors":[{"mz":650.32}]}', /^the body: not a peak list: it looks like JSON;/],
    ['nothing', '', /^the body: not a peak list: it looks like nothing \(it is empty\)/],
    ['a zip archive', Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0]), /^the body: not a peak list: it looks like a zip/],
    ['gzip inside gzip', gzipSync(gzipSync('1000.5\n')), /compressed file inside a compressed file/],
    ['a bad line', '1000.5\n1200.6\nx\n', /^the body: line 3: "x" is not a positive m\/z$/],
    ['a Mascot parameter not read', 'COM=gel\nCLE=Trypsin\n1000.5\n', /^the body: line 2: CLE=Trypsin is a Mascot/],
    ['a bad MGF record', 'BEGIN IONS\n1000.5 1\nEND\nEND IONS\n', /^the body: line 3: "END" is neither/],
    ['profile spectra', bytesOf('mzml/mzdata_three_test_scans.mzML'), /^the body: line 73: .* profile spectrum/],
    ['MS/MS spectra only', bytesOf('sage/LQSRPAAPPAPGPGQLTLR.mzML'), /^the body: an mzML file without an MS1/],
  ])('%s: 400 saying what it is or where', async (_name, body, message) => {
    expectErrorBody(await post(body), 400, message);
  });

  it('GET, HEAD and PUT: 405; OPTIONS: the preflight', async () => {
    expectErrorBody(
      await call(handler, PATH),
      405,
      /^method GET is not allowed; POST a peak list \(text, CSV, MGF or mzML\) to /,
    );
    expect((await call(handler, PATH, { method: 'HEAD' })).status).toBe(405);
    expect((await call(handler, PATH, { method: 'PUT', body: '1000.5' })).status).toBe(405);
    const preflight = await call(handler, PATH, { method: 'OPTIONS' });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toBe('POST, OPTIONS');
  });

  it('a dataset that does not count peptides per protein: 400 saying to rebuild it', async () => {
    const files = new FileSource(dir);
    const withoutCounts: ShardSource = {
      description: 'the bundled dataset without peptideCounts',
      get: async (file) => {
        const bytes = await files.get(file);
        if (file !== 'manifest.json') return bytes;
        const { peptideCounts: _, ...manifest } = JSON.parse(Buffer.from(bytes).toString('utf8'));
        return Buffer.from(JSON.stringify(manifest));
      },
    };
    const got = await post('1000.5\n', '', {}, createHandler(datasetOnce(() => withoutCounts)));
    expectErrorBody(got, 400, /does not count peptides per protein \(rebuild it/);
  });
});

describe('limits: 413 before anything is searched', () => {
  const peaks = (n: number, intensity = false) =>
    Array.from({ length: n }, (_, i) => `${(800 + i * 0.37).toFixed(4)}${intensity ? ` ${i % 97}` : ''}`).join('\n');

  it('more than 1,000 lists', async () => {
    const records = Array.from({ length: 1001 }, (_, i) => `BEGIN IONS\nTITLE=${i}\n1000.5\nEND IONS\n`).join('');
    expectErrorBody(await post(records), 413, /^the body holds more than 1,000 peak lists; send at most 1,000/);
  });

  it('more than 5,000 peaks to search in a list, unless topPeaks keeps fewer', async () => {
    expectErrorBody(await post(peaks(5001)), 413, /^peak list 1 has 5,001 peaks to search; at most 5,000 per list/);
    const mgf = `BEGIN IONS\nTITLE=big spot\n${peaks(5001, true)}\nEND IONS\n`;
    expectErrorBody(await post(mgf), 413, /^peak list 1 \("big spot"\) has 5,001 peaks/);
    const kept = await post(mgf, '?topPeaks=40&proteins=1&organisms=1');
    expectAnswer(kept);
    expect(kept.body.lists[0].peaks).toHaveLength(40);
    // Without intensities topPeaks cannot choose: the whole list is searched, so it is still too many.
    expectErrorBody(await post(peaks(5001), '?topPeaks=40'), 413, /has 5,001 peaks to search/);
  });

  it('more than 200,000 peaks in all', async () => {
    const list = `BEGIN IONS\n${peaks(5000)}\nEND IONS\n`;
    const body = list.repeat(41);
    expect(body.length).toBeLessThan(5 * 2 ** 20);
    expectErrorBody(await post(body), 413, /^the body holds more than 200,000 peaks to search/);
  });

  it('more than 20,000,000 stored peptides to examine: 400 saying what to narrow', async () => {
    // ±5 Da windows with three variable modifications: each peak examines tens of thousands of stored peptides.
    const got = await post(
      peaks(2000),
      '?tolerance=5&unit=Da&variable=Oxidation@M,Deamidated@N,Deamidated@Q&maxVariable=3',
    );
    expectErrorBody(got, 400, /would examine more than 20,000,000 stored peptides in all; send fewer, or narrow/);
  });

  it('a body over 5 MiB, declared or streamed', async () => {
    const big = Buffer.alloc(5 * 2 ** 20 + 1, 0x31);
    expectErrorBody(await post(big), 413, /^the body is larger than 5 MiB/);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 6; i++) controller.enqueue(new Uint8Array(2 ** 20).fill(0x31));
        controller.close();
      },
    });
    const got = await handler(
      new Request(`http://api.test${PATH}`, { method: 'POST', body: stream, duplex: 'half' } as RequestInit),
    );
    expect(got.status).toBe(413);
  });
});

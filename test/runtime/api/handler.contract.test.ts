// The API contract of the handler (runtime/api/handler.ts), rule by rule, over a small built dataset (hand-made
// proteins plus the first records of the bundled sample): statuses, messages, defaults, envelope, key text,
// ordering, paging, headers, methods, and shard failures through a local folder. Expected data comes from the
// brute-force reference. Long on purpose: a describe block per rule of the reproduced contract.
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Handler } from '../../../runtime/api/handler.js';
import { formatMassKey } from '../../../runtime/model/massKey.js';
import { call, expectEnvelope, expectErrorBody, expectJsonHeaders, folderHandler, stable } from '../../helpers/api.js';
import { BruteForce } from '../../helpers/bruteforce.js';
import { fixtureDataset, removeTempDirs, sampleSubset, shardEntries, tempDir } from '../../helpers/datasets.js';
import { referenceKeyText, referencePeptideKey } from '../../helpers/reference.js';

/**
 * Hand-made proteins: GMIDVHSGQR and HSGVMADNLR weigh 1098.5240 (a key whose text times 10^4 is not an
 * integer in floating point: 1098.524 * 10000 = 10985239.999999998); GGGGGAAPPFFWK weighs 1247.6087.
 * Accessions are listed out of order; A0A000TST3 has no OX= (taxId -1).
 */
const HANDMADE = [
  '>tr|Z9TST1|Z9TST1_ECOLI Test protein one OS=Escherichia coli OX=562 PE=4 SV=1',
  'GMIDVHSGQR',
  '>sp|P0TST2|TWO_MOUSE Test protein two OS=Mus musculus OX=10090 PE=1 SV=1',
  'HSGVMADNLR',
  '>tr|A0A000TST3|A0A000TST3_UNKN Test protein three OS=Unknown organism PE=4 SV=1',
  'GMIDVHSGQRGGGGG',
  'AAPPFFWK',
  '>sp|P0TST4|FOUR_HUMAN Test protein four OS=Homo sapiens OX=9606 PE=1 SV=1',
  'GGGGGAAPPFFWK',
].join('\n');

const ENDPOINTS = ['/search.php', '/search-peptide.php', '/search-taxonomy.php'] as const;
const MASS_ENDPOINTS = ['/search.php', '/search-taxonomy.php'] as const;
/** A valid query on each endpoint. */
const VALID: Record<(typeof ENDPOINTS)[number], string> = {
  '/search.php': '/search.php?mass1=1000&mass2=1300',
  '/search-peptide.php': '/search-peptide.php?peptide=GGGGGAAPPFFWK',
  '/search-taxonomy.php': '/search-taxonomy.php?mass1=1000&mass2=1300',
};
const MASS_REQUIRED = /mass1 and mass2 are required as doubles/;

let handler: Handler;
let brute: BruteForce;
let dir: string;

beforeAll(async () => {
  const fasta = `${HANDMADE}\n${readFileSync(sampleSubset(60), 'latin1')}`;
  const built = await fixtureDataset('contract', fasta, 2048);
  dir = built.dir;
  handler = folderHandler(dir);
  brute = new BruteForce(readFileSync(built.fasta));
});

afterAll(removeTempDirs);

const get = (path: string, init?: RequestInit) => call(handler, path, init);

describe('the fixture', () => {
  it('has the hand-made groups, several shards, and more groups than a default page', () => {
    expect(referencePeptideKey('GMIDVHSGQR')).toBe(10_985_240);
    expect(referencePeptideKey('HSGVMADNLR')).toBe(10_985_240);
    expect(referencePeptideKey('GGGGGAAPPFFWK')).toBe(12_476_087);
    expect(1098.524 * 10_000).not.toBe(10_985_240);
    expect(shardEntries(dir).length).toBeGreaterThan(5);
    expect(brute.keysIn(0, 1e9).length).toBeGreaterThan(2000);
  });
});

describe('methods and headers', () => {
  it.each(ENDPOINTS)('GET %s: 200, application/json, CORS *', async (path) => {
    const got = await get(VALID[path]);
    expect(got.status).toBe(200);
    expectJsonHeaders(got);
    expectEnvelope(got.body);
  });

  it.each(ENDPOINTS)('HEAD %s: 200, same headers, no body', async (path) => {
    const got = await get(VALID[path], { method: 'HEAD' });
    expect(got.status).toBe(200);
    expectJsonHeaders(got);
    expect(got.text).toBe('');
  });

  it.each(ENDPOINTS)('HEAD %s with a bad query: 400 without a body', async (path) => {
    const got = await get(`${path}?page=0&mass1=1&mass2=2&peptide=PEPTIDE`, { method: 'HEAD' });
    expect(got.status).toBe(400);
    expectJsonHeaders(got);
    expect(got.text).toBe('');
  });

  it.each(ENDPOINTS.flatMap((path) => ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'].map((method) => [method, path])))(
    '%s %s: 405 JSON with Allow: GET, HEAD',
    async (method, path) => {
      const got = await get(VALID[path as (typeof ENDPOINTS)[number]], { method });
      expectErrorBody(got, 405, /GET|HEAD/);
      expect(got.headers.get('allow')).toBe('GET, HEAD');
      expectJsonHeaders(got);
    },
  );

  it('HEAD on an unknown path: 404 without a body', async () => {
    const got = await get('/nope?mass1=1&mass2=2', { method: 'HEAD' });
    expect(got.status).toBe(404);
    expectJsonHeaders(got);
    expect(got.text).toBe('');
  });

  it.each([
    '/',
    '/search',
    '/search.PHP',
    '/search.php/extra',
    '/Search.php',
    '/shards/manifest.json',
    '/search-peptides.php',
    '/index.html?mass1=1&mass2=2',
  ])('unknown path %s: 404 JSON', async (path) => {
    const got = await get(path);
    expectErrorBody(got, 404);
    expectJsonHeaders(got);
  });
});

describe('envelope', () => {
  it.each([
    ['/search.php?mass1=1000&mass2=1300', 1, 10],
    ['/search-taxonomy.php?mass1=1000&mass2=1300', 1, 1000],
    ['/search-peptide.php?peptide=GGGGGAAPPFFWK', 1, 1000],
    ['/search.php?peptide=GGGGGAAPPFFWK', 1, 10],
    ['/search.php?mass1=1000&mass2=1300&page=3&pageSize=7', 3, 7],
    ['/search-taxonomy.php?mass1=1000&mass2=1300&page=2&pageSize=1000', 2, 1000],
    ['/search-peptide.php?peptide=GGGGGAAPPFFWK&page=1&pageSize=1', 1, 1],
    ['/search.php?mass1=1000&mass2=1300&page=%2B2&pageSize=007', 2, 7],
    ['/search.php?mass1=1000&mass2=1300&page=99999', 99999, 10],
  ])('%s → page %i, pageSize %i, fields in order with their types', async (path, page, pageSize) => {
    const got = await get(path);
    expect(got.status).toBe(200);
    expectEnvelope(got.body);
    expect(got.body.page).toBe(page);
    expect(got.body.pageSize).toBe(pageSize);
    expect(got.body.memory).toMatch(/^\d+ MB$/);
    expect(got.body.duration).toMatch(/^\d{2}:\d{2}:\d{2}\.\d{3}$/);
  });

  it('result is one one-key object per mass group, keyed by the Java text of the 4-decimal key', async () => {
    const got = await get('/search.php?mass1=0&mass2=100000&pageSize=1000&page=2');
    expect(got.body.result.length).toBe(1000);
    for (const group of got.body.result) {
      expect(Object.keys(group)).toHaveLength(1);
      const key = Object.keys(group)[0];
      expect(key).toMatch(/^\d+\.\d{1,4}$/);
      expect(key.endsWith('.0') || !key.endsWith('0')).toBe(true);
      expect(referenceKeyText(Math.round(Number(key) * 10_000))).toBe(key);
      expect(formatMassKey(Math.round(Number(key) * 10_000))).toBe(key);
    }
  });

  it('search.php and search-peptide.php entries are {seq, acc}; search-taxonomy.php entries {seq, accsTax: [{acc, taxId}]}', async () => {
    for (const path of ['/search.php?mass1=1098.524&mass2=1098.524', '/search-peptide.php?peptide=GMIDVHSGQR']) {
      const { body } = await get(path);
      for (const entry of body.result[0]['1098.524']) {
        expect(Object.keys(entry)).toEqual(['seq', 'acc']);
        expect(typeof entry.seq).toBe('string');
        expect(entry.acc.every((a: unknown) => typeof a === 'string')).toBe(true);
      }
    }
    const { body } = await get('/search-taxonomy.php?mass1=1098.524&mass2=1098.524');
    for (const entry of body.result[0]['1098.524']) {
      expect(Object.keys(entry)).toEqual(['seq', 'accsTax']);
      for (const a of entry.accsTax) {
        expect(Object.keys(a)).toEqual(['acc', 'taxId']);
        expect(Number.isInteger(a.taxId)).toBe(true);
      }
    }
  });
});

describe('result content and order', () => {
  it('a group holds its peptides by ascending sequence, each with ascending accessions', async () => {
    const got = await get('/search.php?mass1=1098.524&mass2=1098.524');
    expect(got.body.totalResult).toBe(1);
    expect(got.body.result).toEqual([
      {
        '1098.524': [
          { seq: 'GMIDVHSGQR', acc: ['A0A000TST3', 'Z9TST1'] },
          { seq: 'HSGVMADNLR', acc: ['P0TST2'] },
        ],
      },
    ]);
  });

  it('search-taxonomy.php gives each accession its taxId, -1 when unknown', async () => {
    const got = await get('/search-taxonomy.php?mass1=1247.6087&mass2=1247.6087');
    expect(got.body.result).toEqual([
      {
        '1247.6087': [
          {
            seq: 'GGGGGAAPPFFWK',
            accsTax: [
              { acc: 'A0A000TST3', taxId: -1 },
              { acc: 'P0TST4', taxId: 9606 },
            ],
          },
        ],
      },
    ]);
    const other = await get('/search-taxonomy.php?mass1=1098.524&mass2=1098.524');
    expect(other.body.result[0]['1098.524']).toEqual([
      {
        seq: 'GMIDVHSGQR',
        accsTax: [
          { acc: 'A0A000TST3', taxId: -1 },
          { acc: 'Z9TST1', taxId: 562 },
        ],
      },
      { seq: 'HSGVMADNLR', accsTax: [{ acc: 'P0TST2', taxId: 10090 }] },
    ]);
  });

  it('groups come by ascending mass, and the whole range equals the reference', async () => {
    const expected = brute.answer(0, 1e9, 1, 1000, 'acc');
    const got = await get('/search.php?mass1=0&mass2=100000&pageSize=1000');
    expect(stable(got.body)).toEqual(expected);
    const keys = got.body.result.map((g: object) => Number(Object.keys(g)[0]));
    expect(keys).toEqual([...keys].sort((a, b) => a - b));
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe('mass ranges are inclusive and exact', () => {
  it.each([
    ['mass1=1247.6087&mass2=1247.6087', ['1247.6087']],
    ['mass1=1098.524&mass2=1098.524', ['1098.524']],
    ['mass1=1098.5240&mass2=1098.52400000', ['1098.524']],
    ['mass1=1098.52399999&mass2=1098.52400001', ['1098.524']],
    ['mass1=1.098524e3&mass2=1098524e-3', ['1098.524']],
    ['mass1=1098.52400001&mass2=1098.525', []],
    ['mass1=1098.5239&mass2=1098.52399999', []],
    ['mass1=1247.60870001&mass2=1247.6088', []],
    ['mass1=1247.6086&mass2=1247.60869999', []],
  ])('%s → %j', async (query, keys) => {
    for (const path of ['/search.php', '/search-taxonomy.php']) {
      const got = await get(`${path}?${query}`);
      expect(got.status).toBe(200);
      expect(got.body.result.map((g: object) => Object.keys(g)[0])).toEqual(keys);
      expect(got.body.totalResult).toBe(keys.length);
    }
  });

  it('a range ending at a group key includes it and one starting at it includes it (lower and upper bound)', async () => {
    const lower = await get('/search.php?mass1=1098.524&mass2=1098.6&pageSize=1000');
    expect(Object.keys(lower.body.result[0])[0]).toBe('1098.524');
    const upper = await get('/search.php?mass1=1098.4&mass2=1098.524&pageSize=1000');
    expect(Object.keys(upper.body.result.at(-1))[0]).toBe('1098.524');
  });

  it.each([
    'mass1=0&mass2=1e300',
    'mass1=0.0&mass2=99999999999999999999999',
    'mass1=1e-300&mass2=1.7976931348623157e308',
    'mass1=-0&mass2=100000',
  ])('extreme but finite masses %s: every group', async (query) => {
    const got = await get(`/search-taxonomy.php?${query}&pageSize=3`);
    expect(stable(got.body)).toEqual(brute.answer(0, 2 ** 31, 1, 3, 'accsTax'));
  });

  it('a range with no group: 200, totalResult 0, result []', async () => {
    const got = await get('/search.php?mass1=0&mass2=1');
    expect(stable(got.body)).toEqual({ totalResult: 0, page: 1, pageSize: 10, result: [] });
    const above = await get('/search-taxonomy.php?mass1=90000&mass2=100000');
    expect(stable(above.body)).toEqual({ totalResult: 0, page: 1, pageSize: 1000, result: [] });
  });
});

describe('paging over mass groups', () => {
  it('totalResult is the number of matching groups; pages partition them in ascending order', async () => {
    const all = brute.answer(10_000_000, 11_000_000, 1, 1e9, 'acc');
    expect(all.totalResult).toBeGreaterThan(30);
    const pageSize = 7;
    const seen: unknown[] = [];
    for (let page = 1; (page - 1) * pageSize < all.totalResult; page++) {
      const got = await get(`/search.php?mass1=1000&mass2=1100&page=${page}&pageSize=${pageSize}`);
      expect(got.body.totalResult).toBe(all.totalResult);
      expect(got.body.result.length).toBe(Math.min(pageSize, all.totalResult - (page - 1) * pageSize));
      seen.push(...got.body.result);
    }
    expect(seen).toEqual(all.result);
  });

  it.each([
    ['/search.php?mass1=1000&mass2=2000&page=1000', 'acc'],
    ['/search.php?mass1=1000&mass2=2000&page=2147483647&pageSize=1000', 'acc'],
    ['/search-taxonomy.php?mass1=1000&mass2=2000&page=50', 'accsTax'],
    ['/search-peptide.php?peptide=GGGGGAAPPFFWK&page=2', 'acc'],
    ['/search.php?peptide=GGGGGAAPPFFWK&page=2&pageSize=1', 'acc'],
  ])('page past the end %s: 200, result [], the true totalResult', async (path) => {
    const got = await get(path);
    expect(got.status).toBe(200);
    expect(got.body.result).toEqual([]);
    const url = new URL(path, 'http://x');
    const peptide = url.searchParams.get('peptide');
    const expected = peptide ? 1 : brute.keysIn(10_000_000, 20_000_000).length;
    expect(got.body.totalResult).toBe(expected);
  });

  it('default page sizes: 10 on search.php, 1000 on search-taxonomy.php', async () => {
    const a = await get('/search.php?mass1=0&mass2=100000');
    expect(a.body.result.length).toBe(10);
    expect(stable(a.body)).toEqual(brute.answer(0, 1e9, 1, 10, 'acc'));
    const b = await get('/search-taxonomy.php?mass1=0&mass2=100000');
    expect(b.body.result.length).toBe(1000);
    expect(stable(b.body)).toEqual(brute.answer(0, 1e9, 1, 1000, 'accsTax'));
  });

  it('pageSize 1000 is allowed', async () => {
    const got = await get('/search.php?mass1=0&mass2=100000&pageSize=1000&page=2');
    expect(stable(got.body)).toEqual(brute.answer(0, 1e9, 2, 1000, 'acc'));
  });
});

describe('search.php?peptide=', () => {
  const byMass = () => get('/search.php?mass1=1247.6087&mass2=1247.6087');

  it.each([
    'peptide=GGGGGAAPPFFWK',
    'peptide=GGGGGAAPPFFWK&mass1=abc',
    'peptide=GGGGGAAPPFFWK&mass1=2000&mass2=1000',
    'peptide=GGGGGAAPPFFWK&mass1=-1&mass2=',
    'mass1=0&mass2=100000&peptide=GGGGGAAPPFFWK',
    'peptide=ggggGAAPPFFwk',
    'peptide=%20GGGGGAAPPFFWK%0A',
  ])('%s searches the peptide key only, with search.php defaults and entries', async (query) => {
    const got = await get(`/search.php?${query}`);
    expect(got.status).toBe(200);
    expect(stable(got.body)).toEqual(stable((await byMass()).body));
    expect(stable(got.body)).toEqual({ ...brute.answer(12_476_087, 12_476_087, 1, 10, 'acc') });
  });

  it('an empty peptide falls back to mass1/mass2', async () => {
    const got = await get('/search.php?peptide=&mass1=1098.524&mass2=1098.524');
    expect(stable(got.body)).toEqual(brute.answer(10_985_240, 10_985_240, 1, 10, 'acc'));
    expectErrorBody(await get('/search.php?peptide='), 400, MASS_REQUIRED);
    expectErrorBody(await get('/search.php?peptide=%20%20'), 400, MASS_REQUIRED);
  });

  it('an invalid peptide is a 400 naming the character and its position', async () => {
    expectErrorBody(await get('/search.php?peptide=PEP1TIDEK'), 400, /"1".*position 4/);
    expectErrorBody(await get('/search.php?peptide=PEPTIDEXK&mass1=1&mass2=2'), 400, /"X".*position 8/);
  });
});

describe('search-peptide.php', () => {
  it('returns the groups with exactly the peptide key (mass with water, 4-decimal half-up)', async () => {
    const got = await get('/search-peptide.php?peptide=HSGVMADNLR');
    expect(stable(got.body)).toEqual(brute.answer(10_985_240, 10_985_240, 1, 1000, 'acc'));
    expect(got.body.result[0]['1098.524'].map((e: { seq: string }) => e.seq)).toEqual(['GMIDVHSGQR', 'HSGVMADNLR']);
  });

  it.each([
    'GGGGGAAPPFFWK',
    'gggggaappffwk',
    'GgGgGaApPfFwK',
    '  GGGGGAAPPFFWK  ',
    '%09GGGGGAAPPFFWK%0D%0A',
    '+GGGGGAAPPFFWK+',
  ])('case and surrounding white space do not matter: %j', async (peptide) => {
    const got = await get(`/search-peptide.php?peptide=${peptide}`);
    expect(got.status).toBe(200);
    expect(stable(got.body)).toEqual(brute.answer(12_476_087, 12_476_087, 1, 1000, 'acc'));
  });

  it('ignores mass1 and mass2', async () => {
    const got = await get('/search-peptide.php?peptide=GGGGGAAPPFFWK&mass1=abc&mass2=-3');
    expect(stable(got.body)).toEqual(brute.answer(12_476_087, 12_476_087, 1, 1000, 'acc'));
  });

  it('a peptide whose key holds no group: 200, totalResult 0', async () => {
    const got = await get('/search-peptide.php?peptide=WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW');
    expect(stable(got.body)).toEqual({ totalResult: 0, page: 1, pageSize: 1000, result: [] });
  });

  it('a peptide that is not in the data still finds the group of its mass (other peptides of that key)', async () => {
    // Same composition as GMIDVHSGQR, other order: same mass key.
    const got = await get('/search-peptide.php?peptide=RQGSHVDIMG');
    expect(stable(got.body)).toEqual(brute.answer(10_985_240, 10_985_240, 1, 1000, 'acc'));
  });

  it.each([
    '/search-peptide.php',
    '/search-peptide.php?peptide=',
    '/search-peptide.php?peptide=%20%20',
    '/search-peptide.php?mass1=1&mass2=2',
  ])('%s: 400 "Peptide is required"', async (path) => {
    const got = await get(path);
    expectErrorBody(got, 400, /^Peptide is required$/);
    expectJsonHeaders(got);
  });

  it.each([
    ['PEP1TIDE', '1', 4],
    ['PEPTIDEB', 'B', 8],
    ['XPEPTIDE', 'X', 1],
    ['PEPZTIDE', 'Z', 4],
    ['pepbtide', 'B', 4],
    ['PEP-TIDE', '-', 4],
    ['PEP*', '*', 4],
    ['PEP TIDE', ' ', 4],
    ['PEPTIDÉ', 'É', 7],
    ['PEP😀K', '😀', 4],
  ])('%j: 400 naming %j at position %i', async (peptide, character, position) => {
    const got = await get(`/search-peptide.php?peptide=${encodeURIComponent(peptide)}`);
    expectErrorBody(got, 400);
    expect(got.body.error).toContain(JSON.stringify(character));
    expect(got.body.error).toContain(`position ${position}`);
  });

  it('more than 1000 residues: 400; exactly 1000: answered', async () => {
    const long = await get(`/search-peptide.php?peptide=${'A'.repeat(1001)}`);
    expectErrorBody(long, 400, /1001.*1000|1000.*1001/);
    expectErrorBody(await get(`/search-peptide.php?peptide=${'GK'.repeat(2000)}`), 400, /4000.*1000/);
    expectErrorBody(await get(`/search.php?peptide=${'W'.repeat(1001)}`), 400, /1001.*1000/);
    const max = await get(`/search-peptide.php?peptide=${'A'.repeat(1000)}`);
    expect(max.status).toBe(200);
    expect(max.body.totalResult).toBe(0);
  });
});

describe('mass errors (search.php and search-taxonomy.php)', () => {
  const cases = [
    ['', 'both missing'],
    ['mass2=1000', 'mass1 missing'],
    ['mass1=1000', 'mass2 missing'],
    ['mass1=&mass2=1000', 'mass1 empty'],
    ['mass1=1000&mass2=', 'mass2 empty'],
    ['mass1=%20&mass2=1000', 'mass1 blank'],
    ['mass1=abc&mass2=1000', 'mass1 not a number'],
    ['mass1=1000&mass2=1,5', 'mass2 with a comma'],
    ['mass1=NaN&mass2=1000', 'NaN'],
    ['mass1=1000&mass2=Infinity', 'Infinity'],
    ['mass1=1000&mass2=1e400', 'overflow to infinity'],
    ['mass1=0x10&mass2=1000', 'hex'],
    ['page=1&pageSize=10', 'only paging'],
  ] as const;
  it.each(MASS_ENDPOINTS.flatMap((path) => cases.map(([query, why]) => [path, query, why])))(
    '%s?%s (%s): 400, mass1 and mass2 are required as doubles',
    async (path, query) => {
      const got = await get(`${path}?${query}`);
      expectErrorBody(got, 400, MASS_REQUIRED);
      expectJsonHeaders(got);
    },
  );

  it.each(
    MASS_ENDPOINTS.flatMap((path) =>
      ['mass1=-1&mass2=1000', 'mass1=1000&mass2=-1', 'mass1=-2000&mass2=-1000', 'mass1=-0.0001&mass2=1'].map((q) => [
        path,
        q,
      ]),
    ),
  )('%s?%s: 400 negative', async (path, query) => {
    expectErrorBody(await get(`${path}?${query}`), 400, /negative/);
  });

  it.each(
    MASS_ENDPOINTS.flatMap((path) => [
      [path, 'mass1=1500.25&mass2=1000.5', '1500.25', '1000.5'],
      [path, 'mass1=1000.0001&mass2=1000', '1000.0001', '1000'],
    ]),
  )('%s?%s: 400 naming both values', async (path, query, a, b) => {
    const got = await get(`${path}?${query}`);
    expectErrorBody(got, 400, /mass1.*mass2/);
    expect(got.body.error).toContain(a);
    expect(got.body.error).toContain(b);
  });

  it('mass1 = mass2 and mass 0 are allowed', async () => {
    expect((await get('/search.php?mass1=0&mass2=0')).status).toBe(200);
    expect((await get('/search-taxonomy.php?mass1=1000&mass2=1000')).status).toBe(200);
  });
});

describe('page and pageSize errors', () => {
  const notIntegers = ['abc', '1.5', '', '%20', '1e3', '0x10', '99999999999', '2147483648', '1,000', '--1'];
  it.each(
    ENDPOINTS.flatMap((path) =>
      ['page', 'pageSize'].flatMap((name) =>
        notIntegers.map((value) => [path, name, value, path === '/search-peptide.php' ? 500 : 400] as const),
      ),
    ),
  )('%s %s=%j: not an integer → %i with a body saying so', async (path, name, value, status) => {
    const got = await get(`${VALID[path]}&${name}=${value}`);
    expectErrorBody(got, status, new RegExp(`^${name} must be an integer`));
    expectJsonHeaders(got);
  });

  it.each(
    ENDPOINTS.flatMap((path) => [
      [path, 'page', '0', /page must be at least 1/],
      [path, 'page', '-1', /page must be at least 1/],
      [path, 'page', '-2147483648', /page must be at least 1/],
      [path, 'pageSize', '0', /pageSize must be from 1 to 1000/],
      [path, 'pageSize', '-5', /pageSize must be from 1 to 1000/],
      [path, 'pageSize', '1001', /pageSize must be from 1 to 1000/],
      [path, 'pageSize', '2147483647', /pageSize must be from 1 to 1000/],
    ]),
  )('%s %s=%s: 400 stating the range', async (path, name, value, message) => {
    const got = await get(`${VALID[path as (typeof ENDPOINTS)[number]]}&${name}=${value}`);
    expectErrorBody(got, 400, message as RegExp);
  });
});

describe('dataset failures (local folder): 502/503 JSON, never a partial or wrong answer', () => {
  let copy: string;
  let shards: ReturnType<typeof shardEntries>;
  const rangeOf = (i: number) =>
    `mass1=${referenceKeyText(shards[i].firstKey)}&mass2=${referenceKeyText(shards[i].lastKey)}`;

  beforeAll(() => {
    copy = join(tempDir('contract-broken'), 'shards');
    cpSync(dir, copy, { recursive: true });
    shards = shardEntries(copy);
    // Shard 1: one byte changed (same size); shard 3: gone.
    const path = join(copy, shards[1].file);
    const bytes = readFileSync(path);
    bytes[bytes.length >> 1] ^= 0x5a;
    writeFileSync(path, bytes);
    rmSync(join(copy, shards[3].file));
  });

  it('a shard that fails its sha256: 502, and stays 502; other shards still answer correctly', async () => {
    const broken = folderHandler(copy);
    for (let i = 0; i < 2; i++) {
      const got = await call(broken, `/search.php?${rangeOf(1)}`);
      expectErrorBody(got, 502, /sha256/);
      expectJsonHeaders(got);
    }
    const good = await call(broken, `/search.php?${rangeOf(2)}&pageSize=1000`);
    expect(good.status).toBe(200);
    expect(stable(good.body)).toEqual(brute.answer(shards[2].firstKey, shards[2].lastKey, 1, 1000, 'acc'));
  });

  it('a range that needs a bad shard only to count is refused too', async () => {
    const broken = folderHandler(copy);
    // Starts inside shard 1 (so its groups must be counted there), page on shard 2.
    const got = await call(
      broken,
      `/search-taxonomy.php?mass1=${referenceKeyText(shards[1].firstKey + 1)}&mass2=${referenceKeyText(shards[2].lastKey)}&page=99`,
    );
    expectErrorBody(got, 502);
  });

  it('a missing shard: 502', async () => {
    const broken = folderHandler(copy);
    expectErrorBody(await call(broken, `/search-taxonomy.php?${rangeOf(3)}`), 502, /not found/);
    expect((await call(broken, `/search-taxonomy.php?${rangeOf(4)}`)).status).toBe(200);
  });

  it('no manifest: 503; a manifest that is not JSON: 503', async () => {
    const empty = tempDir('contract-empty');
    expectErrorBody(await call(folderHandler(empty), VALID['/search.php']), 503);
    writeFileSync(join(empty, 'manifest.json'), '{"format": "digested-peptides", "formatVersi');
    expectErrorBody(await call(folderHandler(empty), VALID['/search.php']), 503);
  });

  it('a bad query is refused before the dataset is read (400 even with no dataset)', async () => {
    const empty = tempDir('contract-none');
    expectErrorBody(await call(folderHandler(empty), '/search.php?mass1=2&mass2=1'), 400);
  });
});

// Tests runtime/api/endpoints.ts: the table (one row per path and command, json and tsv renderers, POST
// /api/v1/match a row with a body), the three seed rows (paths, commands, entry shapes, parameter order, defaults
// 10/1000/1000, pageSize max 1000, peptide max 1000, search-peptide checking paging before the peptide),
// parseRangeQuery → exact key bounds (peptide keys from the independent reference chemistry), endpointByCommand and
// massRangeParams (runtime/api/rangeParams.ts).
import { describe, expect, it } from 'vitest';
import { endpointByCommand, ENDPOINTS, GET_ENDPOINTS, type Endpoint } from '../../../runtime/api/endpoints.js';
import { massRangeParams, parseRangeQuery } from '../../../runtime/api/rangeParams.js';
import { QueryError } from '../../../runtime/api/params.js';
import { referenceKey, referenceUnits } from '../../helpers/reference.js';

/** The seed's three endpoints, by path (later rows, e.g. a v1 API, are other tests' business). */
const byPath = (path: string) => ENDPOINTS.find((e) => e.path === path)!;
const search = byPath('/search.php');
const searchPeptide = byPath('/search-peptide.php');
const searchTaxonomy = byPath('/search-taxonomy.php');
const SEED = [search, searchPeptide, searchTaxonomy];

/** parseRangeQuery over a query string. */
const parse = (endpoint: Endpoint, query: string) => {
  const params = new URLSearchParams(query);
  return parseRangeQuery(endpoint, (name) => params.getAll(name));
};

function refusal(endpoint: Endpoint, query: string) {
  try {
    parse(endpoint, query);
  } catch (e) {
    if (e instanceof QueryError) return { status: e.status, message: e.message };
    throw e;
  }
  throw new Error(`${query} was accepted`);
}

const peptideKey = (sequence: string) => referenceKey(referenceUnits(sequence)!);
const param = (endpoint: Endpoint, name: string) => endpoint.params.find((p) => p.name === name)!;

describe('ENDPOINTS', () => {
  it('lists the three seed endpoints first, with their paths, commands, entry shapes and non-integer status', () => {
    expect(ENDPOINTS.slice(0, 3)).toEqual(SEED);
    expect(SEED.map((e) => [e.path, e.command, e.entries, e.notIntegerStatus])).toEqual([
      ['/search.php', 'search', 'acc', 400],
      ['/search-peptide.php', 'search-peptide', 'acc', 500],
      ['/search-taxonomy.php', 'search-taxonomy', 'accsTax', 400],
    ]);
  });

  it('checks parameters in the contract order: search-peptide reads paging before the peptide', () => {
    expect(search.params.map((p) => p.name)).toEqual(['peptide', 'mass1', 'mass2', 'page', 'pageSize']);
    expect(searchPeptide.params.map((p) => p.name)).toEqual(['page', 'pageSize', 'peptide']);
    expect(searchTaxonomy.params.map((p) => p.name)).toEqual(['mass1', 'mass2', 'page', 'pageSize']);
  });

  it('pages from 1 by default, pageSize defaults 10/1000/1000 with max 1000, peptides up to 1000 residues', () => {
    for (const endpoint of SEED)
      expect(param(endpoint, 'page')).toMatchObject({ kind: 'integer', default: 1, min: 1, required: false });
    expect(SEED.map((e) => param(e, 'pageSize').default)).toEqual([10, 1000, 1000]);
    for (const endpoint of SEED) expect(param(endpoint, 'pageSize')).toMatchObject({ min: 1, max: 1000 });
    expect(param(search, 'peptide')).toMatchObject({ kind: 'sequence', required: false, max: 1000 });
    expect(param(searchPeptide, 'peptide')).toMatchObject({ kind: 'sequence', required: true, max: 1000 });
    expect(param(search, 'mass1')).toMatchObject({ kind: 'mass', unless: 'peptide' });
    expect(param(searchTaxonomy, 'mass1')).toMatchObject({ kind: 'mass', required: true });
    expect(param(searchTaxonomy, 'mass1').unless).toBeUndefined();
  });
});

describe('parseRangeQuery', () => {
  it('turns a mass range into the keys of 0.0001 Da it includes, exactly', () => {
    expect(parse(search, 'mass1=1000.5&mass2=1001.5')).toEqual({
      lowKey: 10_005_000,
      highKey: 10_015_000,
      page: 1,
      pageSize: 10,
    });
    expect(parse(search, 'mass1=1000.00005&mass2=1000.00015')).toEqual({
      lowKey: 10_000_001,
      highKey: 10_000_001,
      page: 1,
      pageSize: 10,
    });
    expect(parse(search, 'mass1=1000.00001&mass2=1000.00009')).toEqual({
      lowKey: 10_000_001,
      highKey: 10_000_000,
      page: 1,
      pageSize: 10,
    });
    expect(parse(searchTaxonomy, 'mass1=1.0005e3&mass2=100150E-2&page=3&pageSize=7')).toEqual({
      lowKey: 10_005_000,
      highKey: 10_015_000,
      page: 3,
      pageSize: 7,
    });
    expect(parse(searchTaxonomy, 'mass1=0&mass2=0.00009')).toEqual({ lowKey: 0, highKey: 0, page: 1, pageSize: 1000 });
    expect(parse(searchTaxonomy, 'mass1=1234.56789999999999999&mass2=1234.5679')).toEqual({
      lowKey: 12_345_679,
      highKey: 12_345_679,
      page: 1,
      pageSize: 1000,
    });
  });

  it('turns a peptide into its own mass key (reference chemistry), ignoring mass1 and mass2', () => {
    for (const sequence of ['PEPTIDE', 'SAMPLER', 'K', 'WUOCMHRYFG', 'A'.repeat(1000)]) {
      const key = peptideKey(sequence);
      expect(parse(searchPeptide, `peptide=${sequence.toLowerCase()}`)).toEqual({
        lowKey: key,
        highKey: key,
        page: 1,
        pageSize: 1000,
      });
      expect(parse(search, `peptide=%20${sequence}%0A&mass1=oops&mass2=1&mass2=2&pageSize=3`)).toEqual({
        lowKey: key,
        highKey: key,
        page: 1,
        pageSize: 3,
      });
    }
  });

  it('reads mass1 and mass2 of search when the peptide is empty, and ignores a peptide on search-taxonomy', () => {
    expect(parse(search, 'peptide=&mass1=500&mass2=500.0001')).toMatchObject({ lowKey: 5_000_000, highKey: 5_000_001 });
    expect(refusal(searchTaxonomy, 'peptide=PEPTIDE')).toEqual({
      status: 400,
      message: 'mass1 is missing: mass1 and mass2 are required as doubles (Da), e.g. mass1=1000.5&mass2=1001.5',
    });
  });

  it('refuses paging out of its limits with 400, and non-integers with the endpoint status', () => {
    expect(refusal(search, 'mass1=1&mass2=2&pageSize=1001')).toEqual({
      status: 400,
      message: 'pageSize must be from 1 to 1000, got 1001',
    });
    expect(refusal(searchTaxonomy, 'mass1=1&mass2=2&page=0')).toEqual({
      status: 400,
      message: 'page must be at least 1, got 0',
    });
    expect(refusal(search, 'mass1=1&mass2=2&page=1.5')).toEqual({
      status: 400,
      message: 'page must be an integer, got "1.5"',
    });
    expect(refusal(searchPeptide, 'peptide=PEPTIDE&pageSize=ten')).toEqual({
      status: 500,
      message: 'pageSize must be an integer, got "ten"',
    });
    expect(parse(searchPeptide, 'peptide=PEPTIDE&page=2147483647&pageSize=1000')).toMatchObject({
      page: 2147483647,
      pageSize: 1000,
    });
  });

  it('on search-peptide, reports a paging problem before a missing or bad peptide', () => {
    expect(refusal(searchPeptide, 'page=x')).toEqual({ status: 500, message: 'page must be an integer, got "x"' });
    expect(refusal(searchPeptide, 'pageSize=0&peptide=BBB')).toEqual({
      status: 400,
      message: 'pageSize must be from 1 to 1000, got 0',
    });
    expect(refusal(searchPeptide, '')).toEqual({ status: 400, message: 'Peptide is required' });
  });

  it('on search, reports a bad peptide before bad masses or paging', () => {
    expect(refusal(search, 'peptide=PEPXIDE&mass1=x&page=0')).toEqual({
      status: 400,
      message: 'Peptide character "X" at position 4 has no defined mass',
    });
    expect(refusal(search, 'mass1=x&page=0').message).toMatch(/^mass1 is not a finite number \("x"\)/);
  });

  it('allows 1000 residues and refuses 1001', () => {
    expect(refusal(searchPeptide, `peptide=${'G'.repeat(1001)}`)).toEqual({
      status: 400,
      message: 'Peptide is 1001 residues long; at most 1000 are allowed',
    });
    expect(parse(searchPeptide, `peptide=${'G'.repeat(1000)}`).lowKey).toBe(peptideKey('G'.repeat(1000)));
  });
});

describe('the endpoint table', () => {
  it('has one row per path and per command, each with a json and a tsv renderer', () => {
    expect(new Set(ENDPOINTS.map((e) => e.path)).size).toBe(ENDPOINTS.length);
    expect(new Set(ENDPOINTS.map((e) => e.command)).size).toBe(ENDPOINTS.length);
    for (const e of ENDPOINTS) expect(Object.keys(e.renderers).sort(), e.path).toEqual(['json', 'tsv']);
  });

  it('holds POST /api/v1/match, /api/v1/identify and /api/v1/fingerprint as rows that read a body; every other row is GET without one', () => {
    expect(ENDPOINTS.filter((e) => e.method === 'POST').map((e) => [e.path, e.command])).toEqual([
      ['/api/v1/match', 'match'],
      ['/api/v1/identify', 'identify'],
      ['/api/v1/fingerprint', 'fingerprint'],
    ]);
    for (const e of ENDPOINTS) {
      expect(e.readBody === undefined, e.path).toBe(e.method === 'GET');
      expect(e.body === undefined, e.path).toBe(e.method === 'GET');
    }
    expect(GET_ENDPOINTS).toEqual(ENDPOINTS.filter((e) => e.method === 'GET'));
  });
});

describe('endpointByCommand', () => {
  it('finds each endpoint by its command name only', () => {
    expect(endpointByCommand('search')).toBe(search);
    expect(endpointByCommand('search-peptide')).toBe(searchPeptide);
    expect(endpointByCommand('search-taxonomy')).toBe(searchTaxonomy);
    for (const other of ['/search.php', 'search.php', 'Search', 'export', ''])
      expect(endpointByCommand(other)).toBeUndefined();
  });
});

describe('massRangeParams', () => {
  it('is mass1 then mass2, required or read only unless a peptide is given', () => {
    const required = massRangeParams(true);
    expect(required.map((p) => [p.name, p.kind, p.required, p.unless])).toEqual([
      ['mass1', 'mass', true, undefined],
      ['mass2', 'mass', true, undefined],
    ]);
    const optional = massRangeParams(false);
    expect(optional.map((p) => [p.name, p.kind, p.required, p.unless])).toEqual([
      ['mass1', 'mass', false, 'peptide'],
      ['mass2', 'mass', false, 'peptide'],
    ]);
    expect(optional[1].description).toMatch(/Required unless `peptide` is given/);
    expect(required[1].description).not.toMatch(/Required unless/);
  });
});

// Tests runtime/api/params.ts: readParams on small hand-made tables — each kind (mass pair, integer, sequence),
// defaults, limits and their exact messages, duplicates refused, `unless`, the order rule (first problem in table
// order wins; a mass pair reads both values before checking either), notIntegerStatus — and flagOf.
import { describe, expect, it } from 'vitest';
import { flagOf, QueryError, readParams, type Param, type ParamSource } from '../../../runtime/api/params.js';
import { referenceUnits } from '../../helpers/reference.js';

/** A source from a plain object: each name's list of values (absent: none). */
const from =
  (values: Record<string, string | string[]>): ParamSource =>
  (name) => {
    const v = values[name];
    return v === undefined ? [] : Array.isArray(v) ? v : [v];
  };

/** The QueryError a read throws, as plain data. */
function refusal(params: readonly Param[], values: Record<string, string | string[]>, notIntegerStatus?: number) {
  try {
    readParams(params, from(values), notIntegerStatus);
  } catch (e) {
    if (!(e instanceof QueryError)) throw e;
    return { status: e.status, message: e.message };
  }
  throw new Error(`no refusal for ${JSON.stringify(values)}`);
}

const int = (name: string, extra: Partial<Param> = {}): Param => ({
  name,
  kind: 'integer',
  required: false,
  description: '',
  ...extra,
});
const mass = (name: string, extra: Partial<Param> = {}): Param => ({
  name,
  kind: 'mass',
  required: true,
  description: '',
  ...extra,
});
const seq = (name: string, extra: Partial<Param> = {}): Param => ({
  name,
  kind: 'sequence',
  required: false,
  description: '',
  ...extra,
});

const RANGE = [mass('lo'), mass('hi')];
const rangeHint = 'lo and hi are required as doubles (Da), e.g. lo=1000.5&hi=1001.5';

describe('integer parameters', () => {
  const table = [
    int('page', { default: 1, min: 1, max: 2 ** 31 - 1 }),
    int('size', { default: 10, min: 1, max: 1000 }),
    int('free'),
  ];

  it('read whole numbers, with defaults when absent (undefined without one)', () => {
    expect(readParams(table, from({}))).toEqual({ page: 1, size: 10, free: undefined });
    expect(readParams(table, from({ page: '7', size: '+1000', free: '-2147483648' }))).toEqual({
      page: 7,
      size: 1000,
      free: -2147483648,
    });
    expect(readParams(table, from({ page: '0003', free: '2147483647' }))).toEqual({
      page: 3,
      size: 10,
      free: 2147483647,
    });
  });

  it('refuse what is not a 32-bit integer, with the text quoted (cut at 40 characters)', () => {
    for (const text of ['1.5', 'abc', '', ' 5', '5 ', '1e3', '0x10', '2147483648', '-2147483649', '12345678901', '١']) {
      expect(refusal(table, { free: text })).toEqual({
        status: 400,
        message: `free must be an integer, got ${JSON.stringify(text)}`,
      });
    }
    expect(refusal(table, { free: '9'.repeat(50) })).toEqual({
      status: 400,
      message: `free must be an integer, got "${'9'.repeat(40)}…"`,
    });
  });

  it('refuse values outside [min, max] with the exact message (no upper bound shown when max is the int32 maximum)', () => {
    expect(refusal(table, { page: '0' })).toEqual({ status: 400, message: 'page must be at least 1, got 0' });
    expect(refusal(table, { page: '-5' })).toEqual({ status: 400, message: 'page must be at least 1, got -5' });
    expect(refusal(table, { size: '0' })).toEqual({ status: 400, message: 'size must be from 1 to 1000, got 0' });
    expect(refusal(table, { size: '1001' })).toEqual({ status: 400, message: 'size must be from 1 to 1000, got 1001' });
    expect(readParams(table, from({ size: '1' })).size).toBe(1);
  });

  it('answer a non-integer with notIntegerStatus, but an out-of-range integer or a duplicate with 400', () => {
    expect(refusal(table, { page: 'x' }, 500)).toEqual({ status: 500, message: 'page must be an integer, got "x"' });
    expect(refusal(table, { page: '0' }, 500).status).toBe(400);
    expect(refusal(table, { page: ['1', '2'] }, 500).status).toBe(400);
  });
});

describe('mass pairs', () => {
  it('read both ends exactly, as key bounds', () => {
    const values = readParams(RANGE, from({ lo: '1000.00005', hi: '1.00001e3' }));
    expect(values.lo).toEqual({ value: 1000.00005, ceilKey: 10_000_001, floorKey: 10_000_000 });
    expect(values.hi).toEqual({ value: 1000.01, ceilKey: 10_000_100, floorKey: 10_000_100 });
    expect(readParams(RANGE, from({ lo: ' 0 ', hi: '-0' }))).toEqual({
      lo: { value: 0, ceilKey: 0, floorKey: 0 },
      hi: { value: 0, ceilKey: 0, floorKey: 0 },
    });
  });

  it('refuse a missing, empty, non-numeric or negative end, naming it, with the hint', () => {
    expect(refusal(RANGE, { hi: '5' })).toEqual({ status: 400, message: `lo is missing: ${rangeHint}` });
    expect(refusal(RANGE, { lo: '5', hi: '  ' })).toEqual({ status: 400, message: `hi is empty: ${rangeHint}` });
    expect(refusal(RANGE, { lo: '5', hi: '' })).toEqual({ status: 400, message: `hi is empty: ${rangeHint}` });
    for (const text of ['abc', '1e400', 'NaN', 'Infinity', '0x10', '1,5', '.']) {
      expect(refusal(RANGE, { lo: text, hi: '5' })).toEqual({
        status: 400,
        message: `lo is not a finite number (${JSON.stringify(text)}): ${rangeHint}`,
      });
    }
    expect(refusal(RANGE, { lo: '-1', hi: '5' })).toEqual({ status: 400, message: 'lo must not be negative, got -1' });
    expect(refusal(RANGE, { lo: '1', hi: '-0.5' })).toEqual({
      status: 400,
      message: 'hi must not be negative, got -0.5',
    });
  });

  it('refuse low above high, equal ends allowed', () => {
    expect(refusal(RANGE, { lo: '2.5', hi: '1e0' })).toEqual({
      status: 400,
      message: 'lo (2.5) must not be greater than hi (1)',
    });
    expect(readParams(RANGE, from({ lo: '2.5', hi: '2.50' })).lo).toMatchObject({ value: 2.5 });
  });

  it('read both values before checking either: a duplicate high end wins over a missing low end', () => {
    expect(refusal(RANGE, { hi: ['1', '2'] })).toEqual({ status: 400, message: 'hi is given 2 times; give it once' });
    expect(refusal(RANGE, { lo: 'x', hi: ['1', '2', '3'] })).toEqual({
      status: 400,
      message: 'hi is given 3 times; give it once',
    });
  });

  it('check the low end fully before the high end', () => {
    expect(refusal(RANGE, { lo: '-1' })).toEqual({ status: 400, message: 'lo must not be negative, got -1' });
    expect(refusal(RANGE, { lo: 'x', hi: 'y' }).message).toMatch(/^lo is not a finite number/);
  });

  it('is a table error when a mass row is not followed by another', () => {
    expect(() => readParams([mass('lo'), int('page')], from({ lo: '1' }))).toThrow(
      'parameter table: lo is not followed by the other end of its range',
    );
    expect(() => readParams([mass('lo')], from({ lo: '1' }))).toThrow(
      'parameter table: lo is not followed by the other end of its range',
    );
  });
});

describe('sequence parameters', () => {
  const optional = [seq('peptide', { max: 5 })];
  const required = [seq('peptide', { required: true, max: 5 })];

  it('read a peptide case-insensitively, trimmed, with its exact mass', () => {
    expect(readParams(required, from({ peptide: ' pEpTi \t' }))).toEqual({
      peptide: { sequence: 'PEPTI', units: referenceUnits('PEPTI') },
    });
    expect(readParams([seq('p')], from({ p: 'WWWWWWWWWWUO' }))).toEqual({
      p: { sequence: 'WWWWWWWWWWUO', units: referenceUnits('WWWWWWWWWWUO') },
    });
  });

  it('leave an optional peptide out when absent or blank; require a required one', () => {
    expect(readParams(optional, from({}))).toEqual({});
    expect(readParams(optional, from({ peptide: '   ' }))).toEqual({});
    expect(refusal(required, {})).toEqual({ status: 400, message: 'Peptide is required' });
    expect(refusal(required, { peptide: ' ' })).toEqual({ status: 400, message: 'Peptide is required' });
  });

  it('refuse peptides longer than max, counting characters', () => {
    expect(refusal(optional, { peptide: 'AAAAAA' })).toEqual({
      status: 400,
      message: 'Peptide is 6 residues long; at most 5 are allowed',
    });
    expect(readParams(optional, from({ peptide: 'AAAAA' })).peptide).toMatchObject({ sequence: 'AAAAA' });
  });

  it('name the first character without a mass and its 1-based position', () => {
    expect(refusal(required, { peptide: 'PEPBX' })).toEqual({
      status: 400,
      message: 'Peptide character "B" at position 4 has no defined mass',
    });
    expect(refusal(required, { peptide: 'pe pt' })).toEqual({
      status: 400,
      message: 'Peptide character " " at position 3 is not an amino-acid letter',
    });
    expect(refusal(required, { peptide: 'ıA' })).toEqual({
      status: 400,
      message: 'Peptide character "ı" at position 1 is not an amino-acid letter',
    });
    expect(refusal(required, { peptide: 'A1' })).toEqual({
      status: 400,
      message: 'Peptide character "1" at position 2 is not an amino-acid letter',
    });
  });

  it('refuse a duplicate', () => {
    expect(refusal(optional, { peptide: ['A', 'A'] })).toEqual({
      status: 400,
      message: 'peptide is given 2 times; give it once',
    });
  });
});

describe('unless and the order rule', () => {
  const table = [
    seq('peptide', { max: 10 }),
    mass('lo', { required: false, unless: 'peptide' }),
    mass('hi', { required: false, unless: 'peptide' }),
    int('page', { default: 1, min: 1 }),
  ];

  it('skip rows whose `unless` parameter is given, even when they are wrong', () => {
    expect(readParams(table, from({ peptide: 'AAAAAAG', lo: 'x', hi: ['1', '2'] }))).toEqual({
      peptide: { sequence: 'AAAAAAG', units: referenceUnits('AAAAAAG') },
      page: 1,
    });
  });

  it('read those rows when the other parameter is absent or blank', () => {
    expect(readParams(table, from({ lo: '1', hi: '2' }))).toMatchObject({
      lo: { value: 1 },
      hi: { value: 2 },
      page: 1,
    });
    expect(refusal(table, { peptide: '  ', hi: '2' }).message).toBe(
      'lo is missing: lo and hi are required as doubles (Da), e.g. lo=1000.5&hi=1001.5',
    );
  });

  it('report the first problem in table order', () => {
    expect(refusal(table, { peptide: 'AXA', page: '0' }).message).toBe(
      'Peptide character "X" at position 2 has no defined mass',
    );
    expect(refusal(table, { lo: '3', hi: '1', page: 'abc' }).message).toBe('lo (3) must not be greater than hi (1)');
    const reversed = [int('page', { default: 1, min: 1 }), seq('peptide', { required: true })];
    expect(refusal(reversed, { page: 'abc' }, 500)).toEqual({
      status: 500,
      message: 'page must be an integer, got "abc"',
    });
    expect(refusal(reversed, { page: '2', peptide: 'B' }).message).toBe(
      'Peptide character "B" at position 1 has no defined mass',
    );
  });
});

describe('flagOf', () => {
  it('writes camelCase names as dashed lower-case flags', () => {
    expect(flagOf('pageSize')).toBe('page-size');
    expect(flagOf('mass1')).toBe('mass1');
    expect(flagOf('peptide')).toBe('peptide');
    expect(flagOf('equateIL')).toBe('equate-il'); // a run of capitals is one word
    expect(flagOf('aBCd')).toBe('a-bcd');
  });
});

describe('taxa rows (comma-separated NCBI taxIds)', () => {
  const taxa: Param[] = [{ name: 'taxon', kind: 'taxa', required: false, max: 3, description: '' }];
  it('reads distinct positive integers, white space around items allowed; absent is none', () => {
    expect(readParams(taxa, from({ taxon: ' 2, 9606 ,2' })).taxon).toEqual([2, 9606]);
    expect(readParams(taxa, from({ taxon: '2147483647' })).taxon).toEqual([2147483647]);
    expect(readParams(taxa, from({})).taxon).toEqual([]);
  });
  it('refuses an empty list, an item that is not a taxId, and too many', () => {
    expect(refusal(taxa, { taxon: '' })).toEqual({
      status: 400,
      message: 'taxon is empty: give NCBI taxIds, comma-separated (e.g. taxon=2,9606)',
    });
    expect(refusal(taxa, { taxon: '  ' })).toMatchObject({
      status: 400,
      message: expect.stringMatching(/^taxon is empty/),
    });
    expect(refusal(taxa, { taxon: 'Homo sapiens' })).toEqual({
      status: 400,
      message: 'taxon: "Homo sapiens" is a name, not a taxId; find its taxId with /api/v1/taxa?name=Homo%20sapiens',
    });
    for (const bad of ['0', '-5', '1.5', '2147483648', '1e3', '9606,', ',2', '2,,3', '0x10']) {
      const item = bad
        .split(',')
        .find((i) => !/^\d+$/.test(i.trim()) || Number(i) < 1 || Number(i) > 2147483647)!
        .trim();
      expect(refusal(taxa, { taxon: bad }), bad).toEqual({
        status: 400,
        message: `taxon: ${JSON.stringify(item)} is not a taxId (a positive integer)`,
      });
    }
    expect(refusal(taxa, { taxon: '1,2,3,4' })).toEqual({
      status: 400,
      message: 'taxon lists 4 taxIds; at most 3 are allowed',
    });
    expect(refusal(taxa, { taxon: ['1', '2'] })).toEqual({
      status: 400,
      message: 'taxon is given 2 times; give it once',
    });
  });
});

describe('text rows', () => {
  const text: Param[] = [{ name: 'name', kind: 'text', required: true, max: 5, description: '' }];
  it('reads trimmed text within its length, and names the parameter when it is missing or too long', () => {
    expect(readParams(text, from({ name: '  homo ' })).name).toBe('homo');
    expect(refusal(text, { name: ' ' })).toEqual({ status: 400, message: 'name is required' });
    expect(refusal(text, {})).toEqual({ status: 400, message: 'name is required' });
    expect(refusal(text, { name: 'abcdef' })).toEqual({
      status: 400,
      message: 'name is 6 characters long; at most 5 are allowed',
    });
    expect(readParams([{ ...text[0], required: false }], from({})).name).toBeUndefined();
  });
});

describe("sequence rows other than the seed's `peptide`", () => {
  it('name themselves in their messages', () => {
    expect(refusal([seq('sequence', { required: true })], {})).toEqual({
      status: 400,
      message: 'sequence is required',
    });
    expect(refusal([seq('sequence', { required: true })], { sequence: 'PEPXIDE' }).message).toMatch(
      /^sequence character "X" at position 4/,
    );
  });
});

// Tests runtime/api/paramNames.ts on a small table: which row an unknown name stands for (another case, a typo
// within what its length allows, a name people also use), the choice it names, and what each policy refuses.
import { describe, expect, it } from 'vitest';
import { checkParamNames, nearestParam, suggestion } from '../../../runtime/api/paramNames.js';
import { QueryError, type Param } from '../../../runtime/api/params.js';

const row = (name: string, extra: Partial<Param> = {}): Param => ({
  name,
  kind: 'number',
  required: false,
  description: '',
  ...extra,
});
const TABLE = [
  row('mz'),
  row('charge', { alsoCalled: ['z'] }),
  row('tolerance', { alsoCalled: ['ppm', 'tol'] }),
  row('unit', { kind: 'choice', choices: ['ppm', 'Da'] }),
  row('sequence', { kind: 'sequence', aliases: ['peptide'] }),
  row('pageSize'),
];
const refusal = (names: string[], policy: 'refuse' | 'nearMisses') => {
  try {
    checkParamNames(TABLE, names, policy);
    return undefined;
  } catch (e) {
    expect(e).toBeInstanceOf(QueryError);
    return (e as QueryError).message;
  }
};

describe('nearestParam', () => {
  it('finds the row by case, by a typo within its length, or by a name people also use', () => {
    const cases: [string, string | undefined, boolean | undefined][] = [
      ['MZ', 'mz', true],
      ['mzz', undefined, undefined], // two letters: only another case is a near-miss
      ['pagesize', 'pageSize', true],
      ['page_size', 'pageSize', true],
      ['tolerence', 'tolerance', true],
      ['pepitde', 'sequence', true], // a typo of an alias
      ['z', 'charge', false],
      ['PPM', 'tolerance', false],
      ['foo', undefined, undefined],
    ];
    for (const [name, param, nearMiss] of cases) {
      const found = nearestParam(TABLE, name);
      expect([found?.param.name, found?.nearMiss], name).toEqual([param, nearMiss]);
    }
  });

  it('writes the choice a name stands for beside the row', () => {
    const spell = (name: string, value?: string) => (value === undefined ? name : `${name}=${value}`);
    expect(suggestion(TABLE, 'ppm', TABLE[2], spell)).toBe('tolerance with unit=ppm');
    expect(suggestion(TABLE, 'tol', TABLE[2], spell)).toBe('tolerance');
  });
});

describe('checkParamNames', () => {
  it('refuses any unknown name, or under nearMisses only those close to a known one', () => {
    expect(refusal(['mz', 'peptide', 'unit'], 'refuse')).toBeUndefined();
    expect(refusal(['mz', 'ppm'], 'refuse')).toBe(
      'unknown parameter "ppm": did you mean tolerance with unit=ppm? (this endpoint takes mz, charge, tolerance, unit, sequence, pageSize)',
    );
    expect(refusal(['callback'], 'refuse')).toMatch(/^unknown parameter "callback" \(this endpoint takes /);
    expect(refusal(['callback', 'ppm', 'z'], 'nearMisses')).toBeUndefined();
    expect(refusal(['PageSize'], 'nearMisses')).toMatch(/^unknown parameter "PageSize": did you mean pageSize\?/);
  });
});

// Tests runtime/entries/cli/usage.ts: paramsText (required plain, optional bracketed with their default, `unless`
// rows shown as the alternative of the parameter they yield to), commandHelp (each parameter's flag, aliases and
// description), and usage (a line per endpoint with every parameter as its flag, export, openapi, common options).
import { describe, expect, it } from 'vitest';
import { GET_ENDPOINTS as ENDPOINTS } from '../../../../runtime/api/endpoints.js';
import { massRangeParams } from '../../../../runtime/api/rangeParams.js';
import type { Param } from '../../../../runtime/api/params.js';
import { commandHelp, paramsText, usage } from '../../../../runtime/entries/cli/usage.js';

/** A parameter's flag, written independently of flagOf: camelCase to dashed lower case, a run of capitals one word. */
const flag = (name: string) =>
  '--' +
  [...name]
    .map((c, i) =>
      c >= 'A' && c <= 'Z' ? `${name[i - 1] >= 'A' && name[i - 1] <= 'Z' ? '' : '-'}${c.toLowerCase()}` : c,
    )
    .join('');

const p = (name: string, kind: Param['kind'], extra: Partial<Param> = {}): Param => ({
  name,
  kind,
  required: false,
  description: '',
  ...extra,
});

const SEED_LINES: Record<string, string> = {
  search: '--peptide SEQ | --mass1 Da --mass2 Da [--page N (1)] [--page-size N (10)]',
  'search-peptide': '[--page N (1)] [--page-size N (1000)] --peptide SEQ',
  'search-taxonomy': '--mass1 Da --mass2 Da [--page N (1)] [--page-size N (1000)]',
};

describe('paramsText', () => {
  it('writes required parameters plain and optional ones in brackets with their default', () => {
    expect(
      paramsText([
        p('count', 'integer', { required: true }),
        p('page', 'integer', { default: 1 }),
        p('free', 'integer'),
        p('pageSize', 'integer', { default: 0 }),
      ]),
    ).toBe('--count N [--page N (1)] [--free N] [--page-size N (0)]');
    expect(paramsText([p('peptide', 'sequence', { required: true }), p('peptide', 'sequence')])).toBe(
      '--peptide SEQ [--peptide SEQ]',
    );
    expect(paramsText([p('lo', 'mass', { required: true }), p('hi', 'mass', { required: true })])).toBe(
      '--lo Da --hi Da',
    );
    expect(paramsText([])).toBe('');
  });

  it('shows rows read only `unless` another is given as that one’s alternative, in table order', () => {
    const table = [
      p('peptide', 'sequence'),
      p('mass1', 'mass', { unless: 'peptide' }),
      p('mass2', 'mass', { unless: 'peptide' }),
      p('page', 'integer', { default: 1 }),
    ];
    expect(paramsText(table)).toBe('--peptide SEQ | --mass1 Da --mass2 Da [--page N (1)]');
    const after = [
      p('page', 'integer', { default: 1 }),
      p('lowMass', 'mass', { unless: 'seq' }),
      p('highMass', 'mass', { unless: 'seq' }),
      p('seq', 'sequence', { required: true }),
    ];
    expect(paramsText(after)).toBe('[--page N (1)] --seq SEQ | --low-mass Da --high-mass Da');
  });

  it('renders the .php endpoints as their usage lines', () => {
    for (const [command, text] of Object.entries(SEED_LINES)) {
      expect(paramsText(ENDPOINTS.find((e) => e.command === command)!.params), command).toBe(text);
    }
  });
});

describe('commandHelp', () => {
  it('lists every parameter of an endpoint by its flag, with its aliases and its description, then the command options', () => {
    for (const endpoint of ENDPOINTS) {
      const text = commandHelp(endpoint.command, 'SYNOPSIS', endpoint.params, { shards: 'where the dataset is' });
      const lines = text.split('\n');
      expect(lines[0]).toBe(`usage: npm run query -- ${endpoint.command} SYNOPSIS`);
      for (const param of endpoint.params) {
        const line = lines.find((l) => l.trimStart().startsWith(`${flag(param.name)} `));
        expect(line, `${endpoint.command} ${param.name}`).toBeDefined();
        expect(line).toContain(param.description.replace(/`/g, ''));
        for (const alias of param.aliases ?? []) expect(line).toContain(flag(alias));
      }
      expect(lines.at(-1)).toMatch(/^ {2}--shards +where the dataset is$/);
    }
  });
});

describe('usage', () => {
  const text = usage(massRangeParams(true));
  const lines = text.split('\n');

  it('starts with the synopsis and ends with the common options and TSV columns', () => {
    expect(lines[0]).toBe('usage: npm run query -- <command> [options]');
    expect(lines.slice(-2)).toEqual([
      'options of every command: --shards <dir|url>   dataset folder or base URL (default: $SHARDS_DIR or ./shards)',
      'TSV columns: mass, sequence, accession, taxId (one row per peptide-accession pair)',
    ]);
  });

  it('has one line per endpoint naming its command, its path, and every parameter as its flag', () => {
    for (const endpoint of ENDPOINTS) {
      const line = lines.find((l) => l.startsWith(`  ${endpoint.command} `));
      expect(line, endpoint.command).toBeDefined();
      expect(line!.endsWith(`   (as ${endpoint.path})`)).toBe(true);
      for (const param of endpoint.params)
        expect(line, `${endpoint.command} ${param.name}`).toContain(`${flag(param.name)} `);
    }
  });

  it('writes the .php endpoints’ lines exactly, commands padded to 16 columns', () => {
    expect(lines).toContain(
      '  search           --peptide SEQ | --mass1 Da --mass2 Da [--page N (1)] [--page-size N (10)]   (as /search.php)',
    );
    expect(lines).toContain(
      '  search-peptide   [--page N (1)] [--page-size N (1000)] --peptide SEQ   (as /search-peptide.php)',
    );
    expect(lines).toContain(
      '  search-taxonomy  --mass1 Da --mass2 Da [--page N (1)] [--page-size N (1000)]   (as /search-taxonomy.php)',
    );
  });

  it('describes the export command from the parameters it is given, then --format and openapi', () => {
    expect(lines).toContain('  export           --mass1 Da --mass2 Da   the whole range as TSV, no paging');
    expect(lines).toContain('                   [--format json|tsv]');
    expect(lines).toContain('  openapi          the OpenAPI document of the API');
    expect(lines.find((l) => l.startsWith('  fingerprint '))).toMatch(
      /^ {2}fingerprint {6}<file\|-> \[--tolerance 50 /,
    );
    expect(usage([p('from', 'mass', { required: true }), p('to', 'mass', { required: true })])).toContain(
      '  export           --from Da --to Da   the whole range as TSV, no paging',
    );
  });
});

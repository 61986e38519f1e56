// runtime/api/apiDocs.ts and docs/api.md: the reference's parameter tables are the ones the OpenAPI document (built
// from the endpoint table) gives today, one for every endpoint, and `npm run docs` rewrites stale ones.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { paramBlocks, paramTables, rewriteParamBlocks } from '../../../runtime/api/apiDocs.js';
import { openapiDocument } from '../../../runtime/api/openapi.js';
import { removeTempDirs, tempDir } from '../../helpers/datasets.js';
import { REPO, runTsx } from '../../helpers/process.js';

const API_DOC = join(REPO, 'docs/api.md');
const doc = readFileSync(API_DOC, 'utf8');

afterAll(removeTempDirs);

describe('docs/api.md', () => {
  it('has one parameter block for every endpoint of the OpenAPI document, and no other', () => {
    const endpoints = Object.keys(openapiDocument().paths as object).filter(
      (p) => p !== '/openapi.json' && p !== '/{path}',
    );
    expect(endpoints).toContain('/api/v1/match');
    expect(endpoints.length).toBeGreaterThanOrEqual(9);
    expect([...paramBlocks(doc).keys()].sort()).toEqual(endpoints.sort());
  });

  it.each([...paramTables()])('%s: its block is the table generated from the endpoint table', (path, table) => {
    expect(paramBlocks(doc).get(path), `run npm run docs to regenerate ${path}'s table`).toBe(table);
  });
});

describe('paramTables', () => {
  const tables = paramTables();

  it('lists every query parameter of an endpoint with its limits, default and example', () => {
    const search = tables.get('/search.php')!.split('\n');
    expect(search.slice(0, 2)).toEqual([
      '| parameter | required | value | default | example | description |',
      '|---|---|---|---|---|---|',
    ]);
    expect(search.slice(2).map((row) => row.split(' | ')[0])).toEqual([
      '| `peptide`',
      '| `mass1`',
      '| `mass2`',
      '| `page`',
      '| `pageSize`',
    ]);
    expect(search.find((row) => row.startsWith('| `pageSize`'))).toMatch(
      /^\| `pageSize` \| no \| integer, ≥ 1, ≤ 1000 \| `10` \| {2}\| Mass groups per page\. \|$/,
    );
    expect(tables.get('/search-taxonomy.php')).toMatch(/^\| `mass1` \| yes \| number, ≥ 0 \|/m);
    expect(tables.get('/api/v1/search')).toMatch(/^\| `unit` \| no \| `ppm` or `Da` \| `ppm` \|/m);
    expect(tables.get('/api/v1/match')).toMatch(/^\| `top` \| no \| integer, ≥ 1, ≤ 1000 \|/m);
    expect(tables.get('/api/v1/match')).not.toMatch(/If-None-Match/);
  });

  it('says so for an endpoint without parameters', () => {
    expect(tables.get('/api/v1/info')).toBe('No parameters.');
  });

  it('keeps a table a table: pipes escaped, line breaks joined', () => {
    const document = {
      paths: {
        '/x': {
          get: {
            parameters: [
              { name: 'a', in: 'query', required: true, description: 'one | two\nthree', schema: { type: 'string' } },
            ],
            responses: { '200': {} },
          },
        },
      },
    };
    expect(paramTables(document).get('/x')!.split('\n')[2]).toBe('| `a` | yes | text |  |  | one \\| two three |');
  });
});

describe('rewriteParamBlocks', () => {
  const tables = new Map([['/x', '| a |']]);

  it('replaces a stale block and nothing around it', () => {
    const text = 'before\n<!-- params: /x -->\nstale\n<!-- /params -->\nafter\n';
    expect(rewriteParamBlocks(text, tables)).toBe('before\n<!-- params: /x -->\n| a |\n<!-- /params -->\nafter\n');
  });

  it('refuses a block of no endpoint, an unclosed block and a repeated one', () => {
    expect(() => rewriteParamBlocks('<!-- params: /y -->\n<!-- /params -->', tables)).toThrow('no endpoint /y');
    expect(() => rewriteParamBlocks('<!-- params: /x -->\n| a |\n', tables)).toThrow('no `<!-- /params -->`');
    const twice = '<!-- params: /x -->\n<!-- /params -->\n<!-- params: /x -->\n<!-- /params -->\n';
    expect(() => rewriteParamBlocks(twice, tables)).toThrow('two parameter blocks for /x');
  });

  it('leaves docs/api.md as it is', () => {
    expect(rewriteParamBlocks(doc)).toBe(doc);
  });
});

describe('npm run docs', () => {
  it("rewrites a file's stale tables, then finds them up to date", async () => {
    const file = join(tempDir('api-docs'), 'api.md');
    writeFileSync(
      file,
      doc.replace(/(<!-- params: \/api\/v1\/search -->\n)[\s\S]*?(<!-- \/params -->)/, '$1stale\n$2'),
    );
    const script = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
      .scripts.docs;
    const entry = /^tsx (\S+)$/.exec(script)?.[1];
    expect(entry, script).toBeDefined();
    const first = await runTsx([entry!, file]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('parameter tables rewritten');
    expect(readFileSync(file, 'utf8')).toBe(doc);
    const second = await runTsx([entry!, file]);
    expect(second.stdout).toContain('parameter tables up to date');
  }, 60_000);
});

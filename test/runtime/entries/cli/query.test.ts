// The offline query tool (runtime/entries/cli/query.ts): its JSON is the handler's answer, its TSV is the
// JSON's peptide–accession pairs, export equals all pages of the API, errors are the API's, over a folder and
// a URL. Long on purpose: one suite per command (search, search-peptide, search-taxonomy, v1, export).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Dataset } from '../../../../runtime/core/storage/dataset.js';
import { accessionRefsOf } from '../../../../runtime/model/format.js';
import { createAnswerer, createHandler, datasetOnce, type Handler } from '../../../../runtime/api/handler.js';
import { formatMassKey } from '../../../../runtime/model/massKey.js';
import { decodeShard } from '../../../../runtime/model/shardCodec.js';
import { main } from '../../../../runtime/entries/cli/query.js';
import { createListener } from '../../../../runtime/entries/node/server.js';
import { FileSource } from '../../../../runtime/entries/node/fileSource.js';
import { HttpSource } from '../../../../runtime/core/storage/source.js';
import { folderHandler, listen, stableText } from '../../../helpers/api.js';
import {
  bundledDataset,
  readManifest,
  readStored,
  removeTempDirs,
  shardEntries,
  smallShardsDataset,
  tempDir,
} from '../../../helpers/datasets.js';
import { Collector, runNode, runProgram, type Run } from '../../../helpers/process.js';

let dir: string;
let shards: string;
let handler: Handler;
let dataset: Dataset;

/** Runs the tool in process; returns exit code and both outputs. */
async function query(...argv: string[]): Promise<Run> {
  const stdout = new Collector();
  const stderr = new Collector();
  const code = await main(argv, { stdout, stderr });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

/** The handler's answer to `path?params` (body text and status). */
async function api(
  path: string,
  params: Record<string, string>,
  h: Handler = handler,
): Promise<{ status: number; text: string }> {
  const response = await h(new Request(`http://localhost${path}?${new URLSearchParams(params)}`));
  return { status: response.status, text: await response.text() };
}

type Group = Record<
  string,
  ({ seq: string; acc: string[] } | { seq: string; accsTax: { acc: string; taxId: number }[] })[]
>;

/** TSV rows from a JSON answer (its text or parsed body): acc-shaped answers give `mass, seq, acc`, accsTax ones add the taxId. */
function pairs(answer: string | { result: Group[] }): string[] {
  const rows: string[] = [];
  const body = typeof answer === 'string' ? (JSON.parse(answer) as { result: Group[] }) : answer;
  for (const group of body.result) {
    for (const [mass, entries] of Object.entries(group)) {
      for (const entry of entries) {
        if ('acc' in entry) for (const acc of entry.acc) rows.push(`${mass}\t${entry.seq}\t${acc}`);
        else for (const { acc, taxId } of entry.accsTax) rows.push(`${mass}\t${entry.seq}\t${acc}\t${taxId}`);
      }
    }
  }
  return rows;
}

/** Data rows of TSV output, after checking its header. */
function tsvRows(text: string): string[] {
  const lines = text.split('\n');
  expect(lines[0]).toBe('mass\tsequence\taccession\ttaxId');
  expect(lines.at(-1)).toBe('');
  return lines.slice(1, -1);
}

/** expect(got).toEqual(expected) for long row lists: compared by node first, vitest's comparison (and its diff) when they differ. */
function expectRows(got: string[], expected: string[], message?: string): void {
  if (!isDeepStrictEqual(got, expected)) expect(got, message).toEqual(expected);
}

/** The folder handler's allPages by range: several tests compare an export with the same range's pages. */
const folderPages = new Map<string, Promise<string[]>>();

/** Every page of search-taxonomy over a range, as TSV rows (the export's expected output). */
function allPages(mass1: string, mass2: string, h: Handler = handler): Promise<string[]> {
  if (h !== handler) return readPages(mass1, mass2, h);
  const key = `${mass1}..${mass2}`;
  let pages = folderPages.get(key);
  if (!pages) folderPages.set(key, (pages = readPages(mass1, mass2, h)));
  return pages;
}

async function readPages(mass1: string, mass2: string, h: Handler): Promise<string[]> {
  const rows: string[] = [];
  for (let page = 1; ; page++) {
    const { status, text } = await api(
      '/search-taxonomy.php',
      { mass1, mass2, page: String(page), pageSize: '1000' },
      h,
    );
    expect(status).toBe(200);
    const body = JSON.parse(text) as { totalResult: number; result: Group[] };
    const { totalResult, result } = body;
    rows.push(...pairs(body));
    if (page * 1000 >= totalResult) return rows;
    expect(result).toHaveLength(1000);
  }
}

/** Mass ranges that exercise the export's shard walk: shard-aligned, cutting two shards, inside one, one key, empty. */
async function ranges(): Promise<[string, string][]> {
  const a = (await dataset.index.shardOfGroup(100_000)).entry;
  const b = (await dataset.index.shardOfGroup(112_000)).entry;
  return [
    [formatMassKey(a.firstKey), formatMassKey(b.lastKey)],
    [formatMassKey(a.firstKey + 1), formatMassKey(b.lastKey - 1)],
    [formatMassKey(a.firstKey + 1), formatMassKey(a.lastKey - 1)],
    [formatMassKey(a.firstKey), formatMassKey(a.firstKey)],
    ['0', '100'],
    ['1e5', '2e5'],
  ];
}

beforeAll(async () => {
  dir = tempDir('query');
  shards = await bundledDataset();
  handler = folderHandler(shards);
  dataset = await Dataset.open(new FileSource(shards));
  expect(dataset.manifest.shardIndex).toBeDefined();
});

afterAll(removeTempDirs);

const QUERIES: [command: string, path: string, args: string[], params: Record<string, string>][] = [
  ['search', '/search.php', ['--mass1', '1247.6', '--mass2', '1247.62'], { mass1: '1247.6', mass2: '1247.62' }],
  [
    'search',
    '/search.php',
    ['--mass1', '1000', '--mass2', '1100', '--page', '3', '--page-size', '7'],
    { mass1: '1000', mass2: '1100', page: '3', pageSize: '7' },
  ],
  ['search', '/search.php', ['--peptide', 'ewecfcgk'], { peptide: 'ewecfcgk' }],
  ['search-peptide', '/search-peptide.php', ['--peptide', 'SNFEGCNCK'], { peptide: 'SNFEGCNCK' }],
  [
    'search-peptide',
    '/search-peptide.php',
    ['--peptide', 'GAWLELETDSK', '--page-size', '2', '--page', '2'],
    { peptide: 'GAWLELETDSK', pageSize: '2', page: '2' },
  ],
  [
    'search-taxonomy',
    '/search-taxonomy.php',
    ['--mass1', '1000.37', '--mass2', '1000.38'],
    { mass1: '1000.37', mass2: '1000.38' },
  ],
  [
    'search-taxonomy',
    '/search-taxonomy.php',
    ['--mass1', '2000', '--mass2', '2001', '--page-size', '50', '--page', '2'],
    { mass1: '2000', mass2: '2001', pageSize: '50', page: '2' },
  ],
  [
    'search-taxonomy',
    '/search-taxonomy.php',
    ['--mass1', '1500', '--mass2', '1500.5', '--page', '999'],
    { mass1: '1500', mass2: '1500.5', page: '999' },
  ],
];

describe('query tool: JSON', () => {
  it('prints exactly the handler answer for each endpoint, paging included', async () => {
    for (const [command, path, args, params] of QUERIES) {
      const expected = await api(path, params);
      expect(expected.status).toBe(200);
      const run = await query(command, ...args, '--shards', shards);
      expect(run.code, `${command} ${args.join(' ')}`).toBe(0);
      expect(stableText(run.stdout)).toBe(stableText(expected.text) + '\n');
    }
    // Not vacuous: the queries above do find peptides.
    expect(JSON.parse((await api('/search.php', QUERIES[0][3])).text).totalResult).toBeGreaterThan(10);
  });

  it("v1: the JSON is /api/v1/search's answer; the TSV has a row per candidate–accession pair with its ProForma, mass and ppm (and isotope error)", async () => {
    type Entry = {
      seq: string;
      proforma: string;
      mass: number;
      ppm: number;
      isotopeError?: number;
      accsTax: { acc: string; taxId: number }[];
    };
    const COLUMNS = 'mass\tsequence\tproforma\tmodifiedMass\tppm\taccession\ttaxId';
    for (const [params, header] of [
      [{ mz: '650.3188', charge: '2', fixed: 'Carbamidomethyl@C', variable: 'Oxidation@M', pageSize: '5' }, COLUMNS],
      // With isotope errors: each candidate's after its ppm (both windows on this page).
      [
        { mz: '650.8205', charge: '2', fixed: 'Carbamidomethyl@C', isotopeErrors: '1,0', taxon: '9604' },
        COLUMNS.replace('ppm', 'ppm\tisotopeError'),
      ],
    ] as const) {
      const args = [
        ...Object.entries(params).flatMap(([name, value]) => [
          `--${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`,
          value,
        ]),
        '--shards',
        shards,
      ];
      const expected = await api('/api/v1/search', params);
      expect(expected.status).toBe(200);
      const json = await query('v1', ...args);
      expect(json.code).toBe(0);
      expect(stableText(json.stdout)).toBe(stableText(expected.text) + '\n');
      const tsv = await query('v1', ...args, '--format', 'tsv');
      expect(tsv.code).toBe(0);
      const lines = tsv.stdout.split('\n');
      expect(lines[0]).toBe(header);
      const entries = (JSON.parse(expected.text) as { result: Record<string, Entry[]>[] }).result.flatMap((group) =>
        Object.entries(group).flatMap(([key, list]) => list.map((e) => ({ key, e }))),
      );
      const rows = entries.flatMap(({ key, e }) =>
        e.accsTax.map((a) =>
          [
            key,
            e.seq,
            e.proforma,
            e.mass.toFixed(6),
            e.ppm,
            ...(e.isotopeError === undefined ? [] : [e.isotopeError]),
            a.acc,
            a.taxId,
          ].join('\t'),
        ),
      );
      expect(rows.length).toBeGreaterThan(5);
      expect(lines.slice(1, -1)).toEqual(rows);
      if ('isotopeErrors' in params) expect(new Set(entries.map(({ e }) => e.isotopeError))).toEqual(new Set([1, 0]));
    }
    const bad = await query('v1', '--mz', '650', '--charge', '11', '--shards', shards);
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout)).toEqual({ error: 'charge must be from 1 to 10, got 11' });
  });

  it('db-info and info print /db-info.php and /api/v1/info; their TSV is one name<TAB>value row per field', async () => {
    for (const [command, path] of [
      ['db-info', '/db-info.php'],
      ['info', '/api/v1/info'],
    ]) {
      const expected = await api(path, {});
      const json = await query(command, '--shards', shards);
      expect(json.code).toBe(0);
      expect(json.stdout).toBe(expected.text + '\n');
      const tsv = await query(command, '--shards', shards, '--format', 'tsv');
      expect(tsv.stderr).toBe(''); // no paging summary: it is not a page of mass groups
      const lines = tsv.stdout.split('\n');
      expect(lines[0]).toBe('name\tvalue');
      const leaves = (value: object, prefix = ''): string[] =>
        Object.entries(value).flatMap(([k, v]) =>
          v !== null && typeof v === 'object' ? leaves(v, `${prefix}${k}.`) : [`${prefix}${k}\t${v ?? ''}`],
        );
      expect(lines.slice(1, -1)).toEqual(leaves(JSON.parse(expected.text) as object));
    }
    expect((await query('db-info', '--shards', shards, '--mass1', '1')).code).toBe(2); // no such flag
  });

  it('peptide and taxa print /api/v1/peptide and /api/v1/taxa; --taxon and --reviewed filter v1; TSV rows', async () => {
    const peptide = await query(
      'peptide',
      '--sequence',
      'gawlelEtdsk',
      '--equate-il',
      'true',
      '--taxon',
      '1301',
      '--shards',
      shards,
    );
    expect(peptide.code).toBe(0);
    const expected = await api('/api/v1/peptide', { sequence: 'gawlelEtdsk', equateIL: 'true', taxon: '1301' });
    expect(peptide.stdout).toBe(expected.text + '\n');
    const body = JSON.parse(expected.text) as {
      peptides: {
        seq: string;
        accsTax: { acc: string; taxId: number; reviewed: boolean; protein: string | null; organism: string | null }[];
      }[];
    };
    expect(body.peptides.length).toBeGreaterThan(0);
    const tsv = await query(
      'peptide',
      '--sequence',
      'gawlelEtdsk',
      '--equate-il',
      'true',
      '--taxon',
      '1301',
      '--shards',
      shards,
      '--format',
      'tsv',
    );
    const rows = body.peptides.flatMap((p) =>
      p.accsTax.map((a) => [p.seq, a.acc, a.taxId, a.reviewed, a.protein ?? '', a.organism ?? ''].join('\t')),
    );
    expect(tsv.stdout.split('\n')).toEqual(['sequence\taccession\ttaxId\treviewed\tprotein\torganism', ...rows, '']);

    const taxa = await query('taxa', '--name', 'homo', '--shards', shards);
    expect(taxa.stdout).toBe((await api('/api/v1/taxa', { name: 'homo' })).text + '\n');
    const taxaTsv = await query('taxa', '--name', 'homo', '--shards', shards, '--format', 'tsv');
    expect(taxaTsv.stdout.split('\n')[2]).toMatch(/^9606\tHomo sapiens\tspecies\t\d+$/);

    const filtered = await query(
      'v1',
      '--mass',
      '1500',
      '--tolerance',
      '20',
      '--taxon',
      '2',
      '--reviewed',
      'false',
      '--shards',
      shards,
    );
    expect(stableText(filtered.stdout)).toBe(
      stableText((await api('/api/v1/search', { mass: '1500', tolerance: '20', taxon: '2', reviewed: 'false' })).text) +
        '\n',
    );
    expect(JSON.parse(filtered.stdout).totalResult).toBeGreaterThan(0);
    const unknown = await query('v1', '--mass', '1500', '--taxon', '999999999', '--shards', shards);
    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.stdout)).toEqual({ error: "taxon 999999999 is not in the dataset's taxonomy" });
  });

  // The two commands as processes; every other case runs main in this process.
  it('runs as `npm run query --` (defaulting --shards to SHARDS_DIR) and as the package bin', async () => {
    const expected = stableText((await api('/search.php', { mass1: '1247.6', mass2: '1247.62' })).text) + '\n';
    const viaNpm = await runProgram(
      'npm',
      ['run', '-s', 'query', '--', 'search', '--mass1', '1247.6', '--mass2', '1247.62'],
      { SHARDS_DIR: shards },
    );
    expect(viaNpm.code, viaNpm.stderr).toBe(0);
    expect(stableText(viaNpm.stdout)).toBe(expected);
    const viaBin = await runNode([
      'bin/digested-peptides.mjs',
      'search',
      '--mass1',
      '1247.6',
      '--mass2',
      '1247.62',
      '--shards',
      shards,
    ]);
    expect(viaBin.code, viaBin.stderr).toBe(0);
    expect(stableText(viaBin.stdout)).toBe(expected);
  });
});

describe('query tool: TSV', () => {
  it('has one row per peptide–accession pair of the JSON answer, with the taxIds of search-taxonomy', async () => {
    for (const [command, path, args, params] of QUERIES) {
      const json = await api(path, params);
      const run = await query(command, ...args, '--shards', shards, '--format', 'tsv');
      expect(run.code).toBe(0);
      const rows = tsvRows(run.stdout);
      if (path === '/search-taxonomy.php') {
        expect(rows).toEqual(pairs(json.text));
      } else {
        // acc-shaped answers carry no taxId: the first three columns match the JSON, the taxId matches the
        // search-taxonomy answer of the same range and page.
        expect(rows.map((r) => r.split('\t').slice(0, 3).join('\t'))).toEqual(pairs(json.text));
        const keys = (JSON.parse(json.text) as { result: Group[] }).result.map((g) => Object.keys(g)[0]);
        if (keys.length > 0) {
          const taxonomy = await api('/search-taxonomy.php', { mass1: keys[0], mass2: keys.at(-1)!, pageSize: '1000' });
          const taxIds = new Map(pairs(taxonomy.text).map((r) => [r.split('\t').slice(0, 3).join('\t'), r]));
          for (const row of rows) expect(taxIds.get(row.split('\t').slice(0, 3).join('\t'))).toBe(row);
        }
      }
      if (JSON.parse(json.text).result.length > 0) expect(rows.length).toBeGreaterThan(0);
      expect(run.stderr).toMatch(/^# \d+ mass groups in range; page \d+ of \d+\n$/);
    }
  });
});

describe('query tool: export', () => {
  it('equals the concatenation of all pages of the API over the same range', async () => {
    for (const [mass1, mass2] of await ranges()) {
      const expected = await allPages(mass1, mass2);
      const run = await query('export', '--mass1', mass1, '--mass2', mass2, '--shards', shards);
      expect(run.code, `${mass1}..${mass2}: ${run.stderr}`).toBe(0);
      expectRows(tsvRows(run.stdout), expected, `${mass1}..${mass2}`);
    }
    const [[wide1, wide2]] = await ranges();
    expect((await allPages(wide1, wide2)).length).toBeGreaterThan(12_000); // spans many shards and pages
  });

  // Over the many-small-shards dataset: the whole mass line there crosses thousands of shard ends and all of its
  // index pages, which is what the walk has to get right; the bundled sample's larger shards add rows, not cases.
  it('writes every peptide–accession pair of the dataset once over the whole mass range', async () => {
    const small = await smallShardsDataset();
    const { accessions, compression } = readManifest(small);
    const entries = shardEntries(small);
    expect(entries.length).toBeGreaterThan(2 * dataset.index.shardCount);
    let pairsInShards = 0;
    for (const entry of entries) {
      const shard = decodeShard(readStored(small, entry.file, compression), accessions.count);
      for (let p = 0; p < shard.sequenceEnds.length; p++) pairsInShards += accessionRefsOf(shard, p).length;
    }
    let lines = 0;
    let last = '';
    const counter = new Writable({
      write(chunk: Buffer, _encoding, done) {
        const text = chunk.toString('utf8');
        for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines++;
        last = text;
        done();
      },
    });
    expect(
      await main(['export', '--mass1', '0', '--mass2', '1000000', '--shards', small], {
        stdout: counter,
        stderr: new Collector(),
      }),
    ).toBe(0);
    expect(lines - 1).toBe(pairsInShards);
    expect(last.endsWith('\n')).toBe(true);
  });

  it('waits for a slow reader instead of buffering the range (backpressure)', async () => {
    const [, [mass1, mass2]] = await ranges();
    const slow = new Collector({ highWaterMark: 1024, delayMs: 1 });
    expect(
      await main(['export', '--mass1', mass1, '--mass2', mass2, '--shards', shards], {
        stdout: slow,
        stderr: new Collector(),
      }),
    ).toBe(0);
    expect(slow.drains).toBeGreaterThan(5);
    expectRows(tsvRows(slow.text), await allPages(mass1, mass2));
  });
});

describe('query tool: errors', () => {
  const ERRORS: [command: string, path: string, args: string[], params: Record<string, string>, status: number][] = [
    ['search', '/search.php', ['--mass1', 'abc', '--mass2', '1'], { mass1: 'abc', mass2: '1' }, 400],
    ['search', '/search.php', ['--mass1', '5'], { mass1: '5' }, 400],
    ['search', '/search.php', ['--mass1', '2', '--mass2', '1'], { mass1: '2', mass2: '1' }, 400],
    ['search-peptide', '/search-peptide.php', ['--peptide', 'PEPBIDE'], { peptide: 'PEPBIDE' }, 400],
    [
      'search-peptide',
      '/search-peptide.php',
      ['--peptide', 'PEPTIDE', '--page', 'x'],
      { peptide: 'PEPTIDE', page: 'x' },
      500,
    ],
    [
      'search-taxonomy',
      '/search-taxonomy.php',
      ['--mass1', '1', '--mass2', '2', '--page-size', '1001'],
      { mass1: '1', mass2: '2', pageSize: '1001' },
      400,
    ],
    ['v1', '/api/v1/search', ['--mass', '1000', '--isotope-errors', 'x'], { mass: '1000', isotopeErrors: 'x' }, 400],
    ['v1', '/api/v1/search', ['--mass', '1000', '--isotope-errors', '9'], { mass: '1000', isotopeErrors: '9' }, 400],
    [
      'v1',
      '/api/v1/search',
      ['--mass1', '1000', '--mass2', '1001', '--isotope-errors', '0,1'],
      { mass1: '1000', mass2: '1001', isotopeErrors: '0,1' },
      400,
    ],
  ];

  it('exits 1 with the API JSON error on stdout (json) or stderr (tsv)', async () => {
    for (const [command, path, args, params, status] of ERRORS) {
      const expected = await api(path, params);
      expect(expected.status).toBe(status);
      const run = await query(command, ...args, '--shards', shards);
      expect(run.code).toBe(1);
      expect(run.stdout).toBe(expected.text + '\n');
      expect(JSON.parse(run.stdout)).toEqual({ error: expect.any(String) });
      const tsv = await query(command, ...args, '--shards', shards, '--format', 'tsv');
      expect(tsv.code).toBe(1);
      expect(tsv.stdout).toBe('');
      expect(tsv.stderr).toBe(expected.text + '\n');
    }
  });

  it('export refuses a bad range with the API error of search-taxonomy', async () => {
    for (const [args, params] of [
      [['--mass1', '1'], { mass1: '1' }],
      [['--mass1=-1', '--mass2', '5'], { mass1: '-1', mass2: '5' }],
      [['--mass1', '1e', '--mass2', '5'], { mass1: '1e', mass2: '5' }],
    ] as [string[], Record<string, string>][]) {
      const expected = await api('/search-taxonomy.php', params);
      expect(expected.status).toBe(400);
      const run = await query('export', ...args, '--shards', shards);
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toBe(expected.text + '\n');
    }
  });

  it('a missing dataset is one line naming --shards and what is wrong there, for queries and export', async () => {
    const missing = join(dir, 'no-such-dataset');
    const run = await query('search', '--mass1', '1', '--mass2', '2', '--shards', missing);
    expect([run.code, run.stdout, run.stderr]).toEqual([1, '', `query: error: --shards ${missing}: no such folder\n`]);
    const exported = await query('export', '--mass1', '1', '--mass2', '2', '--shards', dir);
    expect([exported.code, exported.stdout, exported.stderr]).toEqual([
      1,
      '',
      `query: error: --shards ${dir}: no manifest.json in that folder; build a dataset with npm run build:shards\n`,
    ]);
  });

  it('takes its cache budget from SHARD_CACHE_BYTES, as the server does: the same answer with none; a bad value is a one-line error', async () => {
    const args = ['search', '--mass1', '1000', '--mass2', '1100', '--shards', shards];
    const withDefault = await query(...args);
    const saved = process.env.SHARD_CACHE_BYTES;
    try {
      process.env.SHARD_CACHE_BYTES = '0';
      const uncached = await query(...args);
      expect([uncached.code, stableText(uncached.stdout)]).toEqual([0, stableText(withDefault.stdout)]);
      process.env.SHARD_CACHE_BYTES = 'lots';
      const bad = await query(...args);
      expect([bad.code, bad.stdout, bad.stderr]).toEqual([
        1,
        '',
        'query: error: SHARD_CACHE_BYTES must be a number of bytes (e.g. 268435456 for 256 MB; 0 for no cache), not "lots"\n',
      ]);
    } finally {
      if (saved === undefined) delete process.env.SHARD_CACHE_BYTES;
      else process.env.SHARD_CACHE_BYTES = saved;
    }
  });

  it('the command line (the package bin) exits non-zero with the JSON error', async () => {
    const expected = await api('/search.php', { mass1: 'abc', mass2: '1' });
    const run = await runNode([
      'bin/digested-peptides.mjs',
      'search',
      '--mass1',
      'abc',
      '--mass2',
      '1',
      '--shards',
      shards,
    ]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe(expected.text + '\n');
  });

  it('usage errors exit 2 with one line on stderr naming the mistake and where help is', async () => {
    const cases: [string[], RegExp][] = [
      [['nope'], /^query: error: unknown command "nope" \(npm run query -- --help lists them\)\n$/],
      [['serach'], /^query: error: unknown command "serach": did you mean search\?/],
      [
        ['search', '--bogus', '1'],
        /^query: error: unknown option --bogus \(npm run query -- search --help lists its options\)\n$/,
      ],
      [['search', '--pagesize', '3'], /^query: error: unknown option --pagesize: did you mean --page-size\?/],
      [['v1', '--ppm', '5'], /^query: error: unknown option --ppm: did you mean --tolerance with --unit ppm\?/],
      [['v1', '--z', '2'], /^query: error: unknown option --z: did you mean --charge\?/],
      [['search', '--format', 'xml'], /^query: error: --format must be json or tsv, got "xml"/],
      [['export', '--page', '2'], /^query: error: unknown option --page/],
      [['search', 'stray'], /^query: error: unexpected argument stray/],
    ];
    for (const [argv, message] of cases) {
      const run = await query(...argv);
      expect(run.code, argv.join(' ')).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr.split('\n'), argv.join(' ')).toHaveLength(2); // one line, then the final newline
      expect(run.stderr, argv.join(' ')).toMatch(message);
    }
    const none = await query();
    expect([none.code, none.stderr]).toEqual([2, expect.stringMatching(/^usage: npm run query/)]);
    expect((await query('--help')).code).toBe(0);
  });

  it('each command has its own --help: its synopsis and every option with its description', async () => {
    const run = await query('v1', '--help');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^usage: npm run query -- v1 /);
    expect(run.stdout).toMatch(/\n {2}--tolerance X +Half-width of the window/);
    expect(run.stdout).toMatch(/\n {2}--out +write the output to this file/);
    const peptide = await query('peptide', '--help');
    expect(peptide.stdout).toMatch(/\n {2}--sequence SEQ \(or --peptide\) +The peptide/);
  });

  it('reads a negative number after a flag as its value, refused by the parameter table', async () => {
    const run = await query('search', '--mass1', '-5', '--mass2', '10', '--shards', shards);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toEqual({ error: 'mass1 must not be negative, got -5' });
  });

  it('--out FILE writes the output whole, and nothing when the command fails', async () => {
    const out = join(dir, 'answer.json');
    const run = await query('search', '--mass1', '1000', '--mass2', '1000.5', '--shards', shards, '--out', out);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('');
    const direct = await query('search', '--mass1', '1000', '--mass2', '1000.5', '--shards', shards);
    expect(stableText(readFileSync(out, 'utf8'))).toBe(stableText(direct.stdout));
    const failed = join(dir, 'failed.json');
    const bad = await query('search', '--mass1', '2', '--mass2', '1', '--shards', shards, '--out', failed);
    expect(bad.code).toBe(1);
    expect(readdirSync(dir).filter((f) => f.startsWith('failed.json'))).toEqual([]);
    const nowhere = await query('search', '--mass1', '1', '--mass2', '2', '--out', join(dir, 'no', 'such', 'x.json'));
    expect([nowhere.code, nowhere.stderr]).toEqual([
      1,
      expect.stringMatching(/^query: error: --out .*: folder .* does not exist\n$/),
    ]);
  });
});

describe('query tool over HTTP (--shards <url>)', () => {
  let base: string;
  let close: () => Promise<void>;
  let httpHandler: Handler;

  beforeAll(async () => {
    const server = await listen(createListener(shards, createAnswerer(datasetOnce(() => new FileSource(shards)))));
    base = `${server.base}/shards/`;
    close = server.close;
    httpHandler = createHandler(datasetOnce(() => new HttpSource(base)));
  });

  afterAll(async () => {
    await close?.();
  });

  it('answers like the folder, JSON and TSV', async () => {
    for (const [command, path, args, params] of QUERIES.slice(0, 6)) {
      const expected = await api(path, params);
      expect(stableText((await api(path, params, httpHandler)).text)).toBe(stableText(expected.text));
      const run = await query(command, ...args, '--shards', base);
      expect(run.code).toBe(0);
      expect(stableText(run.stdout)).toBe(stableText(expected.text) + '\n');
      const tsv = await query(command, ...args, '--shards', base, '--format', 'tsv');
      expect(tsv.stdout).toBe((await query(command, ...args, '--shards', shards, '--format', 'tsv')).stdout);
    }
  });

  it('exports the same rows as the API pages', async () => {
    const [, [mass1, mass2]] = await ranges();
    const run = await query('export', '--mass1', mass1, '--mass2', mass2, '--shards', base);
    expect(run.code, run.stderr).toBe(0);
    expectRows(tsvRows(run.stdout), await allPages(mass1, mass2, httpHandler));
  });

  it('an unreachable URL is one line naming --shards and why', async () => {
    const { base: url, close: stop } = await listen((_req, res) => res.writeHead(404).end());
    await stop(); // the port is now closed
    const run = await query('search', '--mass1', '1', '--mass2', '2', '--shards', `${url}/shards/`);
    expect([run.code, run.stdout]).toEqual([1, '']);
    expect(run.stderr).toMatch(
      /^query: error: --shards http:\/\/\S+\/shards\/: no dataset could be read there \(dataset unavailable: manifest.json/,
    );
  });
});

// Ordinary mistakes, table-driven, over npm start's listener (HTTP), the query command line and npm start itself:
// each gets its status or exit code and a message naming the parameter, file or variable, and the server answers
// correctly afterwards. The cases are made from the endpoints' parameter tables (every name in another case, with a
// letter dropped, under the names people also use for it, given twice) and from the mistakes the issue lists;
// what each must answer follows the rules of docs/api.md, not the code: our /api/v1 endpoints refuse any name they
// do not list, the compatible .php endpoints only near-misses of theirs (their clients may send names of their own).
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS, type Endpoint } from '../runtime/api/endpoints.js';
import { createAnswerer, datasetOnce } from '../runtime/api/handler.js';
import type { Param } from '../runtime/api/params.js';
import { main as query } from '../runtime/entries/cli/query.js';
import { FileSource } from '../runtime/entries/node/fileSource.js';
import { createListener, start } from '../runtime/entries/node/server.js';
import { fetchGot, listen, stable, type Got } from './helpers/api.js';
import { bundledDataset, removeTempDirs, tempDir } from './helpers/datasets.js';
import { levenshtein } from './helpers/levenshtein.js';
import { Collector, REPO, runTsx } from './helpers/process.js';

/** A valid query of each endpoint, which the cases add to. */
const BASE: Record<string, string> = {
  '/search.php': 'mass1=1000&mass2=1001',
  '/search-peptide.php': 'peptide=PEPTIDE',
  '/search-taxonomy.php': 'mass1=1000&mass2=1001',
  '/api/v1/search': 'mz=650.32&charge=2',
  '/api/v1/peptide': 'sequence=LVNEVTEFAK',
  '/api/v1/taxa': 'name=homo',
  '/db-info.php': '',
  '/api/v1/info': '',
  '/api/v1/match': '',
  '/api/v1/identify': '',
  '/api/v1/fingerprint': '',
};
const COMPATIBLE = new Set(['/search.php', '/search-peptide.php', '/search-taxonomy.php', '/db-info.php']);
const MGF = readFileSync(join(REPO, 'test/fixtures/mgf/depthcharge_TMT10-Trial-8.mgf'));

const namesOf = (p: Param) => [p.name, ...(p.aliases ?? [])];
/** A valid value of a row, from the table: its example, its default or its first choice. */
const exampleValue = (p: Param) => String(p.example ?? p.default ?? p.choices?.[0] ?? '');

interface HttpCase {
  label: string;
  endpoint: Endpoint;
  query: string;
  body?: BodyInit;
  headers?: Record<string, string>;
  status: number;
  /** What the error must say (the parameter it names); for a 200, the answer must equal the base query's. */
  message?: RegExp;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const join2 = (a: string, b: string) => [a, b].filter(Boolean).join('&');

/** The cases the parameter tables make. */
function tableCases(): HttpCase[] {
  const cases: HttpCase[] = [];
  for (const endpoint of ENDPOINTS) {
    const base = BASE[endpoint.path];
    const post = endpoint.method === 'POST' ? { body: MGF } : {};
    const known = endpoint.params.flatMap(namesOf);
    const unknown = (label: string, name: string, suggested: string | undefined) => {
      const refused = !COMPATIBLE.has(endpoint.path) || known.some((k) => levenshtein(name, k) <= 2);
      cases.push({
        label: `${label} ${name}`,
        endpoint,
        query: join2(base, `${encodeURIComponent(name)}=1`),
        ...post,
        status: refused ? 400 : 200,
        ...(refused
          ? {
              message: new RegExp(
                `^unknown parameter ${escapeRegExp(JSON.stringify(name))}${suggested ? `: did you mean ${escapeRegExp(suggested)}\\b` : ''}`,
              ),
            }
          : {}),
      });
    };
    for (const param of endpoint.params) {
      for (const name of namesOf(param)) {
        if (name.toUpperCase() !== name) unknown('in capitals', name.toUpperCase(), param.name);
        if (name.length >= 4) unknown('a letter dropped', name[0] + name.slice(2), param.name);
        if (!base.split('&').some((kv) => namesOf(param).some((n) => kv.startsWith(`${n}=`)))) {
          const v = encodeURIComponent(exampleValue(param));
          cases.push({
            label: `${name} given twice`,
            endpoint,
            query: join2(base, `${name}=${v}&${name}=${v}`),
            ...post,
            status: 400,
            message: new RegExp(`^${name} is given 2 times; give it once`),
          });
        }
      }
      for (const name of param.alsoCalled ?? []) unknown('also called', name, param.name);
    }
    for (const name of ['foo', 'format', 'callback', '_'].filter((n) => !known.includes(n)))
      unknown('unrelated', name, undefined);
  }
  return cases;
}

/** The mistakes the issue lists, and more of the same kinds. */
function issueCases(): HttpCase[] {
  const at = (path: string) => ENDPOINTS.find((e) => e.path === path)!;
  const [search, peptide, match, php, taxa, identify] = [
    at('/api/v1/search'),
    at('/api/v1/peptide'),
    at('/api/v1/match'),
    at('/search.php'),
    at('/api/v1/taxa'),
    at('/api/v1/identify'),
  ];
  const fasta = gunzipSync(readFileSync(join(REPO, 'data/uniprot-sample.fasta.gz'))).subarray(0, 30_000);
  const c = (label: string, endpoint: Endpoint, q: string, status: number, message?: RegExp, extra = {}) => ({
    label,
    endpoint,
    query: q,
    status,
    ...(message ? { message } : {}),
    ...extra,
  });
  return [
    c('ppm', search, 'mz=601.28&charge=2&ppm=5', 400, /"ppm": did you mean tolerance with unit=ppm\?/),
    c('Da', search, 'mz=601.28&charge=2&da=0.02', 400, /"da": did you mean tolerance with unit=Da\?/),
    c('tol', search, 'mz=601.28&charge=2&tol=5', 400, /"tol": did you mean tolerance\?/),
    c('z', search, 'mz=601.28&z=2', 400, /"z": did you mean charge\?/),
    c('pagesize on .php', php, 'mass1=1000&mass2=1001&pagesize=5', 400, /"pagesize": did you mean pageSize\?/),
    c('peptide on /api/v1/peptide', peptide, 'peptide=EWFSETFQK', 200),
    c('sequence on /search.php', php, 'sequence=PEPTIDE', 200),
    c(
      'peptide and sequence',
      peptide,
      'peptide=EWFSETFQK&sequence=EWFSETFQK',
      400,
      /sequence and peptide are the same/,
    ),
    c('charge 2+ encoded', search, 'mz=650.32&charge=2%2B', 200),
    c('charge 2+ as typed in a URL', search, 'mz=650.32&charge=2+', 200),
    c('charge 2-', search, 'mz=650.32&charge=2-', 400, /^charge must be from 1 to 10, got -2/),
    c('charge 2++', search, 'mz=650.32&charge=2%2B%2B', 400, /^charge must be an integer, got "2\+\+"/),
    c('taxon as a name', search, 'mz=650.32&charge=2&taxon=Homo%20sapiens', 400, /taxa\?name=Homo%20sapiens/),
    c('taxon as a name on match', match, 'taxon=Escherichia%20coli', 400, /taxa\?name=Escherichia%20coli/, {
      body: MGF,
    }),
    c('taxa with q', taxa, 'q=homo', 400, /"q": did you mean name\?/),
    c('match: unknown parameter', match, 'ppm=5', 400, /"ppm": did you mean tolerance with unit=ppm\?/, {
      body: MGF,
    }),
    c('match: README', match, '', 400, /it looks like text without a BEGIN IONS line/, {
      body: readFileSync(join(REPO, 'README.md')),
    }),
    c('match: FASTA', match, '', 400, /it looks like a FASTA file/, { body: fasta }),
    c('match: gzipped FASTA', match, '', 400, /it looks like a FASTA file/, {
      body: gzipSync(fasta),
    }),
    c('match: binary', match, '', 400, /it looks like binary data/, { body: new Uint8Array([0, 1, 2, 200, 201]) }),
    c('match: empty', match, '', 400, /it looks like nothing/, { body: '' }),
    c('identify: JSON precursors', identify, '', 400, /identify scores peaks: send an MGF peak list/, {
      body: '{"precursors":[{"mz":650.32,"charge":2}]}',
    }),
    c('identify: FASTA', identify, '', 400, /it looks like a FASTA file/, { body: fasta }),
    c(
      'identify: a Da tolerance in ppm',
      identify,
      'fragmentTolerance=20&fragmentUnit=Da',
      400,
      /fragmentTolerance in Da must be at most 2/,
      {
        body: MGF,
      },
    ),
    c(
      'identify: isotope errors',
      identify,
      'isotopeErrors=0,7',
      400,
      /^isotopeErrors must be whole numbers from -1 to 3/,
      {
        body: MGF,
      },
    ),
    c('identify: fragment ppm', identify, 'fragmentPpm=20', 400, /^unknown parameter "fragmentPpm"/, { body: MGF }),
    c('identify: tol', identify, 'fragmentTol=0.5', 400, /"fragmentTol": did you mean fragmentTolerance\?/, {
      body: MGF,
    }),
    c('match: an mzML file without spectra', match, '', 400, /^the body holds no precursors/, {
      body: '<?xml version="1.0" encoding="utf-8"?>\n<indexedmzML xmlns="http://psi.hupo.org/ms/mzml">\n',
    }),
  ];
}

let dir: string;
let base: string;
let close: () => Promise<void>;

beforeAll(async () => {
  dir = await bundledDataset();
  ({ base, close } = await listen(createListener(dir, createAnswerer(datasetOnce(() => new FileSource(dir))))));
});

afterAll(async () => {
  await close?.();
  removeTempDirs();
});

const ask = (c: Pick<HttpCase, 'endpoint' | 'query' | 'body' | 'headers'>): Promise<Got> =>
  fetchGot(`${base}${c.endpoint.path}${c.query ? `?${c.query}` : ''}`, {
    method: c.endpoint.method,
    ...(c.body !== undefined ? { body: c.body } : {}),
    ...(c.headers ? { headers: c.headers } : {}),
  });

describe('HTTP: every endpoint, GET and POST', () => {
  it('answers each mistake with its status and a message naming the parameter, then answers correctly', async () => {
    const cases = [...tableCases(), ...issueCases()];
    expect(cases.length).toBeGreaterThanOrEqual(150);
    const wrong: string[] = [];
    const expected = new Map<string, unknown>();
    for (const c of cases) {
      const got = await ask(c);
      let problem = '';
      if (got.status !== c.status) problem = `status ${got.status}: ${got.text.slice(0, 200)}`;
      else if (c.status !== 200) {
        if (!(got.body && Object.keys(got.body).join() === 'error' && c.message?.test(got.body.error)))
          problem = `message ${got.text.slice(0, 200)}`;
        if (/\n\s+at |\.ts:\d|node_modules/.test(got.text)) problem = 'a stack trace';
      } else if (c.endpoint.method === 'GET' && BASE[c.endpoint.path] !== undefined && !c.label.startsWith('charge')) {
        // An ignored name changes nothing: the answer is the base query's.
        const key = c.endpoint.path;
        if (!expected.has(key)) expected.set(key, stable((await ask({ endpoint: c.endpoint, query: BASE[key] })).body));
        const sameAs = c.label.includes('peptide on') ? 'sequence=EWFSETFQK' : undefined;
        const reference = sameAs
          ? stable((await ask({ endpoint: c.endpoint, query: sameAs })).body)
          : expected.get(key);
        if (!c.label.includes('sequence on') && JSON.stringify(stable(got.body)) !== JSON.stringify(reference))
          problem = 'an answer other than without the ignored parameter';
      }
      if (problem) wrong.push(`${c.endpoint.method} ${c.endpoint.path}?${c.query} (${c.label}): ${problem}`);
    }
    expect(wrong.slice(0, 10), `${wrong.length} of ${cases.length} cases`).toEqual([]);
    // The server still answers as it should.
    const after = await ask({
      endpoint: ENDPOINTS.find((e) => e.path === '/api/v1/search')!,
      query: 'mz=650.32&charge=2',
    });
    expect(after.status).toBe(200);
    expect(after.body.totalResult).toBeGreaterThan(0);
  });

  it('reads 2+ as charge 2, peptide as sequence and sequence as peptide', async () => {
    const search = ENDPOINTS.find((e) => e.path === '/api/v1/search')!;
    const two = stable((await ask({ endpoint: search, query: 'mz=650.32&charge=2' })).body);
    expect(stable((await ask({ endpoint: search, query: 'mz=650.32&charge=2%2B' })).body)).toEqual(two);
    expect(stable((await ask({ endpoint: search, query: 'mz=650.32&charge=2+' })).body)).toEqual(two);
    const peptide = ENDPOINTS.find((e) => e.path === '/api/v1/peptide')!;
    expect((await ask({ endpoint: peptide, query: 'peptide=LVNEVTEFAK' })).body).toEqual(
      (await ask({ endpoint: peptide, query: 'sequence=LVNEVTEFAK' })).body,
    );
    const php = ENDPOINTS.find((e) => e.path === '/search-peptide.php')!;
    expect(stable((await ask({ endpoint: php, query: 'sequence=PEPTIDE' })).body)).toEqual(
      stable((await ask({ endpoint: php, query: 'peptide=PEPTIDE' })).body),
    );
  });
});

/** Runs the query command line in process. */
async function cli(...argv: string[]) {
  const stdout = new Collector();
  const stderr = new Collector();
  const code = await query(argv, { stdout, stderr });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

describe('the query command line', () => {
  it('answers each mistake with its exit code and one line naming the option, file or folder', async () => {
    const work = tempDir('misuse-cli');
    const flag = (name: string) => `--${name.replace(/[A-Z]+/g, (c) => `-${c.toLowerCase()}`)}`;
    const cases: [string[], number, RegExp][] = [];
    for (const endpoint of ENDPOINTS.filter((e) => e.method === 'GET')) {
      const args = BASE[endpoint.path]
        .split('&')
        .filter(Boolean)
        .flatMap((kv) => [flag(kv.split('=')[0]), decodeURIComponent(kv.split('=')[1])]);
      const run = (extra: string[]) => [endpoint.command, ...args, '--shards', dir, ...extra];
      cases.push([run(['--foo', '1']), 2, /^query: error: unknown option --foo\b/]);
      cases.push([run(['--format', 'xml']), 2, /^query: error: --format must be json or tsv, got "xml"/]);
      cases.push([[...run([]), '--shards', dir], 2, /^query: error: --shards is given 2 times/]);
      for (const param of endpoint.params) {
        for (const name of param.alsoCalled ?? [])
          cases.push([
            run([flag(name), '1']),
            2,
            new RegExp(
              `^query: error: unknown option ${escapeRegExp(flag(name))}: did you mean ${escapeRegExp(flag(param.name))}\\b`,
            ),
          ]);
        if (!args.includes(flag(param.name)))
          cases.push([run([flag(param.name)]), 2, new RegExp(`^query: error: .*${escapeRegExp(flag(param.name))}`)]);
      }
      cases.push([
        [endpoint.command, ...args, '--shards', join(work, 'nowhere')],
        1,
        /--shards \S+nowhere: no such folder/,
      ]);
      cases.push([[endpoint.command, ...args, '--shards', work], 1, /--shards \S+: no manifest\.json in that folder/]);
      cases.push([
        [endpoint.command, ...args, '--shards', join(REPO, 'README.md')],
        1,
        /--shards \S+README\.md: not a folder/,
      ]);
    }
    cases.push([['match', join(REPO, 'README.md'), '--shards', dir], 1, /README\.md is not an MGF or mzML peak list/]);
    cases.push([
      ['match', join(REPO, 'data/uniprot-sample.fasta.gz'), '--shards', dir],
      1,
      /it looks like a FASTA file/,
    ]);
    cases.push([['match', join(work, 'none.mgf'), '--shards', dir], 1, /cannot read \S+none\.mgf: no such file/]);
    cases.push([['match', '--shards', dir], 2, /match takes one peak list, MGF or mzML/]);
    cases.push([
      ['v1', '--mz', '650.32', '--charge', '2', '--ppm', '5'],
      2,
      /did you mean --tolerance with --unit ppm\?/,
    ]);
    cases.push([['v1', '--mz', '650.32', '--charge', '-2', '--shards', dir], 1, /charge must be from 1 to 10, got -2/]);
    cases.push([
      ['search', '--mass1', '1', '--mass2', '2', '--out', join(work, 'no', 'x.json')],
      1,
      /--out \S+: folder \S+ does not exist/,
    ]);
    cases.push([['serach'], 2, /unknown command "serach": did you mean search\?/]);
    expect(cases.length).toBeGreaterThanOrEqual(60);
    const wrong: string[] = [];
    for (const [argv, code, message] of cases) {
      const run = await cli(...argv);
      const out = code === 1 && /^\{"error"/.test(run.stdout) ? JSON.parse(run.stdout).error : run.stderr;
      const lines = run.stderr.split('\n').filter(Boolean);
      if (run.code !== code || !message.test(out) || lines.length > 1 || /\n\s+at /.test(run.stderr))
        wrong.push(`${argv.join(' ')}: exit ${run.code}, ${JSON.stringify((run.stderr || run.stdout).slice(0, 200))}`);
    }
    expect(wrong.slice(0, 10), `${wrong.length} of ${cases.length} cases`).toEqual([]);
  });
});

/**
 * npm start's start() run in this process with `env` on top of this process's (restored after): the stderr line
 * start.ts writes when it rejects (start.ts sets exit code 1 then; the cases run as the real command check that).
 */
async function startInProcess(env: Record<string, string>): Promise<string> {
  const saved = Object.entries(env).map(([name]) => [name, process.env[name]] as const);
  Object.assign(process.env, env);
  try {
    await start();
    return 'started\n';
  } catch (e) {
    return `start: error: ${(e as Error).message}\n`;
  } finally {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

describe('npm start', () => {
  it('a bad PORT, SHARDS_DIR or SHARD_CACHE_BYTES, or a taken port, is one line naming it, exit 1', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, resolve));
    const port = String((taken.address() as { port: number }).port);
    const empty = tempDir('misuse-start');
    const cases: [Record<string, string>, RegExp][] = [
      [{ PORT: 'abc' }, /^start: error: PORT must be a port number from 0 to 65535 \(e\.g\. PORT=8080\), not "abc"$/],
      [{ PORT: '70000' }, /^start: error: PORT must be a port number/],
      [{ PORT: '-1' }, /^start: error: PORT must be a port number/],
      [{ PORT: port }, new RegExp(`^start: error: port ${port} is already in use .*PORT=8889 npm start$`)],
      [{ SHARDS_DIR: join(empty, 'nowhere') }, /^start: error: SHARDS_DIR \S+nowhere: no such folder/],
      [
        { SHARDS_DIR: empty },
        /^start: error: SHARDS_DIR \S+ holds no manifest\.json; build one with npm run build:shards$/,
      ],
      [{ SHARD_CACHE_BYTES: 'lots' }, /^start: error: SHARD_CACHE_BYTES must be a number of bytes .*not "lots"$/],
      [{ SHARD_CACHE_BYTES: '-5' }, /^start: error: SHARD_CACHE_BYTES must be a number of bytes/],
    ];
    // A bad PORT and the taken port (the failure after the page is built) through the real command, exit code and
    // all; the others through start() in this process, the line start.ts prints.
    const command = new Set([0, 3]);
    try {
      const runs = await Promise.all(
        cases.map(([env], i) =>
          command.has(i)
            ? runTsx(['runtime/entries/node/start.ts'], { SHARDS_DIR: dir, PORT: '0', ...env })
            : undefined,
        ),
      );
      for (const [i, [env, message]] of cases.entries()) {
        const run = runs[i] ?? { code: 1, stderr: await startInProcess({ SHARDS_DIR: dir, PORT: '0', ...env }) };
        expect(run.code, JSON.stringify(env)).toBe(1);
        expect(run.stderr.split('\n').filter(Boolean), run.stderr).toHaveLength(1);
        expect(run.stderr.trim()).toMatch(message);
      }
    } finally {
      taken.close();
    }
  });
});

describe('the build commands', () => {
  it('name an unknown option with the one it most likely stands for, and refuse a repeated one, in one line', async () => {
    const cases: [string[], RegExp][] = [
      [
        ['builder/commands/cli.ts', '--input', 'x', '--ouT', 'y'],
        /^build:shards: error: unknown option --ouT: did you mean --out\? \(see --help\)$/,
      ],
      [['builder/commands/cli.ts', '--input', 'x', '--out', 'y', '--thread', '2'], /did you mean --threads\?/],
      [
        ['builder/commands/cli.ts', '--input', 'x', '--out', 'y', '--missed-cleavage', '1'],
        /did you mean --missed-cleavages\?/,
      ],
      [
        ['builder/commands/cli.ts', '--input', 'x', '--out', 'y', '--out', 'z'],
        /^build:shards: error: --out is given 2 times; give it once$/,
      ],
      [
        ['builder/commands/mergeCli.ts', '--out', 'x', '--out', 'y', 'p'],
        /^build:merge: error: --out is given 2 times/,
      ],
      [
        ['builder/commands/mergeCli.ts', '--index-onyl', 'p'],
        /^build:merge: error: unknown option --index-onyl: did you mean --index-only\?/,
      ],
      [
        ['builder/commands/release.ts', '--taxdum', 'x'],
        /^build:release: error: unknown option --taxdum: did you mean --taxdump\?/,
      ],
    ];
    const runs = await Promise.all(cases.map(([args]) => runTsx(args)));
    runs.forEach((run, i) => {
      expect(run.code, cases[i][0].join(' ')).toBe(1);
      expect(run.stderr.split('\n').filter(Boolean), run.stderr).toHaveLength(1);
      expect(run.stderr.trim()).toMatch(cases[i][1]);
    });
  });
});

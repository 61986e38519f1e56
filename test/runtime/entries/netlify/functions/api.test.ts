// The Netlify function (runtime/entries/netlify/functions/api.ts) as netlify.toml wires it, read with a small TOML
// reader for the subset it uses: every endpoint's path is caught by one redirect, a 200 rewrite to the one function
// file under [functions].directory with the path after the function's own, and the function's default export
// answers a `Request` at either path with the same answer as the local handler — shards fetched over HTTP from a
// local server (SHARDS_BASE_URL), or from the site's own /shards/ when the variable is unset; a POSTed peak list
// likewise.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAnswerer, datasetOnce, type Handler } from '../../../../../runtime/api/handler.js';
import { ENDPOINTS } from '../../../../../runtime/api/endpoints.js';
import { createListener } from '../../../../../runtime/entries/node/server.js';
import { FileSource } from '../../../../../runtime/entries/node/fileSource.js';
import {
  call,
  expectEnvelope,
  expectErrorBody,
  expectJsonHeaders,
  folderHandler,
  listen,
  stable,
} from '../../../../helpers/api.js';
import { removeTempDirs, subsetDataset } from '../../../../helpers/datasets.js';
import { REPO } from '../../../../helpers/process.js';

type Toml = { [key: string]: TomlValue };
type TomlValue = string | number | boolean | Toml | Toml[];

/** The line without a trailing comment (a '#' outside quotes). */
function stripComment(line: string): string {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '#') return line.slice(0, i);
  }
  return line;
}

function tomlValue(text: string, where: string): string | number | boolean {
  if (/^"(?:[^"\\]|\\.)*"$/.test(text)) return JSON.parse(text) as string;
  if (/^'[^']*'$/.test(text)) return text.slice(1, -1);
  if (/^[+-]?\d+$/.test(text)) return Number(text);
  if (text === 'true' || text === 'false') return text === 'true';
  throw new Error(`${where}: value ${text} is outside the TOML subset read here`);
}

/** TOML tables, arrays of tables, and `key = string | integer | boolean` lines (all netlify.toml uses). */
function parseToml(text: string): Toml {
  const root: Toml = {};
  let current = root;
  const table = (path: string[]): Toml => {
    let at = root;
    for (const part of path) {
      const next = at[part];
      if (next === undefined) at = at[part] = {};
      else if (Array.isArray(next)) at = next[next.length - 1];
      else if (typeof next === 'object') at = next;
      else throw new Error(`${part} is not a table`);
    }
    return at;
  };
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = stripComment(raw).trim();
    const where = `netlify.toml line ${i + 1}`;
    let m: RegExpExecArray | null;
    if (line === '') return;
    if ((m = /^\[\[\s*([\w.-]+)\s*\]\]$/.exec(line))) {
      const path = m[1].split('.');
      const parent = table(path.slice(0, -1));
      const name = path[path.length - 1];
      const list = (parent[name] ??= []) as Toml[];
      if (!Array.isArray(list)) throw new Error(`${where}: ${m[1]} is not an array of tables`);
      list.push((current = {}));
    } else if ((m = /^\[\s*([\w.-]+)\s*\]$/.exec(line))) {
      current = table(m[1].split('.'));
    } else if ((m = /^([\w-]+|"[^"]+")\s*=\s*(.+)$/.exec(line))) {
      const key = m[1].startsWith('"') ? m[1].slice(1, -1) : m[1];
      if (key in current) throw new Error(`${where}: ${key} given twice`);
      current[key] = tomlValue(m[2].trim(), where);
    } else throw new Error(`${where}: not understood: ${line}`);
  });
  return root;
}

interface Redirect {
  from: string;
  to: string;
  status: number;
}

const config = parseToml(readFileSync(join(REPO, 'netlify.toml'), 'utf8'));
const functionsDir = (config.functions as Toml).directory as string;
const redirects = config.redirects as unknown as Redirect[];
const MATCH_PATH = '/api/v1/match';
/** The paths of the GET endpoints (POST /api/v1/match is tested on its own). */
const GET_PATHS = ENDPOINTS.filter((e) => e.method === 'GET').map((e) => e.path);
/** A small peak list: two records, one without CHARGE. */
const MGF_BODY =
  'BEGIN IONS\nTITLE=one\nPEPMASS=650.3188 1200\nCHARGE=2+\n120.1 10\nEND IONS\nBEGIN IONS\nTITLE=two\nPEPMASS=750.41\nEND IONS\n';
const MATCH_QUERY = '?fixed=Carbamidomethyl@C&variable=Oxidation@M&tolerance=50';
const FUNCTION_PREFIX = '/.netlify/functions/';

/** The redirect that catches `path` (a `from` ending in `/*` catches every path under it), and where it rewrites it. */
function rewrite(path: string): { redirect: Redirect; to: string } | undefined {
  for (const redirect of redirects) {
    const { from, to } = redirect;
    if (from.endsWith('/*') && path.startsWith(from.slice(0, -1)))
      return { redirect, to: to.replace(':splat', path.slice(from.length - 1)) };
    if (path === from) return { redirect, to };
  }
  return undefined;
}

/** Where the function of `path` is served, with the path after it. */
const targetOf = (path: string) => rewrite(path)!.to;

/** The function name of a rewrite target, `/.netlify/functions/<name>[/...]`. */
const functionName = (to: string) => to.slice(FUNCTION_PREFIX.length).split('/')[0];

/** The default export of the function that answers `path`. */
async function functionOf(path: string): Promise<(req: Request) => Promise<Response>> {
  const module = (await import(pathToFileURL(functionFile(functionName(targetOf(path)))!).href)) as {
    default: unknown;
  };
  expect(typeof module.default).toBe('function');
  return module.default as (req: Request) => Promise<Response>;
}

/** The file of a function name: Netlify accepts name.{ts,mts,js,mjs} (or name/index.*) in the functions folder. */
function functionFile(name: string): string | undefined {
  const candidates = ['.ts', '.mts', '.js', '.mjs'].flatMap((ext) => [
    join(REPO, functionsDir, name + ext),
    join(REPO, functionsDir, name, `index${ext}`),
  ]);
  return candidates.find((file) => existsSync(file));
}

/** A query that matches some groups of the dataset on each endpoint. */
const QUERY: Record<string, string> = {
  '/search.php': '?mass1=1000&mass2=1100&pageSize=20&page=2',
  '/search-peptide.php': '?peptide=', // + a peptide of the data, set in beforeAll
  '/search-taxonomy.php': '?mass1=1500&mass2=1510',
  '/api/v1/search': '?mz=650.3188&charge=2&fixed=Carbamidomethyl@C&variable=Oxidation@M',
  '/api/v1/peptide': '?equateIL=true&sequence=', // + a peptide of the data, set in beforeAll
  '/api/v1/taxa': '?name=cellular', // "cellular organisms": on the lineage of any protein but a virus's
  '/db-info.php': '',
  '/api/v1/info': '',
};
/** Endpoints that describe the dataset rather than page through it. */
const DESCRIPTIONS = ['/db-info.php', '/api/v1/info'];
/** Endpoints whose answer is an object of their own, not a page in the envelope. */
const UNENVELOPED = [...DESCRIPTIONS, '/api/v1/peptide', '/api/v1/taxa'];
/** A query each endpoint refuses, and how. */
const BAD: Record<string, [string, number]> = {
  '/db-info.php': [`?x=${'a'.repeat(5000)}`, 414], // no parameters: only an over-long query is refused
  '/api/v1/info': [`?x=${'a'.repeat(5000)}`, 414],
  '/api/v1/peptide': ['?sequence=', 400],
  '/api/v1/taxa': ['?name=', 400],
};

let dir: string;
let local: Handler;
let site: Awaited<ReturnType<typeof listen>>;
const savedBase = process.env.SHARDS_BASE_URL;

beforeAll(async () => {
  dir = await subsetDataset(300, 16_384);
  local = folderHandler(dir);
  const some = await call(local, '/search.php?mass1=1200&mass2=1300');
  const entries = Object.values(some.body.result[3] as Record<string, { seq: string }[]>)[0];
  QUERY['/search-peptide.php'] += entries[0].seq.toLowerCase();
  QUERY['/api/v1/peptide'] += entries[0].seq.toLowerCase();
  // A local "site": serves /shards/ from the dataset folder (and the API, unused here).
  site = await listen(createListener(dir, createAnswerer(datasetOnce(() => new FileSource(dir)))));
});

afterAll(async () => {
  if (savedBase === undefined) delete process.env.SHARDS_BASE_URL;
  else process.env.SHARDS_BASE_URL = savedBase;
  await site.close();
  removeTempDirs();
});

describe('the TOML reader', () => {
  it('reads tables, arrays of tables, sub-tables of the last array element, strings with quotes and #', () => {
    const toml = parseToml(
      [
        '# comment',
        '[build]',
        `  command = "run --input 'data/*.gz' # not a comment" # a comment`,
        "  publish = 'dist'",
        '[build.environment]',
        '  NODE_VERSION = "20"',
        '[[redirects]]',
        '  from = "/a"',
        '  status = 200',
        '[[redirects]]',
        '  from = "/b"',
        '  force = true',
        '[[headers]]',
        '  for = "/x"',
        '  [headers.values]',
        '    Cache-Control = "no-cache"',
      ].join('\n'),
    );
    expect(toml).toEqual({
      build: {
        command: "run --input 'data/*.gz' # not a comment",
        publish: 'dist',
        environment: { NODE_VERSION: '20' },
      },
      redirects: [
        { from: '/a', status: 200 },
        { from: '/b', force: true },
      ],
      headers: [{ for: '/x', values: { 'Cache-Control': 'no-cache' } }],
    });
    expect(() => parseToml('key = [1, 2]')).toThrow(/outside the TOML subset/);
    expect(() => parseToml('what is this')).toThrow(/not understood/);
  });
});

describe('netlify.toml', () => {
  it('publishes the dataset where the functions look for it by default (<publish>/shards = the site /shards/)', () => {
    const build = config.build as Toml;
    expect(build.publish).toBe('dist');
    expect(build.command).toMatch(new RegExp(`--out ${build.publish}/shards(\\s|$)`));
    expect(existsSync(join(REPO, functionsDir))).toBe(true);
  });

  it('catches every endpoint, POST /api/v1/match included, with one redirect each; every redirect catches one', () => {
    expect(ENDPOINTS.map((e) => e.path)).toContain(MATCH_PATH);
    for (const { path } of ENDPOINTS) expect(rewrite(path), path).toBeDefined();
    const used = new Set(ENDPOINTS.map((e) => rewrite(e.path)!.redirect));
    expect(redirects.filter((r) => !used.has(r))).toEqual([]);
  });

  it('rewrites every endpoint to one function, with its path after the function’s own', () => {
    for (const { path } of ENDPOINTS) expect(targetOf(path), path).toBe(`${FUNCTION_PREFIX}api${path}`);
    expect(new Set(redirects.map((r) => functionName(r.to)))).toEqual(new Set(['api']));
  });

  it.each(redirects.map((r) => [r.from, r]))('%s: a 200 rewrite to an existing function file', (_, redirect) => {
    const r = redirect as Redirect;
    expect(r.status).toBe(200);
    expect(r.to.startsWith(FUNCTION_PREFIX)).toBe(true);
    const name = functionName(r.to);
    expect(name).toMatch(/^[\w-]+$/);
    expect(functionFile(name), `${functionsDir}/${name}.*`).toBeDefined();
  });

  it('holds one function file', () => {
    expect(readdirSync(join(REPO, functionsDir))).toEqual(['api.ts']);
  });
});

describe('each redirect target answers a Request (shards from SHARDS_BASE_URL)', () => {
  beforeAll(() => {
    process.env.SHARDS_BASE_URL = `${site.base}/shards/`;
    vi.resetModules();
  });

  it.each(GET_PATHS.map((path) => [path, targetOf(path)]))(
    '%s → %s: same answer as the local handler',
    async (from, to) => {
      const fn = await functionOf(from);
      // Netlify calls the function with the visitor's URL (a rewrite keeps it) — or the function's own path.
      for (const path of [from, to]) {
        const response = await fn(new Request(`https://site.example${path}${QUERY[from as string]}`));
        expect(response.status).toBe(200);
        expectJsonHeaders(response);
        const body = (await response.json()) as Record<string, unknown>;
        const expected = await call(local, `${from}${QUERY[from as string]}`);
        if (UNENVELOPED.includes(from as string)) {
          expect(body).toEqual(expected.body); // no envelope, nothing varies
          expect(JSON.stringify(body)).not.toMatch(/"peptides":\[\]|"taxa":\[\]/); // something was found
          continue;
        }
        expectEnvelope(body);
        expect((expected.body.result as unknown[]).length).toBeGreaterThan(0);
        expect(stable(body)).toEqual(stable(expected.body));
      }
      // Errors and methods follow the contract there too.
      const [badQuery, badStatus] = BAD[from as string] ?? ['?page=0', 400];
      const bad = await fn(new Request(`https://site.example${from}${badQuery}`));
      expect(bad.status).toBe(badStatus);
      const text = await bad.text();
      expect(Object.keys(JSON.parse(text))).toEqual(['error']);
      const post = await fn(new Request(`https://site.example${from}${QUERY[from as string]}`, { method: 'POST' }));
      expect(post.status).toBe(405);
      expect(post.headers.get('allow')).toBe('GET, HEAD');
      const head = await fn(new Request(`https://site.example${from}${QUERY[from as string]}`, { method: 'HEAD' }));
      expect(head.status).toBe(200);
      expect(await head.text()).toBe('');
    },
  );

  it(`${MATCH_PATH} → its function: a POSTed peak list gets the local handler's answer; other methods 405`, async () => {
    const fn = await functionOf(MATCH_PATH);
    for (const path of [MATCH_PATH, targetOf(MATCH_PATH)]) {
      const response = await fn(
        new Request(`https://site.example${path}${MATCH_QUERY}`, { method: 'POST', body: MGF_BODY }),
      );
      expect(response.status).toBe(200);
      expectJsonHeaders(response);
      const body = (await response.json()) as Record<string, unknown>;
      const expected = await call(local, `${MATCH_PATH}${MATCH_QUERY}`, { method: 'POST', body: MGF_BODY });
      expect(expected.body.candidates).toBeGreaterThan(0);
      expect(stable(body)).toEqual(stable(expected.body));
    }
    const get = await fn(new Request(`https://site.example${MATCH_PATH}${MATCH_QUERY}`));
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST, OPTIONS');
    const bad = await fn(
      new Request(`https://site.example${MATCH_PATH}?tolerance=-1`, { method: 'POST', body: MGF_BODY }),
    );
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(/^tolerance /);
  });
});

describe('an unknown path under /api/v1/', () => {
  it('is caught by the function and answered with the API’s 404 JSON', async () => {
    const fn = await functionOf('/api/v1/nope');
    const response = await fn(new Request(`https://site.example${targetOf('/api/v1/nope')}`));
    const text = await response.text();
    expectErrorBody({ status: response.status, headers: response.headers, text, body: JSON.parse(text) }, 404);
  });
});

describe('without SHARDS_BASE_URL the function reads the site own /shards/', () => {
  beforeAll(() => {
    delete process.env.SHARDS_BASE_URL;
    vi.resetModules();
  });

  it.each(GET_PATHS)('%s', async (from) => {
    const fn = await functionOf(from);
    const response = await fn(new Request(`${site.base}${from}${QUERY[from]}`));
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, unknown>;
    expect(stable(body)).toEqual(stable((await call(local, `${from}${QUERY[from]}`)).body));
  });

  it('a site without a dataset: 503 JSON', async () => {
    vi.resetModules();
    const empty = await listen((_, res) => void res.writeHead(404).end());
    try {
      const from = GET_PATHS[0];
      const fn = await functionOf(from);
      const response = await fn(new Request(`${empty.base}${from}${QUERY[from]}`));
      const text = await response.text();
      expectErrorBody({ status: response.status, headers: response.headers, text, body: JSON.parse(text) }, 503);
    } finally {
      await empty.close();
    }
  });
});

// The Netlify functions (runtime/entries/netlify/endpointFunction.ts) as netlify.toml wires them, read with a
// small TOML reader for the subset it uses: each redirect is a 200 rewrite of an API path to a function file
// that exists under [functions].directory, and that function's default export answers a `Request` with the
// same envelope as the local handler — shards fetched over HTTP from a local server (SHARDS_BASE_URL), or from
// the site's own /shards/ when the variable is unset; POST /api/v1/match's function answers a peak list likewise.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAnswerer, datasetOnce, type Handler } from '../../../../runtime/api/handler.js';
import { MATCH_PATH } from '../../../../runtime/api/matchAnswer.js';
import { ENDPOINTS } from '../../../../runtime/core/endpoints.js';
import { createListener } from '../../../../runtime/entries/node/server.js';
import { FileSource } from '../../../../runtime/entries/node/fileSource.js';
import {
  call,
  expectEnvelope,
  expectErrorBody,
  expectJsonHeaders,
  folderHandler,
  listen,
  stable,
} from '../../../helpers/api.js';
import { removeTempDirs, subsetDataset } from '../../../helpers/datasets.js';
import { REPO } from '../../../helpers/process.js';

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
/** The GET endpoints' redirects (POST /api/v1/match is tested on its own). */
const getRedirects = redirects.filter((r) => r.from !== MATCH_PATH);
const matchRedirect = redirects.find((r) => r.from === MATCH_PATH)!;
/** A small peak list: two records, one without CHARGE. */
const MGF_BODY =
  'BEGIN IONS\nTITLE=one\nPEPMASS=650.3188 1200\nCHARGE=2+\n120.1 10\nEND IONS\nBEGIN IONS\nTITLE=two\nPEPMASS=750.41\nEND IONS\n';
const MATCH_QUERY = '?fixed=Carbamidomethyl@C&variable=Oxidation@M&tolerance=50';
const FUNCTION_PREFIX = '/.netlify/functions/';

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

  it('has one redirect for every endpoint and POST /api/v1/match, and nothing else', () => {
    expect(redirects.map((r) => r.from).sort()).toEqual([...ENDPOINTS.map((e) => e.path), MATCH_PATH].sort());
  });

  it.each(redirects.map((r) => [r.from, r]))('%s: a 200 rewrite to an existing function file', (_, redirect) => {
    const r = redirect as Redirect;
    expect(r.status).toBe(200);
    expect(r.to.startsWith(FUNCTION_PREFIX)).toBe(true);
    const name = r.to.slice(FUNCTION_PREFIX.length);
    expect(name).toMatch(/^[\w-]+$/);
    expect(functionFile(name), `${functionsDir}/${name}.*`).toBeDefined();
  });
});

describe('each redirect target answers a Request (shards from SHARDS_BASE_URL)', () => {
  beforeAll(() => {
    process.env.SHARDS_BASE_URL = `${site.base}/shards/`;
    vi.resetModules();
  });

  it.each(getRedirects.map((r) => [r.from, r.to, r]))(
    '%s → %s: same answer as the local handler',
    async (from, _, redirect) => {
      const r = redirect as Redirect;
      const module = (await import(pathToFileURL(functionFile(r.to.slice(FUNCTION_PREFIX.length))!).href)) as {
        default: unknown;
      };
      expect(typeof module.default).toBe('function');
      const fn = module.default as (req: Request) => Promise<Response>;
      // Netlify calls the function with the visitor's URL (a rewrite keeps it) — or the function's own path.
      for (const path of [from as string, r.to]) {
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
    const module = (await import(
      pathToFileURL(functionFile(matchRedirect.to.slice(FUNCTION_PREFIX.length))!).href
    )) as { default: (req: Request) => Promise<Response> };
    for (const path of [MATCH_PATH, matchRedirect.to]) {
      const response = await module.default(
        new Request(`https://site.example${path}${MATCH_QUERY}`, { method: 'POST', body: MGF_BODY }),
      );
      expect(response.status).toBe(200);
      expectJsonHeaders(response);
      const body = (await response.json()) as Record<string, unknown>;
      const expected = await call(local, `${MATCH_PATH}${MATCH_QUERY}`, { method: 'POST', body: MGF_BODY });
      expect(expected.body.candidates).toBeGreaterThan(0);
      expect(stable(body)).toEqual(stable(expected.body));
    }
    const get = await module.default(new Request(`https://site.example${MATCH_PATH}${MATCH_QUERY}`));
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST, OPTIONS');
    const bad = await module.default(
      new Request(`https://site.example${MATCH_PATH}?tolerance=-1`, { method: 'POST', body: MGF_BODY }),
    );
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(/^tolerance /);
  });
});

describe('without SHARDS_BASE_URL the functions read the site own /shards/', () => {
  beforeAll(() => {
    delete process.env.SHARDS_BASE_URL;
    vi.resetModules();
  });

  it.each(getRedirects.map((r) => [r.from, r]))('%s', async (from, redirect) => {
    const r = redirect as Redirect;
    const module = (await import(pathToFileURL(functionFile(r.to.slice(FUNCTION_PREFIX.length))!).href)) as {
      default: (req: Request) => Promise<Response>;
    };
    const response = await module.default(new Request(`${site.base}${from}${QUERY[from as string]}`));
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, unknown>;
    expect(stable(body)).toEqual(stable((await call(local, `${from}${QUERY[from as string]}`)).body));
  });

  it('a site without a dataset: 503 JSON', async () => {
    vi.resetModules();
    const empty = await listen((_, res) => void res.writeHead(404).end());
    try {
      const r = redirects[0];
      const module = (await import(pathToFileURL(functionFile(r.to.slice(FUNCTION_PREFIX.length))!).href)) as {
        default: (req: Request) => Promise<Response>;
      };
      const response = await module.default(new Request(`${empty.base}${r.from}${QUERY[r.from]}`));
      const text = await response.text();
      expectErrorBody({ status: response.status, headers: response.headers, text, body: JSON.parse(text) }, 503);
    } finally {
      await empty.close();
    }
  });
});

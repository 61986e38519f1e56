// Bad input to the Node listener (runtime/entries/node/server.ts) and the Fetch handler it wraps, table-driven; raw
// requests go through the real listener with http.request so that no client normalizes the path. Every answer: the
// expected status, a JSON `error` saying what is wrong, `nosniff`, and no stack trace or file path.
import { connect } from 'node:net';
import { copyFileSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnswerer, datasetOnce, type Handler } from '../../../../runtime/api/handler.js';
import { answerClientErrors, createListener } from '../../../../runtime/entries/node/server.js';
import { FileSource } from '../../../../runtime/entries/node/fileSource.js';
import { folderHandler, listen, rawRequest } from '../../../helpers/api.js';
import { bundledDataset, removeTempDirs, tempDir } from '../../../helpers/datasets.js';
import { REPO } from '../../../helpers/process.js';

interface Case {
  name: string;
  path: string;
  method?: string;
  status: number;
  /** What the `error` text must say (errors), or a check of the parsed body (200). */
  error?: RegExp;
  check?: (body: Record<string, unknown>) => void;
  headers?: Record<string, string | RegExp>;
}

const MASS_ENDPOINTS = ['/search.php', '/search-taxonomy.php'] as const;
const notFinite = (name: string, echo: RegExp) => new RegExp(`${name} is not a finite number \\(${echo.source}\\)`);
const hundredKbOfDigits = '1'.repeat(100 * 1024);

/** Mass endpoints: masses, paging, repetition, length; 400 for a non-integer page (the contract's rule). */
function massCases(endpoint: string): Case[] {
  const q = (query: string) => `${endpoint}?${query}`;
  const ok = 'mass1=1000&mass2=1001';
  return [
    { name: 'no parameters', path: endpoint, status: 400, error: /mass1 is missing/ },
    { name: 'mass2 missing', path: q('mass1=1000'), status: 400, error: /mass2 is missing.*required as doubles/ },
    { name: 'mass1 empty', path: q('mass1=&mass2=1001'), status: 400, error: /mass1 is empty/ },
    { name: 'mass2 whitespace', path: q('mass1=1000&mass2=%20%09%20'), status: 400, error: /mass2 is empty/ },
    { name: 'mass1 abc', path: q('mass1=abc&mass2=1001'), status: 400, error: notFinite('mass1', /"abc"/) },
    {
      name: 'mass1 with a decimal comma',
      path: q('mass1=1,5&mass2=1001'),
      status: 400,
      error: notFinite('mass1', /"1,5"/),
    },
    { name: 'mass1 hex', path: q('mass1=0x10&mass2=1001'), status: 400, error: notFinite('mass1', /"0x10"/) },
    {
      name: 'mass2 1e400 (overflows a double)',
      path: q('mass1=1&mass2=1e400'),
      status: 400,
      error: notFinite('mass2', /"1e400"/),
    },
    { name: 'mass1 NaN', path: q('mass1=NaN&mass2=1001'), status: 400, error: notFinite('mass1', /"NaN"/) },
    { name: 'mass2 Infinity', path: q('mass1=1&mass2=Infinity'), status: 400, error: notFinite('mass2', /"Infinity"/) },
    { name: 'mass1 -1', path: q('mass1=-1&mass2=1001'), status: 400, error: /mass1 must not be negative, got -1/ },
    { name: 'mass2 -1', path: q('mass1=0&mass2=-1'), status: 400, error: /mass2 must not be negative/ },
    {
      name: 'mass1 > mass2',
      path: q('mass1=1001&mass2=1000'),
      status: 400,
      error: /mass1 \(1001\) must not be greater than mass2 \(1000\)/,
    },
    { name: 'mass1 encoded NUL', path: q('mass1=%00&mass2=1001'), status: 400, error: notFinite('mass1', /"\\u0000"/) },
    {
      name: 'mass1 full-width digits',
      path: q('mass1=%EF%BC%91%EF%BC%90&mass2=1001'),
      status: 400,
      error: /mass1 is not a finite number/,
    },
    {
      name: '100 KB of digits',
      path: q(`mass1=${hundredKbOfDigits}&mass2=1`),
      status: 414,
      error: /query string is longer than 4096 characters/,
    },
    {
      name: 'mass1 given twice',
      path: q('mass1=1&mass1=2&mass2=3'),
      status: 400,
      error: /mass1 is given 2 times; give it once/,
    },
    {
      name: 'mass2 given three times',
      path: q('mass1=1&mass2=2&mass2=3&mass2=4'),
      status: 400,
      error: /mass2 is given 3 times/,
    },
    { name: 'page 0', path: q(`${ok}&page=0`), status: 400, error: /page must be at least 1, got 0/ },
    { name: 'page -1', path: q(`${ok}&page=-1`), status: 400, error: /page must be at least 1, got -1/ },
    { name: 'page 1.5', path: q(`${ok}&page=1.5`), status: 400, error: /page must be an integer, got "1.5"/ },
    { name: 'page abc', path: q(`${ok}&page=abc`), status: 400, error: /page must be an integer, got "abc"/ },
    { name: 'page empty', path: q(`${ok}&page=`), status: 400, error: /page must be an integer, got ""/ },
    // Past 32 bits is not an integer to the contract (Java's Integer.parseInt refuses it): the non-integer status.
    {
      name: 'page 9007199254740993',
      path: q(`${ok}&page=9007199254740993`),
      status: 400,
      error: /page must be an integer, got "9007199254740993"/,
    },
    { name: 'page given twice', path: q(`${ok}&page=1&page=2`), status: 400, error: /page is given 2 times/ },
    { name: 'pageSize 0', path: q(`${ok}&pageSize=0`), status: 400, error: /pageSize must be from 1 to 1000, got 0/ },
    {
      name: 'pageSize -1',
      path: q(`${ok}&pageSize=-1`),
      status: 400,
      error: /pageSize must be from 1 to 1000, got -1/,
    },
    {
      name: 'pageSize 1001',
      path: q(`${ok}&pageSize=1001`),
      status: 400,
      error: /pageSize must be from 1 to 1000, got 1001/,
    },
    {
      name: 'pageSize 1.5',
      path: q(`${ok}&pageSize=1.5`),
      status: 400,
      error: /pageSize must be an integer, got "1.5"/,
    },
    { name: 'pageSize abc', path: q(`${ok}&pageSize=abc`), status: 400, error: /pageSize must be an integer/ },
    { name: 'pageSize empty', path: q(`${ok}&pageSize=`), status: 400, error: /pageSize must be an integer, got ""/ },
    {
      name: 'pageSize 9007199254740993',
      path: q(`${ok}&pageSize=9007199254740993`),
      status: 400,
      error: /pageSize must be an integer/,
    },
    {
      name: 'a page far past the end',
      path: q(`${ok}&page=200`),
      status: 200,
      check: (b) => {
        expect(b.result).toEqual([]);
        expect(b.page).toBe(200);
        expect(b.totalResult).toBeGreaterThan(0);
      },
    },
    {
      name: 'the last possible page',
      path: q(`mass1=0&mass2=1e9&page=2147483647&pageSize=1000`),
      status: 200,
      check: (b) => {
        expect(b.result).toEqual([]);
        expect(b.totalResult).toBeGreaterThan(100_000);
      },
    },
    {
      name: 'masses beyond any key',
      path: q('mass1=1e15&mass2=1e300'),
      status: 200,
      check: (b) => expect(b).toMatchObject({ totalResult: 0, result: [] }),
    },
    {
      name: 'masses with spaces, sign and exponent',
      path: q('mass1=%20%2B1.0003e3&mass2=1.00040e3%20'),
      status: 200,
      check: (b) => expect(b.totalResult).toBeGreaterThan(0),
    },
  ];
}

/** Peptide input, on search-peptide.php (non-integer page: 500) and search.php (400). */
function peptideCases(endpoint: string): Case[] {
  const q = (query: string) => `${endpoint}?${query}`;
  const notInteger = endpoint === '/search-peptide.php' ? 500 : 400;
  const letter = (c: RegExp, at: number) =>
    new RegExp(`Peptide character ${c.source} at position ${at} is not an amino-acid letter`);
  const found = (seq: string) => (b: Record<string, unknown>) => {
    expect(b.totalResult).toBeGreaterThan(0);
    expect(JSON.stringify(b.result)).toContain(`"seq":"${seq}"`);
  };
  const cases: Case[] = [
    { name: 'lower case', path: q('peptide=ewecfcgk'), status: 200, check: found('EWECFCGK') },
    { name: 'surrounding white space', path: q('peptide=%20%09EWECFCGK%0A'), status: 200, check: found('EWECFCGK') },
    { name: 'white space inside', path: q('peptide=EWEC%20FCGK'), status: 400, error: letter(/" "/, 5) },
    { name: 'a digit', path: q('peptide=EWE1FCGK'), status: 400, error: letter(/"1"/, 4) },
    { name: 'punctuation', path: q('peptide=EWEC-FCGK'), status: 400, error: letter(/"-"/, 5) },
    {
      name: 'an injection attempt',
      path: q(`peptide=${encodeURIComponent("K'; DROP TABLE peptides;--")}`),
      status: 400,
      error: letter(/"'"/, 2),
    },
    {
      name: 'markup',
      path: q(`peptide=${encodeURIComponent('<script>alert(1)</script>')}`),
      status: 400,
      error: letter(/"<"/, 1),
    },
    {
      name: 'an accented letter',
      path: q(`peptide=${encodeURIComponent('PEPTIDÉ')}`),
      status: 400,
      error: letter(/"É"/, 7),
    },
    // Case is ignored for ASCII letters only: the dotless i and the long s are not I and S.
    {
      name: 'dotless i (upper-cases to I)',
      path: q(`peptide=${encodeURIComponent('peptıde')}`),
      status: 400,
      error: /Peptide character "[ıI]" at position 5 is not an amino-acid letter/,
    },
    {
      name: 'long s (upper-cases to S)',
      path: q(`peptide=${encodeURIComponent('ſamPLER')}`),
      status: 400,
      error: /Peptide character "[ſS]" at position 1 is not an amino-acid letter/,
    },
    { name: 'an emoji', path: q(`peptide=${encodeURIComponent('PEP😀TIDE')}`), status: 400, error: letter(/"😀"/, 4) },
    { name: 'an encoded NUL', path: q('peptide=PEP%00TIDE'), status: 400, error: letter(/"\\u0000"/, 4) },
    { name: 'percent-encoding garbage', path: q('peptide=PEP%E0%A4%A'), status: 400, error: letter(/"\uFFFD"/, 4) },
    { name: 'a lone percent sign', path: q('peptide=PEP%'), status: 400, error: letter(/"%"/, 4) },
    {
      name: 'B',
      path: q('peptide=PEPBIDE'),
      status: 400,
      error: /Peptide character "B" at position 4 has no defined mass/,
    },
    {
      name: 'X',
      path: q('peptide=xPEPTIDE'),
      status: 400,
      error: /Peptide character "X" at position 1 has no defined mass/,
    },
    {
      name: 'Z',
      path: q('peptide=PEPTIDEZ'),
      status: 400,
      error: /Peptide character "Z" at position 8 has no defined mass/,
    },
    {
      name: '10,000 letters',
      path: q(`peptide=${'A'.repeat(4000)}`),
      status: 400,
      error: /Peptide is 4000 residues long; at most 1000 are allowed/,
    },
    {
      name: '10,000 letters (over the query limit)',
      path: q(`peptide=${'A'.repeat(10_000)}`),
      status: 414,
      error: /longer than 4096 characters/,
    },
    {
      name: 'peptide given twice',
      path: q('peptide=PEPTIDE&peptide=EWECFCGK'),
      status: 400,
      error: /peptide is given 2 times/,
    },
    {
      name: 'page 1.5',
      path: q('peptide=PEPTIDE&page=1.5'),
      status: notInteger,
      error: /page must be an integer, got "1.5"/,
    },
    {
      name: 'page abc',
      path: q('peptide=PEPTIDE&page=abc'),
      status: notInteger,
      error: /page must be an integer, got "abc"/,
    },
    {
      name: 'pageSize abc',
      path: q('peptide=PEPTIDE&pageSize=abc'),
      status: notInteger,
      error: /pageSize must be an integer/,
    },
    {
      name: 'page empty',
      path: q('peptide=PEPTIDE&page='),
      status: notInteger,
      error: /page must be an integer, got ""/,
    },
    {
      name: 'page 9007199254740993',
      path: q('peptide=PEPTIDE&page=9007199254740993'),
      status: notInteger,
      error: /page must be an integer/,
    },
    { name: 'page 0', path: q('peptide=PEPTIDE&page=0'), status: 400, error: /page must be at least 1, got 0/ },
    {
      name: 'pageSize -1',
      path: q('peptide=PEPTIDE&pageSize=-1'),
      status: 400,
      error: /pageSize must be from 1 to 1000, got -1/,
    },
    {
      name: 'pageSize 1001',
      path: q('peptide=PEPTIDE&pageSize=1001'),
      status: 400,
      error: /pageSize must be from 1 to 1000, got 1001/,
    },
    {
      name: 'a page far past the end',
      path: q('peptide=EWECFCGK&page=200'),
      status: 200,
      check: (b) => expect(b).toMatchObject({ totalResult: 1, page: 200, result: [] }),
    },
  ];
  if (endpoint === '/search-peptide.php') {
    cases.push(
      { name: 'no peptide', path: endpoint, status: 400, error: /Peptide is required/ },
      { name: 'peptide empty', path: q('peptide='), status: 400, error: /Peptide is required/ },
      { name: 'peptide whitespace', path: q('peptide=%20%20%0A'), status: 400, error: /Peptide is required/ },
      {
        name: 'masses instead of a peptide',
        path: q('mass1=1000&mass2=1001'),
        status: 400,
        error: /Peptide is required/,
      },
    );
  } else {
    cases.push(
      {
        name: 'blank peptide falls back to masses (missing)',
        path: q('peptide=%20'),
        status: 400,
        error: /mass1 is missing/,
      },
      {
        name: 'blank peptide falls back to masses',
        path: q('peptide=&mass1=1000.37&mass2=1000.38'),
        status: 200,
        check: (b) => expect(b.totalResult).toBe(2),
      },
    );
  }
  return cases;
}

const METHODS = ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'PROPFIND'];
const ENDPOINTS = ['/search.php', '/search-peptide.php', '/search-taxonomy.php'];

const handlerCases: Case[] = [
  ...MASS_ENDPOINTS.flatMap((e) => massCases(e).map((c) => ({ ...c, name: `${e} ${c.name}` }))),
  ...['/search-peptide.php', '/search.php'].flatMap((e) =>
    peptideCases(e).map((c) => ({ ...c, name: `${e} ${c.name}` })),
  ),
  ...ENDPOINTS.flatMap((e) =>
    METHODS.map(
      (method): Case => ({
        name: `${e} ${method}`,
        path: `${e}?mass1=1000&mass2=1001&peptide=PEPTIDE`,
        method,
        status: 405,
        error: new RegExp(`method ${method} is not allowed; use GET or HEAD`),
        headers: { Allow: 'GET, HEAD' },
      }),
    ),
  ),
  ...[
    '/',
    '/search',
    '/search.php/',
    '/SEARCH.PHP',
    '/search.php.bak',
    '/search.php%00',
    '/shards/manifest.json',
    '/../package.json',
    '/%2e%2e/package.json',
    '/search-peptide.php/..%2f..%2fpackage.json',
  ].map(
    (path): Case => ({
      name: `unknown path ${path}`,
      path,
      status: 404,
      error: /no such endpoint; use \/search\.php, \/search-peptide\.php, \/search-taxonomy\.php/,
    }),
  ),
];

/** The assertions every answer must pass, given its status, headers and body text. */
function checkAnswer(c: Case, status: number, header: (name: string) => string | null | undefined, text: string): void {
  expect(status, c.name).toBe(c.status);
  expect(header('x-content-type-options'), c.name).toBe('nosniff');
  expect(header('content-type'), c.name).toMatch(/^application\/json/);
  if (c.method === 'HEAD') return expect(text, c.name).toBe('');
  // No stack frame ("at fn (file:line:col)"), no path, no module name, whatever the input echoed.
  for (const leak of [/\/work\//, /node_modules/, /\bat \S+ \(/, /\n\s+at /, /\.[cm]?[jt]s:\d+/, /Error:/])
    expect(text, c.name).not.toMatch(leak);
  expect(text, c.name).not.toContain(REPO);
  const body = JSON.parse(text) as Record<string, unknown>;
  if (c.error) {
    expect(Object.keys(body), c.name).toEqual(['error']);
    expect(body.error, c.name).toMatch(c.error);
    expect(header('cache-control'), c.name).toBe('no-store');
  }
  if (c.check) c.check(body);
  for (const [name, value] of Object.entries(c.headers ?? {})) expect(header(name), c.name).toMatch(value);
}

let dir: string;
let handler: Handler;

beforeAll(async () => {
  dir = await bundledDataset();
  handler = folderHandler(dir);
});

describe('bad input through the Fetch handler', () => {
  it('has at least 60 cases over the three endpoints', () => {
    expect(handlerCases.length).toBeGreaterThanOrEqual(60);
    for (const e of ENDPOINTS)
      expect(handlerCases.filter((c) => c.path.startsWith(e)).length).toBeGreaterThanOrEqual(10);
  });

  it.each(handlerCases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const response = await handler(new Request(`http://localhost${c.path}`, { method: c.method ?? 'GET' }));
    checkAnswer(c, response.status, (n) => response.headers.get(n), await response.text());
  });

  it('HEAD gets the status and headers of GET, without a body', async () => {
    for (const c of handlerCases.filter((c) => !c.method).slice(0, 40)) {
      const response = await handler(new Request(`http://localhost${c.path}`, { method: 'HEAD' }));
      expect(response.status, c.name).toBe(c.status);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(await response.text(), c.name).toBe('');
    }
  });
});

describe('raw requests through the Node listener', () => {
  let server: Awaited<ReturnType<typeof listen>>;
  let served: string;

  beforeAll(async () => {
    // A dataset folder served under /shards/: the bundled manifest, plus a symlink pointing out of it.
    served = tempDir('served');
    copyFileSync(join(dir, 'manifest.json'), join(served, 'manifest.json'));
    symlinkSync(join(REPO, 'package.json'), join(served, 'leak.json'));
    server = await listen(createListener(served, createAnswerer(datasetOnce(() => new FileSource(dir)))));
    answerClientErrors(server.server); // as npm start's server does
  });
  afterAll(async () => {
    await server?.close();
    removeTempDirs();
  });

  /** Sends `path` byte for byte (no normalization), returning status, headers and body. */
  const raw = (path: string, method = 'GET', headers: Record<string, string> = {}) =>
    rawRequest(server.base, path, method, headers);

  const noDatasetFile = /no such dataset file/;
  const traversal: Case[] = [
    '/shards/../package.json',
    '/shards/%2e%2e/package.json',
    '/shards/..%2fpackage.json',
    '/shards/%2e%2e%2fpackage.json',
    '/shards/%252e%252e%252fpackage.json',
    '/shards/..%252fpackage.json',
    '/shards/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd',
    '/shards/....//package.json',
    '/shards/..\\package.json',
    '/shards/%2e%2e%5cpackage.json',
    '/shards/./manifest.json',
    '/shards/.build-1/manifest.json',
    '/shards/',
    '/shards/manifest.json%00.msgpack',
  ].map((path) => ({ name: `traversal ${path}`, path, status: 404, error: noDatasetFile }));
  const listenerCases: Case[] = [
    ...traversal,
    // Plain names that are not dataset files of this folder: 404 JSON, whatever lies next to the folder.
    {
      name: 'a file outside the folder by plain name',
      path: '/shards/package.json',
      status: 404,
      error: noDatasetFile,
    },
    { name: 'a symlink out of the folder', path: '/shards/leak.json', status: 404, error: noDatasetFile },
    { name: 'a missing file', path: '/shards/nothing.msgpack', status: 404, error: noDatasetFile },
    { name: 'HEAD of a missing file', path: '/shards/nothing.msgpack', method: 'HEAD', status: 404 },
    { name: 'API path climbing out', path: '/../../../etc/passwd', status: 404, error: /no such endpoint/ },
    {
      name: 'API path climbing out, encoded',
      path: '/%2e%2e/%2e%2e/package.json',
      status: 404,
      error: /no such endpoint/,
    },
    { name: 'a protocol-relative path', path: '//etc/passwd', status: 404, error: /no such endpoint/ },
    {
      name: 'TRACE',
      path: '/search.php?mass1=1&mass2=2',
      method: 'TRACE',
      status: 405,
      error: /method TRACE is not allowed/,
      headers: { allow: 'GET, HEAD' },
    },
    // Dataset files are served to GET and HEAD only; anything else is not a route of the API.
    {
      name: 'POST to a dataset file',
      path: '/shards/manifest.json',
      method: 'POST',
      status: 404,
      error: /no such endpoint/,
    },
    {
      name: 'bad input through the listener',
      path: '/search.php?mass1=abc&mass2=1',
      status: 400,
      error: /mass1 is not a finite number/,
    },
    {
      name: 'query string over the limit',
      path: `/search.php?mass1=${hundredKbOfDigits.slice(0, 5000)}&mass2=1`,
      status: 414,
      error: /longer than 4096/,
    },
  ];

  it.each(listenerCases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const r = await raw(c.path, c.method);
    checkAnswer(c, r.status, (n) => r.headers[n] as string | undefined, r.text);
    expect(r.text).not.toContain('"name"'); // package.json never leaks
  });

  it('serves the dataset files themselves, and nothing else', async () => {
    const r = await raw('/shards/manifest.json');
    expect(r.status).toBe(200);
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.text).toBe(readFileSync(join(served, 'manifest.json'), 'utf8'));
  });

  it('refuses a malformed Host header with a JSON 400', async () => {
    const r = await raw('/search.php?mass1=1&mass2=2', 'GET', { Host: 'bad host[' });
    checkAnswer(
      { name: 'bad host', path: '', status: 400, error: /malformed request/ },
      r.status,
      (n) => r.headers[n] as string | undefined,
      r.text,
    );
  });

  /** Bytes sent as they are over a socket (what Node's HTTP parser refuses never reaches a listener), and the reply. */
  const socketReply = (bytes: string) =>
    new Promise<string>((resolve, reject) => {
      const { hostname, port } = new URL(server.base);
      const socket = connect(Number(port), hostname, () => socket.end(bytes));
      let reply = '';
      socket.on('data', (c: Buffer) => (reply += c.toString('latin1')));
      socket.on('close', () => resolve(reply));
      socket.on('error', reject);
    });

  it("answers what Node's HTTP parser refuses with the API's JSON error body: a request head over 16 KB is 431", async () => {
    const reply = await socketReply(
      `GET /search.php?mass1=1&mass2=2 HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    const [head, body] = reply.split('\r\n\r\n');
    expect(head.split('\r\n')[0]).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expect(head).toMatch(/\r\nContent-Type: application\/json\r\n/);
    expect(head).toMatch(/\r\nAccess-Control-Allow-Origin: \*\r\n/);
    expect(JSON.parse(body)).toEqual({ error: 'request head is larger than 16 KB' });
  });

  it('answers a request line that is not HTTP with a JSON 400', async () => {
    const reply = await socketReply('NOT HTTP AT ALL\r\n\r\n');
    const [head, body] = reply.split('\r\n\r\n');
    expect(head.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
    expect(JSON.parse(body)).toEqual({ error: 'malformed request' });
  });
});

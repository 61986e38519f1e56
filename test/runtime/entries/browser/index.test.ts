// The core runs unchanged in a browser: runtime/entries/browser bundled by esbuild for the browser platform and loaded
// in headless Chromium answers real queries over HTTP byte for byte as the Node handler does (less memory and
// duration). Chromium missing is a failure, not a skip: .ci/run installs it.
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandler, datasetOnce, type Handler } from '../../../../runtime/api/handler.js';
import { Dataset } from '../../../../runtime/core/storage/dataset.js';
import { ENDPOINTS } from '../../../../runtime/api/endpoints.js';
import { parseRangeQuery } from '../../../../runtime/api/rangeParams.js';
import { runQuery, type QueryResult } from '../../../../runtime/core/range/search.js';
import { buildBrowserCore, type BrowserCore } from '../../../../runtime/entries/browser/bundle.js';
import { FileSource } from '../../../../runtime/entries/node/fileSource.js';
import { sequenceOf } from '../../../../runtime/model/format.js';
import { formatMassKey } from '../../../../runtime/model/massKey.js';
import { listen } from '../../../helpers/api.js';
import { sharedChromium } from '../../../helpers/chromium.js';
import { bundledDataset, removeTempDirs } from '../../../helpers/datasets.js';
import { prng } from '../../../helpers/prng.js';

/** A request as both sides make it: path and query, and optionally a method and headers. */
interface Call {
  path: string;
  method?: string;
  headers?: Record<string, string>;
}

/** An answer as compared: status, every header (lower-case, sorted), body text. */
interface Got {
  status: number;
  headers: [string, string][];
  text: string;
}

/** A query result as data: counts and, per group of the page, its mass and its peptides' sequences. */
interface Summary {
  totalResult: number;
  page: number;
  pageSize: number;
  groups: [string, string[]][];
}

// The page: loads the bundle and exposes the API handler (runApi) and the data API (runData) to the test. The
// summary is written twice (here and in `summarize` below) on purpose: the page knows only the bundle.
const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>browser core</title></head>
<body><script type="module">
import * as core from '/core.js';
const api = core.openApi('/shards/');
window.runApi = (calls) => Promise.all(calls.map(async ({ path, method, headers }) => {
  const response = await api(new Request(new URL(path, location.href), { method: method ?? 'GET', headers: headers ?? {} }));
  return { status: response.status, headers: [...response.headers].sort(), text: await response.text() };
}));
let dataset;
window.runData = async (paths) => {
  dataset ??= await core.Dataset.open(core.browserSource('/shards/'));
  return Promise.all(paths.map(async (path) => {
    const url = new URL(path, location.href);
    const endpoint = core.ENDPOINTS.find((e) => e.path === url.pathname);
    const result = await core.runQuery(dataset, core.parseRangeQuery(endpoint, (name) => url.searchParams.getAll(name)));
    const groups = result.groups.map(({ shard, group }) => {
      const sequences = [];
      for (let p = group === 0 ? 0 : shard.groupEnds[group - 1]; p < shard.groupEnds[group]; p++) sequences.push(core.sequenceOf(shard, p));
      return [core.formatMassKey(shard.massKeys[group]), sequences];
    });
    return { totalResult: result.totalResult, page: result.page, pageSize: result.pageSize, groups };
  }));
};
window.coreReady = true;
</script></body></html>`;

/** Node's side of runData. */
function summarize(result: QueryResult): Summary {
  const groups = result.groups.map(({ shard, group }): [string, string[]] => {
    const sequences: string[] = [];
    for (let p = group === 0 ? 0 : shard.groupEnds[group - 1]; p < shard.groupEnds[group]; p++)
      sequences.push(sequenceOf(shard, p));
    return [formatMassKey(shard.massKeys[group]), sequences];
  });
  return { totalResult: result.totalResult, page: result.page, pageSize: result.pageSize, groups };
}

/** The body with the fields that vary between runs and platforms blanked: everything else compares byte for byte. */
const blanked = (got: Got): Got => ({ ...got, text: got.text.replace(/"(memory|duration)":"[^"]*"/g, '"$1":""') });

let dir: string;
let bundling: Promise<BrowserCore> | undefined;
/** The bundle, built once for the file (esbuild rejects it when anything reaches a Node builtin). */
const browserCore = () => (bundling ??= buildBrowserCore());
let core: BrowserCore;
let nodeHandler: Handler;
let server: Awaited<ReturnType<typeof listen>> | undefined;
let context: BrowserContext | undefined;
let page: Page;
const served: { path: string; status: number }[] = [];
const pageProblems: string[] = [];

/** The test server: the page at /, the bundle at /core.js, the dataset's files under /shards/. */
async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = (req.url ?? '/').split('?')[0];
  const send = (status: number, type: string, body: string | Uint8Array) => {
    served.push({ path, status });
    res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store' }).end(body);
  };
  if (path === '/') return send(200, 'text/html; charset=utf-8', PAGE);
  if (path === '/core.js') return send(200, 'text/javascript; charset=utf-8', core.code);
  const file = /^\/shards\/([A-Za-z0-9_-][A-Za-z0-9._-]*)$/.exec(path)?.[1];
  if (file) {
    try {
      return send(
        200,
        file.endsWith('.json') ? 'application/json' : 'application/octet-stream',
        await readFile(join(dir, file)),
      );
    } catch {
      return send(404, 'text/plain', 'no such file');
    }
  }
  send(404, 'text/plain', 'not found');
}

afterAll(async () => {
  await context?.close();
  await server?.close();
  removeTempDirs();
});

describe('the browser bundle', () => {
  beforeAll(async () => {
    core = await browserCore();
  });

  it('builds for the browser platform from the platform-neutral layers only', () => {
    // The build resolved (beforeAll): esbuild (platform browser, no externals) reached no Node builtin.
    expect(core.code.length).toBeGreaterThan(10_000);
    expect(core.code).not.toMatch(/["'`]node:/);
    expect(core.code).not.toMatch(/\brequire\(/);
    const runtime = core.inputs.filter((f) => f.startsWith('runtime/'));
    expect(
      runtime.filter((f) => !/^runtime\/(model|core|api)\/|^runtime\/entries\/browser\/(index|source)\.ts$/.test(f)),
    ).toEqual([]);
    expect(runtime).toContain('runtime/core/range/search.ts');
    const packages = core.inputs.filter((f) => !f.startsWith('runtime/'));
    expect(packages.every((f) => f.startsWith('node_modules/'))).toBe(true);
    // msgpackr's browser build: not its Node entry, nor the native msgpackr-extract.
    expect(packages.filter((f) => /msgpackr-extract|node-gyp-build|msgpackr\/(node-index|dist\/node)/.test(f))).toEqual(
      [],
    );
    expect(packages).toContain('node_modules/msgpackr/unpack.js');
  });
});

describe('the core in headless Chromium, against the dataset over HTTP', () => {
  beforeAll(async () => {
    core = await browserCore();
    dir = await bundledDataset();
    nodeHandler = createHandler(datasetOnce(() => new FileSource(dir)));
    server = await listen((req, res) => void serve(req, res));
    context = await (await sharedChromium()).newContext();
    page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning')
        pageProblems.push(`console.${message.type()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => pageProblems.push(`page error: ${error.message}`));
    page.on('requestfailed', (request) =>
      pageProblems.push(`request failed: ${request.url()} ${request.failure()?.errorText}`),
    );
    await page.goto(`${server.base}/`);
    await page.waitForFunction('window.coreReady === true', undefined, { timeout: 10_000 });
  });

  /** Paths whose answers are compared: every endpoint, ranges of several widths, peptides, paging and errors. */
  async function calls(): Promise<Call[]> {
    const random = prng(20250601);
    const list: Call[] = [];
    const widths = [0, 0.0001, 0.001, 0.01, 0.1, 0.5, 1, 5, 20, 100, 1000];
    for (let i = 0; i < 22; i++) {
      const low = (430 + random() * 3000).toFixed(4);
      const high = (Number(low) + widths[i % widths.length]).toFixed(4);
      const pageSize = [1, 3, 10, 50, 1000][i % 5];
      list.push({ path: `/search.php?mass1=${low}&mass2=${high}&pageSize=${pageSize}` });
      if (i % 2 === 0)
        list.push({ path: `/search-taxonomy.php?mass1=${low}&mass2=${high}&pageSize=${pageSize}&page=${1 + (i % 3)}` });
    }
    // The whole dataset, paged: first pages, a page deep inside, the last and one past it.
    const total = (
      JSON.parse((await call(nodeHandler, { path: '/search.php?mass1=0&mass2=100000' })).text) as {
        totalResult: number;
      }
    ).totalResult;
    for (const [pageNo, size] of [
      [1, 10],
      [2, 10],
      [1, 1000],
      [137, 1000],
      [Math.ceil(total / 1000), 1000],
      [Math.ceil(total / 1000) + 1, 1000],
      [2147483647, 1],
    ]) {
      list.push({ path: `/search.php?mass1=0&mass2=100000&page=${pageNo}&pageSize=${size}` });
    }
    list.push({ path: `/search-taxonomy.php?mass1=0&mass2=1e5&page=${Math.floor(total / 2000)}` });
    list.push(
      { path: '/search.php?mass1=1000&mass2=1001' },
      { path: '/search.php?mass1=1000.3525&mass2=1000.3525' },
      { path: '/search.php?mass1=1.0003525e3&mass2=1000.4' },
    );
    // Peptides of the data: the first peptide of some answers' groups.
    const peptides = new Set<string>();
    for (const low of [500, 777.7, 1000, 1234.5, 1600, 2100, 2718.28, 3300]) {
      const body = JSON.parse(
        (await call(nodeHandler, { path: `/search.php?mass1=${low}&mass2=${low + 2}&pageSize=2` })).text,
      ) as { result: Record<string, { seq: string }[]>[] };
      for (const group of body.result) peptides.add(Object.values(group)[0][0].seq);
    }
    for (const peptide of [...peptides].slice(0, 12)) {
      list.push({ path: `/search-peptide.php?peptide=${peptide}` });
      list.push({
        path: `/search.php?peptide=${encodeURIComponent(` ${peptide.toLowerCase()} `)}&mass1=1&mass2=2&pageSize=5`,
      });
    }
    list.push(
      { path: '/search-peptide.php?peptide=PEPTIDE&page=2&pageSize=1' },
      { path: '/search-peptide.php?peptide=GGGGGK' },
    );
    // Errors, the other methods, conditional requests, the API description.
    list.push(
      { path: '/search.php' },
      { path: '/search.php?mass1=1000' },
      { path: '/search.php?mass1=abc&mass2=1001' },
      { path: '/search.php?mass1=1001&mass2=1000' },
      { path: '/search.php?mass1=-1&mass2=1000' },
      { path: '/search.php?mass1=1000&mass2=1001&pageSize=0' },
      { path: '/search.php?mass1=1000&mass2=1001&pageSize=1001' },
      { path: '/search.php?mass1=1000&mass2=1001&page=x' },
      { path: '/search.php?mass1=1&mass1=2&mass2=3' },
      { path: '/search.php?peptide=PEPTIDE1' },
      { path: '/search-peptide.php' },
      { path: '/search-peptide.php?peptide=PEPTIDE&page=1.5' },
      { path: '/search-taxonomy.php?mass1=1000' },
      { path: '/search-taxonomy.php?peptide=PEPTIDE' },
      { path: `/search.php?mass1=${'1'.repeat(5000)}&mass2=1` },
      { path: '/nowhere.php?mass1=1&mass2=2' },
      { path: '/search.php?mass1=1000&mass2=1001', method: 'POST' },
      { path: '/search.php?mass1=1000&mass2=1001', method: 'HEAD' },
      { path: '/search-taxonomy.php?mass1=1000&mass2=1001', method: 'HEAD' },
      {
        path: '/search.php?mass1=1000&mass2=1001',
        headers: { 'If-None-Match': `W/"${(await Dataset.open(new FileSource(dir))).manifest.datasetVersion}"` },
      },
      { path: '/openapi.json' },
    );
    return list;
  }

  async function call(handler: Handler, { path, method = 'GET', headers = {} }: Call): Promise<Got> {
    const response = await handler(new Request(new URL(path, 'http://127.0.0.1/'), { method, headers }));
    return {
      status: response.status,
      headers: [...response.headers].sort() as [string, string][],
      text: await response.text(),
    };
  }

  it('answers every endpoint byte for byte as the Node handler does (less memory and duration)', async () => {
    const list = await calls();
    expect(list.length).toBeGreaterThanOrEqual(50);
    const inBrowser = (await page.evaluate(`window.runApi(${JSON.stringify(list)})`)) as Got[];
    const inNode = await Promise.all(list.map((c) => call(nodeHandler, c)));
    expect(inBrowser.length).toBe(list.length);
    const differ = list.flatMap((c, i) =>
      JSON.stringify(blanked(inBrowser[i])) === JSON.stringify(blanked(inNode[i]))
        ? []
        : [{ call: c, browser: blanked(inBrowser[i]), node: blanked(inNode[i]) }],
    );
    expect(differ.slice(0, 3), `${differ.length} of ${list.length} answers differ`).toEqual([]);
    // The comparison covered answers with data, empty ones and errors of every kind asked for.
    const statuses = inNode.map((g) => g.status);
    for (const status of [200, 304, 400, 404, 405, 414, 500]) expect(statuses).toContain(status);
    expect(inNode.filter((g) => g.status === 200 && /"result":\[\{/.test(g.text)).length).toBeGreaterThan(30);
    // The page's memory probe answered (Chromium's performance.memory): "<n> MB" in every envelope.
    const envelopes = inBrowser.filter((g) => g.status === 200 && g.text.startsWith('{"totalResult"'));
    expect(envelopes.length).toBeGreaterThan(50);
    expect(envelopes.filter((g) => !/"memory":"\d+ MB"/.test(g.text))).toEqual([]);
    // The browser read the dataset over HTTP, and every file it asked for was there.
    const shardFiles = served.filter((s) => s.path.startsWith('/shards/'));
    expect(shardFiles.some((s) => s.path === '/shards/manifest.json')).toBe(true);
    expect(shardFiles.filter((s) => s.path.endsWith('.msgpack.gz')).length).toBeGreaterThan(10);
    expect(shardFiles.filter((s) => s.status !== 200)).toEqual([]);
  });

  it('gives pages the data itself: Dataset, parseRangeQuery and runQuery over browserSource', async () => {
    const paths = [
      '/search.php?mass1=1000&mass2=1001&pageSize=20',
      '/search.php?mass1=0&mass2=100000&page=300&pageSize=7',
      '/search-taxonomy.php?mass1=2500.5&mass2=2600&page=3&pageSize=100',
      '/search-peptide.php?peptide=GGGGGK',
    ];
    const inBrowser = (await page.evaluate(`window.runData(${JSON.stringify(paths)})`)) as Summary[];
    const dataset = await Dataset.open(new FileSource(dir));
    const inNode = await Promise.all(
      paths.map(async (path) => {
        const url = new URL(path, 'http://127.0.0.1/');
        const endpoint = ENDPOINTS.find((e) => e.path === url.pathname)!;
        return summarize(
          await runQuery(
            dataset,
            parseRangeQuery(endpoint, (name) => url.searchParams.getAll(name)),
          ),
        );
      }),
    );
    expect(inBrowser).toEqual(inNode);
    expect(inNode.every((s) => s.groups.length > 0)).toBe(true);
  });

  it('logged no console error or warning, threw no page error and lost no request', () => {
    expect(pageProblems).toEqual([]);
  });
});

// The dataset (runtime/core/dataset.ts) under faults injected through the ShardSource (a FileSource wrapped by
// FaultySource; long on purpose: a suite per fault) on the many-small-shards dataset (two-level index): missing,
// corrupt, truncated, slow, hanging and failing shards, index pages and manifests. Each gives a clear 502/503 JSON
// answer or, after a retry, the right answer — never a partial or wrong one — and once the fault clears the same query
// is answered right (no poisoned cache). Also: HttpSource retries with backoff (injected fetch, and a real flaky HTTP
// server), and the LRU staying within its budget.
import { decode, encode } from '@msgpack/msgpack';
import { createHash } from 'node:crypto';
import { cpSync, renameSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Dataset, type DatasetOptions } from '../../../../runtime/core/storage/dataset.js';
import { createHandler, datasetOnce, type Handler } from '../../../../runtime/api/handler.js';
import { FileSource } from '../../../../runtime/entries/node/fileSource.js';
import { nodeCodecs } from '../../../../runtime/entries/node/platform.js';
import { HttpSource, SourceError } from '../../../../runtime/core/storage/source.js';
import { folderHandler, listen } from '../../../helpers/api.js';
import {
  readManifest,
  readStored,
  removeTempDirs,
  smallShardsDataset,
  subsetDataset,
  tempDir,
} from '../../../helpers/datasets.js';
import { FaultySource, type FaultKind } from '../../../helpers/faultySource.js';
import { difference } from '../../../helpers/queryFuzz.js';
import { referenceKeyText } from '../../../helpers/reference.js';
import { loadReference, queryPath, type RefQuery, type ReferenceData } from '../../../helpers/shardReference.js';

let dir: string;
let ref: ReferenceData;

beforeAll(async () => {
  dir = await smallShardsDataset();
  ref = loadReference(dir);
});
afterAll(removeTempDirs);

/** Exactly the mass group g: a query that reads one shard (and the index page listing it). */
const groupQuery = (g: number, endpoint: RefQuery['endpoint'] = '/search.php'): RefQuery => {
  const mass = referenceKeyText(ref.keys[g]);
  return { endpoint, mass1: mass, mass2: mass };
};

/** Index of the shard holding mass group g, and the file of the index page listing it. */
function shardOfGroup(g: number): { shard: number; file: string; page: string } {
  let before = 0;
  for (let s = 0; s < ref.shardEntries.length; s++) {
    before += ref.shardEntries[s].massGroups;
    if (g < before) {
      const page = ref.manifest.shardIndex!.pages.find((p) => s >= p.firstShard && s < p.firstShard + p.shards)!;
      return { shard: s, file: ref.shardEntries[s].file, page: page.file };
    }
  }
  throw new Error(`no group ${g}`);
}

function setup(options: DatasetOptions = {}): { source: FaultySource; handler: Handler } {
  const source = new FaultySource(new FileSource(dir));
  return { source, handler: createHandler(datasetOnce(() => source, options)) };
}

/** A file path or a stack frame: no answer may show one. */
const LEAK = /\/work\/|node_modules|\bat \S+ \(|\.[jt]s:\d+/;

async function ask(
  handler: Handler,
  q: RefQuery,
): Promise<{ status: number; body: Record<string, unknown>; text: string }> {
  const response = await handler(new Request(`http://localhost${queryPath(q)}`));
  const text = await response.text();
  expect(response.headers.get('content-type')).toBe('application/json');
  expect(text).not.toMatch(LEAK);
  expect(text).not.toContain(dir);
  return { status: response.status, body: JSON.parse(text) as Record<string, unknown>, text };
}

async function expectRight(handler: Handler, q: RefQuery): Promise<void> {
  expect(await difference(handler, ref, q)).toBeNull();
}

async function expectError(handler: Handler, q: RefQuery, status: number, error: RegExp): Promise<void> {
  const { status: got, body } = await ask(handler, q);
  expect(got).toBe(status);
  expect(Object.keys(body)).toEqual(['error']); // no partial result next to the error
  expect(body.error).toMatch(error);
}

describe('a faulty shard', () => {
  const cases: [FaultKind, number, RegExp][] = [
    ['missing', 502, /dataset file unavailable: [0-9a-f]{20}\.msgpack\.gz: not found/],
    ['corrupt', 502, /[0-9a-f]{20}\.msgpack\.gz failed its sha256 check/],
    ['truncated', 502, /[0-9a-f]{20}\.msgpack\.gz failed its sha256 check/],
    ['transient', 503, /dataset file unavailable: .*HTTP 503/],
    ['throws', 503, /dataset file unavailable/],
  ];

  it.each(cases)('%s: %i with a clear error, then right once the fault clears', async (kind, status, error) => {
    const { source, handler } = setup();
    const g = 1000 + cases.findIndex((c) => c[0] === kind) * 20_000;
    const { file } = shardOfGroup(g);
    await expectRight(handler, groupQuery(g + 50_000)); // the dataset is open, other shards are fine
    source.inject(file, { kind });
    for (const endpoint of ['/search.php', '/search-taxonomy.php'] as const)
      await expectError(handler, groupQuery(g, endpoint), status, error);
    // Concurrent requests for the faulty shard all fail the same way; none sees a partial answer.
    const answers = await Promise.all(Array.from({ length: 8 }, () => ask(handler, groupQuery(g))));
    for (const a of answers) expect(a.status).toBe(status);
    await expectRight(handler, groupQuery(g + 10_000)); // unaffected shards keep working meanwhile
    source.clear();
    await expectRight(handler, groupQuery(g));
    const calls = source.callsTo(file);
    await expectRight(handler, groupQuery(g, '/search-taxonomy.php'));
    expect(source.callsTo(file)).toBe(calls); // now cached
  });

  it.each(['corrupt', 'truncated'] as const)(
    '%s once (a body damaged in transit): the sha256 retry gives the right answer',
    async (kind) => {
      const { source, handler } = setup();
      const { file } = shardOfGroup(123_456);
      source.inject(file, { kind, times: 1 });
      await expectRight(handler, groupQuery(123_456));
      expect(source.callsTo(file)).toBe(2);
    },
  );

  it('a fault in one shard of a many-shard page fails the whole answer, never a partial page', async () => {
    const { source, handler } = setup();
    const q: RefQuery = {
      endpoint: '/search-taxonomy.php',
      mass1: referenceKeyText(ref.keys[50_000]),
      mass2: referenceKeyText(ref.keys[60_000]),
      pageSize: '1000',
      page: '3',
    };
    const middle = shardOfGroup(50_000 + 2000 + 500).file;
    for (const kind of ['missing', 'corrupt', 'transient'] as const) {
      source.inject(middle, { kind });
      const { status, body } = await ask(handler, q);
      expect([502, 503]).toContain(status);
      expect(body.result).toBeUndefined();
    }
    source.clear();
    await expectRight(handler, q);
  });
});

describe('a source that breaks its contract', () => {
  it('bytes that are not bytes: 500 "internal error", the detail in the log only', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const inner = new FileSource(dir);
      const { file } = shardOfGroup(31_337);
      const source = {
        description: 'broken',
        get: async (f: string) => (f === file ? (null as unknown as Uint8Array) : inner.get(f)),
      };
      const handler = createHandler(datasetOnce(() => source));
      await expectError(handler, groupQuery(31_337), 500, /^internal error$/);
      expect(error).toHaveBeenCalled();
      await expectRight(handler, groupQuery(31_337 + 40_000));
    } finally {
      error.mockRestore();
    }
  });
});

describe('a faulty index page', () => {
  it.each([
    ['missing', 502, /index-[0-9a-f]{20}\.json\.gz: not found/],
    ['corrupt', 502, /index-[0-9a-f]{20}\.json\.gz failed its sha256 check/],
    ['truncated', 502, /failed its sha256 check/],
    ['transient', 503, /dataset file unavailable/],
  ] as const)('%s: %i, then right once the fault clears', async (kind, status, error) => {
    const { source, handler } = setup();
    const { page } = shardOfGroup(150_000);
    await expectRight(handler, groupQuery(10));
    source.inject(page, { kind });
    await expectError(handler, groupQuery(150_000), status, error);
    await expectError(
      handler,
      { endpoint: '/search-peptide.php', peptide: ref.sequences[ref.groupEnds[150_000 - 1]] },
      status,
      error,
    );
    source.clear();
    await expectRight(handler, groupQuery(150_000));
  });
});

describe('a faulty accession table', () => {
  it.each([
    ['missing', 502, /accessions-[0-9a-f]{20}\.msgpack\.gz: not found/],
    ['corrupt', 502, /accessions-[0-9a-f]{20}\.msgpack\.gz failed its sha256 check/],
    ['transient', 503, /dataset file unavailable: .*HTTP 503/],
  ] as const)(
    '%s: %i for every query that needs a shard, then right once the fault clears (a failure is not kept)',
    async (kind, status, error) => {
      const { source, handler } = setup();
      source.inject(ref.manifest.accessions.pages[0].file, { kind });
      for (const g of [5, 70_000]) await expectError(handler, groupQuery(g), status, error);
      source.clear();
      await expectRight(handler, groupQuery(5));
      await expectRight(handler, groupQuery(70_000));
      const calls = source.callsTo(ref.manifest.accessions.pages[0].file);
      await expectRight(handler, groupQuery(90_000));
      expect(source.callsTo(ref.manifest.accessions.pages[0].file)).toBe(calls); // read once, then kept
    },
  );
});

describe('slow and hanging storage', () => {
  it('a slow shard is waited for', async () => {
    const { source, handler } = setup({ fetchTimeoutMs: 2000 });
    source.inject(shardOfGroup(7).file, { kind: 'slow', delayMs: 150 });
    await expectRight(handler, groupQuery(7));
  });

  it('a hanging shard gives 503 within the fetch timeout, and frees its slot', async () => {
    const { source, handler } = setup({ fetchTimeoutMs: 300, concurrency: 2 });
    await expectRight(handler, groupQuery(5));
    // More hanging shards than fetch slots, all at once.
    const groups = Array.from({ length: 6 }, (_, i) => 20_000 + i * 25_000);
    for (const g of groups) source.inject(shardOfGroup(g).file, { kind: 'hang' });
    const started = performance.now();
    const answers = await Promise.all(groups.map((g) => ask(handler, groupQuery(g))));
    const seconds = (performance.now() - started) / 1000;
    for (const a of answers) {
      expect(a.status).toBe(503);
      expect(a.body.error).toMatch(/dataset file unavailable: [0-9a-f]{20}\.msgpack\.gz: no answer within 300 ms/);
    }
    expect(seconds).toBeLessThan(3); // 6 hangs through 2 slots: about 3 × 300 ms
    expect(source.pending).toBe(6);
    source.clear();
    const healthy = performance.now();
    for (const g of groups) await expectRight(handler, groupQuery(g));
    expect(performance.now() - healthy).toBeLessThan(1000);
  });

  it('a hanging manifest gives 503 within the timeout, and the service recovers', async () => {
    const { source, handler } = setup({ fetchTimeoutMs: 250 });
    source.inject('manifest.json', { kind: 'hang' });
    const started = performance.now();
    await expectError(handler, groupQuery(1), 503, /dataset unavailable: manifest\.json: no answer within 250 ms/);
    expect(performance.now() - started).toBeLessThan(2000);
    source.clear();
    await expectRight(handler, groupQuery(1));
  });

  it('has a bounded default timeout', async () => {
    const { DEFAULT_FETCH_TIMEOUT_MS } = await import('../../../../runtime/core/storage/fetchFile.js');
    expect(DEFAULT_FETCH_TIMEOUT_MS).toBeGreaterThanOrEqual(1000);
    expect(DEFAULT_FETCH_TIMEOUT_MS).toBeLessThanOrEqual(30_000);
  });
});

describe('a missing or corrupt manifest at start', () => {
  it.each([
    ['missing', /dataset unavailable: manifest\.json: not found/],
    ['truncated', /dataset unavailable: manifest\.json is not valid JSON/],
    ['garbage', /dataset unavailable: manifest is not a digested-peptides dataset/],
    ['transient', /dataset unavailable: manifest\.json: HTTP 503/],
  ] as const)('%s: 503, and the service recovers once it is back', async (kind, error) => {
    const { source, handler } = setup();
    source.inject('manifest.json', { kind });
    for (let i = 0; i < 3; i++) await expectError(handler, groupQuery(42), 503, error);
    expect(source.callsTo('manifest.json')).toBe(3); // each request tries again: a failure is not kept
    source.clear();
    await expectRight(handler, groupQuery(42));
    await expectRight(handler, groupQuery(43));
    expect(source.callsTo('manifest.json')).toBe(4); // and a success is kept
  });

  it('on disk: manifest.json removed, emptied, then restored', async () => {
    const copy = tempDir('faults-manifest');
    // The manifest, its index pages and the one shard the query reads.
    for (const file of [
      'manifest.json',
      ...ref.manifest.shardIndex!.pages.map((p) => p.file),
      ref.manifest.accessions.pages[0].file,
      shardOfGroup(9).file,
    ])
      cpSync(join(dir, file), join(copy, file));
    const handler = folderHandler(copy);
    const manifest = join(copy, 'manifest.json');
    renameSync(manifest, `${manifest}.away`);
    await expectError(handler, groupQuery(9), 503, /manifest\.json: not found/);
    writeFileSync(manifest, '');
    await expectError(handler, groupQuery(9), 503, /not valid JSON/);
    renameSync(`${manifest}.away`, manifest);
    await expectRight(handler, groupQuery(9));
  });
});

describe('HttpSource retries (injected fetch)', () => {
  const OK = new Uint8Array([1, 2, 3, 4]);
  type Step = 'throw' | '503' | '429' | '404' | 'cut' | 'hang' | 'ok';

  function scripted(steps: Step[]) {
    const times: number[] = [];
    const fetch = (async (_url: string | URL | Request, init?: RequestInit) => {
      times.push(performance.now());
      const step = steps[Math.min(times.length - 1, steps.length - 1)];
      switch (step) {
        case 'throw':
          throw new TypeError('fetch failed');
        case '503':
        case '429':
        case '404':
          return new Response('no', { status: Number(step) });
        case 'cut':
          return new Response(new ReadableStream({ pull: (c) => c.error(new Error('socket hang up')) }));
        case 'hang':
          return new Promise<Response>((_, reject) =>
            init!.signal!.addEventListener('abort', () => reject(init!.signal!.reason)),
          );
        case 'ok':
          return new Response(OK);
      }
    }) as typeof globalThis.fetch;
    return { fetch, times };
  }

  it('fails N times, then succeeds: N + 1 calls, exponential backoff between them', async () => {
    const { fetch, times } = scripted(['throw', '503', 'ok']);
    const source = new HttpSource('http://storage.invalid/shards/', { fetch, retries: 2, backoffMs: 40 });
    expect(await source.get('a.msgpack')).toEqual(OK);
    expect(times.length).toBe(3);
    expect(times[1] - times[0]).toBeGreaterThanOrEqual(35);
    expect(times[2] - times[1]).toBeGreaterThanOrEqual(75);
  });

  it.each([
    [['429', 'ok'] as Step[], 2],
    [['cut', 'cut', 'ok'] as Step[], 3],
    [['hang', 'ok'] as Step[], 2],
  ])('recovers from %j', async (steps, calls) => {
    const { fetch, times } = scripted(steps);
    const source = new HttpSource('http://storage.invalid/', { fetch, retries: 2, backoffMs: 1, timeoutMs: 50 });
    expect(await source.get('b.msgpack')).toEqual(OK);
    expect(times.length).toBe(calls);
  });

  it.each([
    [['503'] as Step[], 3, true, /HTTP 503/],
    [['throw'] as Step[], 3, true, /fetch failed/],
    [['cut'] as Step[], 3, true, /body cut short/],
    [['hang'] as Step[], 3, true, /no answer within 30 ms/],
    [['404'] as Step[], 1, false, /HTTP 404/],
  ])('gives up on %j after %i calls (transient: %s)', async (steps, calls, transient, message) => {
    const { fetch, times } = scripted(steps);
    const source = new HttpSource('http://storage.invalid/', { fetch, retries: 2, backoffMs: 1, timeoutMs: 30 });
    const error = await source.get('c.msgpack').then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SourceError);
    expect((error as SourceError).transient).toBe(transient);
    expect((error as SourceError).message).toMatch(message);
    expect(times.length).toBe(calls);
  });

  it('refuses file names that would leave the base URL', async () => {
    const { fetch, times } = scripted(['ok']);
    const source = new HttpSource('http://storage.invalid/shards/', { fetch });
    for (const name of ['../secret', '/etc/passwd', '.hidden', 'x/b', 'ab/cd/e', '%2e%2e', 'http://evil/x']) {
      await expect(source.get(name)).rejects.toThrow(/invalid dataset file name/);
    }
    expect(times.length).toBe(0);
  });
});

describe('HttpSource over a flaky HTTP server', () => {
  let server: Awaited<ReturnType<typeof listen>>;
  const served = new Map<string, number>();
  let mode: 'flaky' | 'wrong' = 'flaky';

  beforeAll(async () => {
    const { readFile } = await import('node:fs/promises');
    server = await listen(async (req, res: ServerResponse) => {
      const name = (req.url ?? '').replace(/^\/shards\//, '');
      const n = (served.get(name) ?? 0) + 1;
      served.set(name, n);
      if (!/^[A-Za-z0-9._-]+$/.test(name)) return res.writeHead(404).end();
      const bytes = await readFile(join(dir, name)).catch(() => null);
      if (!bytes) return res.writeHead(404).end();
      if (mode === 'wrong' && name.endsWith('.msgpack.gz')) return res.writeHead(200).end(Buffer.from('not the shard'));
      if (n === 1) return res.writeHead(503).end(); // every file fails first...
      if (n === 2 && name !== 'manifest.json') {
        // ...then is cut short: the full length announced, half of it sent, the connection dropped.
        res.writeHead(200, { 'Content-Length': bytes.length });
        res.write(bytes.subarray(0, bytes.length >> 1));
        setTimeout(() => res.destroy(), 5);
        return;
      }
      res.writeHead(200, { 'Content-Length': bytes.length }).end(bytes);
    });
  });
  afterAll(() => server?.close());

  it('answers right through 503s and cut bodies (retries with backoff)', async () => {
    mode = 'flaky';
    const handler = createHandler(
      datasetOnce(() => new HttpSource(`${server.base}/shards/`, { retries: 2, backoffMs: 5 })),
    );
    for (const g of [3, 77_777, 150_001, 228_000]) await expectRight(handler, groupQuery(g));
    await expectRight(handler, {
      endpoint: '/search-taxonomy.php',
      mass1: referenceKeyText(ref.keys[100]),
      mass2: referenceKeyText(ref.keys[2500]),
      pageSize: '1000',
      page: '2',
    });
  });

  it('wrong bytes from storage: 502 (sha256), never the wrong data', async () => {
    mode = 'wrong';
    served.clear();
    const handler = createHandler(
      datasetOnce(() => new HttpSource(`${server.base}/shards/`, { retries: 2, backoffMs: 1 })),
    );
    await expectError(handler, groupQuery(200_000), 502, /failed its sha256 check/);
    mode = 'flaky';
  });
});

describe('memory stays bounded', () => {
  // With Node's codecs, as the server and the CLI read a dataset: the budget is the cache's, whichever codecs fill it.
  it('the decoded-shard cache keeps within its budget over thousands of distinct shards', async () => {
    const budget = 64 * 1024;
    const source = new FaultySource(new FileSource(dir));
    const dataset = await Dataset.open(source, { cacheBytes: budget, ...nodeCodecs });
    const handler = createHandler(async () => dataset);
    const largest = Math.max(...ref.shardEntries.map((s) => s.bytes)) * 2;
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const heap = () => {
      gc();
      gc();
      return process.memoryUsage().heapUsed;
    };
    const step = Math.floor(ref.keys.length / 3000);
    // What ask() and the budget check would fail on, collected per query and asserted once after the run.
    const problems: string[] = [];
    const run = async (from: number, to: number) => {
      for (let i = from; i < to; i++) {
        const g = i * step + (i % 7);
        const path = queryPath(groupQuery(g, i % 2 ? '/search.php' : '/search-taxonomy.php'));
        const response = await handler(new Request(`http://localhost${path}`));
        const text = await response.text();
        if (response.status !== 200) problems.push(`${path}: status ${response.status}`);
        if (response.headers.get('content-type') !== 'application/json') problems.push(`${path}: not JSON`);
        if (LEAK.test(text) || text.includes(dir)) problems.push(`${path}: a path or stack in ${text.slice(0, 200)}`);
        JSON.parse(text);
        if (dataset.cacheStats.bytes > budget + largest)
          problems.push(`${path}: cache at ${dataset.cacheStats.bytes} bytes`);
      }
    };
    await run(0, 300);
    const before = heap();
    await run(300, 3000);
    const after = heap();
    expect(problems).toEqual([]);
    expect(dataset.cacheStats.shards).toBeLessThan(60);
    expect(source.totalCalls).toBeGreaterThan(2500); // distinct shards really were loaded
    // 2,700 distinct shards decode to ~15 MB; the heap must not keep them.
    expect((after - before) / 2 ** 20).toBeLessThan(8);
  });

  it('a shard in use is evicted by byte budget, then reloaded right', async () => {
    const source = new FaultySource(new FileSource(dir));
    const handler = createHandler(datasetOnce(() => source, { cacheBytes: 1 }));
    const { file } = shardOfGroup(5000);
    await expectRight(handler, groupQuery(5000));
    await expectRight(handler, groupQuery(90_000)); // evicts the first
    await expectRight(handler, groupQuery(5000));
    expect(source.callsTo(file)).toBe(2);
  });
});

describe('a shard whose stored bytes match their sha256 but do not decode (a broken build)', () => {
  /**
   * A copy of a small flat-index dataset whose first shard is replaced by `damage(its decompressed bytes)`, re-hashed
   * in the manifest.
   */
  async function damaged(damage: (content: Buffer) => Uint8Array): Promise<{ handler: Handler; mass: string }> {
    const small = await subsetDataset(30, 32 * 1024);
    const copy = tempDir('faults-undecodable');
    cpSync(small, copy, { recursive: true });
    const manifest = readManifest(copy);
    const entry = manifest.shards![0];
    const bytes = damage(readStored(copy, entry.file));
    writeFileSync(join(copy, entry.file), bytes);
    Object.assign(entry, { sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length });
    writeFileSync(join(copy, 'manifest.json'), JSON.stringify(manifest));
    return { handler: folderHandler(copy), mass: referenceKeyText(entry.firstKey) };
  }

  it.each([
    ['not a gzip stream', () => Buffer.from('not gzip at all')],
    ['a gzip stream cut short', (c: Buffer) => gzipSync(c).subarray(0, 200)],
    [
      'a flipped byte inside the deflate data (CRC)',
      (c: Buffer) => {
        const z = gzipSync(c);
        z[z.length >> 1] ^= 0x55;
        return z;
      },
    ],
    ['msgpack that is no shard', () => gzipSync(Buffer.from([0x81, 0xa1, 0x61, 0x01]))],
    [
      'refs past the accession table',
      (c: Buffer) => {
        const raw = decode(c) as Record<string, Uint8Array>;
        return gzipSync(
          encode({ ...raw, refs: Uint8Array.from([...raw.refs.subarray(0, -1), 0xff, 0xff, 0xff, 0x7f]) }),
        );
      },
    ],
  ] as const)('%s: 502 naming the shard, never an answer', async (_, damage) => {
    const { handler, mass } = await damaged(damage);
    const response = await handler(new Request(`http://localhost/search.php?mass1=${mass}&mass2=${mass}`));
    expect(response.status).toBe(502);
    expect(Object.keys(await response.json())).toEqual(['error']);
    const again = await handler(new Request(`http://localhost/search.php?mass1=${mass}&mass2=${mass}`));
    expect((await again.json()).error).toMatch(/^shard [0-9a-f]{20}\.msgpack\.gz is not readable: /);
  });
});

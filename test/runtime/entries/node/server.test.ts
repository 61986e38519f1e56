// The Node listener (runtime/entries/node/server.ts) over real HTTP on loopback: it serves /shards/ and answers
// the endpoints, reading its shards back through HttpSource as the Netlify functions do. A corrupted shard
// gives 502 and the next good query still works; a missing shard (404) gives 502; a storage that fails or does
// not answer gives 503; answers over HTTP equal answers from the local folder.
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShardEntry } from '../../../../runtime/model/format.js';
import { createAnswerer, createHandler, datasetOnce, type Handler } from '../../../../runtime/api/handler.js';
import { createListener } from '../../../../runtime/entries/node/server.js';
import { HttpSource } from '../../../../runtime/core/storage/source.js';
import { prng } from '../../../bench/synthetic.js';
import {
  call,
  CountingSource,
  expectEnvelope,
  expectErrorBody,
  expectJsonHeaders,
  fetchGot,
  folderHandler,
  listen,
  rawRequest,
  stable,
} from '../../../helpers/api.js';
import { readManifest, removeTempDirs, shardEntries, subsetDataset, tempDir } from '../../../helpers/datasets.js';
import { referenceKeyText } from '../../../helpers/reference.js';

/** The Node listener over `dir`, answering from its own /shards/ through HttpSource (self-hosted, like Netlify). */
function selfHostedListener(dir: string, options: ConstructorParameters<typeof HttpSource>[1] = {}) {
  return createListener(dir, createAnswerer(datasetOnce((url) => new HttpSource(new URL('/shards/', url), options))));
}

/** The Node listener over `dir` as plain storage: its /shards/ files (its API has no dataset to read). */
const storageListener = (dir: string) =>
  createListener(dir, createAnswerer(datasetOnce(() => new HttpSource('http://unused.invalid/'))));

type Server = Awaited<ReturnType<typeof listen>>;
const servers: Server[] = [];
async function serve(listener: (req: IncomingMessage, res: ServerResponse) => void): Promise<Server> {
  const server = await listen(listener);
  servers.push(server);
  return server;
}

let dir: string;
let shards: ShardEntry[];
let local: Handler;
let good: Server;
let broken: Server;
const rangeOf = (s: ShardEntry) => `mass1=${referenceKeyText(s.firstKey)}&mass2=${referenceKeyText(s.lastKey)}`;

beforeAll(async () => {
  dir = await subsetDataset(600, 8192);
  shards = shardEntries(dir);
  local = folderHandler(dir);
  good = await serve(selfHostedListener(dir));
  // A copy with shard 1 altered (one byte, same size) and shard 3 removed.
  const copy = join(tempDir('http-broken'), 'shards');
  cpSync(dir, copy, { recursive: true });
  const path = join(copy, shards[1].file);
  const bytes = readFileSync(path);
  bytes[Math.floor(bytes.length / 3)] ^= 0xff;
  writeFileSync(path, bytes);
  rmSync(join(copy, shards[3].file));
  broken = await serve(selfHostedListener(copy, { retries: 1, backoffMs: 1 }));
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  removeTempDirs();
});

describe('the API over HTTP (runtime/entries/node/server.ts listener)', () => {
  it('has enough shards for the failure cases', () => {
    expect(shards.length).toBeGreaterThan(6);
  });

  it('answers like the local folder, for random queries on all three endpoints', async () => {
    const random = prng(31);
    const wrong: unknown[] = [];
    for (let i = 0; i < 40; i++) {
      const s = shards[Math.floor(random() * shards.length)];
      const t = shards[Math.min(shards.length - 1, shards.indexOf(s) + Math.floor(random() * 3))];
      const path = [
        `/search.php?mass1=${referenceKeyText(s.firstKey + 3)}&mass2=${referenceKeyText(t.lastKey)}&page=${1 + (i % 3)}&pageSize=${[5, 50, 1000][i % 3]}`,
        `/search-taxonomy.php?mass1=${referenceKeyText(s.firstKey)}&mass2=${referenceKeyText(t.lastKey - 2)}`,
        `/search-peptide.php?peptide=GGGGGAAPPFFWK`,
      ][i % 3];
      const [http, folder] = await Promise.all([fetchGot(good.base + path), call(local, path)]);
      expect(http.status).toBe(200);
      expectJsonHeaders(http);
      expectEnvelope(http.body);
      if (JSON.stringify(stable(http.body)) !== JSON.stringify(stable(folder.body))) wrong.push(path);
    }
    expect(wrong).toEqual([]);
  });

  it('HEAD: 200 with JSON headers and no body', async () => {
    const got = await fetchGot(`${good.base}/search.php?${rangeOf(shards[2])}`, { method: 'HEAD' });
    expect(got.status).toBe(200);
    expectJsonHeaders(got);
    expect(got.text).toBe('');
  });

  it.each(['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'])('%s: 405 JSON with Allow', async (method) => {
    const got = await fetchGot(`${good.base}/search-taxonomy.php?mass1=1&mass2=2`, { method });
    expectErrorBody(got, 405);
    expect(got.headers.get('allow')).toBe('GET, HEAD');
    expectJsonHeaders(got);
  });

  it.each([
    '/',
    '/nope',
    '/search.php/x',
    '/shards/',
    '/shards/.hidden',
    '/shards/%2e%2e%2fpackage.json',
    '/shards/no-such-file.msgpack',
  ])('unknown path %s: 404 JSON', async (path) => {
    const got = await fetchGot(good.base + path);
    expect(got.status).toBe(404);
    expectJsonHeaders(got);
    expect(Object.keys(got.body)).toEqual(['error']);
  });

  it('a request target that is not a URL: 400 JSON, and the server keeps answering', async () => {
    const raw = await rawRequest(good.base, '//%%%/search.php?mass1=1&mass2=2');
    expect(raw.status).toBe(400);
    expect(raw.headers['content-type']).toBe('application/json');
    expect(Object.keys(JSON.parse(raw.text))).toEqual(['error']);
    expect((await fetchGot(`${good.base}/search.php?${rangeOf(shards[0])}`)).status).toBe(200);
  });

  it('serves the dataset files themselves under /shards/', async () => {
    const manifest = await fetch(`${good.base}/shards/manifest.json`);
    expect(manifest.status).toBe(200);
    expect(((await manifest.json()) as { totals: { shards: number } }).totals.shards).toBe(shards.length);
    const shard = await fetch(`${good.base}/shards/${shards[0].file}`);
    expect(shard.status).toBe(200);
    expect(Buffer.from(await shard.arrayBuffer()).equals(readFileSync(join(dir, shards[0].file)))).toBe(true);
    // As stored: no Content-Encoding (fetch would decompress it and the sha256 check fail), cached forever.
    expect(shard.headers.get('content-encoding')).toBeNull();
    expect(shard.headers.get('content-type')).toBe('application/octet-stream');
    expect(shard.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await fetch(`${good.base}/shards/manifest.json`)).headers.get('cache-control')).toBe('public, max-age=60');
  });
});

describe('HttpSource against a local static server', () => {
  it('reads the manifest once and only the index page, accession table and shards a query needs', async () => {
    const source = new CountingSource(new HttpSource(`${good.base}/shards`));
    const handler = createHandler(datasetOnce(() => source));
    const first = await call(handler, `/search.php?${rangeOf(shards[4])}&pageSize=1000`);
    expect(stable(first.body)).toEqual(
      stable((await call(local, `/search.php?${rangeOf(shards[4])}&pageSize=1000`)).body),
    );
    await call(handler, `/search-taxonomy.php?${rangeOf(shards[4])}`);
    const manifest = readManifest(dir);
    const page = manifest.shardIndex
      ? [manifest.shardIndex.pages.find((p) => p.firstShard <= 4 && 4 < p.firstShard + p.shards)!.file]
      : [];
    expect(source.reads.sort()).toEqual(
      ['manifest.json', ...page, ...manifest.accessions.pages.map((p) => p.file), shards[4].file].sort(),
    );
  });
});

describe('a broken copy of the dataset over HTTP: 502, never a partial or wrong answer', () => {
  it('a corrupted shard (sha256 mismatch): 502 JSON, again on retry; the next good query still works', async () => {
    for (let i = 0; i < 2; i++) {
      const got = await fetchGot(`${broken.base}/search.php?${rangeOf(shards[1])}`);
      expectErrorBody(got, 502, /sha256/);
      expectJsonHeaders(got);
    }
    const path = `/search-taxonomy.php?${rangeOf(shards[2])}`;
    const ok = await fetchGot(broken.base + path);
    expect(ok.status).toBe(200);
    expect(stable(ok.body)).toEqual(stable((await call(local, path)).body));
  });

  it('a range whose count needs the corrupted shard: 502 even for a page elsewhere', async () => {
    const got = await fetchGot(
      `${broken.base}/search.php?mass1=${referenceKeyText(shards[1].lastKey)}&mass2=${referenceKeyText(shards[2].lastKey)}&page=2&pageSize=1`,
    );
    expectErrorBody(got, 502);
  });

  it('a missing shard (HTTP 404): 502; the next good query still works', async () => {
    const got = await fetchGot(`${broken.base}/search-taxonomy.php?${rangeOf(shards[3])}`);
    expectErrorBody(got, 502, /404/);
    const path = `/search-peptide.php?peptide=PEPTIDEK`;
    const ok = await fetchGot(broken.base + path);
    expect(ok.status).toBe(200);
    expect(stable(ok.body)).toEqual(stable((await call(local, path)).body));
    const again = await fetchGot(`${broken.base}/search.php?${rangeOf(shards[5])}&pageSize=1000`);
    expect(again.status).toBe(200);
    expect(stable(again.body)).toEqual(
      stable((await call(local, `/search.php?${rangeOf(shards[5])}&pageSize=1000`)).body),
    );
  });

  it('HEAD on a broken shard: 502 without a body', async () => {
    const got = await fetchGot(`${broken.base}/search.php?${rangeOf(shards[1])}`, { method: 'HEAD' });
    expect(got.status).toBe(502);
    expect(got.text).toBe('');
  });
});

describe('storage that fails or does not answer: 503', () => {
  it('a shard answered with HTTP 500 (after retries): 503; other shards still answer', async () => {
    const inner = storageListener(dir);
    const failing = shards[2].file;
    let attempts = 0;
    const storage = await serve((req, res) => {
      if (req.url === `/shards/${failing}`) {
        attempts++;
        res.writeHead(500).end('no');
        return;
      }
      void inner(req, res);
    });
    const handler = createHandler(
      datasetOnce(() => new HttpSource(`${storage.base}/shards/`, { retries: 2, backoffMs: 1 })),
    );
    const got = await call(handler, `/search.php?${rangeOf(shards[2])}`);
    expectErrorBody(got, 503);
    expect(attempts).toBe(3);
    expect((await call(handler, `/search.php?${rangeOf(shards[0])}`)).status).toBe(200);
  });

  it('a shard that never answers (timeout): 503', async () => {
    const inner = storageListener(dir);
    const stuck = shards[3].file;
    const storage = await serve((req, res) => {
      if (req.url === `/shards/${stuck}`) return; // never answered; closed with the server
      void inner(req, res);
    });
    const handler = createHandler(
      datasetOnce(() => new HttpSource(`${storage.base}/shards/`, { retries: 0, timeoutMs: 300 })),
    );
    const got = await call(handler, `/search-taxonomy.php?${rangeOf(shards[3])}`);
    expectErrorBody(got, 503, /300 ms/);
  });

  it('no server at all: 503, and the service recovers once storage is back', async () => {
    const storage = await serve(storageListener(dir));
    const base = storage.base;
    await storage.close();
    const handler = createHandler(datasetOnce(() => new HttpSource(`${base}/shards/`, { retries: 0 })));
    expectErrorBody(await call(handler, `/search.php?${rangeOf(shards[0])}`), 503);
    // Storage comes back on the same port.
    const port = Number(new URL(base).port);
    const again = storageListener(dir);
    const { createServer } = await import('node:http');
    const server = createServer(again);
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
    try {
      const got = await call(handler, `/search.php?${rangeOf(shards[0])}`);
      expect(got.status).toBe(200);
      expect(stable(got.body)).toEqual(stable((await call(local, `/search.php?${rangeOf(shards[0])}`)).body));
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

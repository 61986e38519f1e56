// Tests runtime/core/source.ts: HttpSource against a loopback node:http server — a 200 body, 404 permanent,
// 500/429 transient with retries and exponential backoff, a body cut short, refused connections, a timeout,
// invalid names refused before any request (checkName), a base URL without a trailing slash.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { checkName, HttpSource, SourceError } from '../../../../runtime/core/storage/source.js';
import { sourceFailure } from '../../../helpers/faultySource.js';

const BODY = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7) % 256));
let server: Server;
let origin: string;
/** Requests the server saw, by path. */
let hits: string[] = [];
/** Failures still to answer on /data/flaky.bin before it succeeds. */
let flakyFailures = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? '';
    hits.push(path);
    if (path === '/data/ok.bin') res.end(BODY);
    else if (path === '/data/e500.bin') res.writeHead(500).end('boom');
    else if (path === '/data/e429.bin') res.writeHead(429).end('slow down');
    else if (path === '/data/e403.bin') res.writeHead(403).end('no');
    else if (path === '/data/flaky.bin') {
      if (flakyFailures-- > 0) res.writeHead(503).end();
      else res.end(BODY);
    } else if (path === '/data/cut.bin') {
      res.writeHead(200, { 'Content-Length': '1000' });
      res.write(BODY.subarray(0, 10), () => res.destroy());
    } else if (path === '/data/hang.bin') {
      // never answers; the connection is closed in afterAll
    } else res.writeHead(404).end('not here');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(() => {
  hits = [];
  vi.restoreAllMocks();
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const failure = sourceFailure;

const quick = (retries = 2, extra = {}) => new HttpSource(`${origin}/data/`, { retries, backoffMs: 1, ...extra });

describe('HttpSource', () => {
  it('returns the body of a 200 as bytes', async () => {
    const bytes = await quick().get('ok.bin');
    expect(bytes).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(bytes).equals(BODY)).toBe(true);
    expect(hits).toEqual(['/data/ok.bin']);
  });

  it('refuses a 404 or 403 as permanent, without retrying', async () => {
    expect(await failure(quick().get('missing.bin'))).toMatchObject({
      transient: false,
      message: 'missing.bin: HTTP 404',
    });
    expect(await failure(quick().get('e403.bin'))).toMatchObject({ transient: false, message: 'e403.bin: HTTP 403' });
    expect(hits).toEqual(['/data/missing.bin', '/data/e403.bin']);
  });

  it('retries 500 and 429 as transient, `retries` more times, then fails', async () => {
    expect(await failure(quick(2).get('e500.bin'))).toMatchObject({ transient: true, message: 'e500.bin: HTTP 500' });
    expect(hits).toEqual(Array(3).fill('/data/e500.bin'));
    hits = [];
    expect(await failure(quick(4).get('e429.bin'))).toMatchObject({ transient: true, message: 'e429.bin: HTTP 429' });
    expect(hits).toEqual(Array(5).fill('/data/e429.bin'));
    hits = [];
    await failure(quick(0).get('e500.bin'));
    expect(hits).toHaveLength(1);
  });

  it('succeeds when a retry does', async () => {
    flakyFailures = 2;
    const bytes = await quick(2).get('flaky.bin');
    expect(Buffer.from(bytes).equals(BODY)).toBe(true);
    expect(hits).toEqual(Array(3).fill('/data/flaky.bin'));
  });

  it('waits backoffMs, then twice that, between attempts', async () => {
    const timeout = vi.spyOn(globalThis, 'setTimeout');
    await failure(new HttpSource(`${origin}/data/`, { retries: 3, backoffMs: 13 }).get('e500.bin'));
    const waits = timeout.mock.calls
      .map((call) => call[1])
      .filter((ms) => ms === 13 || ms === 26 || ms === 52 || ms === 104);
    expect(waits).toEqual([13, 26, 52]);
    expect(hits).toHaveLength(4);
  });

  it('refuses a body cut short as transient', async () => {
    expect(await failure(quick(0).get('cut.bin'))).toMatchObject({
      transient: true,
      message: 'cut.bin: body cut short',
    });
  });

  it('refuses an unreachable server as transient', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const error = await failure(new HttpSource(`http://127.0.0.1:${port}/`, { retries: 1, backoffMs: 1 }).get('a.bin'));
    expect(error).toMatchObject({ transient: true, message: 'a.bin: fetch failed' });
  });

  it('abandons an attempt after timeoutMs, as transient', async () => {
    const started = performance.now();
    const error = await failure(quick(1, { timeoutMs: 100 }).get('hang.bin'));
    expect(error).toMatchObject({ transient: true, message: 'hang.bin: no answer within 100 ms' });
    expect(hits).toEqual(['/data/hang.bin', '/data/hang.bin']);
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('refuses invalid names before any request', async () => {
    for (const name of [
      '',
      '.',
      '..',
      '../x.bin',
      'x/b.bin',
      'ab/cd/e.bin',
      '%2e%2e',
      'a b',
      '.hidden',
      'x?y',
      'a\\b',
      'http:',
      '\u00e9.bin',
    ]) {
      expect(await failure(quick().get(name)), name).toMatchObject({
        transient: false,
        message: `invalid dataset file name "${name}"`,
      });
    }
    expect(hits).toEqual([]);
  });

  it('treats a base URL without a trailing slash as a folder', async () => {
    const source = new HttpSource(`${origin}/data`, { retries: 0 });
    expect(source.description).toBe(`${origin}/data/`);
    expect(Buffer.from(await source.get('ok.bin')).equals(BODY)).toBe(true);
    expect(hits).toEqual(['/data/ok.bin']);
    expect(new HttpSource(`${origin}/data/`).description).toBe(`${origin}/data/`);
  });

  it('uses the fetch it is given', async () => {
    const seen: string[] = [];
    const fake = (async (url: URL) => (seen.push(String(url)), new Response('hi'))) as unknown as typeof fetch;
    const source = new HttpSource('https://cdn.example/shards', { fetch: fake });
    expect(new TextDecoder().decode(await source.get('m.json'))).toBe('hi');
    expect(seen).toEqual(['https://cdn.example/shards/m.json']);
  });
});

describe('checkName', () => {
  it('accepts plain names of letters, digits, dot, dash and underscore, not starting with a dot', () => {
    for (const name of [
      'manifest.json',
      'index-0123abcd.json',
      '0123456789abcdef0123.msgpack',
      'A_b-c.d',
      '3/3f.msgpack.gz',
      '3f2a/3f2a0.json.gz',
    ])
      expect(() => checkName(name)).not.toThrow();
    // One folder of 1–4 lower-case hex digits only (placedFile): not any folder, not two, not upper case, not a
    // dot-folder.
    for (const name of [
      '.env',
      '..',
      'x/b',
      'ab/cd/e',
      'AB/e',
      '3f2a0/e',
      '../e',
      './e',
      'ab/.e',
      'ab/',
      '/ab',
      'a\\b',
      'a:b',
      'a%b',
      '',
    ]) {
      expect(() => checkName(name), name).toThrow(`invalid dataset file name "${name}"`);
      try {
        checkName(name);
      } catch (e) {
        expect(e).toBeInstanceOf(SourceError);
        expect((e as SourceError).transient).toBe(false);
      }
    }
  });
});

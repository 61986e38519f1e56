// Tests runtime/api/answer.ts: jsonAnswer, jsonTextAnswer, errorAnswer (no-store), methodNotAllowed (GET and HEAD
// pass; others 405 with Allow and the exact message, long method names cut to 20 characters), toResponse and
// COMMON_HEADERS on every answer; versionHeaders: a dataset version's success and 304 headers, made once per version;
// statusOf and errorOf: each error as its status, the one place errors become statuses.
import { describe, expect, it, vi } from 'vitest';
import { DatasetError, InvalidQuery } from '../../../runtime/core/errors.js';
import { QueryError } from '../../../runtime/api/params.js';
import {
  COMMON_HEADERS,
  errorAnswer,
  errorOf,
  statusOf,
  jsonAnswer,
  jsonTextAnswer,
  methodNotAllowed,
  toResponse,
  versionHeaders,
} from '../../../runtime/api/answer.js';

const COMMON = {
  'Content-Type': 'application/json',
  'Access-Control-Allow-Origin': '*',
  'X-Content-Type-Options': 'nosniff',
};

describe('COMMON_HEADERS', () => {
  it('is JSON, open to any origin, no sniffing', () => {
    expect(COMMON_HEADERS).toEqual(COMMON);
  });
});

describe('versionHeaders', () => {
  it("gives a version's weak ETag, Cache-Control and X-Dataset-Version, after the common headers on a success and after CORS on a 304", () => {
    const h = versionHeaders('0123456789abcdef');
    const cache = {
      ETag: 'W/"0123456789abcdef"',
      'Cache-Control': 'public, max-age=3600',
      'X-Dataset-Version': '0123456789abcdef',
    };
    expect(h.version).toBe('"0123456789abcdef"');
    expect(Object.entries(h.success)).toEqual(Object.entries({ ...COMMON, ...cache }));
    expect(Object.entries(h.notModified)).toEqual(Object.entries({ 'Access-Control-Allow-Origin': '*', ...cache }));
  });

  it('makes them once for the version answered last, new ones for another version; answers cannot change them', () => {
    const a = versionHeaders('aaaaaaaaaaaaaaaa');
    expect(versionHeaders('aaaaaaaaaaaaaaaa')).toBe(a);
    const b = versionHeaders('bbbbbbbbbbbbbbbb');
    expect(b).not.toBe(a);
    expect(b.success.ETag).toBe('W/"bbbbbbbbbbbbbbbb"');
    expect(versionHeaders('aaaaaaaaaaaaaaaa').success).toEqual(a.success);
    expect(Object.isFrozen(b.success) && Object.isFrozen(b.notModified)).toBe(true);
  });
});

describe('jsonAnswer and jsonTextAnswer', () => {
  it('carry the status, the JSON text and the common headers, extra headers winning', () => {
    expect(jsonAnswer(200, { a: [1, 'é'] })).toEqual({ status: 200, headers: COMMON, body: '{"a":[1,"é"]}' });
    expect(jsonAnswer(201, null, { ETag: '"v1"', 'Content-Type': 'application/problem+json' })).toEqual({
      status: 201,
      headers: { ...COMMON, ETag: '"v1"', 'Content-Type': 'application/problem+json' },
      body: 'null',
    });
    const bytes = new TextEncoder().encode('{"x":1}') as Uint8Array<ArrayBuffer>;
    expect(jsonTextAnswer(200, bytes)).toEqual({ status: 200, headers: COMMON, body: bytes });
  });

  it('have no body for HEAD, keeping status and headers', () => {
    expect(jsonAnswer(200, { a: 1 }, { ETag: '"e"' }, true)).toEqual({
      status: 200,
      headers: { ...COMMON, ETag: '"e"' },
      body: null,
    });
    expect(jsonTextAnswer(200, '{}', {}, true).body).toBeNull();
  });
});

describe('errorAnswer', () => {
  it('is {"error": message}, never stored by caches', () => {
    expect(errorAnswer(400, 'page must be at least 1, got 0')).toEqual({
      status: 400,
      headers: { ...COMMON, 'Cache-Control': 'no-store' },
      body: '{"error":"page must be at least 1, got 0"}',
    });
    expect(errorAnswer(503, 'x "quoted"\n', { 'Retry-After': '5' }, true)).toEqual({
      status: 503,
      headers: { ...COMMON, 'Cache-Control': 'no-store', 'Retry-After': '5' },
      body: null,
    });
    expect(JSON.parse(errorAnswer(500, 'x "quoted"\n').body as string)).toEqual({ error: 'x "quoted"\n' });
  });
});

describe('statusOf and errorOf', () => {
  it('answer a refused parameter with its own status, a refused query with 400, a dataset unavailable/corrupt with 503/502', () => {
    const cases: [unknown, number][] = [
      [new QueryError(414, 'long'), 414],
      [new QueryError(500, 'page must be an integer, got "x"'), 500],
      [new InvalidQuery('taxon 1 is not in the dataset'), 400],
      [new DatasetError('dataset unavailable: gone', 'unavailable'), 503],
      [new DatasetError('x.gz failed its sha256 check', 'corrupt'), 502],
    ];
    for (const [error, status] of cases) {
      expect(statusOf(error)).toBe(status);
      const answer = errorOf(error);
      expect([answer.status, JSON.parse(answer.body as string)]).toEqual([
        status,
        { error: (error as { message: string }).message },
      ]);
    }
  });

  it('answer anything else with 500 "internal error", the detail logged only', () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      expect(statusOf(new Error('/secret/path'))).toBeUndefined();
      const answer = errorOf(new Error('/secret/path'), true);
      expect([answer.status, answer.body, answer.headers['Cache-Control']]).toEqual([500, null, 'no-store']);
      expect(JSON.parse(errorOf('boom').body as string)).toEqual({ error: 'internal error' });
      expect(log).toHaveBeenCalled();
    } finally {
      log.mockRestore();
    }
  });
});

describe('methodNotAllowed', () => {
  it('lets GET and HEAD through', () => {
    expect(methodNotAllowed('GET')).toBeUndefined();
    expect(methodNotAllowed('HEAD')).toBeUndefined();
  });

  it('answers 405 with Allow and the exact message for any other method', () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'TRACE', 'get']) {
      expect(methodNotAllowed(method)).toEqual({
        status: 405,
        headers: { ...COMMON, 'Cache-Control': 'no-store', Allow: 'GET, HEAD' },
        body: JSON.stringify({ error: `method ${method} is not allowed; use GET or HEAD` }),
      });
    }
  });

  it('cuts long method names to 20 characters', () => {
    const long = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
    expect(JSON.parse(methodNotAllowed(long)!.body as string)).toEqual({
      error: 'method ABCDEFGHIJKLMNOPQRST is not allowed; use GET or HEAD',
    });
    expect(JSON.parse(methodNotAllowed('X'.repeat(20))!.body as string).error).toBe(
      `method ${'X'.repeat(20)} is not allowed; use GET or HEAD`,
    );
  });
});

describe('toResponse', () => {
  it('makes a Fetch Response with the status, headers and body', async () => {
    const response = toResponse(errorAnswer(404, 'no such endpoint', { 'X-Extra': '1' }));
    expect(response.status).toBe(404);
    expect(Object.fromEntries(response.headers)).toEqual({
      'content-type': 'application/json',
      'access-control-allow-origin': '*',
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store',
      'x-extra': '1',
    });
    expect(await response.json()).toEqual({ error: 'no such endpoint' });
  });

  it('sends byte bodies as they are and HEAD answers empty', async () => {
    const bytes = new TextEncoder().encode('{"totalResult":0}') as Uint8Array<ArrayBuffer>;
    expect(await toResponse(jsonTextAnswer(200, bytes)).text()).toBe('{"totalResult":0}');
    const head = toResponse(jsonAnswer(200, { a: 1 }, {}, true));
    expect(head.body).toBeNull();
    expect(await head.text()).toBe('');
    expect(toResponse({ status: 304, headers: { ETag: '"v"' }, body: null }).status).toBe(304);
  });
});

// Helpers for the API tests: call the Fetch handler (or fetch a real server), the handler over a folder,
// a ShardSource that counts what it reads, a listener on loopback and raw HTTP requests to it, and the checks
// of an answer's envelope, headers and error body.
import { createServer, request, type IncomingHttpHeaders, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import { createHandler, datasetOnce, type Handler } from '../../runtime/api/handler.js';
import type { DatasetOptions } from '../../runtime/core/storage/dataset.js';
import { FileSource } from '../../runtime/entries/node/fileSource.js';
import { CountingSource } from './countingSource.js';

export { CountingSource };

export const ORIGIN = 'http://api.test';

export interface Got {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON body; undefined when the body is empty. */
  body: any;
}

/** Calls a Fetch handler with `path` (path and query) and reads the answer. */
export async function call(handler: Handler, path: string, init: RequestInit = {}): Promise<Got> {
  const response = await handler(new Request(new URL(path, ORIGIN), init));
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: text === '' ? undefined : JSON.parse(text) };
}

/** Fetches an absolute URL (a real HTTP server) and reads the answer. */
export async function fetchGot(url: string, init: RequestInit = {}): Promise<Got> {
  const response = await fetch(url, init);
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: text === '' ? undefined : JSON.parse(text) };
}

/** The API over a local dataset folder (`options`: the dataset's, e.g. its decoded-shard cache budget). */
export function folderHandler(dir: string, options: DatasetOptions = {}): Handler {
  return createHandler(datasetOnce(() => new FileSource(dir), options));
}

/** Answers `path` over a fresh dataset in `dir` (empty cache), through a CountingSource: the answer and what was read. */
export async function countedCall(dir: string, path: string): Promise<{ got: Got; source: CountingSource }> {
  const source = new CountingSource(new FileSource(dir));
  const got = await call(createHandler(datasetOnce(() => source)), path);
  return { got, source };
}

/** Serves `listener` on an ephemeral loopback port. */
export async function listen(
  listener: RequestListener,
): Promise<{ server: Server; base: string; close: () => Promise<void> }> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    base: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Sends `path` to a server byte for byte, with http.request (no client normalizes the path); returns the
 * status, headers and body text.
 */
export function rawRequest(
  base: string,
  path: string,
  method = 'GET',
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: IncomingHttpHeaders; text: string }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode!, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

export const ENVELOPE_KEYS = ['totalResult', 'memory', 'duration', 'page', 'pageSize', 'result'];
export const MEMORY = /^\d+ MB$/;
export const DURATION = /^\d{2}:\d{2}:\d{2}\.\d{3}$/;

/** Checks a success envelope's fields and types. */
export function expectEnvelope(body: unknown): void {
  const b = body as Record<string, unknown>;
  expect(Object.keys(b)).toEqual(ENVELOPE_KEYS);
  expect(Number.isInteger(b.totalResult) && (b.totalResult as number) >= 0).toBe(true);
  expect(b.memory).toMatch(MEMORY);
  expect(b.duration).toMatch(DURATION);
  expect(Number.isInteger(b.page)).toBe(true);
  expect(Number.isInteger(b.pageSize)).toBe(true);
  expect(Array.isArray(b.result)).toBe(true);
}

/** The envelope less the fields that vary between runs (memory, duration). */
export function stable(body: Record<string, unknown>): Record<string, unknown> {
  const { memory: _m, duration: _d, ...rest } = body;
  return rest;
}

/** An answer's body text with the fields that vary between runs (memory, duration) blanked. */
export const stableText = (text: string) =>
  text.replace(/"memory":"[^"]*","duration":"[^"]*"/, '"memory":"-","duration":"-"');

/** The headers of every API answer (a Got or a Response): JSON, readable from any origin. */
export function expectJsonHeaders(got: { headers: Headers }): void {
  expect(got.headers.get('content-type')).toBe('application/json');
  expect(got.headers.get('access-control-allow-origin')).toBe('*');
}

/** Checks an error answer: JSON {"error": string} only, no stack trace, no file paths. */
export function expectErrorBody(got: Got, status: number, message?: RegExp): void {
  expect(got.status, got.text).toBe(status);
  expect(Object.keys(got.body)).toEqual(['error']);
  expect(typeof got.body.error).toBe('string');
  expect(got.body.error.length).toBeGreaterThan(0);
  expect(got.text).not.toMatch(/\n\s+at |\.ts:\d|\.js:\d|\/work\/|node_modules|Error: /);
  if (message) expect(got.body.error).toMatch(message);
}

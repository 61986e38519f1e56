// Helpers for the runtime tests: call the API handler, wrap a ShardSource to count what it reads, serve a
// listener on loopback, and check the answer envelope.
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import { createHandler, datasetOnce, type Handler } from '../../runtime/api/handler.js';
import { FileSource } from '../../runtime/entries/node/fileSource.js';
import { type ShardSource } from '../../runtime/core/source.js';

export const ORIGIN = 'http://api.test';

export interface Got {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON body; undefined when the body is empty. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
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

/** The API over a local dataset folder. */
export function folderHandler(dir: string): Handler {
  return createHandler(datasetOnce(() => new FileSource(dir)));
}

/** A ShardSource that records every file read through it. */
export class CountingSource implements ShardSource {
  readonly reads: string[] = [];
  readonly description: string;

  constructor(private inner: ShardSource) {
    this.description = `counting ${inner.description}`;
  }

  get(file: string): Promise<Uint8Array> {
    this.reads.push(file);
    return this.inner.get(file);
  }

  get shardReads(): string[] {
    return this.reads.filter((f) => f.endsWith('.msgpack'));
  }

  get indexReads(): string[] {
    return this.reads.filter((f) => f.startsWith('index-'));
  }
}

/** Serves `listener` on an ephemeral loopback port. */
export async function listen(listener: RequestListener): Promise<{ server: Server; base: string; close: () => Promise<void> }> {
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

/** Checks an error answer: JSON {"error": string} only, no stack trace, no file paths. */
export function expectErrorBody(got: Got, status: number, message?: RegExp): void {
  expect(got.status, got.text).toBe(status);
  expect(Object.keys(got.body)).toEqual(['error']);
  expect(typeof got.body.error).toBe('string');
  expect(got.body.error.length).toBeGreaterThan(0);
  expect(got.text).not.toMatch(/\n\s+at |\.ts:\d|\.js:\d|\/work\/|node_modules|Error: /);
  if (message) expect(got.body.error).toMatch(message);
}

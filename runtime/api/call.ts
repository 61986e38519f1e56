// What the API needs of a request (a Call, made from a Fetch Request by callOf or from Node's request by the
// server), how it opens its dataset, and what a platform tells it: the types every answerer shares.
import type { Dataset } from '../core/storage/dataset.js';
import type { MemoryProbe } from './envelope.js';

/** What the API needs of a request. */
export interface Call {
  method: string;
  url: URL;
  ifNoneMatch?: string | null;
  /** The body's media type and declared length, and its bytes as they arrive (POST /api/v1/match reads them). */
  contentType?: string | null;
  contentLength?: string | null;
  /** Content-Encoding: a gzip body is decompressed by the endpoint that reads it. */
  contentEncoding?: string | null;
  body?: () => AsyncIterable<Uint8Array>;
}

export type OpenDataset = (url: URL) => Promise<Dataset>;

export interface ApiOptions {
  /** The process's memory in bytes, for the envelope's `memory` (platform entries give it; default 0). */
  memory?: MemoryProbe;
}

/** The chunks of a Fetch body stream (read with a reader: not every browser iterates streams). */
async function* chunksOf(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (let r = await reader.read(); !r.done; r = await reader.read()) yield r.value;
  } finally {
    reader.releaseLock();
  }
}

/** A Fetch API call from a Request. */
export function callOf(req: Request): Call {
  const { headers } = req;
  const body = req.body;
  return {
    method: req.method,
    url: new URL(req.url),
    ifNoneMatch: headers.get('If-None-Match'),
    contentType: headers.get('Content-Type'),
    contentLength: headers.get('Content-Length'),
    contentEncoding: headers.get('Content-Encoding'),
    ...(body ? { body: () => chunksOf(body) } : {}),
  };
}

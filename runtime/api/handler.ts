// The API: routes a call to an endpoint (or /openapi.json), parses its parameters by the endpoint's table,
// runs the query on the dataset and renders the answer — plain answers that each platform wraps (a Fetch
// `Request → Response` handler for Netlify, the browser and tests; Node's http for npm start).
import { Dataset, type DatasetOptions } from '../core/dataset.js';
import { ENDPOINTS, type Endpoint } from '../core/endpoints.js';
import { QueryError } from '../core/params.js';
import type { ShardSource } from '../core/source.js';
import { ANSWER_CACHE_CONTROL, errorAnswer, errorOf, jsonTextAnswer, MAX_QUERY_LENGTH, methodNotAllowed, toResponse, type Answer } from './answer.js';
import { memoryText, type MemoryProbe } from './envelope.js';
import { OPENAPI_PATH, openapiAnswer } from './openapi.js';
import { operationOf } from './operations.js';
import { MATCH_PATH, matchAnswerer } from './matchAnswer.js';

/** What the API needs of a request. */
export interface Call {
  method: string;
  url: URL;
  ifNoneMatch?: string | null;
  /** The body's media type and declared length, and its bytes as they arrive (POST /api/v1/match reads them). */
  contentType?: string | null;
  contentLength?: string | null;
  body?: () => AsyncIterable<Uint8Array>;
}

export type OpenDataset = (url: URL) => Promise<Dataset>;
export type Handler = (req: Request) => Promise<Response>;

export interface ApiOptions {
  /** The process's memory in bytes, for the envelope's `memory` (platform entries give it; default 0). */
  memory?: MemoryProbe;
}

/**
 * Opens the dataset once and keeps it; a failed open is forgotten, so the next request tries again
 * (a manifest that is briefly missing does not stop the service for good).
 */
export function datasetOnce(source: (url: URL) => ShardSource, options: DatasetOptions = {}): OpenDataset {
  let opening: Promise<Dataset> | undefined;
  return (url) => {
    opening ??= Dataset.open(source(url), options).catch((e) => {
      opening = undefined;
      throw e;
    });
    return opening;
  };
}

/** Answers one endpoint (known from the route, as on Netlify where each endpoint is its own function). */
export function endpointAnswerer(endpoint: Endpoint, dataset: OpenDataset, options: ApiOptions = {}): (call: Call) => Promise<Answer> {
  const memory = memoryText(options.memory ?? (() => 0));
  const operation = operationOf(endpoint);
  return async (call) => {
    const started = performance.now();
    const head = call.method === 'HEAD';
    const refused = methodNotAllowed(call.method);
    if (refused) return refused;
    try {
      if (call.url.search.length > MAX_QUERY_LENGTH) throw new QueryError(414, `query string is longer than ${MAX_QUERY_LENGTH} characters`);
      const query = operation.parse((name) => call.url.searchParams.getAll(name));
      const data = await dataset(call.url);
      const version = `"${data.manifest.datasetVersion}"`;
      const cacheHeaders = { ETag: `W/${version}`, 'Cache-Control': ANSWER_CACHE_CONTROL, 'X-Dataset-Version': data.manifest.datasetVersion };
      if (call.ifNoneMatch?.includes(version)) {
        return { status: 304, headers: { 'Access-Control-Allow-Origin': '*', ...cacheHeaders }, body: null };
      }
      const result = await operation.run(data, query);
      return jsonTextAnswer(200, operation.json(data, query, result, started, memory), cacheHeaders, head);
    } catch (e) {
      return errorOf(e, head);
    }
  };
}

/** The whole API: routes the endpoints by path (and GET /openapi.json), 404 JSON for anything else. */
export function createAnswerer(dataset: OpenDataset, options: ApiOptions = {}): (call: Call) => Promise<Answer> {
  const routes = new Map([...ENDPOINTS.map((e) => [e.path, endpointAnswerer(e, dataset, options)] as const), [MATCH_PATH, matchAnswerer(dataset, options)] as const]);
  return async (call) => {
    if (call.url.pathname === OPENAPI_PATH) return openapiAnswer(call.method);
    const answer = routes.get(call.url.pathname);
    if (!answer) return errorAnswer(404, `no such endpoint; use ${[...routes.keys()].join(', ')}`, {}, call.method === 'HEAD');
    return answer(call);
  };
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
    ...(body ? { body: () => chunksOf(body) } : {}),
  };
}

/** The whole API as a standard `(req: Request) => Promise<Response>` handler. */
export function createHandler(dataset: OpenDataset, options: ApiOptions = {}): Handler {
  const answerer = createAnswerer(dataset, options);
  return async (req) => toResponse(await answerer(callOf(req)));
}

// The service core: answers the three search endpoints over any ShardSource, as plain answers that each
// platform wraps (a Fetch `Request → Response` handler for Netlify and tests; Node's http for npm start).
import { Dataset, DatasetError, type DatasetOptions } from './dataset.js';
import { OPENAPI_PATH, openapiAnswer } from './openapi.js';
import { ApiError, ENDPOINTS, parseQuery, type Endpoint } from './params.js';
import { errorAnswer, formatDuration, formatMemory, jsonTextAnswer, successJson, toResponse, type Answer } from './respond.js';
import { searchRange } from './search.js';
import type { ShardSource } from './source.js';

/** Longest query string answered; longer ones get 414 before any parsing. */
export const MAX_QUERY_LENGTH = 4096;

/** What the core needs of a request. */
export interface Call {
  method: string;
  url: URL;
  ifNoneMatch?: string | null;
}

export type OpenDataset = (url: URL) => Promise<Dataset>;
export type Handler = (req: Request) => Promise<Response>;

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
export async function answer(endpoint: Endpoint, call: Call, dataset: OpenDataset): Promise<Answer> {
  const started = performance.now();
  const head = call.method === 'HEAD';
  if (call.method !== 'GET' && !head) {
    return errorAnswer(405, `method ${call.method.slice(0, 20)} is not allowed; use GET or HEAD`, { Allow: 'GET, HEAD' });
  }
  try {
    if (call.url.search.length > MAX_QUERY_LENGTH) throw new ApiError(414, `query string is longer than ${MAX_QUERY_LENGTH} characters`);
    const query = parseQuery(endpoint, call.url.searchParams);
    const data = await dataset(call.url);
    const version = `"${data.manifest.datasetVersion}"`;
    const cacheHeaders = { ETag: `W/${version}`, 'Cache-Control': 'public, max-age=3600', 'X-Dataset-Version': data.manifest.datasetVersion };
    if (call.ifNoneMatch?.includes(version)) {
      return { status: 304, headers: { 'Access-Control-Allow-Origin': '*', ...cacheHeaders }, body: null };
    }
    const { totalResult, groups } = await searchRange(data, query.lowKey, query.highKey, query.page, query.pageSize);
    const envelope = () => ({ totalResult, memory: formatMemory(), duration: formatDuration(performance.now() - started), page: query.page, pageSize: query.pageSize });
    return jsonTextAnswer(200, successJson(groups, endpoint.entries, (shard) => data.entryJson(shard, endpoint.entries), envelope), cacheHeaders, head);
  } catch (e) {
    if (e instanceof ApiError || e instanceof DatasetError) return errorAnswer(e.status, e.message, {}, head);
    // Never a stack trace or a path: the detail goes to the log only.
    console.error('unexpected error:', e);
    return errorAnswer(500, 'internal error', {}, head);
  }
}

/** The whole API: routes the three endpoints by path (and GET /openapi.json), 404 JSON for anything else. */
export function createAnswerer(dataset: OpenDataset): (call: Call) => Promise<Answer> {
  const routes = new Map(ENDPOINTS.map((e) => [e.path, e]));
  return async (call) => {
    if (call.url.pathname === OPENAPI_PATH) return openapiAnswer(call);
    const endpoint = routes.get(call.url.pathname);
    if (!endpoint) return errorAnswer(404, `no such endpoint; use ${ENDPOINTS.map((e) => e.path).join(', ')}`, {}, call.method === 'HEAD');
    return answer(endpoint, call, dataset);
  };
}

/** A Fetch API call from a Request. */
export function callOf(req: Request): Call {
  return { method: req.method, url: new URL(req.url), ifNoneMatch: req.headers.get('If-None-Match') };
}

/** The whole API as a standard `(req: Request) => Promise<Response>` handler. */
export function createHandler(dataset: OpenDataset): Handler {
  const answerer = createAnswerer(dataset);
  return async (req) => toResponse(await answerer(callOf(req)));
}

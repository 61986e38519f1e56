// The API: routes a call to an endpoint (or /openapi.json), parses its parameters by the endpoint's table,
// runs the query on the dataset and renders the answer — plain answers that each platform wraps (a Fetch
// `Request → Response` handler for Netlify, the browser and tests; Node's http for npm start).
import { Dataset, type DatasetOptions } from '../core/storage/dataset.js';
import type { ShardSource } from '../core/storage/source.js';
import {
  BODY_METHODS,
  COMMON_HEADERS,
  errorAnswer,
  errorOf,
  jsonTextAnswer,
  MAX_QUERY_LENGTH,
  methodNotAllowed,
  toResponse,
  TSV_CONTENT_TYPE,
  versionHeaders,
  type Answer,
} from './answer.js';
import { callOf, type ApiOptions, type Call, type OpenDataset } from './call.js';
import { ENDPOINTS, OPENAPI_PATH, type Endpoint } from './endpoints.js';
import { memoryText } from './envelope.js';
import { checkParamNames } from './paramNames.js';
import { QueryError } from './params.js';

export type Handler = (req: Request) => Promise<Response>;
export { callOf, type ApiOptions, type Call, type OpenDataset };

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

/**
 * The answer to a method an endpoint does not answer, or to a browser's preflight (OPTIONS) of a POST endpoint;
 * undefined when the method is answered.
 */
function methodAnswer(endpoint: Endpoint, method: string): Answer | undefined {
  if (endpoint.method === 'GET') return methodNotAllowed(method);
  if (method === 'POST') return undefined;
  if (method === 'OPTIONS') {
    return {
      status: 204,
      headers: {
        ...COMMON_HEADERS,
        'Access-Control-Allow-Methods': BODY_METHODS,
        'Access-Control-Allow-Headers': 'Content-Type',
        'Access-Control-Max-Age': '86400',
      },
      body: null,
    };
  }
  return errorAnswer(
    405,
    `method ${method.slice(0, 20)} is not allowed; POST ${endpoint.body?.posted ?? 'an MGF peak list or JSON precursors'} to ${endpoint.path}`,
    { Allow: BODY_METHODS },
    method === 'HEAD',
  );
}

/**
 * Answers one endpoint: its parameters parsed by its table (and its body read, for POST), the query run on the
 * dataset and rendered as JSON. GET answers carry the dataset version's ETag (304 when it matches); POST answers
 * are not cached.
 */
export function endpointAnswerer(
  endpoint: Endpoint,
  dataset: OpenDataset,
  options: ApiOptions = {},
): (call: Call) => Promise<Answer> {
  const memory = memoryText(options.memory ?? (() => 0));
  return async (call) => {
    const started = performance.now();
    const head = call.method === 'HEAD';
    const refused = methodAnswer(endpoint, call.method);
    if (refused) return refused;
    try {
      if (call.url.search.length > MAX_QUERY_LENGTH)
        throw new QueryError(414, `query string is longer than ${MAX_QUERY_LENGTH} characters`);
      checkParamNames(endpoint.params, call.url.searchParams.keys(), endpoint.unknownParams);
      let query = endpoint.parse((name) => call.url.searchParams.getAll(name));
      if (endpoint.readBody) query = await endpoint.readBody(query, call);
      const data = await dataset(call.url);
      const format = endpoint.formatOf?.(query) ?? 'json';
      const render = endpoint.renderers[format];
      if (endpoint.method === 'POST') {
        const result = await endpoint.run(data, query);
        const headers: Record<string, string> = format === 'tsv' ? { 'Content-Type': TSV_CONTENT_TYPE } : {};
        return jsonTextAnswer(200, render(data, query, result, started, memory), {
          'Cache-Control': 'no-store',
          ...headers,
        });
      }
      const headers = versionHeaders(data.manifest.datasetVersion);
      if (call.ifNoneMatch?.includes(headers.version)) return { status: 304, headers: headers.notModified, body: null };
      const result = await endpoint.run(data, query);
      const json = render(data, query, result, started, memory);
      return { status: 200, headers: headers.success, body: head ? null : json };
    } catch (e) {
      return errorOf(e, head);
    }
  };
}

/** The whole API: routes the endpoints by path (and GET /openapi.json), 404 JSON for anything else. */
export function createAnswerer(dataset: OpenDataset, options: ApiOptions = {}): (call: Call) => Promise<Answer> {
  const routes = new Map(ENDPOINTS.map((e) => [e.path, endpointAnswerer(e, dataset, options)]));
  return async (call) => {
    // Loaded when first asked for: the page's bundle carries the API, and few of its callers want the document.
    if (call.url.pathname === OPENAPI_PATH) return (await import('./openapi.js')).openapiAnswer(call.method);
    const answer = routes.get(call.url.pathname);
    if (!answer)
      return errorAnswer(404, `no such endpoint; use ${[...routes.keys()].join(', ')}`, {}, call.method === 'HEAD');
    return answer(call);
  };
}

/** The whole API as a standard `(req: Request) => Promise<Response>` handler. */
export function createHandler(dataset: OpenDataset, options: ApiOptions = {}): Handler {
  const answerer = createAnswerer(dataset, options);
  return async (req) => toResponse(await answerer(callOf(req)));
}

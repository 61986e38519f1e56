// The API: routes a call to an endpoint (or /openapi.json), parses its parameters by the endpoint's table,
// runs the query on the dataset and renders the answer — plain answers that each platform wraps (a Fetch
// `Request → Response` handler for Netlify, the browser and tests; Node's http for npm start).
import { Dataset, type DatasetOptions } from '../core/storage/dataset.js';
import { ENDPOINTS, type Endpoint } from '../core/endpoints.js';
import { QueryError } from '../core/params.js';
import type { ShardSource } from '../core/storage/source.js';
import { callOf, type ApiOptions, type Call, type OpenDataset } from './call.js';
import {
  errorAnswer,
  errorOf,
  MAX_QUERY_LENGTH,
  methodNotAllowed,
  toResponse,
  versionHeaders,
  type Answer,
} from './answer.js';
import { memoryText } from './envelope.js';
import { OPENAPI_PATH, openapiAnswer } from './openapi.js';
import { operationOf } from './operations.js';
import { MATCH_PATH, matchAnswerer } from './matchAnswer.js';

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

/** Answers one endpoint (known from the route, as on Netlify where each endpoint is its own function). */
export function endpointAnswerer(
  endpoint: Endpoint,
  dataset: OpenDataset,
  options: ApiOptions = {},
): (call: Call) => Promise<Answer> {
  const memory = memoryText(options.memory ?? (() => 0));
  const operation = operationOf(endpoint);
  return async (call) => {
    const started = performance.now();
    const head = call.method === 'HEAD';
    const refused = methodNotAllowed(call.method);
    if (refused) return refused;
    try {
      if (call.url.search.length > MAX_QUERY_LENGTH)
        throw new QueryError(414, `query string is longer than ${MAX_QUERY_LENGTH} characters`);
      const query = operation.parse((name) => call.url.searchParams.getAll(name));
      const data = await dataset(call.url);
      const headers = versionHeaders(data.manifest.datasetVersion);
      if (call.ifNoneMatch?.includes(headers.version)) return { status: 304, headers: headers.notModified, body: null };
      const result = await operation.run(data, query);
      const json = operation.json(data, query, result, started, memory);
      return { status: 200, headers: headers.success, body: head ? null : json };
    } catch (e) {
      return errorOf(e, head);
    }
  };
}

/** The whole API: routes the endpoints by path (and GET /openapi.json), 404 JSON for anything else. */
export function createAnswerer(dataset: OpenDataset, options: ApiOptions = {}): (call: Call) => Promise<Answer> {
  const routes = new Map([
    ...ENDPOINTS.map((e) => [e.path, endpointAnswerer(e, dataset, options)] as const),
    [MATCH_PATH, matchAnswerer(dataset, options)] as const,
  ]);
  return async (call) => {
    if (call.url.pathname === OPENAPI_PATH) return openapiAnswer(call.method);
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

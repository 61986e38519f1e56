// Browser entry: the query core and the API for a web page, over a dataset base URL (e.g. `/shards/`) read with
// the page's fetch. Bundled by ./bundle.ts (esbuild, platform browser): nothing here or below may need Node.
import { createHandler, datasetOnce, type ApiOptions, type Handler } from '../../api/handler.js';
import type { DatasetOptions } from '../../core/storage/dataset.js';
import type { HttpSourceOptions } from '../../core/storage/source.js';
import { browserSource, pageMemory } from './source.js';

export { Dataset, DatasetError, DEFAULT_CACHE_BYTES, type DatasetOptions } from '../../core/storage/dataset.js';
export { ENDPOINTS, type Endpoint, type RangeQuery } from '../../api/endpoints.js';
export { QueryError } from '../../api/params.js';
export { MAX_PAGE_SIZE, parseRangeQuery } from '../../api/rangeParams.js';
export { runQuery, walkRange, type GroupRef, type ListedRun, type QueryResult } from '../../core/range/search.js';
export { HttpSource, SourceError, type HttpSourceOptions, type ShardSource } from '../../core/storage/source.js';
export { AccessionSet } from '../../model/accessionSet.js';
export { browserSource, pageMemory } from './source.js';
export { accessionRefsOf, sequenceOf, type Manifest, type Shard } from '../../model/format.js';
export { formatMassKey } from '../../model/massKey.js';
export type { Handler } from '../../api/handler.js';

export interface BrowserApiOptions extends DatasetOptions, ApiOptions {
  /** Options of the HTTP source (timeouts, retries, another fetch). */
  http?: HttpSourceOptions;
}

/**
 * The API as the server answers it — a Fetch `(Request) => Promise<Response>` handler for every API path and
 * /openapi.json — over the dataset at `baseUrl` (relative to the page). The dataset is opened on the first query and
 * kept.
 */
export function openApi(baseUrl: string | URL, options: BrowserApiOptions = {}): Handler {
  const { http, memory = pageMemory, ...datasetOptions } = options;
  const source = browserSource(baseUrl, http);
  return createHandler(
    datasetOnce(() => source, datasetOptions),
    { memory },
  );
}

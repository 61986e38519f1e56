// The API without a server: a dataset folder or base URL as a ShardSource, and one query answered by the
// very handler the service runs (same parameters, same envelope, same JSON errors).
import { resolve } from 'node:path';
import type { Writable } from 'node:stream';
import type { DatasetOptions } from './dataset.js';
import { createHandler, datasetOnce, type OpenDataset } from './handler.js';
import { ENDPOINTS, parseQuery, type Endpoint } from './params.js';
import { searchRange } from './search.js';
import { FileSource, HttpSource, type ShardSource } from './source.js';
import { groupRows, TSV_HEADER, write } from './tsv.js';

/** Default dataset location of the offline tools: SHARDS_DIR, else ./shards. */
export const defaultShards = (): string => process.env.SHARDS_DIR ?? 'shards';

/** `http(s)://...` reads over HTTP (e.g. a deployed site's /shards/); anything else is a local folder. */
export function sourceFor(location: string): ShardSource {
  return /^https?:\/\//i.test(location) ? new HttpSource(location) : new FileSource(resolve(location));
}

/** Endpoint of an offline command: `search` → /search.php, and so on. */
export function endpointOf(command: string): Endpoint | undefined {
  return ENDPOINTS.find((e) => e.path === `/${command}.php`);
}

/** The request the API would get for these parameters (only the given ones, in this order). */
export function apiRequest(endpoint: Endpoint, params: Record<string, string | undefined>): Request {
  const url = new URL(endpoint.path, 'http://localhost');
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.append(name, value);
  return new Request(url);
}

export interface OfflineApi {
  /** The handler's answer to a request, exactly as the service gives it. */
  handle(req: Request): Promise<Response>;
  /** The opened dataset (shared with handle). */
  dataset: OpenDataset;
}

export function offlineApi(source: ShardSource, options: DatasetOptions = {}): OfflineApi {
  const dataset = datasetOnce(() => source, options);
  return { handle: createHandler(dataset), dataset };
}

/**
 * Writes the TSV of one page of a query the handler answered with 200: the rows of the same mass groups as
 * its JSON answer, with the taxId of every accession (its shards are still in the dataset's cache).
 */
export async function writePageTsv(api: OfflineApi, endpoint: Endpoint, req: Request, out: Writable): Promise<void> {
  const url = new URL(req.url);
  const query = parseQuery(endpoint, url.searchParams);
  const { groups } = await searchRange(await api.dataset(url), query.lowKey, query.highKey, query.page, query.pageSize);
  await write(out, TSV_HEADER);
  for (const group of groups) await write(out, groupRows(group));
}

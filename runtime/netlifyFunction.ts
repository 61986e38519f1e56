// Netlify entry support: every function reads the dataset over HTTP from its own site's /shards/
// (or SHARDS_BASE_URL, e.g. object storage behind a CDN) and keeps it for the life of the instance.
import { answer, callOf, datasetOnce } from './handler.js';
import { toResponse } from './respond.js';
import { ENDPOINTS } from './params.js';
import { HttpSource } from './source.js';

const dataset = datasetOnce((url) => new HttpSource(process.env.SHARDS_BASE_URL ?? new URL('/shards/', url)), {
  cacheBytes: Number(process.env.SHARD_CACHE_BYTES ?? 256 * 2 ** 20),
});

export function endpointFunction(path: string): (req: Request) => Promise<Response> {
  const endpoint = ENDPOINTS.find((e) => e.path === path);
  if (!endpoint) throw new Error(`no endpoint ${path}`);
  return async (req) => toResponse(await answer(endpoint, callOf(req), dataset));
}

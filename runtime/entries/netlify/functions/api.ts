// The Netlify function of the whole API (netlify.toml routes every API path to it): the dataset read over HTTP from
// the site's own /shards/ (or SHARDS_BASE_URL, e.g. object storage behind a CDN), kept for the life of the instance.
import { toResponse } from '../../../api/answer.js';
import { callOf, createAnswerer, datasetOnce } from '../../../api/handler.js';
import { HttpSource } from '../../../core/storage/source.js';
import { nodeDatasetOptions, processMemory } from '../../node/platform.js';

/** Where Netlify serves this function; the rewrites of netlify.toml put an API path after it. */
const FUNCTION_PATH = '/.netlify/functions/api';

const answer = createAnswerer(
  datasetOnce((url) => new HttpSource(process.env.SHARDS_BASE_URL ?? new URL('/shards/', url)), nodeDatasetOptions()),
  { memory: processMemory },
);

/** Answers a request for an API path, given as the visitor asked it or after the function's own path. */
export default async function api(req: Request): Promise<Response> {
  const call = callOf(req);
  const { pathname } = call.url;
  if (pathname.startsWith(`${FUNCTION_PATH}/`)) call.url.pathname = pathname.slice(FUNCTION_PATH.length);
  return toResponse(await answer(call));
}

// Netlify entry support: every function reads the dataset over HTTP from its own site's /shards/ (or
// SHARDS_BASE_URL, e.g. object storage behind a CDN) and keeps it for the life of the instance.
import { toResponse } from '../../api/answer.js';
import { callOf, datasetOnce, endpointAnswerer } from '../../api/handler.js';
import { matchAnswerer } from '../../api/matchAnswer.js';
import { ENDPOINTS } from '../../core/endpoints.js';
import { HttpSource } from '../../core/storage/source.js';
import { nodeDatasetOptions, processMemory } from '../node/platform.js';

const dataset = datasetOnce(
  (url) => new HttpSource(process.env.SHARDS_BASE_URL ?? new URL('/shards/', url)),
  nodeDatasetOptions(),
);

/** The function of POST /api/v1/match. */
export function matchFunction(): (req: Request) => Promise<Response> {
  const answer = matchAnswerer(dataset, { memory: processMemory });
  return async (req) => toResponse(await answer(callOf(req)));
}

export function endpointFunction(path: string): (req: Request) => Promise<Response> {
  const endpoint = ENDPOINTS.find((e) => e.path === path);
  if (!endpoint) throw new Error(`no endpoint ${path}`);
  const answer = endpointAnswerer(endpoint, dataset, { memory: processMemory });
  return async (req) => toResponse(await answer(callOf(req)));
}

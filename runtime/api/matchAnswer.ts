// POST /api/v1/match: a peak list (MGF) or a JSON list of precursors in the body, /api/v1/search's parameters
// but the precursor in the query string, every precursor's candidates in the answer. Read-only: nothing is kept.
// At most MAX_MATCH_PRECURSORS precursors and MAX_MATCH_BODY_BYTES of body (413 beyond), and MAX_MATCH_SCANNED
// stored peptides examined in all (400 beyond): one request cannot hold a function for minutes.
import { matchPrecursors } from '../core/match/match.js';
import {
  MAX_MATCH_BODY_BYTES,
  MAX_MATCH_PRECURSORS,
  MAX_MATCH_SCANNED,
  parseMatchQuery,
  precursorsOfJson,
  type Precursor,
} from '../core/match/matchQuery.js';
import { readMgf, type Malformed } from '../core/match/mgf.js';
import { QueryError } from '../core/params.js';
import { COMMON_HEADERS, errorAnswer, errorOf, jsonTextAnswer, MAX_QUERY_LENGTH, type Answer } from './answer.js';
import { memoryText } from './envelope.js';
import type { ApiOptions, Call, OpenDataset } from './call.js';
import { matchAnswerJson, MatchSummary, precursorJson } from './matchJson.js';

export const MATCH_PATH = '/api/v1/match';
export const MATCH_METHODS = 'POST, OPTIONS';

const MB = (MAX_MATCH_BODY_BYTES / 2 ** 20).toFixed(0);

/** The body's bytes, at most MAX_MATCH_BODY_BYTES (413 beyond, before reading more than that). */
async function bodyBytes(call: Call): Promise<Uint8Array> {
  const tooLarge = () =>
    new QueryError(
      413,
      `the body is larger than ${MB} MiB (${MAX_MATCH_BODY_BYTES.toLocaleString('en')} bytes); send at most ${MAX_MATCH_PRECURSORS.toLocaleString('en')} precursors per request, peaks may be left out`,
    );
  if (Number(call.contentLength ?? 0) > MAX_MATCH_BODY_BYTES) throw tooLarge();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for await (const chunk of call.body?.() ?? []) {
    length += chunk.length;
    if (length > MAX_MATCH_BODY_BYTES) throw tooLarge();
    chunks.push(chunk);
  }
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) bytes.set(chunk, (at += chunk.length) - chunk.length);
  return bytes;
}

/** The precursors of a body: JSON (by Content-Type, or a body that starts with `{`), else MGF text. */
async function precursorsOf(
  call: Call,
  bytes: Uint8Array,
): Promise<{ precursors: Precursor[]; malformed: Malformed[] }> {
  const text = new TextDecoder().decode(bytes);
  if (/^application\/json\b/i.test(call.contentType ?? '') || /^\s*\{/.test(text)) {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (e) {
      throw new QueryError(400, `precursors: the body is not valid JSON (${(e as Error).message})`);
    }
    return { precursors: precursorsOfJson(body), malformed: [] };
  }
  const precursors: Precursor[] = [];
  const malformed: Malformed[] = [];
  for await (const item of readMgf([text])) {
    if ('malformed' in item) malformed.push(item.malformed);
    else if (precursors.push(item.spectrum) > MAX_MATCH_PRECURSORS)
      throw new QueryError(
        413,
        `the body holds more than ${MAX_MATCH_PRECURSORS.toLocaleString('en')} spectra; send at most ${MAX_MATCH_PRECURSORS.toLocaleString('en')} per request`,
      );
  }
  if (precursors.length === 0 && malformed.length === 0)
    throw new QueryError(
      400,
      'the body holds no precursors: send an MGF peak list (BEGIN IONS … END IONS) or JSON {"precursors": [{"mz": 650.32, "charge": 2}]}',
    );
  return { precursors, malformed };
}

/** Answers POST /api/v1/match (and OPTIONS, for browsers' preflight); any other method is a 405. */
export function matchAnswerer(dataset: OpenDataset, options: ApiOptions = {}): (call: Call) => Promise<Answer> {
  const memory = memoryText(options.memory ?? (() => 0));
  return async (call) => {
    const started = performance.now();
    if (call.method === 'OPTIONS') {
      return {
        status: 204,
        headers: {
          ...COMMON_HEADERS,
          'Access-Control-Allow-Methods': MATCH_METHODS,
          'Access-Control-Allow-Headers': 'Content-Type',
          'Access-Control-Max-Age': '86400',
        },
        body: null,
      };
    }
    if (call.method !== 'POST')
      return errorAnswer(
        405,
        `method ${call.method.slice(0, 20)} is not allowed; POST an MGF peak list or JSON precursors to ${MATCH_PATH}`,
        { Allow: MATCH_METHODS },
        call.method === 'HEAD',
      );
    try {
      if (call.url.search.length > MAX_QUERY_LENGTH)
        throw new QueryError(414, `query string is longer than ${MAX_QUERY_LENGTH} characters`);
      const query = parseMatchQuery((name) => call.url.searchParams.getAll(name));
      const { precursors, malformed } = await precursorsOf(call, await bodyBytes(call));
      const batch = await matchPrecursors(await dataset(call.url), query, precursors, {
        maxScanned: MAX_MATCH_SCANNED,
      });
      const summary = new MatchSummary();
      summary.malformed = malformed;
      const results = precursors.map((_, i) => precursorJson(batch, i));
      for (const json of results) summary.count(json.searches);
      return jsonTextAnswer(200, matchAnswerJson(results, summary, started, memory), { 'Cache-Control': 'no-store' });
    } catch (e) {
      return errorOf(e);
    }
  };
}

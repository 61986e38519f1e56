// Answers before any platform wraps them: status, headers and a JSON body; the headers every answer carries;
// JSON errors (405 among them, and the answer to anything thrown, written once here); and the Fetch API Response
// of an answer.
import { DatasetError, InvalidQuery } from '../core/errors.js';
import { QueryError } from './params.js';

/** Headers on every answer, errors included. */
export const COMMON_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'application/json',
  'Access-Control-Allow-Origin': '*',
  'X-Content-Type-Options': 'nosniff',
};

/** The media type of a TSV answer (an endpoint whose `format` parameter asks for one). */
export const TSV_CONTENT_TYPE = 'text/tab-separated-values; charset=utf-8';

/** Cache-Control of successful answers (they change only with the dataset, which their ETag names). */
export const ANSWER_CACHE_CONTROL = 'public, max-age=3600';

/**
 * The headers of a dataset version's answers: `version` quoted as its weak ETag names it; a success's and a 304's
 * headers.
 */
export interface VersionHeaders {
  datasetVersion: string;
  version: string;
  success: Readonly<Record<string, string>>;
  notModified: Readonly<Record<string, string>>;
}

let lastVersionHeaders: VersionHeaders | undefined;

/** The headers of `datasetVersion`'s answers, made once for the version answered last (not per answer). */
export function versionHeaders(datasetVersion: string): VersionHeaders {
  if (lastVersionHeaders?.datasetVersion === datasetVersion) return lastVersionHeaders;
  const version = `"${datasetVersion}"`;
  const cache = { ETag: `W/${version}`, 'Cache-Control': ANSWER_CACHE_CONTROL, 'X-Dataset-Version': datasetVersion };
  const success = Object.freeze({ ...COMMON_HEADERS, ...cache });
  const notModified = Object.freeze({ 'Access-Control-Allow-Origin': '*', ...cache });
  return (lastVersionHeaders = { datasetVersion, version, success, notModified });
}

/** Longest query string answered; longer ones get 414 before any parsing. */
export const MAX_QUERY_LENGTH = 4096;

/** The methods a GET endpoint answers. */
export const ALLOWED_METHODS = 'GET, HEAD';

/** The methods an endpoint that reads a request body answers (OPTIONS: browsers' preflight). */
export const BODY_METHODS = 'POST, OPTIONS';

/** An answer before any platform wraps it: the Fetch API's Response, or Node's ServerResponse. */
export interface Answer {
  status: number;
  /** Read-only: answers of one dataset version share theirs. */
  headers: Readonly<Record<string, string>>;
  /** The JSON text (success bodies as its ASCII bytes); null for HEAD and 304. */
  body: string | Uint8Array<ArrayBuffer> | null;
}

export function jsonAnswer(status: number, body: unknown, headers: Record<string, string> = {}, head = false): Answer {
  return jsonTextAnswer(status, JSON.stringify(body), headers, head);
}

export function jsonTextAnswer(
  status: number,
  json: string | Uint8Array<ArrayBuffer>,
  headers: Record<string, string> = {},
  head = false,
): Answer {
  return { status, headers: { ...COMMON_HEADERS, ...headers }, body: head ? null : json };
}

export function errorAnswer(status: number, error: string, headers: Record<string, string> = {}, head = false): Answer {
  return jsonAnswer(status, { error }, { 'Cache-Control': 'no-store', ...headers }, head);
}

/** 405 for a method other than GET and HEAD; undefined when the method is answered. */
export function methodNotAllowed(method: string): Answer | undefined {
  if (method === 'GET' || method === 'HEAD') return undefined;
  return errorAnswer(405, `method ${method.slice(0, 20)} is not allowed; use GET or HEAD`, { Allow: ALLOWED_METHODS });
}

/** The HTTP status of each way a dataset fails. */
const DATASET_STATUS = { unavailable: 503, corrupt: 502 } as const;

/**
 * The status an error thrown while answering is answered with — the one place errors become statuses: a refused
 * parameter's own (QueryError), 400 for a query the engine refuses, 503/502 for a dataset unavailable/corrupt;
 * undefined for anything else (a bug).
 */
export function statusOf(e: unknown): number | undefined {
  if (e instanceof QueryError) return e.status;
  if (e instanceof InvalidQuery) return 400;
  if (e instanceof DatasetError) return DATASET_STATUS[e.kind];
  return undefined;
}

/** The API's answer to an error thrown while answering: its status (statusOf), else 500. */
export function errorOf(e: unknown, head = false): Answer {
  const status = statusOf(e);
  if (status !== undefined) return errorAnswer(status, (e as { message: string }).message, {}, head);
  // Never a stack trace or a path: the detail goes to the log only.
  console.error('unexpected error:', e);
  return errorAnswer(500, 'internal error', {}, head);
}

export function toResponse(answer: Answer): Response {
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
}

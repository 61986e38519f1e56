// Building the API's answers: the envelope, its entries per endpoint, headers, and JSON error bodies.
import { accessionOf, accessionRefsOf, sequenceOf } from './format.js';
import { formatMassKey } from './keys.js';
import type { EntryShape } from './params.js';
import type { GroupRef } from './search.js';

/** Headers on every answer, errors included. */
export const COMMON_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'application/json',
  'Access-Control-Allow-Origin': '*',
  'X-Content-Type-Options': 'nosniff',
};

/** `HH:MM:SS.mmm`, as the service we reproduce writes durations. */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.round(ms));
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  const hours = Math.floor(total / 3_600_000);
  return `${pad(hours)}:${pad(Math.floor(total / 60_000) % 60)}:${pad(Math.floor(total / 1000) % 60)}.${pad(total % 1000, 3)}`;
}

let memory = { at: -Infinity, text: '' };

/** Memory the process uses (resident set) in MiB, "41 MB"; sampled at most every 250 ms (it is a syscall). */
export function formatMemory(): string {
  const now = performance.now();
  if (now - memory.at > 250) memory = { at: now, text: `${Math.round(process.memoryUsage.rss() / 2 ** 20)} MB` };
  return memory.text;
}

/**
 * One mass group as JSON text, `{"<mass>":[{"seq":..,"acc":[..]}, ..]}` (or `accsTax` entries), written
 * directly rather than through objects and JSON.stringify (3× faster). Sequences are upper-case letters
 * (decodeShard checks it); accessions are JSON-encoded.
 */
export function groupJson({ shard, group }: GroupRef, shape: EntryShape): string {
  let out = `{"${formatMassKey(shard.massKeys[group])}":[`;
  const first = group === 0 ? 0 : shard.groupEnds[group - 1];
  for (let p = first; p < shard.groupEnds[group]; p++) {
    out += `${p > first ? ',' : ''}{"seq":"${sequenceOf(shard, p)}","${shape}":[`;
    const refs = accessionRefsOf(shard, p);
    for (let i = 0; i < refs.length; i++) {
      const acc = JSON.stringify(accessionOf(shard, refs[i]));
      out += `${i > 0 ? ',' : ''}${shape === 'acc' ? acc : `{"acc":${acc},"taxId":${shard.taxIds[refs[i]]}}`}`;
    }
    out += ']}';
  }
  return out + ']}';
}

export interface Envelope {
  totalResult: number;
  memory: string;
  duration: string;
  page: number;
  pageSize: number;
}

/** The success body: the envelope's fields in the original's order, then `result` (groups as JSON text). */
export function envelopeJson(e: Envelope, groups: string[]): string {
  return `{"totalResult":${e.totalResult},"memory":${JSON.stringify(e.memory)},"duration":"${e.duration}","page":${e.page},"pageSize":${e.pageSize},"result":[${groups.join(',')}]}`;
}

/** An answer before any platform wraps it: the Fetch API's Response, or Node's ServerResponse. */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  /** The JSON text; null for HEAD and 304. */
  body: string | null;
}

export function jsonAnswer(status: number, body: unknown, headers: Record<string, string> = {}, head = false): Answer {
  return jsonTextAnswer(status, JSON.stringify(body), headers, head);
}

export function jsonTextAnswer(status: number, json: string, headers: Record<string, string> = {}, head = false): Answer {
  return { status, headers: { ...COMMON_HEADERS, ...headers }, body: head ? null : json };
}

export function errorAnswer(status: number, error: string, headers: Record<string, string> = {}, head = false): Answer {
  return jsonAnswer(status, { error }, { 'Cache-Control': 'no-store', ...headers }, head);
}

export function toResponse(answer: Answer): Response {
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
}

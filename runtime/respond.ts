// Building the API's answers: the envelope, its entries per endpoint, headers, and JSON error bodies.
import { AsciiWriter, writeEntries, type EntryJson } from './entryJson.js';
import type { Shard } from './format.js';
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

const writer = new AsciiWriter();

/** Room for the envelope's fields in front of `result` (they take under 150 bytes). */
const HEADROOM = 256;

/**
 * The success body: the envelope's fields in the original's order, then `result`, one object per group:
 * `[{"<mass>":[{"seq":..,"acc":[..]}, ..]}, ..]`, or `accsTax` entries: copied from the shard's entry JSON
 * when `entries` has it, else written from the shard. `envelope` is called once the result is written, so
 * that its duration includes the writing.
 */
export function successJson(
  groups: readonly GroupRef[],
  shape: EntryShape,
  entries: (shard: Shard) => EntryJson | undefined,
  envelope: () => Envelope,
): Uint8Array<ArrayBuffer> {
  const w = writer;
  w.start(HEADROOM);
  w.write('[');
  let json: EntryJson | undefined;
  groups.forEach(({ shard, group }, g) => {
    if (g === 0 || shard !== groups[g - 1].shard) json = entries(shard); // once per shard of the page
    w.write(g > 0 ? ',{"' : '{"');
    w.write(formatMassKey(shard.massKeys[group]));
    w.write('":[');
    const first = group === 0 ? 0 : shard.groupEnds[group - 1];
    const end = shard.groupEnds[group];
    if (json) w.copy(json.bytes, first === 0 ? 0 : json.ends[first - 1], json.ends[end - 1]);
    else writeEntries(w, shard, shape, first, end);
    w.unwrite(1); // the last entry's comma
    w.write(']}');
  });
  w.write(']}');
  const e = envelope();
  return w.take(`{"totalResult":${e.totalResult},"memory":${JSON.stringify(e.memory)},"duration":"${e.duration}","page":${e.page},"pageSize":${e.pageSize},"result":`, HEADROOM);
}

export interface Envelope {
  totalResult: number;
  memory: string;
  duration: string;
  page: number;
  pageSize: number;
}

/** An answer before any platform wraps it: the Fetch API's Response, or Node's ServerResponse. */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  /** The JSON text (success bodies as its ASCII bytes); null for HEAD and 304. */
  body: string | Uint8Array<ArrayBuffer> | null;
}

export function jsonAnswer(status: number, body: unknown, headers: Record<string, string> = {}, head = false): Answer {
  return jsonTextAnswer(status, JSON.stringify(body), headers, head);
}

export function jsonTextAnswer(status: number, json: string | Uint8Array<ArrayBuffer>, headers: Record<string, string> = {}, head = false): Answer {
  return { status, headers: { ...COMMON_HEADERS, ...headers }, body: head ? null : json };
}

export function errorAnswer(status: number, error: string, headers: Record<string, string> = {}, head = false): Answer {
  return jsonAnswer(status, { error }, { 'Cache-Control': 'no-store', ...headers }, head);
}

export function toResponse(answer: Answer): Response {
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
}

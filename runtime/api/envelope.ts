// The success body of the seed's endpoints, rendered from a query result: the envelope's fields in the
// original's order, then `result`, one object per mass group (`[{"<mass>":[entries]}, ..]`).
import type { Dataset } from '../core/storage/dataset.js';
import type { QueryResult } from '../core/range/search.js';
import type { Shard } from '../model/format.js';
import { withWriter } from './asciiWriter.js';
import { cachedEntryJson, writeEntries, type EntryJson, type EntryShape } from './entryJson.js';
import { writeMassKeyText } from './numberText.js';

/** n in at least `width` digits, zero-padded. */
const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `HH:MM:SS.mmm`, as the service we reproduce writes durations. */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.round(ms));
  const hours = Math.floor(total / 3_600_000);
  return `${pad(hours)}:${pad(Math.floor(total / 60_000) % 60)}:${pad(Math.floor(total / 1000) % 60)}.${pad(total % 1000, 3)}`;
}

/** Bytes of memory the answering process uses, as its platform can tell (0 where it cannot). */
export type MemoryProbe = () => number;

/** `memory` as "41 MB" (MiB), sampled at most every 250 ms (a probe may be a system call). */
export function memoryText(probe: MemoryProbe): () => string {
  let sample = { at: -Infinity, text: '' };
  return () => {
    const now = performance.now();
    if (now - sample.at > 250) sample = { at: now, text: `${Math.round(probe() / 2 ** 20)} MB` };
    return sample.text;
  };
}

export interface Envelope {
  totalResult: number;
  memory: string;
  duration: string;
  page: number;
  pageSize: number;
}

/**
 * A success body of the paged endpoints: the envelope's fields, then `result`, one object per mass group keyed by its
 * mass key.
 */
export interface EnvelopeJson<Entry> extends Envelope {
  result: Record<string, Entry[]>[];
}

/** Room for the envelope's fields in front of `result` (they take under 150 bytes). */
export const HEADROOM = 256;

/** The envelope's fields in the original's order, up to `"result":` (written last, in front of the result). */
export const envelopePrefix = (e: Envelope) =>
  `{"totalResult":${e.totalResult},"memory":${JSON.stringify(e.memory)},"duration":"${e.duration}","page":${e.page},"pageSize":${e.pageSize},"result":`;

/**
 * The success body of `result`, its entries in `shape`: copied from the shard's entry JSON when `entries`
 * has it, else written from the shard. `envelope` is called once the result is written, so that its
 * duration includes the writing.
 */
export function successJson(
  result: QueryResult,
  shape: EntryShape,
  entries: (shard: Shard) => EntryJson | undefined,
  envelope: () => Envelope,
): Uint8Array<ArrayBuffer> {
  return withWriter((w) => {
    const { groups } = result;
    w.start(HEADROOM);
    w.write('[');
    let json: EntryJson | undefined;
    for (let g = 0; g < groups.length; g++) {
      const { shard, group } = groups[g];
      if (g === 0 || shard !== groups[g - 1].shard) json = entries(shard); // once per shard of the page
      w.write(g > 0 ? ',{"' : '{"');
      writeMassKeyText(w, shard.massKeys[group]);
      w.write('":[');
      const first = group === 0 ? 0 : shard.groupEnds[group - 1];
      const end = shard.groupEnds[group];
      if (json) w.copy(json.bytes, first === 0 ? 0 : json.ends[first - 1], json.ends[end - 1]);
      else writeEntries(w, shard, result.accessions, shape, first, end);
      w.unwrite(1); // the last entry's comma
      w.write(']}');
    }
    w.write(']}');
    return w.take(envelopePrefix(envelope()), HEADROOM);
  });
}

/** The body the API answers `result` with: entry JSON from the dataset's cache, timed from `started`. */
export function renderJson(
  dataset: Dataset,
  result: QueryResult,
  shape: EntryShape,
  started: number,
  memory: () => string,
): Uint8Array<ArrayBuffer> {
  return successJson(
    result,
    shape,
    (shard) => cachedEntryJson(dataset, shard, shape),
    () => ({
      totalResult: result.totalResult,
      memory: memory(),
      duration: formatDuration(performance.now() - started),
      page: result.page,
      pageSize: result.pageSize,
    }),
  );
}

// JSON text of a shard's peptide entries, built once per cached shard and entry shape: every peptide's
// `{"seq":..,"acc":[..]}` (or `"accsTax":[{"acc":..,"taxId":..}]`) back to back, each followed by a comma.
// A group's peptides are consecutive, so a page copies each mass group's entries with one native copy
// instead of writing tens of thousands of accessions character by character on every request. The dataset
// memoizes them for shards used more than once (Dataset.derived), charged to the cache budget; other
// answers write their entries directly (writeEntries, the same code).
import type { AccessionFilter } from '../core/accessionFilter.js';
import type { Dataset } from '../core/dataset.js';
import type { Derived } from '../core/shardCache.js';
import type { EntryShape } from '../core/endpoints.js';
import { accessionOf, type Shard } from '../model/format.js';
import { withWriter, type AsciiWriter } from './asciiWriter.js';

/** A shard's entries as JSON: entry p is bytes[ends[p-1] ?? 0 .. ends[p]), its trailing comma included. */
export interface EntryJson {
  bytes: Uint8Array;
  ends: Uint32Array;
}

/** Accession tables that can be copied between quotes as they are: printable ASCII without `"` or `\`. */
const PLAIN_ACCESSIONS = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** JSON string literal of any text, in ASCII (other characters as \u escapes). */
const asciiJson = (text: string) => JSON.stringify(text).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * Writes the entries of peptides from..to-1 of `shard` in `shape`, each followed by a comma, and records
 * where each one ends in `ends` when given. Sequences are upper-case letters (decodeShard checks it).
 */
export function writeEntries(w: AsciiWriter, shard: Shard, shape: EntryShape, from: number, to: number, ends?: Uint32Array): void {
  for (let p = from; p < to; p++) {
    w.write('{"seq":"');
    w.write(shard.sequences, p === 0 ? 0 : shard.sequenceEnds[p - 1], shard.sequenceEnds[p]);
    w.write(shape === 'acc' ? '","acc":' : '","accsTax":');
    writeAccessions(w, shard, shape, p);
    w.write('},');
    if (ends) ends[p] = w.length;
  }
}

/**
 * The JSON array of peptide p's accessions in `shape`: `["P12345",..]` or `[{"acc":"P12345","taxId":9606},..]`;
 * with `filter`, only the accessions it keeps.
 */
export function writeAccessions(w: AsciiWriter, shard: Shard, shape: EntryShape, p: number, filter?: AccessionFilter): void {
  const plain = isPlain(shard);
  w.write('[');
  let written = 0;
  for (let r = p === 0 ? 0 : shard.accessionRefEnds[p - 1]; r < shard.accessionRefEnds[p]; r++) {
    const a = shard.accessionRefs[r];
    if (filter && !filter.keeps(a)) continue;
    if (written++ > 0) w.write(',');
    if (shape === 'accsTax') w.write('{"acc":');
    if (plain) {
      w.write('"');
      w.write(shard.accessions, a === 0 ? 0 : shard.accessionEnds[a - 1], shard.accessionEnds[a]);
      w.write('"');
    } else {
      w.write(asciiJson(accessionOf(shard, a)));
    }
    if (shape === 'accsTax') {
      w.write(',"taxId":');
      w.writeInt(shard.taxIds[a]);
      w.write('}');
    }
  }
  w.write(']');
}

/** Whether each accession table (identified by its accessionEnds) needs no JSON escapes. */
const plainTables = new WeakMap<Uint32Array, boolean>();

function isPlain(shard: Shard): boolean {
  let plain = plainTables.get(shard.accessionEnds);
  if (plain === undefined) plainTables.set(shard.accessionEnds, (plain = PLAIN_ACCESSIONS.test(shard.accessions)));
  return plain;
}

/** Every entry of `shard` in `shape`, as JSON, with the memory it holds. */
export function entryJson(shard: Shard, shape: EntryShape): Derived<EntryJson> {
  const ends = new Uint32Array(shard.sequenceEnds.length);
  const bytes = withWriter((w) => {
    writeEntries(w, shard, shape, 0, ends.length, ends);
    return w.takeBytes();
  });
  return { value: { bytes, ends }, bytes: bytes.byteLength + ends.byteLength };
}

/** The shard's entry JSON in `shape` when the dataset keeps it (shards used again), else undefined. */
export const cachedEntryJson = (dataset: Dataset, shard: Shard, shape: EntryShape): EntryJson | undefined =>
  dataset.derived(shard, `entryJson:${shape}`, (s) => entryJson(s, shape));

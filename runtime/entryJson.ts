// JSON text of a shard's peptide entries, built once per cached shard and entry shape: every peptide's
// `{"seq":..,"acc":[..]}` (or `"accsTax":[{"acc":..,"taxId":..}]`) back to back, each followed by a comma.
// A group's peptides are consecutive, so a page copies each mass group's entries with one native copy
// instead of writing tens of thousands of accessions character by character on every request. The Dataset
// builds them for shards used more than once and keeps them with the shard, charged to the cache budget;
// other answers write their entries directly (writeEntries, the same code).
import { accessionOf, type Shard } from './format.js';
import type { EntryShape } from './params.js';

/** ASCII text written into one growing byte buffer. */
export class AsciiWriter {
  private bytes = Buffer.allocUnsafe(1 << 16);
  length = 0;

  private reserve(n: number): void {
    if (this.length + n <= this.bytes.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.length + n));
    this.bytes.copy(grown, 0, 0, this.length);
    this.bytes = grown;
  }

  /** Characters start..end of `text`, which must be ASCII. */
  write(text: string, start = 0, end = text.length): void {
    this.reserve(end - start);
    const bytes = this.bytes;
    let at = this.length;
    for (let i = start; i < end; i++) bytes[at++] = text.charCodeAt(i);
    this.length = at;
  }

  /** Bytes start..end of `source` (ASCII), in one native copy. */
  copy(source: Uint8Array, start: number, end: number): void {
    this.reserve(end - start);
    this.bytes.set(source.subarray(start, end), this.length);
    this.length += end - start;
  }

  /** Starts a text, keeping `headroom` bytes free in front of it for a prefix written last. */
  start(headroom: number): void {
    this.length = headroom;
  }

  /** `prefix` (ASCII, at most `headroom` long) and the bytes written since start(headroom), copied out. */
  take(prefix: string, headroom: number): Uint8Array<ArrayBuffer> {
    if (prefix.length > headroom) throw new Error('prefix longer than its headroom');
    const from = headroom - prefix.length;
    for (let i = 0; i < prefix.length; i++) this.bytes[from + i] = prefix.charCodeAt(i);
    return this.takeBytes(from);
  }

  /** Drops the last `n` bytes written. */
  unwrite(n: number): void {
    this.length -= n;
  }

  /** A copy of the bytes written from `from` on, and an empty writer. */
  takeBytes(from = 0): Uint8Array<ArrayBuffer> {
    const bytes = new Uint8Array(this.length - from);
    bytes.set(this.bytes.subarray(from, this.length));
    this.clear();
    return bytes;
  }

  private clear(): void {
    this.length = 0;
    if (this.bytes.length > 1 << 24) this.bytes = Buffer.allocUnsafe(1 << 16); // do not keep a huge buffer
  }
}

/** A shard's entries as JSON: entry p is bytes[ends[p-1] ?? 0 .. ends[p]), its trailing comma included. */
export interface EntryJson {
  bytes: Uint8Array;
  ends: Uint32Array;
}

/** Accession tables that can be copied between quotes as they are: printable ASCII without `"` or `\`. */
const PLAIN_ACCESSIONS = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** JSON string literal of any text, in ASCII (other characters as \u escapes). */
const asciiJson = (text: string) => JSON.stringify(text).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** Its own writer: entry JSON is built in the middle of writing an answer (respond.ts has that one). */
const builder = new AsciiWriter();

/**
 * Writes the entries of peptides from..to-1 of `shard` in `shape`, each followed by a comma, and records
 * where each one ends in `ends` when given. Sequences are upper-case letters (decodeShard checks it).
 */
export function writeEntries(w: AsciiWriter, shard: Shard, shape: EntryShape, from: number, to: number, ends?: Uint32Array): void {
  const plain = isPlain(shard);
  for (let p = from; p < to; p++) {
    w.write('{"seq":"');
    w.write(shard.sequences, p === 0 ? 0 : shard.sequenceEnds[p - 1], shard.sequenceEnds[p]);
    w.write(shape === 'acc' ? '","acc":[' : '","accsTax":[');
    const firstRef = p === 0 ? 0 : shard.accessionRefEnds[p - 1];
    for (let r = firstRef; r < shard.accessionRefEnds[p]; r++) {
      const a = shard.accessionRefs[r];
      if (r > firstRef) w.write(',');
      if (shape === 'accsTax') w.write('{"acc":');
      if (plain) {
        w.write('"');
        w.write(shard.accessions, a === 0 ? 0 : shard.accessionEnds[a - 1], shard.accessionEnds[a]);
        w.write('"');
      } else {
        w.write(asciiJson(accessionOf(shard, a)));
      }
      if (shape === 'accsTax') w.write(`,"taxId":${shard.taxIds[a]}}`);
    }
    w.write(']},');
    if (ends) ends[p] = w.length;
  }
}

const plainShards = new WeakMap<Shard, boolean>();

function isPlain(shard: Shard): boolean {
  let plain = plainShards.get(shard);
  if (plain === undefined) plainShards.set(shard, (plain = PLAIN_ACCESSIONS.test(shard.accessions)));
  return plain;
}

/** Every entry of `shard` in `shape`, as JSON. */
export function entryJson(shard: Shard, shape: EntryShape): EntryJson {
  const ends = new Uint32Array(shard.sequenceEnds.length);
  writeEntries(builder, shard, shape, 0, ends.length, ends);
  return { bytes: builder.takeBytes(), ends };
}

/** Memory an EntryJson holds. */
export const entryJsonBytes = (json: EntryJson) => json.bytes.byteLength + json.ends.byteLength;

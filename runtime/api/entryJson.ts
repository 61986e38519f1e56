// JSON text of a shard's peptide entries, built once per cached shard and entry shape: every peptide's
// `{"seq":..,"acc":[..]}` (or `"accsTax":[{"acc":..,"taxId":..}]`) back to back, each followed by a comma.
// A group's peptides are consecutive, so a page copies each mass group's entries with one native copy
// instead of writing tens of thousands of accessions character by character on every request. The dataset
// memoizes them for shards used more than once (Dataset.derived), charged to the cache budget, when its accession
// table is one page; other answers write their entries directly (writeEntries, the same code): straight into the
// writer's buffer from the accessions' records when every accession has one, else piece by piece.
import type { Dataset } from '../core/storage/dataset.js';
import type { Derived } from '../core/storage/shardCache.js';
import { MAX_ACCESSION_BYTES, type AccessionSet, type RankFilter } from '../model/accessionSet.js';
import { copyRun, pieceOf, putPiece, viewOf } from '../model/byteRun.js';
import type { Shard } from '../model/format.js';
import { withWriter, type AsciiWriter } from './asciiWriter.js';

/** How a peptide's accessions are written: `acc: [..]`, or `accsTax: [{acc, taxId}]`. */
export type EntryShape = 'acc' | 'accsTax';

/** A shard's entries as JSON: entry p is bytes[ends[p-1] ?? 0 .. ends[p]), its trailing comma included. */
export interface EntryJson {
  bytes: Uint8Array;
  ends: Uint32Array;
  /** `bytes` as a DataView, for AsciiWriter.copyWords. */
  words: DataView;
}

/** The EntryJson of `bytes` and `ends`, with the memory it holds. */
export const entryJsonOf = (bytes: Uint8Array, ends: Uint32Array): Derived<EntryJson> => ({
  value: { bytes, ends, words: viewOf(bytes) },
  bytes: bytes.byteLength + ends.byteLength,
});

/** JSON string literal of any text, in ASCII (other characters as \u escapes). */
const asciiJson = (text: string) =>
  JSON.stringify(text).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * Writes the entries of peptides from..to-1 of `shard` in `shape`, each followed by a comma, and records
 * where each one ends in `ends` when given. Sequences are upper-case letters (decodeShard checks it).
 */
export function writeEntries(
  w: AsciiWriter,
  shard: Shard,
  accessions: AccessionSet,
  shape: EntryShape,
  from: number,
  to: number,
  ends?: Uint32Array,
): void {
  if (accessions.recorded) return writeRecordedEntries(w, shard, accessions, shape, from, to, ends);
  for (let p = from; p < to; p++) {
    w.write('{"seq":"');
    w.copy(shard.sequences, p === 0 ? 0 : shard.sequenceEnds[p - 1], shard.sequenceEnds[p]);
    w.write(shape === 'acc' ? '","acc":' : '","accsTax":');
    writeAccessions(w, shard, accessions, shape, p);
    w.write('},');
    if (ends) ends[p] = w.length;
  }
}

/**
 * An entry's fixed text in each shape: before its sequence, after it, before its first accession and each other one,
 * after each one, at its end.
 */
const PIECES = {
  acc: {
    head: pieceOf('{"seq":"'),
    open: pieceOf('","acc":['),
    first: pieceOf('"'),
    next: pieceOf(',"'),
    close: pieceOf('"'),
    end: pieceOf(']},'),
  },
  accsTax: {
    head: pieceOf('{"seq":"'),
    open: pieceOf('","accsTax":['),
    first: pieceOf('{"acc":"'),
    next: pieceOf(',{"acc":"'),
    close: pieceOf('","taxId":'),
    end: pieceOf(']},'),
  },
} as const;

/**
 * Room an entry's accession takes at most, besides its text: a piece before and after it (putPiece writes 16 bytes),
 * `}` and a taxId of up to 11 characters.
 */
const ACCESSION_ROOM = MAX_ACCESSION_BYTES + 16 + 16 + 1 + 11;

/**
 * Each shard's sequences as a DataView, made once per shard: answers write a shard's entries a group at a time, and a
 * DataView costs about as much to make as copying the group's entries.
 */
const sequenceViews = new WeakMap<Uint8Array, DataView>();

function sequenceView(shard: Shard): DataView {
  let view = sequenceViews.get(shard.sequences);
  if (!view) sequenceViews.set(shard.sequences, (view = viewOf(shard.sequences)));
  return view;
}

/**
 * writeEntries from a recorded set (every accession plain, in a record): each entry copied straight into the writer's
 * buffer four bytes at a time (putPiece, copyRun), with room for all of it made first.
 */
function writeRecordedEntries(
  w: AsciiWriter,
  shard: Shard,
  accessions: AccessionSet,
  shape: EntryShape,
  from: number,
  to: number,
  ends?: Uint32Array,
): void {
  accessions.touch(shard, from, to);
  const { sequenceEnds } = shard;
  const sequences = sequenceView(shard);
  const { head, open, first, next, close, end } = PIECES[shape];
  let sequenceEnd = from === 0 ? 0 : sequenceEnds[from - 1];
  for (let p = from; p < to; p++) {
    const ranks = accessions.listed(shard, p);
    const sequenceStart = sequenceEnd;
    sequenceEnd = sequenceEnds[p];
    const view = w.room(3 * 16 + sequenceEnd - sequenceStart + ranks.length * ACCESSION_ROOM);
    let at = copyRun(view, putPiece(view, w.length, head), sequences, sequenceStart, sequenceEnd);
    at = putPiece(view, at, open);
    for (let k = 0; k < ranks.length; k++) {
      at = accessions.putAccession(view, putPiece(view, at, k === 0 ? first : next), ranks[k]);
      at = putPiece(view, at, close);
      if (shape === 'accsTax') {
        w.length = at;
        w.writeInt(accessions.taxId(ranks[k])); // within the room made: `view` is still the buffer's
        view.setUint8(w.length, 0x7d); // }
        at = w.length + 1;
      }
    }
    w.length = putPiece(view, at, end);
    if (ends) ends[p] = w.length;
  }
}

/**
 * The JSON array of peptide p's accessions in `shape`, by accession: `["P12345",..]` or
 * `[{"acc":"P12345","taxId":9606},..]`; with `filter`, only the accessions it keeps.
 */
export function writeAccessions(
  w: AsciiWriter,
  shard: Shard,
  accessions: AccessionSet,
  shape: EntryShape,
  p: number,
  filter?: RankFilter,
): void {
  const ranks = accessions.listed(shard, p, filter);
  w.write('[');
  for (let k = 0; k < ranks.length; k++) {
    const a = ranks[k];
    if (k > 0) w.write(',');
    if (shape === 'accsTax') w.write('{"acc":');
    if (accessions.plain) {
      w.write('"');
      accessions.writeAccession(w, a);
      w.write('"');
    } else {
      w.write(asciiJson(accessions.accession(a)));
    }
    if (shape === 'accsTax') {
      w.write(',"taxId":');
      w.writeInt(accessions.taxId(a));
      w.write('}');
    }
  }
  w.write(']');
}

/**
 * Every entry of `shard` in `shape`, as JSON, with the memory it holds (`accessions` holds every rank the shard lists).
 */
export function entryJson(shard: Shard, accessions: AccessionSet, shape: EntryShape): Derived<EntryJson> {
  const ends = new Uint32Array(shard.sequenceEnds.length);
  const bytes = withWriter((w) => {
    writeEntries(w, shard, accessions, shape, 0, ends.length, ends);
    return w.takeBytes();
  });
  return entryJsonOf(bytes, ends);
}

/**
 * The shard's entry JSON in `shape` when the dataset keeps it (shards used again, of a dataset whose accession
 * table is one page: every rank at hand), else undefined.
 */
export function cachedEntryJson(dataset: Dataset, shard: Shard, shape: EntryShape): EntryJson | undefined {
  const accessions = dataset.wholeAccessions;
  return accessions && dataset.derived(shard, `entryJson:${shape}`, (s) => entryJson(s, accessions, shape));
}

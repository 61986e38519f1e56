// What each protein's header says (and its sequence, when the build keeps sequences), kept on disk while the input is
// read: records in runs of RUN_PROTEINS, each run sorted by (accession, ordinal) and written to a file, then read back
// merged into one stream in that order.
// So the build's memory does not grow with the number of proteins (an external sort: one run in memory while
// reading, a read buffer per run while merging).
import { closeSync, mkdirSync, openSync, readSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HeaderFields } from './fasta.js';

/** Proteins sorted in memory at a time (as objects with their strings). */
export const RUN_PROTEINS = 65_536;
/** What the read buffers of all runs may take together while merging (each 16 KB to 1 MB). */
const MERGE_BUFFER_BYTES = 64 << 20;

/** A protein's header fields, its ordinal (the order of the input) and its sequence ("" when not kept). */
export interface HeaderRecord extends HeaderFields {
  ordinal: number;
  sequence: string;
}

/**
 * Record layout in a run file: u32 ordinal, i32 taxId (-1: none), u8 reviewed, 4 × u32 UTF-8 lengths, the 4 texts
 * (accession, protein, organism, sequence).
 */
const FIXED = 4 + 4 + 1 + 4 * 4;

/** Orders records by accession (as JavaScript's `<` does) and then by ordinal. */
export function compareRecords(a: HeaderRecord, b: HeaderRecord): number {
  return a.accession < b.accession ? -1 : a.accession > b.accession ? 1 : a.ordinal - b.ordinal;
}

export class HeaderRuns {
  /** Proteins added so far; the next one's ordinal. */
  count = 0;
  private run: HeaderRecord[] = [];
  private readonly files: string[] = [];

  /**
   * Writes run files into `dir` (made if missing), `runProteins` records each; reads each back `readBytes` at a time
   * (by default MERGE_BUFFER_BYTES shared by the runs).
   */
  constructor(
    private readonly dir: string,
    private readonly runProteins = RUN_PROTEINS,
    private readonly readBytes?: number,
  ) {
    mkdirSync(dir, { recursive: true });
  }

  /** Adds a protein's header fields and `sequence` (left "" by a build that does not keep sequences). */
  add(header: HeaderFields, sequence = ''): void {
    const { accession, taxId, reviewed, protein, organism } = header;
    this.run.push({ accession, taxId, reviewed, protein, organism, ordinal: this.count++, sequence });
    if (this.run.length >= this.runProteins) this.spill();
  }

  /** Every record added, in (accession, ordinal) order. */
  sorted(): Generator<HeaderRecord> {
    this.spill();
    const bufferBytes =
      this.readBytes ??
      Math.max(1 << 14, Math.min(1 << 20, Math.floor(MERGE_BUFFER_BYTES / Math.max(1, this.files.length))));
    return mergeSorted(this.files.map((file) => readRun(file, bufferBytes)));
  }

  /** Removes the run files (and their folder). */
  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }

  private spill(): void {
    if (this.run.length === 0) return;
    this.run.sort(compareRecords);
    const file = join(this.dir, `headers-${this.files.length}.bin`);
    writeFileSync(file, encodeRun(this.run));
    this.files.push(file);
    this.run = [];
  }
}

function encodeRun(records: readonly HeaderRecord[]): Buffer {
  const texts = records.map((r) => [r.accession, r.protein, r.organism, r.sequence].map((t) => Buffer.from(t, 'utf8')));
  const bytes = Buffer.allocUnsafe(
    texts.reduce((sum, t) => sum + FIXED + t[0].length + t[1].length + t[2].length + t[3].length, 0),
  );
  let at = 0;
  records.forEach((r, i) => {
    at = bytes.writeUInt32LE(r.ordinal, at);
    at = bytes.writeInt32LE(r.taxId ?? -1, at);
    at = bytes.writeUInt8(r.reviewed ? 1 : 0, at);
    for (const text of texts[i]) at = bytes.writeUInt32LE(text.length, at);
    for (const text of texts[i]) at += text.copy(bytes, at);
  });
  return bytes;
}

/** The records of a run file, in order, read `bufferBytes` at a time (a buffer grows to hold a longer record). */
function* readRun(file: string, bufferBytes: number): Generator<HeaderRecord> {
  const fd = openSync(file, 'r');
  try {
    let buffer = Buffer.allocUnsafe(bufferBytes);
    let start = 0;
    let end = 0;
    /** Makes `need` bytes from `start` available; false at the end of the file. */
    const fill = (need: number): boolean => {
      if (end - start >= need) return true;
      if (need > buffer.length) {
        const grown = Buffer.allocUnsafe(need);
        buffer.copy(grown, 0, start, end);
        buffer = grown;
      } else buffer.copy(buffer, 0, start, end);
      end -= start;
      start = 0;
      while (end < need) {
        const read = readSync(fd, buffer, end, buffer.length - end, null);
        if (read === 0) break;
        end += read;
      }
      return end - start >= need;
    };
    while (fill(FIXED)) {
      const accessionEnd = FIXED + buffer.readUInt32LE(start + 9);
      const proteinEnd = accessionEnd + buffer.readUInt32LE(start + 13);
      const organismEnd = proteinEnd + buffer.readUInt32LE(start + 17);
      const sequenceEnd = organismEnd + buffer.readUInt32LE(start + 21);
      if (!fill(sequenceEnd)) throw new Error(`header run ${file} ends inside a record`);
      const taxId = buffer.readInt32LE(start + 4);
      const record: HeaderRecord = {
        ordinal: buffer.readUInt32LE(start),
        accession: buffer.toString('utf8', start + FIXED, start + accessionEnd),
        taxId: taxId === -1 ? undefined : taxId,
        reviewed: buffer[start + 8] === 1,
        protein: buffer.toString('utf8', start + accessionEnd, start + proteinEnd),
        organism: buffer.toString('utf8', start + proteinEnd, start + organismEnd),
        sequence: buffer.toString('utf8', start + organismEnd, start + sequenceEnd),
      };
      start += sequenceEnd;
      yield record;
    }
    if (end > start) throw new Error(`header run ${file} ends inside a record`);
  } finally {
    closeSync(fd);
  }
}

/** The records of sorted streams merged into one sorted stream (a binary heap of the streams' heads). */
function* mergeSorted(streams: Generator<HeaderRecord>[]): Generator<HeaderRecord> {
  const heap: { head: HeaderRecord; rest: Generator<HeaderRecord> }[] = [];
  const less = (i: number, j: number) => compareRecords(heap[i].head, heap[j].head) < 0;
  const swap = (i: number, j: number) => ([heap[i], heap[j]] = [heap[j], heap[i]]);
  const down = (i: number) => {
    for (;;) {
      const [l, r] = [2 * i + 1, 2 * i + 2];
      let least = i;
      if (l < heap.length && less(l, least)) least = l;
      if (r < heap.length && less(r, least)) least = r;
      if (least === i) return;
      swap(i, least);
      i = least;
    }
  };
  try {
    for (const rest of streams) {
      const first = rest.next();
      if (first.done) continue;
      heap.push({ head: first.value, rest });
      for (let i = heap.length - 1; i > 0 && less(i, (i - 1) >> 1); i = (i - 1) >> 1) swap(i, (i - 1) >> 1);
    }
    while (heap.length > 0) {
      const top = heap[0];
      yield top.head;
      const next = top.rest.next();
      if (next.done) {
        const last = heap.pop()!;
        if (heap.length === 0) return;
        heap[0] = last;
      } else top.head = next.value;
      down(0);
    }
  } finally {
    // A reader that stops early (or an error) closes every run still open.
    for (const rest of streams) rest.return(undefined);
  }
}

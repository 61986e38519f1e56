// The accessions an answer lists, resolved: pages of the accession table (runs of consecutive ranks) read for
// it, held together so that renderers look a rank up synchronously — its text, taxId and reviewed flag — and
// list a peptide's accessions in the order answers give them (by accession, byte order), whatever their ranks.
import { copyRun, viewOf } from './byteRun.js';
import { accessionOf, type AccessionTable, type Shard } from './format.js';

/** A decoded page of the accession table and the rank of its first accession. */
export interface AccessionRun {
  first: number;
  table: AccessionTable;
}

/** Accession tables that can be copied between quotes as they are: printable ASCII without `"` or `\`. */
const PLAIN_ACCESSIONS = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;
const plainTables = new WeakMap<AccessionTable, boolean>();

function isPlain(table: AccessionTable): boolean {
  let plain = plainTables.get(table);
  if (plain === undefined) plainTables.set(table, (plain = PLAIN_ACCESSIONS.test(table.accessions)));
  return plain;
}

/** Which ranks an answer keeps (accessionFilter.ts's filters). */
export interface RankFilter {
  keeps(rank: number): boolean;
}

/** Something text is written to: a range of a string, or of bytes holding ASCII, at a time (AsciiWriter, or UTF-8). */
export interface TextSink {
  write(text: string, from?: number, to?: number): void;
  copy(bytes: Uint8Array, from: number, to: number): void;
}

/**
 * A page's accessions as records of `stride` bytes in rank order — a length byte, the accession's ASCII, and its
 * taxId in the last 4 bytes: answers list ranks in no order, and where a rank's text, its two ends and its taxId are
 * four places in memory, its record is one. Filled when made, in one pass in rank order: filling each record on its
 * first use, at random, costs more than the whole pass.
 */
class Records {
  readonly bytes: Uint8Array;
  /** The same memory as a DataView, for copyRun. */
  readonly view: DataView;
  /** The same memory as 32-bit integers: record i's taxId is at (i + 1) × stride / 4 − 1. */
  private readonly taxIds: Int32Array;

  /** `stride`: a power of 2, at least 8, and room for the longest accession (1 + its length + 4). */
  constructor(
    table: AccessionTable,
    readonly stride: number,
  ) {
    const { accessions, accessionEnds, taxIds } = table;
    this.bytes = new Uint8Array(accessionEnds.length * stride);
    this.view = viewOf(this.bytes);
    this.taxIds = new Int32Array(this.bytes.buffer);
    const words = stride >> 2;
    for (let i = 0, start = 0; i < accessionEnds.length; start = accessionEnds[i++]) {
      const at = i * stride;
      this.bytes[at] = accessionEnds[i] - start;
      for (let k = start; k < accessionEnds[i]; k++) this.bytes[at + 1 + k - start] = accessions.charCodeAt(k);
      this.taxIds[(i + 1) * words - 1] = taxIds[i];
    }
  }

  /** Where record i starts. */
  at(i: number): number {
    return i * this.stride;
  }

  taxId(i: number): number {
    return this.taxIds[(i + 1) * (this.stride >> 2) - 1];
  }
}

/** Widest record: a page with a longer accession (UniProt's are 6 or 10 characters: 16 bytes) is written from its text. */
const MAX_STRIDE = 32;
/** The longest accession a record holds. */
export const MAX_ACCESSION_BYTES = MAX_STRIDE - 5;
const recordsOfTable = new WeakMap<AccessionTable, Records | null>();

/** The page's records (made and filled once per page), or null for a page not plain or with an accession too long for them. */
function recordsOf(table: AccessionTable): Records | null {
  let records = recordsOfTable.get(table);
  if (records !== undefined) return records;
  const { accessionEnds } = table;
  let longest = 0;
  for (let a = 0, start = 0; a < accessionEnds.length; start = accessionEnds[a++])
    longest = Math.max(longest, accessionEnds[a] - start);
  let stride = 8;
  while (stride < 1 + longest + 4) stride *= 2;
  records = stride <= MAX_STRIDE && isPlain(table) ? new Records(table, stride) : null;
  recordsOfTable.set(table, records);
  return records;
}

/** Memory a page's records take (made now if they were not): what a cache charges for them beside the page. */
export const recordBytes = (table: AccessionTable) => recordsOf(table)?.bytes.byteLength ?? 0;

export class AccessionSet {
  private readonly firsts: number[];
  private readonly tables: AccessionTable[];
  /** Each page's records, or null where it has none. */
  private readonly records: (Records | null)[];
  /** Whether every accession held needs no JSON escapes (printable ASCII without `"` or `\`). */
  readonly plain: boolean;
  /** Whether every page has records (so is plain): putAccession writes any rank held. */
  readonly recorded: boolean;
  /** Room to order a peptide's accessions in (listed returns a view of it). */
  private scratch = new Uint32Array(64);
  /** views[n]: the first n ranks of `scratch`, made once (a view made per peptide would be an allocation each). */
  private views: Uint32Array[] = [];
  /** What touch read last (the sum of its reads, kept so that they are not optimized away). */
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: written so that touch's reads are not optimized away
  private touched = 0;

  /** `runs`: pages by ascending first rank, none overlapping. */
  constructor(runs: readonly AccessionRun[]) {
    this.firsts = runs.map((run) => run.first);
    this.tables = runs.map((run) => run.table);
    this.plain = this.tables.every(isPlain);
    this.records = this.tables.map(recordsOf);
    this.recorded = this.records.every((records) => records !== null);
  }

  /** Index of the page holding rank a, or -1 when the set holds none. */
  private find(a: number): number {
    const { firsts } = this;
    let low = 0; // the last page starting at or before a, by binary search (the last page at once)
    let high = firsts.length - 1;
    if (high > 0 && a < firsts[high]) {
      while (low < high) {
        const mid = (low + high + 1) >>> 1;
        if (firsts[mid] <= a) low = mid;
        else high = mid - 1;
      }
    } else {
      low = high;
    }
    return low >= 0 && a >= firsts[low] && a - firsts[low] < this.tables[low].taxIds.length ? low : -1;
  }

  /** Index of the page holding rank a; throws when the set does not hold it (a rank no page was read for: a bug). */
  private pageOf(a: number): number {
    const k = this.find(a);
    if (k < 0) throw new Error(`accession rank ${a} was not read for this answer`);
    return k;
  }

  /** Whether the set holds rank a. */
  has(a: number): boolean {
    return this.find(a) >= 0;
  }

  accession(a: number): string {
    const k = this.pageOf(a);
    return accessionOf(this.tables[k], a - this.firsts[k]);
  }

  /** Writes accession a's text to `out` (no string made). */
  writeAccession(out: TextSink, a: number): void {
    const k = this.pageOf(a);
    const i = a - this.firsts[k];
    const records = this.records[k];
    if (records) {
      const at = records.at(i);
      out.copy(records.bytes, at + 1, at + 1 + records.bytes[at]);
    } else {
      const { accessions, accessionEnds } = this.tables[k];
      out.write(accessions, i === 0 ? 0 : accessionEnds[i - 1], accessionEnds[i]);
    }
  }

  /**
   * Copies accession a's text into `to` from `at` on, returning where it ends: for a `recorded` set, into a buffer
   * with room for MAX_ACCESSION_BYTES more.
   */
  putAccession(to: DataView, at: number, a: number): number {
    const k = this.pageOf(a);
    const records = this.records[k]!;
    const from = records.at(a - this.firsts[k]);
    return copyRun(to, at, records.view, from + 1, from + 1 + records.bytes[from]);
  }

  /**
   * Reads the record of each accession of peptides from..to-1 of `shard` before they are written, when the set is
   * one page with records: records of random ranks are far apart in memory, and reads that do not wait for one another
   * overlap, where a write each would wait for its own.
   */
  touch(shard: Shard, from: number, to: number): void {
    const records = this.records.length === 1 ? this.records[0] : null;
    if (!records || this.firsts[0] !== 0) return;
    const { accessionRefs, accessionRefEnds } = shard;
    const { bytes, stride } = records;
    const end = to === 0 ? 0 : accessionRefEnds[to - 1];
    let lengths = 0;
    for (let r = from === 0 ? 0 : accessionRefEnds[from - 1]; r < end; r++) lengths += bytes[accessionRefs[r] * stride];
    this.touched = lengths;
  }

  /** NCBI taxId of rank a; -1 when unknown. */
  taxId(a: number): number {
    const k = this.pageOf(a);
    const [i, records] = [a - this.firsts[k], this.records[k]];
    return records ? records.taxId(i) : this.tables[k].taxIds[i];
  }

  reviewed(a: number): boolean {
    const k = this.pageOf(a);
    return this.tables[k].reviewed[a - this.firsts[k]] === 1;
  }

  /** Whether accession a sorts before accession b (by character code, as the build sorts accessions). */
  before(a: number, b: number): boolean {
    const [ka, kb] = [this.pageOf(a), this.pageOf(b)];
    const [x, y] = [this.tables[ka], this.tables[kb]];
    const [i, j] = [a - this.firsts[ka], b - this.firsts[kb]];
    const [rx, ry] = [this.records[ka], this.records[kb]];
    if (rx && ry) {
      const [p, q] = [rx.at(i), ry.at(j)];
      const [pLength, qLength] = [rx.bytes[p], ry.bytes[q]];
      for (let t = 1; t <= pLength && t <= qLength; t++) {
        const [c, d] = [rx.bytes[p + t], ry.bytes[q + t]];
        if (c !== d) return c < d;
      }
      return pLength < qLength;
    }
    let p = i === 0 ? 0 : x.accessionEnds[i - 1];
    let q = j === 0 ? 0 : y.accessionEnds[j - 1];
    const [pEnd, qEnd] = [x.accessionEnds[i], y.accessionEnds[j]];
    for (; p < pEnd && q < qEnd; p++, q++) {
      const [c, d] = [x.accessions.charCodeAt(p), y.accessions.charCodeAt(q)];
      if (c !== d) return c < d;
    }
    return pEnd - p < qEnd - q;
  }

  /** `ranks` put in the order of their accessions, in place (and returned). */
  sort(ranks: Uint32Array): Uint32Array {
    if (ranks.length <= 16) {
      for (let i = 1; i < ranks.length; i++) {
        const a = ranks[i];
        let j = i;
        for (; j > 0 && this.before(a, ranks[j - 1]); j--) ranks[j] = ranks[j - 1];
        ranks[j] = a;
      }
      return ranks;
    }
    ranks.set(Array.from(ranks).sort((a, b) => (this.before(a, b) ? -1 : this.before(b, a) ? 1 : 0)));
    return ranks;
  }

  /**
   * Peptide p's accessions as an answer lists them — those `filter` keeps (all without one), by accession — as ranks
   * in a view of this set's scratch room: read it before the next call.
   */
  listed(shard: Shard, p: number, filter?: RankFilter): Uint32Array {
    const [from, to] = [p === 0 ? 0 : shard.accessionRefEnds[p - 1], shard.accessionRefEnds[p]];
    if (to - from > this.scratch.length) [this.scratch, this.views] = [new Uint32Array(2 * (to - from)), []];
    let n = 0;
    for (let r = from; r < to; r++)
      if (!filter || filter.keeps(shard.accessionRefs[r])) this.scratch[n++] = shard.accessionRefs[r];
    return this.sort((this.views[n] ??= this.scratch.subarray(0, n)));
  }
}

/** The set of an answer that lists no accession. */
export const NO_ACCESSIONS = new AccessionSet([]);

/** Gives `add` the ranks of the accessions of peptides from..to-1 of `shard` that `filter` keeps (all without one). */
export function addPeptideRanks(
  shard: Shard,
  from: number,
  to: number,
  add: (rank: number) => void,
  filter?: RankFilter,
): void {
  for (
    let r = from === 0 ? 0 : shard.accessionRefEnds[from - 1], end = to === 0 ? 0 : shard.accessionRefEnds[to - 1];
    r < end;
    r++
  ) {
    if (!filter || filter.keeps(shard.accessionRefs[r])) add(shard.accessionRefs[r]);
  }
}

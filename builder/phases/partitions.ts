// Mass-range partitions on disk: digested peptides spill here, then each partition is sorted and grouped
// on its own, so no step of the build holds more than one partition's peptides in memory. A partition is a
// 20 Da bucket of mass keys, or one of 2, 4, 8, ... near-equal parts it is cut into where the input is dense
// (PartitionPlan), so a partition holds about PARTITION_BYTES of records however large the input grows.
import { appendFileSync, closeSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';

/** Width of a mass bucket in keys (20 Da): partitions are buckets or parts of one; slices are runs of buckets. */
export const PARTITION_KEYS = 200_000;
/**
 * Most parts a bucket is cut into: 2^17 (each part then holds a key or two), far beyond any real input's density.
 */
export const MAX_SPLIT_SHIFT = 17;
/**
 * Bytes of records (digested peptides, repeats included, as the partition runs hold them) a partition is planned
 * to hold at most: a little over the densest 20 Da bucket of a Swiss-Prot-sized input, so such an input is not
 * split and merging a partition costs what it costs there at any input size. Bytes, not records: merging costs per
 * record and per byte, and a record of a 4,000 Da bucket is twice as long as one of 1,000 Da, so a plan of records
 * would let the heavy partitions of larger inputs cost more than the light ones.
 */
export const PARTITION_BYTES = 10_000_000;

/**
 * How the key line is cut into partitions: bucket c (keys [c, c+1) × PARTITION_KEYS) is cut into P = 2^shift[c]
 * near-equal parts (shift 0 past the array): with W = PARTITION_KEYS, part k holds the keys whose offset o in the
 * bucket has ⌊o·P/W⌋ = k, i.e. o in [⌈k·W/P⌉, ⌈(k+1)·W/P⌉) (equal parts of W/P keys while P divides W, up to
 * 64). A partition is named by its lowest key, so names ascend with mass.
 */
export class PartitionPlan {
  constructor(readonly shifts: Uint8Array = new Uint8Array(0)) {}

  private partsOf(bucket: number): number {
    return 2 ** (bucket < this.shifts.length ? this.shifts[bucket] : 0);
  }

  /** The partition holding `key` (its lowest key). */
  partitionOf(key: number): number {
    const bucket = Math.floor(key / PARTITION_KEYS);
    const parts = this.partsOf(bucket);
    const low = bucket * PARTITION_KEYS;
    return low + firstOffset(Math.floor(((key - low) * parts) / PARTITION_KEYS), parts);
  }

  /** Keys in `partition` (a partition's lowest key). */
  widthOf(partition: number): number {
    const bucket = Math.floor(partition / PARTITION_KEYS);
    const parts = this.partsOf(bucket);
    const offset = partition - bucket * PARTITION_KEYS;
    return firstOffset(Math.floor((offset * parts) / PARTITION_KEYS) + 1, parts) - offset;
  }

  /** Partitions the plan cuts its buckets into (each bucket past the array counts once). */
  get partitions(): number {
    return this.shifts.reduce((sum, shift) => sum + 2 ** shift, 0);
  }
}

/** The lowest key offset in its bucket of part `k` of `parts`: ⌈k·W/parts⌉ (exact: k·W < 2^53). */
const firstOffset = (k: number, parts: number) => Math.ceil((k * PARTITION_KEYS) / parts);

/**
 * The plan for a sample of record bytes per bucket taking one protein in `sampleEvery`: each bucket split until its
 * estimate is ≤ `bytes`.
 */
export function planPartitions(
  sampledBytes: ReadonlyMap<number, number>,
  sampleEvery: number,
  bytes = PARTITION_BYTES,
): PartitionPlan {
  const shifts = new Uint8Array(Math.max(0, ...sampledBytes.keys()) + 1);
  for (const [bucket, sampled] of sampledBytes) {
    let shift = 0;
    while (shift < MAX_SPLIT_SHIFT && (sampled * sampleEvery) / 2 ** shift > bytes) shift++;
    shifts[bucket] = shift;
  }
  return new PartitionPlan(shifts);
}

/**
 * The mass keys a partitioned build's part keeps (builder/phases/slices.ts): [lowKey, highKey), highKey Infinity for
 * the last.
 */
export interface KeySlice {
  lowKey: number;
  highKey: number;
}

/**
 * Record layout in a partition run: u32 LE mass key, u32 LE protein ordinal, u16 LE length (its top two bits the
 * peptide's places in the protein, builder/inputs/digest.ts), ASCII sequence.
 */
export const RECORD_HEADER = 10;
/** Where a record's places sit in its length field (lengths stay below 2^14: the build caps them at 1,000). */
const PLACES_SHIFT = 14;
const LENGTH_MASK = (1 << PLACES_SHIFT) - 1;
/** The sequence length of the record at `at`. */
const lengthAt = (data: Buffer, at: number) => data.readUInt16LE(at + 8) & LENGTH_MASK;
/**
 * Buffer of one partition: 64 KB, less when there are over 256 partitions, so a writer's buffers stay
 * within 16 MB however many partitions a large input has (at least 4 KB each).
 */
const bufferBytes = (partitions: number) =>
  Math.max(1 << 12, Math.min(1 << 16, Math.floor((1 << 24) / Math.max(1, partitions))));

/** Where a run of one partition's records lies: `length` bytes at `start` of a writer's file. */
export interface Segment {
  file: string;
  start: number;
  length: number;
}

/** The bytes of `segments`, one after another. */
export function readSegments(segments: readonly Segment[]): Buffer {
  const data = Buffer.allocUnsafe(segments.reduce((sum, s) => sum + s.length, 0));
  let at = 0;
  const fds = new Map<string, number>();
  try {
    for (const { file, start, length } of segments) {
      let fd = fds.get(file);
      if (fd === undefined) fds.set(file, (fd = openSync(file, 'r')));
      for (let done = 0; done < length; ) done += readSync(fd, data, at + done, length - done, start + done);
      at += length;
    }
  } finally {
    for (const fd of fds.values()) closeSync(fd);
  }
  return data;
}

/**
 * Appends digested peptides, partition by partition, to one file per writer (one writer per worker thread and key
 * line), and keeps where each partition's runs lie: one file, not one per partition, since creating a file costs
 * far more than appending to one and a small input's records spread over thousands of partitions.
 */
export class PartitionWriter {
  private buffers = new Map<number, { bytes: Buffer; used: number }>();
  readonly partitions = new Set<number>();
  /** Each partition's runs in this writer's file, in the order written. */
  readonly segments = new Map<number, Segment[]>();
  records = 0;
  readonly file: string;
  private fileBytes = 0;

  private readonly bufferBytes: number;

  /**
   * Writes into the partitions of `plan`, keeping only peptides whose key is in `keys` (a part's slice; all by
   * default).
   */
  constructor(
    dir: string,
    writer: string,
    private plan = new PartitionPlan(),
    private keys: KeySlice = { lowKey: 0, highKey: Infinity },
  ) {
    this.bufferBytes = bufferBytes(plan.partitions);
    this.file = join(dir, `${writer}.bin`);
  }

  add(key: number, ordinal: number, sequence: string, places: number): void {
    if (key < this.keys.lowKey || key >= this.keys.highKey) return;
    const partition = this.plan.partitionOf(key);
    let buffer = this.buffers.get(partition);
    const size = RECORD_HEADER + sequence.length;
    if (buffer && buffer.used + size > buffer.bytes.length) {
      this.write(partition, buffer);
      buffer.used = 0;
    }
    if (!buffer) {
      buffer = { bytes: Buffer.allocUnsafe(Math.max(this.bufferBytes, size)), used: 0 };
      this.buffers.set(partition, buffer);
      this.partitions.add(partition);
    }
    const at = buffer.used;
    buffer.bytes.writeUInt32LE(key, at);
    buffer.bytes.writeUInt32LE(ordinal, at + 4);
    buffer.bytes.writeUInt16LE(sequence.length | (places << PLACES_SHIFT), at + 8);
    buffer.bytes.write(sequence, at + RECORD_HEADER, 'latin1');
    buffer.used += size;
    this.records++;
  }

  /** Writes every buffered record out; the writer stays usable. */
  flush(): void {
    for (const [partition, buffer] of this.buffers) this.write(partition, buffer);
    this.buffers.clear();
  }

  private write(partition: number, buffer: { bytes: Buffer; used: number }): void {
    if (buffer.used === 0) return;
    appendFileSync(this.file, buffer.bytes.subarray(0, buffer.used));
    const segment = { file: this.file, start: this.fileBytes, length: buffer.used };
    const runs = this.segments.get(partition);
    if (runs) runs.push(segment);
    else this.segments.set(partition, [segment]);
    this.fileBytes += buffer.used;
  }
}

/**
 * Record indexes ordered by key offset: a counting sort when the records are many for the partition's width, else a
 * comparison sort (a small input's partitions span millions of empty keys).
 */
function byOffset(offsets: Uint32Array, width: number): Uint32Array {
  const n = offsets.length;
  const order = new Uint32Array(n);
  if (n * 16 < width) {
    for (let r = 0; r < n; r++) order[r] = r;
    return order.sort((a, b) => offsets[a] - offsets[b]);
  }
  const bucketStarts = new Uint32Array(width + 1);
  for (let r = 0; r < n; r++) bucketStarts[offsets[r] + 1]++;
  for (let k = 0; k < width; k++) bucketStarts[k + 1] += bucketStarts[k];
  for (let r = 0; r < n; r++) order[bucketStarts[offsets[r]]++] = r;
  return order;
}

/** The distinct peptides of one partition, sorted by (mass key, sequence), as columns. */
export interface PartitionPeptides {
  keys: Uint32Array;
  sequences: string;
  sequenceEnds: Uint32Array;
  rankEnds: Uint32Array;
  /** Accession ranks (position in the sorted accession list) of each peptide, ascending and unique. */
  ranks: Uint32Array;
  /** Per rank: where the peptide lies in that accession's protein (AT_PROTEIN_START, AT_INSIDE, or both). */
  rankPlaces: Uint8Array;
}

/**
 * Reads the segments of the partition of keys [partition, partition + width), sorts its records by (key, sequence) and
 * merges records of the same sequence into one peptide whose accessions are the ranks of its proteins
 * (`rankOf[ordinal]`), sorted and unique. Sequences stay bytes of the files (ASCII: byte order is string order), so a
 * partition costs its bytes and a few typed arrays, not a JavaScript string a record.
 */
export function mergePartition(
  segments: readonly Segment[],
  partition: number,
  width: number,
  rankOf: Uint32Array,
): PartitionPeptides {
  const data = readSegments(segments);
  let n = 0;
  for (let at = 0; at < data.length; at += RECORD_HEADER + lengthAt(data, at)) n++;
  const base = partition;
  const offsets = new Uint32Array(n);
  const ranks = new Uint32Array(n);
  const places = new Uint8Array(n);
  /** Where each record's sequence starts in `data`, and its end. */
  const starts = new Uint32Array(n);
  const ends = new Uint32Array(n);
  for (let i = 0, at = 0; i < n; i++) {
    offsets[i] = data.readUInt32LE(at) - base;
    const ordinal = data.readUInt32LE(at + 4);
    ranks[i] = rankOf[ordinal];
    places[i] = data.readUInt16LE(at + 8) >> PLACES_SHIFT;
    starts[i] = at + RECORD_HEADER;
    ends[i] = starts[i] + lengthAt(data, at);
    at = ends[i];
  }
  const order = byOffset(offsets, width);
  const bySequence = (a: number, b: number) => data.compare(data, starts[b], ends[b], starts[a], ends[a]);
  const bySequenceThenRank = (a: number, b: number) => bySequence(a, b) || ranks[a] - ranks[b];

  const keys = new Uint32Array(n);
  const sequenceEnds = new Uint32Array(n);
  const rankEnds = new Uint32Array(n);
  const peptideRanks = new Uint32Array(n);
  const rankPlaces = new Uint8Array(n);
  const text = Buffer.allocUnsafe(data.length);
  let [peptides, textLength, rankCount] = [0, 0, 0];
  for (let start = 0; start < n; ) {
    const offset = offsets[order[start]];
    let end = start + 1;
    while (end < n && offsets[order[end]] === offset) end++;
    const bucket = order.subarray(start, end).sort(bySequenceThenRank);
    start = end;
    for (let j = 0; j < bucket.length; j++) {
      const r = bucket[j];
      const isNew = j === 0 || bySequence(r, bucket[j - 1]) !== 0;
      if (isNew) {
        keys[peptides] = base + offset;
        textLength += data.copy(text, textLength, starts[r], ends[r]);
        sequenceEnds[peptides++] = textLength;
      }
      // Records of one accession (repeated in the input) merge into one reference, their places joined.
      if (isNew || ranks[r] !== ranks[bucket[j - 1]]) peptideRanks[rankCount++] = ranks[r];
      rankPlaces[rankCount - 1] |= places[r];
      rankEnds[peptides - 1] = rankCount;
    }
  }
  return {
    keys: keys.slice(0, peptides),
    sequences: text.toString('latin1', 0, textLength),
    sequenceEnds: sequenceEnds.slice(0, peptides),
    rankEnds: rankEnds.slice(0, peptides),
    ranks: peptideRanks.slice(0, rankCount),
    rankPlaces: rankPlaces.slice(0, rankCount),
  };
}

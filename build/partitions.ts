// Mass-range partitions on disk: digested peptides spill here, then each partition is sorted and grouped
// on its own, so no step of the build holds more than one partition's peptides in memory.
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { digest, type DigestOptions } from './digest.js';
import { massKey } from '../runtime/model/massKey.js';

/** Width of one partition in mass keys (20 Da). A partition holds every peptide whose key / width is its id. */
export const PARTITION_KEYS = 200_000;

/** The mass keys a partitioned build's part keeps (build/slices.ts): [lowKey, highKey), highKey Infinity for the last. */
export interface KeySlice {
  lowKey: number;
  highKey: number;
}

/** Record layout in a partition file: u32 LE mass key, u32 LE protein ordinal, u16 LE length, ASCII sequence. */
const RECORD_HEADER = 10;
const BUFFER_BYTES = 1 << 16;

export function partitionFile(dir: string, writer: string, partition: number): string {
  return join(dir, `${writer}-${partition}.bin`);
}

/** Appends digested peptides to the partition files of one writer (one per worker thread). */
export class PartitionWriter {
  private buffers = new Map<number, { bytes: Buffer; used: number }>();
  readonly partitions = new Set<number>();
  records = 0;

  /** Keeps only peptides whose key is in `keys` (a part's slice; the whole mass line by default). */
  constructor(
    private dir: string,
    private writer: string,
    private keys: KeySlice = { lowKey: 0, highKey: Infinity },
  ) {}

  /** Digests each protein (ordinals firstOrdinal, firstOrdinal+1, ...) into the partitions. */
  digestProteins(firstOrdinal: number, proteins: readonly string[], options: DigestOptions): void {
    proteins.forEach((protein, i) => {
      digest(protein, options, ({ sequence, units }) => this.add(massKey(units), firstOrdinal + i, sequence));
    });
  }

  add(key: number, ordinal: number, sequence: string): void {
    if (key < this.keys.lowKey || key >= this.keys.highKey) return;
    const partition = Math.floor(key / PARTITION_KEYS);
    let buffer = this.buffers.get(partition);
    const size = RECORD_HEADER + sequence.length;
    if (buffer && buffer.used + size > buffer.bytes.length) {
      this.write(partition, buffer);
      buffer.used = 0;
    }
    if (!buffer) {
      buffer = { bytes: Buffer.allocUnsafe(Math.max(BUFFER_BYTES, size)), used: 0 };
      this.buffers.set(partition, buffer);
      this.partitions.add(partition);
    }
    const at = buffer.used;
    buffer.bytes.writeUInt32LE(key, at);
    buffer.bytes.writeUInt32LE(ordinal, at + 4);
    buffer.bytes.writeUInt16LE(sequence.length, at + 8);
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
    if (buffer.used > 0) appendFileSync(partitionFile(this.dir, this.writer, partition), buffer.bytes.subarray(0, buffer.used));
  }
}

/** The distinct peptides of one partition, sorted by (mass key, sequence), as columns. */
export interface PartitionPeptides {
  keys: Uint32Array;
  sequences: string;
  sequenceEnds: Uint32Array;
  rankEnds: Uint32Array;
  /** Accession ranks (position in the sorted accession list) of each peptide, ascending and unique. */
  ranks: Uint32Array;
}

/**
 * Reads a partition's files, sorts its records by (key, sequence) and merges records of the same sequence
 * into one peptide whose accessions are the ranks of its proteins (`rankOf[ordinal]`), sorted and unique.
 */
export function mergePartition(files: readonly string[], partition: number, rankOf: Uint32Array): PartitionPeptides {
  const chunks = files.map((file) => readFileSync(file));
  let n = 0;
  for (const chunk of chunks) for (let at = 0; at < chunk.length; at += RECORD_HEADER + chunk.readUInt16LE(at + 8)) n++;
  const base = partition * PARTITION_KEYS;
  const offsets = new Uint32Array(n);
  const ranks = new Uint32Array(n);
  const sequences: string[] = new Array(n);
  // Counting sort by key offset inside the partition, then a small comparison sort per key.
  const bucketStarts = new Uint32Array(PARTITION_KEYS + 1);
  let i = 0;
  for (const chunk of chunks) {
    for (let at = 0; at < chunk.length; i++) {
      const length = chunk.readUInt16LE(at + 8);
      offsets[i] = chunk.readUInt32LE(at) - base;
      ranks[i] = rankOf[chunk.readUInt32LE(at + 4)];
      sequences[i] = chunk.toString('latin1', at + RECORD_HEADER, at + RECORD_HEADER + length);
      bucketStarts[offsets[i] + 1]++;
      at += RECORD_HEADER + length;
    }
  }
  for (let k = 0; k < PARTITION_KEYS; k++) bucketStarts[k + 1] += bucketStarts[k];
  const order = new Uint32Array(n);
  const fill = bucketStarts.slice(0, PARTITION_KEYS);
  for (let r = 0; r < n; r++) order[fill[offsets[r]]++] = r;
  const bySequenceThenRank = (a: number, b: number) =>
    sequences[a] < sequences[b] ? -1 : sequences[a] > sequences[b] ? 1 : ranks[a] - ranks[b];

  const keys: number[] = [];
  const sequenceEnds: number[] = [];
  const rankEnds: number[] = [];
  const peptideRanks: number[] = [];
  const text: string[] = [];
  let textLength = 0;
  for (let k = 0; k < PARTITION_KEYS; k++) {
    const start = bucketStarts[k];
    const end = bucketStarts[k + 1];
    if (start === end) continue;
    const bucket = Array.from(order.subarray(start, end)).sort(bySequenceThenRank);
    for (let j = 0; j < bucket.length; j++) {
      const r = bucket[j];
      const isNew = j === 0 || sequences[r] !== sequences[bucket[j - 1]];
      if (isNew) {
        keys.push(base + k);
        text.push(sequences[r]);
        textLength += sequences[r].length;
        sequenceEnds.push(textLength);
        rankEnds.push(peptideRanks.length);
      }
      if (isNew || ranks[r] !== ranks[bucket[j - 1]]) peptideRanks.push(ranks[r]);
      rankEnds[rankEnds.length - 1] = peptideRanks.length;
    }
  }
  return {
    keys: Uint32Array.from(keys),
    sequences: text.join(''),
    sequenceEnds: Uint32Array.from(sequenceEnds),
    rankEnds: Uint32Array.from(rankEnds),
    ranks: Uint32Array.from(peptideRanks),
  };
}

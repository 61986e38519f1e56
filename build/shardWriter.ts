// Cuts the mass-ordered stream of peptides into shards of about a target size, at mass-group boundaries,
// and writes each as a content-hashed msgpack file.
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodeShard } from '../runtime/model/shardEncoder.js';
import { residueMaxOf, shardFileName, type ShardEntry } from '../runtime/model/format.js';
import type { RankedAccessions } from './accessions.js';
import type { PartitionPeptides } from './partitions.js';

/** By rank: accession (ascending), taxId (-1 unknown) and reviewed flag (1/0), as shard tables copy them. */
export type AccessionColumns = Pick<RankedAccessions, 'sorted' | 'taxIds' | 'reviewed'>;

export class ShardWriter {
  readonly shards: ShardEntry[] = [];
  bytes = 0;
  // The shard being filled: one entry per peptide, plus the group boundaries.
  private keys: number[] = [];
  private groupEnds: number[] = [];
  private sequences: string[] = [];
  private ranks: number[][] = [];
  /** Accession ranks the shard being filled uses: its accession table. */
  private tableRanks = new Set<number>();
  /** Encoded size of the shard being filled, column by column (msgpack's framing adds ~150 bytes). */
  private estimate = 0;

  private readonly accessions: readonly string[];

  constructor(
    private dir: string,
    private shardBytes: number,
    private columns: AccessionColumns,
  ) {
    this.accessions = columns.sorted;
  }

  /** Adds a partition's peptides; partitions must come in ascending mass order. */
  add(part: PartitionPeptides): void {
    for (let p = 0; p < part.keys.length; p++) {
      const key = part.keys[p];
      const lastKey = this.keys[this.keys.length - 1];
      if (lastKey !== undefined && key !== lastKey) {
        this.groupEnds.push(this.keys.length);
        if (this.estimate >= this.shardBytes) this.cut();
      }
      if (key !== this.keys[this.keys.length - 1]) this.estimate += 8; // massKeys and groupEnds
      const sequence = part.sequences.slice(p === 0 ? 0 : part.sequenceEnds[p - 1], part.sequenceEnds[p]);
      const ranks = Array.from(part.ranks.subarray(p === 0 ? 0 : part.rankEnds[p - 1], part.rankEnds[p]));
      this.keys.push(key);
      this.sequences.push(sequence);
      this.ranks.push(ranks);
      // The sequence, its sequenceEnds and accessionRefEnds entries, its accessionRefs, and a table entry
      // (the accession, accessionEnds, taxIds, reviewed) for each accession new to this shard.
      this.estimate += sequence.length + 8 + ranks.length * 4;
      for (const rank of ranks) {
        if (this.tableRanks.has(rank)) continue;
        this.tableRanks.add(rank);
        this.estimate += this.accessions[rank].length + 9;
      }
    }
  }

  /** Writes the last shard. */
  finish(): void {
    if (this.keys.length === 0) return;
    this.groupEnds.push(this.keys.length);
    this.cut();
  }

  /** Writes the current shard: complete mass groups only (callers close the last group first). */
  private cut(): void {
    const usedRanks = [...this.tableRanks].sort((a, b) => a - b);
    const local = new Map(usedRanks.map((rank, i) => [rank, i]));
    const groupStarts = [0, ...this.groupEnds.slice(0, -1)];
    let sequenceEnd = 0;
    let refEnd = 0;
    let accessionEnd = 0;
    const bytes = encodeShard({
      massKeys: Uint32Array.from(groupStarts, (start) => this.keys[start]),
      groupEnds: Uint32Array.from(this.groupEnds),
      sequences: this.sequences.join(''),
      sequenceEnds: Uint32Array.from(this.sequences, (s) => (sequenceEnd += s.length)),
      accessionRefEnds: Uint32Array.from(this.ranks, (r) => (refEnd += r.length)),
      accessionRefs: Uint32Array.from(this.ranks.flat(), (rank) => local.get(rank)!),
      accessions: usedRanks.map((rank) => this.accessions[rank]).join(''),
      accessionEnds: Uint32Array.from(usedRanks, (rank) => (accessionEnd += this.accessions[rank].length)),
      taxIds: Int32Array.from(usedRanks, (rank) => this.columns.taxIds[rank]),
      reviewed: Uint8Array.from(usedRanks, (rank) => this.columns.reviewed[rank]),
    });
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const file = shardFileName(sha256);
    writeFileSync(join(this.dir, file), bytes);
    this.shards.push({
      file,
      firstKey: this.keys[0],
      lastKey: this.keys[this.keys.length - 1],
      massGroups: this.groupEnds.length,
      peptides: this.keys.length,
      bytes: bytes.length,
      sha256,
      residueMax: residueMaxOf(this.sequences),
    });
    this.bytes += bytes.length;
    this.keys = [];
    this.sequences = [];
    this.ranks = [];
    this.groupEnds = [];
    this.tableRanks = new Set();
    this.estimate = 0;
  }
}

// Cuts the mass-ordered stream of peptides into shards of about a target size (before compression), at
// mass-group boundaries and at the cut keys, and writes each as a compressed, content-named file whose
// accessions are ranks; each shard's entry goes to a sink as it is written (the streamed shard index of a single
// build, or a part's list), so the writer keeps none.
import { residueMaxOf, shardFileName, type ShardEntry } from '../../runtime/model/format.js';
import { encodeShard } from '../../runtime/model/shardEncoder.js';
import { writeDatasetFile, type Storage } from './datasetFile.js';
import type { PartitionPeptides } from '../phases/partitions.js';
import { AT_INSIDE, AT_PROTEIN_START } from '../../runtime/model/proteinStarts.js';

/** Bytes of the varint of `value`. */
const varintBytes = (value: number) =>
  value < 0x80 ? 1 : value < 0x4000 ? 2 : value < 0x200000 ? 3 : value < 0x10000000 ? 4 : 5;

/** Where the entries of the shards written go, in mass order. */
export interface ShardSink {
  add(entry: ShardEntry): void;
}

/** The sink of a part of a partitioned build (its part.json lists them): every entry, kept, and their stored bytes. */
export class ShardList implements ShardSink {
  readonly shards: ShardEntry[] = [];
  bytes = 0;

  add(entry: ShardEntry): void {
    this.shards.push(entry);
    this.bytes += entry.bytes;
  }
}

export class ShardWriter {
  /** Shards written so far. */
  written = 0;
  // The shard being filled: one entry per peptide, plus the group boundaries.
  private keys: number[] = [];
  private groupEnds: number[] = [];
  private sequences: string[] = [];
  private ranks: number[] = [];
  private rankEnds: number[] = [];
  /** The references that start their protein, and whether each also lies inside it. */
  private startRefs: number[] = [];
  private startRefsInside: number[] = [];
  /** Encoded size of the shard being filled, before compression (without msgpack's few bytes of framing). */
  private estimate = 0;

  /** The next cut key at or past the shard being filled (cuts[length] is undefined: no cut). */
  private nextCut = 0;

  /** `cuts`: ascending cut keys (builder/phases/slices.ts), where a shard ends even before it is full. */
  constructor(
    private dir: string,
    private shardBytes: number,
    private storage: Storage,
    private sink: ShardSink,
    private cuts: readonly number[] = [],
  ) {}

  /**
   * Adds a partition's peptides; partitions must come in ascending mass order. A shard never spans a cut key:
   * cutting there is what lets a partitioned build (builder/phases/slices.ts) write exactly the shards of a single one.
   */
  add(part: PartitionPeptides): void {
    if (part.keys.length > 0 && part.keys[0] >= this.cuts[this.nextCut]) {
      this.finish();
      while (part.keys[0] >= this.cuts[this.nextCut]) this.nextCut++;
    }
    for (let p = 0; p < part.keys.length; p++) {
      const key = part.keys[p];
      const lastKey = this.keys[this.keys.length - 1];
      if (lastKey !== undefined && key !== lastKey) {
        this.groupEnds.push(this.keys.length);
        if (this.estimate >= this.shardBytes) this.cut();
      }
      const previousKey = this.keys[this.keys.length - 1];
      if (key !== previousKey) this.estimate += varintBytes(key - (previousKey ?? 0)) + 1; // massKeys, groupSizes
      const sequence = part.sequences.slice(p === 0 ? 0 : part.sequenceEnds[p - 1], part.sequenceEnds[p]);
      this.keys.push(key);
      this.sequences.push(sequence);
      const first = p === 0 ? 0 : part.rankEnds[p - 1];
      for (let r = first; r < part.rankEnds[p]; r++) {
        if (part.rankPlaces[r] & AT_PROTEIN_START) {
          this.startRefs.push(this.ranks.length);
          this.startRefsInside.push(part.rankPlaces[r] & AT_INSIDE ? 1 : 0);
          this.estimate += 2;
        }
        this.ranks.push(part.ranks[r]);
        this.estimate += varintBytes(r === first ? part.ranks[r] : part.ranks[r] - part.ranks[r - 1]);
      }
      this.rankEnds.push(this.ranks.length);
      this.estimate += sequence.length + 2; // the sequence, its length and ref count
    }
  }

  /** Writes the shard being filled (the last one). */
  finish(): void {
    if (this.keys.length === 0) return;
    this.groupEnds.push(this.keys.length);
    this.cut();
  }

  /** Writes the current shard: complete mass groups only (callers close the last group first). */
  private cut(): void {
    const groupStarts = [0, ...this.groupEnds.slice(0, -1)];
    let sequenceEnd = 0;
    const entry = writeDatasetFile(
      this.dir,
      encodeShard({
        massKeys: Uint32Array.from(groupStarts, (start) => this.keys[start]),
        groupEnds: Uint32Array.from(this.groupEnds),
        sequences: Buffer.from(this.sequences.join(''), 'latin1'), // capital letters only (the digest's)
        sequenceEnds: Uint32Array.from(this.sequences, (s) => (sequenceEnd += s.length)),
        accessionRefEnds: Uint32Array.from(this.rankEnds),
        accessionRefs: Uint32Array.from(this.ranks),
        startRefs: Uint32Array.from(this.startRefs),
        startRefsInside: Uint8Array.from(this.startRefsInside),
      }),
      shardFileName,
      this.storage,
    );
    // A literal, not a spread: V8 gives spread copies shapes of their own, which add up over millions of shards.
    this.sink.add({
      file: entry.file,
      sha256: entry.sha256,
      bytes: entry.bytes,
      firstKey: this.keys[0],
      lastKey: this.keys[this.keys.length - 1],
      massGroups: this.groupEnds.length,
      peptides: this.keys.length,
      residueMax: residueMaxOf(this.sequences),
    });
    this.written++;
    this.keys = [];
    this.sequences = [];
    this.ranks = [];
    this.rankEnds = [];
    this.startRefs = [];
    this.startRefsInside = [];
    this.groupEnds = [];
    this.estimate = 0;
  }
}

// The compact columns a match batch keeps (match.ts): its tasks — every modification hypothesis of every search,
// hundreds of thousands of them — and the candidates they find, a few dozen bytes each whatever shard they came
// from, so a batch holds no object per hypothesis or candidate and no shard.
import type { Shard } from '../model/format.js';
import { BlockColumn, Column, TextBlocks } from '../model/column.js';
import type { Hypothesis } from './hypotheses.js';

/**
 * The candidates of a batch, of all its searches, as columns in blocks: a few dozen bytes each whatever shard they
 * came from, and growing without copying (a batch of 10,000 ±10 ppm precursors holds millions).
 */
export class Candidates {
  private readonly searches = new BlockColumn((n) => new Uint32Array(n));
  private readonly unitsColumn = new BlockColumn((n) => new Float64Array(n));
  /** Index of the candidate's hypothesis counts in its batch's Tasks.counts. */
  private readonly countsIds = new BlockColumn((n) => new Uint32Array(n));
  private readonly sequences = new TextBlocks();
  private readonly accessionEnds = new BlockColumn((n) => new Uint32Array(n));
  private readonly accessions = new BlockColumn((n) => new Uint32Array(n));

  get length(): number {
    return this.searches.length;
  }

  /** Empties the columns, keeping their memory for the next batch's candidates. */
  clear(): void {
    for (const column of [this.searches, this.unitsColumn, this.countsIds, this.sequences, this.accessionEnds, this.accessions]) column.clear();
  }

  /** Peptide p of `shard` (copied: its sequence, and the accessions `mask` keeps, or all), with its hypothesis's counts id. */
  add(search: number, units: number, countsId: number, shard: Shard, p: number, mask: Uint8Array | undefined): void {
    this.searches.push(search);
    this.unitsColumn.push(units);
    this.countsIds.push(countsId);
    this.sequences.add(shard.sequences, p === 0 ? 0 : shard.sequenceEnds[p - 1], shard.sequenceEnds[p]);
    for (let r = p === 0 ? 0 : shard.accessionRefEnds[p - 1]; r < shard.accessionRefEnds[p]; r++) {
      const a = shard.accessionRefs[r];
      if (!mask || mask[a] === 1) this.accessions.push(a);
    }
    this.accessionEnds.push(this.accessions.length);
  }

  /** Modified mass of candidate i, in units of 1e-10 Da. */
  units(i: number): number {
    return this.unitsColumn.at(i);
  }

  countsId(i: number): number {
    return this.countsIds.at(i);
  }

  /** Candidate i's sequence as bytes: a block and the offsets of its letters there (reused: read before the next call). */
  sequenceBytes(i: number): { bytes: Uint8Array; from: number; to: number } {
    return this.sequences.where(i);
  }

  sequence(i: number): string {
    const { bytes, from, to } = this.sequences.where(i);
    return String.fromCharCode.apply(null, bytes.subarray(from, to) as unknown as number[]);
  }

  /** Candidates a and b by sequence, as strings of their letters compare (< 0, 0, > 0). */
  compareSequences(a: number, b: number): number {
    const { bytes: aBytes, from: aFrom, to: aTo } = this.sequences.where(a);
    const { bytes: bBytes, from: bFrom, to: bTo } = this.sequences.where(b); // where(a)'s object is read: it may be reused
    for (let i = aFrom, j = bFrom; i < aTo && j < bTo; i++, j++) if (aBytes[i] !== bBytes[j]) return aBytes[i] - bBytes[j];
    return aTo - aFrom - (bTo - bFrom);
  }

  /** Candidate i's accessions (ranks in the accession table) are accession(r) for r from accessionEnd(i - 1) to accessionEnd(i). */
  accessionEnd(i: number): number {
    return i < 0 ? 0 : this.accessionEnds.at(i);
  }

  accession(r: number): number {
    return this.accessions.at(r);
  }

  accessionsOf(i: number): Uint32Array {
    const from = this.accessionEnd(i - 1);
    return Uint32Array.from({ length: this.accessionEnd(i) - from }, (_, k) => this.accessions.at(from + k));
  }

  /** Candidate indexes by search: `order` holds them grouped, search s at [starts[s], starts[s + 1]). */
  bySearch(searches: number): { order: Uint32Array; starts: Uint32Array } {
    const starts = new Uint32Array(searches + 1);
    for (let i = 0; i < this.length; i++) starts[this.searches.at(i) + 1]++;
    for (let s = 0; s < searches; s++) starts[s + 1] += starts[s];
    const next = starts.slice(0, searches);
    const order = new Uint32Array(this.length);
    for (let i = 0; i < this.length; i++) order[next[this.searches.at(i)]++] = i;
    return { order, starts };
  }
}

/** A hypothesis's counts of each fixed and variable spec (the few distinct ones of a batch, shared). */
export type CountVectors = Pick<Hypothesis, 'fixedCounts' | 'variableCounts'>;

/** The hypotheses of all the searches of a batch as columns (hundreds of thousands: no object each). */
export class Tasks {
  readonly search = new Column(new Uint32Array(1024));
  readonly shift = new Column(new Float64Array(1024));
  readonly low = new Column(new Float64Array(1024));
  readonly high = new Column(new Float64Array(1024));
  /** Index of the hypothesis's counts in `counts`. */
  readonly countsId = new Column(new Uint32Array(1024));
  readonly counts: CountVectors[] = [];
  private countIds = new Map<string, number>();

  add(search: number, h: Hypothesis): void {
    const text = `${h.fixedCounts}|${h.variableCounts}`;
    let id = this.countIds.get(text);
    if (id === undefined) this.countIds.set(text, (id = this.counts.push({ fixedCounts: h.fixedCounts, variableCounts: h.variableCounts }) - 1));
    this.search.push(search);
    this.shift.push(h.shiftUnits);
    this.low.push(h.baseLowKey);
    this.high.push(h.baseHighKey);
    this.countsId.push(id);
  }

  /** Task ids in ascending order of the lowest unmodified mass they read. */
  inSweepOrder(): Uint32Array {
    const low = this.low.data;
    return Uint32Array.from({ length: this.search.length }, (_, i) => i).sort((a, b) => low[a] - low[b]);
  }

  hypothesis(t: number): Hypothesis {
    const { fixedCounts, variableCounts } = this.counts[this.countsId.data[t]];
    return { fixedCounts, variableCounts, shiftUnits: this.shift.data[t], baseLowKey: this.low.data[t], baseHighKey: this.high.data[t] };
  }
}

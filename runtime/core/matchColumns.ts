// The compact columns a match batch keeps (match.ts): its tasks — every modification hypothesis of every search,
// hundreds of thousands of them — and the candidates they find, a few dozen bytes each whatever shard they came
// from, so a batch holds no object per hypothesis or candidate and no shard.
import type { Shard } from '../model/format.js';
import { Column } from '../model/column.js';
import type { Hypothesis } from './hypotheses.js';

/** The candidates of a batch, of all its searches, as columns: a few dozen bytes each whatever shard they came from. */
export class Candidates {
  readonly search = new Column(new Uint32Array(1024));
  readonly units = new Column(new Float64Array(1024));
  /** Index of the candidate's hypothesis counts in its batch's Tasks.counts. */
  readonly countsId = new Column(new Uint32Array(1024));
  readonly sequenceEnds = new Column(new Uint32Array(1024));
  readonly letters = new Column(new Uint8Array(16384));
  readonly accessionEnds = new Column(new Uint32Array(1024));
  readonly accessions = new Column(new Uint32Array(1024));

  get length(): number {
    return this.search.length;
  }

  /** Peptide p of `shard` (copied: its sequence, and the accessions `mask` keeps, or all), with its hypothesis's counts id. */
  add(search: number, units: number, countsId: number, shard: Shard, p: number, mask: Uint8Array | undefined): void {
    this.search.push(search);
    this.units.push(units);
    this.countsId.push(countsId);
    const [from, to] = [p === 0 ? 0 : shard.sequenceEnds[p - 1], shard.sequenceEnds[p]];
    const letters = this.letters.reserve(to - from);
    for (let i = from, at = this.letters.length; i < to; i++) letters[at++] = shard.sequences.charCodeAt(i);
    this.letters.length += to - from;
    this.sequenceEnds.push(this.letters.length);
    for (let r = p === 0 ? 0 : shard.accessionRefEnds[p - 1]; r < shard.accessionRefEnds[p]; r++) {
      const a = shard.accessionRefs[r];
      if (!mask || mask[a] === 1) this.accessions.push(a);
    }
    this.accessionEnds.push(this.accessions.length);
  }

  sequence(i: number): string {
    return String.fromCharCode.apply(null, this.letters.data.subarray(i === 0 ? 0 : this.sequenceEnds.data[i - 1], this.sequenceEnds.data[i]) as unknown as number[]);
  }

  /** Candidates a and b by sequence, as strings of their letters compare (< 0, 0, > 0). */
  compareSequences(a: number, b: number): number {
    const [ends, letters] = [this.sequenceEnds.data, this.letters.data];
    const [aFrom, aTo, bFrom, bTo] = [a === 0 ? 0 : ends[a - 1], ends[a], b === 0 ? 0 : ends[b - 1], ends[b]];
    for (let i = aFrom, j = bFrom; i < aTo && j < bTo; i++, j++) if (letters[i] !== letters[j]) return letters[i] - letters[j];
    return aTo - aFrom - (bTo - bFrom);
  }

  accessionsOf(i: number): Uint32Array {
    return this.accessions.data.slice(i === 0 ? 0 : this.accessionEnds.data[i - 1], this.accessionEnds.data[i]);
  }

  /** Candidate indexes by search: `order` holds them grouped, search s at [starts[s], starts[s + 1]). */
  bySearch(searches: number): { order: Uint32Array; starts: Uint32Array } {
    const starts = new Uint32Array(searches + 1);
    for (let i = 0; i < this.length; i++) starts[this.search.data[i] + 1]++;
    for (let s = 0; s < searches; s++) starts[s + 1] += starts[s];
    const next = starts.slice(0, searches);
    const order = new Uint32Array(this.length);
    for (let i = 0; i < this.length; i++) order[next[this.search.data[i]]++] = i;
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

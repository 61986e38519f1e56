// The compact columns a match batch keeps (match.ts): its tasks — every modification hypothesis of every search,
// hundreds of thousands of them — and the candidates they find, about 22 bytes each whatever shard they came from,
// so a batch holds no object per hypothesis or candidate and no shard.
import { ranksAt, type Place } from '../../model/proteinStarts.js';
import type { AccessionSet } from '../../model/accessionSet.js';
import type { Shard } from '../../model/format.js';
import { BlockColumn, Column, Ends, TextBlocks } from '../../model/column.js';
import { WATER_UNITS } from '../../model/chemistry.js';
import { packedLength, packedResidueUnits, packLetters, unpackLetters } from '../../model/letterTriples.js';
import type { AccessionFilter } from '../range/accessionFilter.js';
import type { Hypothesis } from '../precursor/hypotheses.js';

/**
 * The candidates of a batch, of all its searches, as columns in blocks: about 22 bytes each whatever shard they
 * came from, growing without copying (a batch of 10,000 ±10 ppm precursors holds millions). A candidate keeps its
 * sequence and accessions; what it shares with the other candidates its hypothesis found — its search, its counts,
 * the mass they add — is kept once per run of candidates added together, and its mass is worked out from its
 * letters when asked for (exactly: integer units).
 */
export class Candidates {
  /** Sequences packed three letters to two bytes (letterTriples.ts). */
  private readonly sequences = new TextBlocks();
  /** Room to pack a sequence in, and to unpack one. */
  private packed = new Uint8Array(1024);
  private letters = new Uint8Array(1024);
  private readonly accessionEnds = new Ends();
  private readonly accessions = new BlockColumn((n) => new Uint32Array(n));
  /**
   * Runs of candidates of one search and counts, added one after another: the first candidate of each, and what they
   * share.
   */
  private readonly runStarts = new Column(new Uint32Array(1024));
  private readonly runSearches = new Column(new Uint32Array(1024));
  /** Index of the run's hypothesis counts in its batch's Tasks.counts. */
  private readonly runCounts = new Column(new Uint32Array(1024));
  /** What the run's modifications add to a peptide's mass, in units of 1e-10 Da. */
  private readonly runShifts = new Column(new Float64Array(1024));
  /** The run runOf found last: candidates are mostly read in the order they were added, so its run or the next. */
  private lastRun = 0;

  /**
   * The view a run's counts read (by counts id), when they read one: its letters (a char-code table) and delta. A
   * view's candidate carries the delta once per residue of those letters, its own count: not part of the run's shift.
   */
  viewOf: (countsId: number) => { member: Uint8Array; deltaUnits: number } | undefined = () => undefined;

  /** Times the columns were emptied: a batch that kept them checks it is still theirs. */
  generation = 0;

  get length(): number {
    return this.sequences.length;
  }

  /** Empties the columns, keeping their memory for the next batch's candidates. */
  clear(): void {
    this.generation++;
    for (const column of [this.sequences, this.accessionEnds, this.accessions]) column.clear();
    for (const column of [this.runStarts, this.runSearches, this.runCounts, this.runShifts]) column.length = 0;
    this.lastRun = 0;
  }

  /**
   * Peptide p of `shard` (copied: its sequence, and the accessions `filter` keeps, or all), found by `search` under the
   * hypothesis of counts `countsId`, whose modifications add `shiftUnits` to its mass; `at`: it lists only the
   * proteins it starts, or lies inside (Hypothesis.at).
   */
  add(
    search: number,
    countsId: number,
    shiftUnits: number,
    shard: Shard,
    p: number,
    filter: AccessionFilter | undefined,
    at?: Place,
  ): void {
    const runs = this.runStarts.length;
    if (runs === 0 || this.runSearches.data[runs - 1] !== search || this.runCounts.data[runs - 1] !== countsId) {
      this.runStarts.push(this.length);
      this.runSearches.push(search);
      this.runCounts.push(countsId);
      this.runShifts.push(shiftUnits);
    }
    const [from, to] = [p === 0 ? 0 : shard.sequenceEnds[p - 1], shard.sequenceEnds[p]];
    if (packedLength(to - from) > this.packed.length) this.packed = new Uint8Array(packedLength(to - from));
    this.sequences.add(this.packed, 0, packLetters(shard.sequences, from, to, this.packed, 0));
    const placed = at && ranksAt(shard, p, at);
    for (let r = p === 0 ? 0 : shard.accessionRefEnds[p - 1]; r < shard.accessionRefEnds[p]; r++) {
      const a = shard.accessionRefs[r];
      if ((!filter || filter.keeps(a)) && (!placed || placed.has(a))) this.accessions.push(a);
    }
    this.accessionEnds.push(this.accessions.length);
  }

  /** The run candidate i belongs to: the last run starting at or before it (the last one found, or a binary search). */
  private runOf(i: number): number {
    const starts = this.runStarts.data;
    const runs = this.runStarts.length;
    let run = this.lastRun;
    if (!(starts[run] <= i && (run + 1 === runs || i < starts[run + 1]))) {
      let low = 0; // starts[low] <= i (the first run starts at 0) and the answer is <= high
      let high = runs - 1;
      while (low < high) {
        const mid = (low + high + 1) >>> 1;
        if (starts[mid] <= i) low = mid;
        else high = mid - 1;
      }
      run = this.lastRun = low;
    }
    return run;
  }

  /** Modified mass of candidate i, in units of 1e-10 Da: its residues, water and its modifications, exactly. */
  units(i: number): number {
    const { bytes, from, to } = this.sequences.where(i);
    const run = this.runOf(i);
    const units = WATER_UNITS + packedResidueUnits(bytes, from, to) + this.runShifts.data[run];
    const view = this.viewOf(this.runCounts.data[run]);
    if (!view) return units;
    if (3 * ((to - from) >> 1) > this.letters.length) this.letters = new Uint8Array(3 * ((to - from) >> 1));
    const length = unpackLetters(bytes, from, to, this.letters, 0); // no string made
    let sites = 0;
    for (let k = 0; k < length; k++) sites += view.member[this.letters[k]];
    return units + sites * view.deltaUnits;
  }

  /** Index of candidate i's hypothesis counts in its batch's Tasks.counts. */
  countsId(i: number): number {
    return this.runCounts.data[this.runOf(i)];
  }

  sequence(i: number): string {
    const { bytes, from, to } = this.sequences.where(i);
    if (3 * ((to - from) >> 1) > this.letters.length) this.letters = new Uint8Array(3 * ((to - from) >> 1));
    const length = unpackLetters(bytes, from, to, this.letters, 0);
    return String.fromCharCode.apply(null, this.letters.subarray(0, length) as unknown as number[]);
  }

  /**
   * Candidates a and b by sequence, as strings of their letters compare (< 0, 0, > 0): packed, they compare as bytes.
   */
  compareSequences(a: number, b: number): number {
    const { bytes: aBytes, from: aFrom, to: aTo } = this.sequences.where(a);
    const { bytes: bBytes, from: bFrom, to: bTo } = this.sequences.where(b); // where(a)'s object is read: it may be reused
    for (let i = aFrom, j = bFrom; i < aTo && j < bTo; i++, j++)
      if (aBytes[i] !== bBytes[j]) return aBytes[i] - bBytes[j];
    return aTo - aFrom - (bTo - bFrom);
  }

  /**
   * Candidate i's accessions (ranks in the accession table) are accession(r) for r from accessionEnd(i - 1) to
   * accessionEnd(i).
   */
  accessionEnd(i: number): number {
    return i < 0 ? 0 : this.accessionEnds.at(i);
  }

  accession(r: number): number {
    return this.accessions.at(r);
  }

  /** Puts every candidate's accessions in the order of their accessions (as answers list them), in place. */
  orderAccessions(accessions: AccessionSet): void {
    let room = new Uint32Array(64);
    for (let i = 0; i < this.length; i++) {
      const [from, to] = [this.accessionEnd(i - 1), this.accessionEnd(i)];
      if (to - from < 2) continue;
      if (to - from > room.length) room = new Uint32Array(2 * (to - from));
      const ranks = room.subarray(0, to - from);
      for (let r = from; r < to; r++) ranks[r - from] = this.accessions.at(r);
      accessions.sort(ranks).forEach((a, k) => this.accessions.set(from + k, a));
    }
  }

  /** Gives `add` every candidate's accessions. */
  addRanks(add: (rank: number) => void): void {
    for (let r = 0; r < this.accessions.length; r++) add(this.accessions.at(r));
  }

  accessionsOf(i: number): Uint32Array {
    const from = this.accessionEnd(i - 1);
    return Uint32Array.from({ length: this.accessionEnd(i) - from }, (_, k) => this.accessions.at(from + k));
  }

  /** The candidates of each search, in the order added: its runs, grouped by search (no array of every candidate). */
  bySearch(searches: number): (search: number) => number[] {
    const [runs, runStarts, runSearches] = [this.runStarts.length, this.runStarts.data, this.runSearches.data];
    const starts = new Uint32Array(searches + 1);
    for (let r = 0; r < runs; r++) starts[runSearches[r] + 1]++;
    for (let s = 0; s < searches; s++) starts[s + 1] += starts[s];
    const next = starts.slice(0, searches);
    const order = new Uint32Array(runs);
    for (let r = 0; r < runs; r++) order[next[runSearches[r]]++] = r;
    return (search) => {
      const ids: number[] = [];
      for (let k = starts[search]; k < starts[search + 1]; k++) {
        const r = order[k];
        for (let i = runStarts[r], end = r + 1 < runs ? runStarts[r + 1] : this.length; i < end; i++) ids.push(i);
      }
      return ids;
    };
  }
}

/**
 * A hypothesis's counts of each fixed and variable spec, and the mass they add (a function of the counts alone): the
 * few distinct ones of a batch, shared.
 */
export type CountVectors = Pick<Hypothesis, 'fixedCounts' | 'variableCounts' | 'shiftUnits' | 'view' | 'at'>;

/** The hypotheses of all the searches of a batch as columns (hundreds of thousands: no object each). */
export class Tasks {
  readonly search = new Column(new Uint32Array(1024));
  readonly low = new Column(new Float64Array(1024));
  readonly high = new Column(new Float64Array(1024));
  /** Index of the hypothesis's counts in `counts`. */
  readonly countsId = new Column(new Uint32Array(1024));
  readonly counts: CountVectors[] = [];
  private countIds = new Map<string, number>();

  add(search: number, h: Hypothesis): void {
    const text = `${h.fixedCounts}|${h.variableCounts}|${h.view ?? ''}`;
    let id = this.countIds.get(text);
    if (id === undefined) {
      const { fixedCounts, variableCounts, shiftUnits, view, at } = h;
      this.countIds.set(
        text,
        (id =
          this.counts.push({
            fixedCounts,
            variableCounts,
            shiftUnits,
            ...(view === undefined ? {} : { view }),
            ...(at && { at }),
          }) - 1),
      );
    }
    this.search.push(search);
    this.low.push(h.baseLowKey);
    this.high.push(h.baseHighKey);
    this.countsId.push(id);
  }

  /**
   * Task ids by the index they read (the dataset's, then each view's), then in ascending order of the lowest key they
   * read.
   */
  inSweepOrder(): Uint32Array {
    const low = this.low.data;
    const ids = this.countsId.data;
    const index = (t: number) => this.counts[ids[t]].view ?? -1;
    return Uint32Array.from({ length: this.search.length }, (_, i) => i).sort(
      (a, b) => index(a) - index(b) || low[a] - low[b],
    );
  }

  hypothesis(t: number): Hypothesis {
    const { fixedCounts, variableCounts, shiftUnits, view, at } = this.counts[this.countsId.data[t]];
    return {
      fixedCounts,
      variableCounts,
      shiftUnits,
      baseLowKey: this.low.data[t],
      baseHighKey: this.high.data[t],
      ...(view === undefined ? {} : { view }),
      ...(at && { at }),
    };
  }
}

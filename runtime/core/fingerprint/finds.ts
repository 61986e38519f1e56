// What a batch of peaks finds: every stored peptide (in each of its modified forms) inside each peak's window, as
// the sweep of a batch match finds them (match/sweep.ts), kept as references into the shards rather than copied —
// scoring needs only their proteins, and only the few proteins an answer lists need their sequences.
import { AT_PROTEIN_START, ranksAt } from '../../model/proteinStarts.js';
import { Column } from '../../model/column.js';
import type { Shard } from '../../model/format.js';
import type { ModSpec } from '../../model/modifications.js';
import { proformaWriter } from '../../model/proforma.js';
import { Tasks, type CountVectors } from '../match/matchColumns.js';
import { searchesOf, type PrecursorSearch } from '../match/matchQuery.js';
import { sweepSearches, type MatchOptions } from '../match/sweep.js';
import type { FoundSink } from '../precursor/precursor.js';
import type { Tolerance } from '../precursor/window.js';
import type { Dataset } from '../storage/dataset.js';

/** What the peaks are searched with. */
export interface PeakSearch {
  tolerance: Tolerance;
  fixed: ModSpec[];
  variable: ModSpec[];
  maxVariable: number;
}

/** The finds of a batch of peaks (one search each), grouped by peak. */
export class Finds {
  /** Find f is peptide peptides[f] of shards[f], of the hypothesis counts counts[countsIds[f]], weighing units[f]. */
  readonly shards: Shard[] = [];
  readonly peptides = new Column(new Uint32Array(1024));
  readonly countsIds = new Column(new Uint32Array(1024));
  readonly units = new Column(new Float64Array(1024));
  private readonly peaks = new Column(new Uint32Array(1024));
  /** The finds of peak s are byPeak[starts[s] .. starts[s + 1]). */
  private starts = new Uint32Array(1);
  private byPeak = new Uint32Array(0);
  private readonly proforma: ReturnType<typeof proformaWriter>;

  constructor(
    query: PeakSearch,
    readonly searches: readonly PrecursorSearch[],
    readonly counts: readonly CountVectors[],
  ) {
    this.proforma = proformaWriter(query.fixed, query.variable);
  }

  add(peak: number, units: number, shard: Shard, p: number, countsId: number): void {
    this.peaks.push(peak);
    this.shards.push(shard);
    this.peptides.push(p);
    this.countsIds.push(countsId);
    this.units.push(units);
  }

  /** Groups the finds by peak (a counting sort: the sweep finds them in mass order, not by peak). */
  group(): void {
    const n = this.searches.length;
    const starts = new Uint32Array(n + 1);
    const peaks = this.peaks.data;
    for (let f = 0; f < this.peaks.length; f++) starts[peaks[f] + 1]++;
    for (let s = 0; s < n; s++) starts[s + 1] += starts[s];
    const next = starts.slice(0, n);
    this.byPeak = new Uint32Array(this.peaks.length);
    for (let f = 0; f < this.peaks.length; f++) this.byPeak[next[peaks[f]]++] = f;
    this.starts = starts;
  }

  /** The finds of peak `s`. */
  of(s: number): Uint32Array {
    return this.byPeak.subarray(this.starts[s], this.starts[s + 1]);
  }

  /** Gives `visit` the ranks of the accessions find f lists: all its peptide's, or those at its place (`at`). */
  ranks(f: number, visit: (rank: number) => void): void {
    const shard = this.shards[f];
    const p = this.peptides.data[f];
    const { at } = this.counts[this.countsIds.data[f]];
    const { accessionRefs, accessionRefEnds } = shard;
    const end = accessionRefEnds[p];
    if (!at) {
      for (let r = p === 0 ? 0 : accessionRefEnds[p - 1]; r < end; r++) visit(accessionRefs[r]);
      return;
    }
    const placed = ranksAt(shard, p, at);
    for (let r = p === 0 ? 0 : accessionRefEnds[p - 1]; r < end; r++)
      if (placed.has(accessionRefs[r])) visit(accessionRefs[r]);
  }

  /** The distinct stored peptides among peak s's finds: a peptide may fill a window in two modified forms. */
  distinct(s: number): number {
    const finds = this.of(s);
    if (this.counts.length < 2 || finds.length < 2) return finds.length;
    const seen = new Map<Shard, Set<number>>();
    let distinct = 0;
    for (const f of finds) {
      const shard = this.shards[f];
      let set = seen.get(shard);
      if (!set) seen.set(shard, (set = new Set()));
      if (set.size < set.add(this.peptides.data[f]).size) distinct++;
    }
    return distinct;
  }

  sequence(f: number): string {
    const [shard, p] = [this.shards[f], this.peptides.data[f]];
    const from = p === 0 ? 0 : shard.sequenceEnds[p - 1];
    return String.fromCharCode.apply(
      null,
      shard.sequences.subarray(from, shard.sequenceEnds[p]) as unknown as number[],
    );
  }

  /** Find f's ProForma (its variable modifications unlocalised, as a precursor search writes them). */
  proformaOf(f: number, sequence = this.sequence(f)): string {
    const { variableCounts, at } = this.counts[this.countsIds.data[f]];
    return this.proforma.text(sequence, variableCounts, at === AT_PROTEIN_START);
  }
}

/**
 * Searches each of `masses` (neutral masses, the peaks of one or more lists) as a batch match searches a neutral
 * mass, every peptide counted whatever its accessions (the density of a window is the dataset's).
 */
export async function findPeaks(
  dataset: Dataset,
  query: PeakSearch,
  masses: Float64Array,
  options: MatchOptions,
): Promise<{ finds: Finds; errors: (string | undefined)[]; scanned: number }> {
  const matchQuery = { ...query, filter: { taxa: [] }, charges: [] };
  const searches = Array.from(masses, (mass, index) => searchesOf(matchQuery, { index, mass })[0]);
  const tasks = new Tasks();
  const finds = new Finds(query, searches, tasks.counts);
  const sinks: FoundSink[] = [];
  const sinkOf = (s: number): FoundSink =>
    (sinks[s] = {
      filter: undefined,
      scanned: 0,
      add: (_key, units, shard, p, countsId) => finds.add(s, units, shard, p, countsId),
    });
  const errors = await sweepSearches(dataset, query, searches, tasks, sinkOf, options);
  finds.group();
  let scanned = 0;
  for (const sink of sinks) scanned += sink?.scanned ?? 0;
  return { finds, errors, scanned };
}

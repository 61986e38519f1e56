// What precursor search asks of a shard's peptides, computed once per peptide and kept with the shard: the
// exact unmodified mass, the count of residues of a letter set, the slots a set of sites offers, and the peptides
// with a given count of a letter set (a fixed modification's hypothesis reads only those).
import { RESIDUE_UNITS, WATER_UNITS } from '../../model/chemistry.js';
import type { Shard } from '../../model/format.js';
import { letterTable, terminalSlots, type SlotSet } from '../../model/modifications.js';
import type { Dataset } from '../storage/dataset.js';
import { AT_PROTEIN_START, placesOf } from '../../model/proteinStarts.js';

/** A count not yet made (peptides are at most 1,000 residues long). */
const UNKNOWN_COUNT = 0xffff;

/** Letter sets whose counts the scratch composition keeps columns for, at most (a query needs one per site set). */
const SCRATCH_LETTER_SETS = 8;

export class Composition {
  /** Exact mass with water per peptide, in units; NaN until computed. */
  private units: Float64Array;
  /** Per letter set (sorted letters): residue count per peptide; UNKNOWN_COUNT until computed. */
  private counts = new Map<string, Uint16Array>();

  constructor(
    /** The shard it describes (the scratch composition moves from shard to shard). */
    private shard: Shard,
    /** Whether it is kept with its cached shard (read by later scans): only then does a count index pay for itself. */
    readonly kept = true,
  ) {
    this.units = new Float64Array(shard.sequenceEnds.length).fill(NaN);
  }

  /** The one composition that scans of shards the cache keeps none for share, in turn (a scan is synchronous). */
  private static scratch: Composition | undefined;

  /**
   * A composition of `shard` good for its peptides [from, to) until the next call: the scratch one, its columns
   * reset there, so that a sweep scanning hundreds of thousands of windows allocates columns only as shards grow.
   */
  static scratchFor(shard: Shard, from: number, to: number): Composition {
    const scratch = Composition.scratch;
    if (!scratch || scratch.units.length < shard.sequenceEnds.length)
      return (Composition.scratch = new Composition(shard, false));
    scratch.shard = shard;
    scratch.units.fill(NaN, from, to);
    // Each letter set asked for keeps a column; past a few (queries with unusual sites), they are dropped, not reset.
    if (scratch.counts.size > SCRATCH_LETTER_SETS) scratch.counts.clear();
    for (const column of scratch.counts.values()) column.fill(UNKNOWN_COUNT, from, to);
    return scratch;
  }

  private start(p: number): number {
    return p === 0 ? 0 : this.shard.sequenceEnds[p - 1];
  }

  /** Exact unmodified mass of peptide p (with water), in units of 1e-10 Da. */
  mass(p: number): number {
    let units = this.units[p];
    if (Number.isNaN(units)) {
      units = WATER_UNITS;
      const text = this.shard.sequences;
      for (let i = this.start(p), end = this.shard.sequenceEnds[p]; i < end; i++) units += RESIDUE_UNITS[text[i]];
      this.units[p] = units;
    }
    return units;
  }

  /** Residues of peptide p whose letter is in `letters` (a sorted letter set). */
  count(letters: string, p: number): number {
    let column = this.counts.get(letters);
    if (!column) this.counts.set(letters, (column = new Uint16Array(this.units.length).fill(UNKNOWN_COUNT)));
    let n = column[p];
    if (n === UNKNOWN_COUNT) {
      n = 0;
      const member = letterTable(letters);
      const text = this.shard.sequences;
      for (let i = this.start(p), end = this.shard.sequenceEnds[p]; i < end; i++) n += member[text[i] & 127];
      column[p] = n;
    }
    return n;
  }

  /** count(letters, ·) with its column looked up once, for a loop over many peptides. */
  counter(letters: string): (p: number) => number {
    this.count(letters, 0);
    const column = this.counts.get(letters)!;
    return (p) => {
      const n = column[p];
      return n === UNKNOWN_COUNT ? this.count(letters, p) : n;
    };
  }

  /** Per letter set: the shard's peptides by their count of its residues. */
  private indexes = new Map<string, CountIndex>();

  /** The shard's peptides by their count of residues of `letters` (a sorted letter set), made once. */
  byCount(letters: string): CountIndex {
    let index = this.indexes.get(letters);
    if (!index) {
      const peptides = this.shard.sequenceEnds.length;
      let most = 0;
      for (let p = 0; p < peptides; p++) most = Math.max(most, this.count(letters, p));
      const counts = this.counts.get(letters)!;
      // A counting sort: ids by count, ascending within a count.
      const starts = new Uint32Array(most + 2);
      for (let p = 0; p < peptides; p++) starts[counts[p] + 1]++;
      for (let k = 1; k < starts.length; k++) starts[k] += starts[k - 1];
      const ids = new Uint32Array(peptides);
      const next = starts.slice(0, most + 1);
      for (let p = 0; p < peptides; p++) ids[next[counts[p]]++] = p;
      this.indexes.set(letters, (index = new CountIndex(ids, starts)));
    }
    return index;
  }

  /**
   * Slots of peptide p that at least one site of `set` can take (modifications.ts slotsIn, with
   * the counts kept here): residues of its letters, residues at a terminus, and the termini themselves.
   */
  slots(set: SlotSet, p: number): number {
    let slots = set.termini + (set.letters ? this.count(set.letters, p) : 0);
    if (set.proteinStart && placesOf(this.shard, p) & AT_PROTEIN_START) slots++;
    if (set.terminal.length === 0) return slots;
    const first = this.start(p);
    const last = this.shard.sequenceEnds[p] - 1;
    const text = this.shard.sequences;
    return (
      slots + terminalSlots(set, String.fromCharCode(text[first]), String.fromCharCode(text[last]), first === last)
    );
  }
}

/**
 * A shard's peptides by their count of residues of a letter set: `ids` holds every peptide once, by count, then by
 * index (so in stored order, by mass, within a count).
 */
export class CountIndex {
  constructor(
    readonly ids: Uint32Array,
    /** Peptides with count k are ids[starts[k] .. starts[k + 1]), for k below starts.length - 1. */
    private readonly starts: Uint32Array,
  ) {}

  /** The run of `ids` holding the peptides of [from, to) with exactly `count` residues of the set: [low, high). */
  run(count: number, from: number, to: number): { low: number; high: number } {
    if (count + 1 >= this.starts.length) return { low: 0, high: 0 };
    const end = this.starts[count + 1];
    const low = this.firstAtLeast(this.starts[count], end, from);
    return { low, high: this.firstAtLeast(low, end, to) };
  }

  /** First position in ids[low..high) (ascending there) whose peptide is at least `p`; high when none is. */
  private firstAtLeast(low: number, high: number, p: number): number {
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.ids[mid] < p) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}

/**
 * The composition of a cached shard, kept with it (Dataset.derived); when the cache keeps none, the scratch one,
 * good for peptides [from, to) until the next call.
 */
export function compositionOf(dataset: Dataset, shard: Shard, from: number, to: number): Composition {
  return dataset.derived(shard, 'composition', newComposition) ?? Composition.scratchFor(shard, from, to);
}

/**
 * A shard's composition, charged as its masses (8 bytes a peptide), two letter sets' counts (2 bytes each) and one
 * count index (4).
 */
const newComposition = (shard: Shard) => ({ value: new Composition(shard), bytes: shard.sequenceEnds.length * 16 });

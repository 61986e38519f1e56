// What precursor search asks of a shard's peptides, computed once per peptide and kept with the shard: the
// exact unmodified mass, the count of residues of a letter set, the slots a set of sites offers.
import { RESIDUE_UNITS, WATER_UNITS } from '../model/chemistry.js';
import type { Shard } from '../model/format.js';
import { letterTable, terminalSlots, type SlotSet } from '../model/modifications.js';
import type { Dataset } from './dataset.js';

/** A shard's peptides grouped by a residue count (Composition.lanes). */
export interface Lanes {
  order: Uint32Array;
  starts: Uint32Array;
}

export class Composition {
  /** Exact mass with water per peptide, in units; NaN until computed. */
  private units: Float64Array;
  /** Per letter set (sorted letters): residue count per peptide (peptides are at most 1,000 residues long). */
  private counts = new Map<string, Uint16Array>();
  /** Per letter set: its lanes (made when first asked for). */
  private laneSets = new Map<string, Lanes>();

  /** `kept`: memoized with its cached shard, so what it builds (lanes) serves later scans too. */
  constructor(
    readonly shard: Shard,
    readonly kept = false,
  ) {
    this.units = new Float64Array(shard.sequenceEnds.length).fill(NaN);
  }

  /** Exact unmodified mass of peptide p (with water), in units of 1e-10 Da. */
  mass(p: number): number {
    let units = this.units[p];
    if (Number.isNaN(units)) {
      units = WATER_UNITS;
      const text = this.shard.sequences;
      for (let i = p === 0 ? 0 : this.shard.sequenceEnds[p - 1], end = this.shard.sequenceEnds[p]; i < end; i++) units += RESIDUE_UNITS[text.charCodeAt(i)];
      this.units[p] = units;
    }
    return units;
  }

  /** Residues of peptide p whose letter is in `letters` (a sorted letter set). */
  count(letters: string, p: number): number {
    return this.countsOf(letters)[p];
  }

  /** Residues in `letters` of every peptide, counted in one pass over the shard when first asked for. */
  private countsOf(letters: string): Uint16Array {
    let column = this.counts.get(letters);
    if (!column) {
      const { sequences, sequenceEnds } = this.shard;
      const member = letterTable(letters);
      column = new Uint16Array(sequenceEnds.length);
      for (let p = 0, i = 0; p < sequenceEnds.length; p++) {
        let n = 0;
        for (const end = sequenceEnds[p]; i < end; i++) n += member[sequences.charCodeAt(i) & 127];
        column[p] = n;
      }
      this.counts.set(letters, column);
    }
    return column;
  }

  /**
   * Peptides by their count of residues in `letters`: `order` lists peptide indexes by count, then by index
   * (so by mass), count n at [starts[n], starts[n + 1]). A hypothesis that fixes the count reads only its lane.
   */
  lanes(letters: string): Lanes {
    let lanes = this.laneSets.get(letters);
    if (!lanes) {
      const counts = this.countsOf(letters);
      const most = counts.reduce((a, b) => Math.max(a, b), 0);
      const starts = new Uint32Array(most + 2);
      for (const n of counts) starts[n + 1]++;
      for (let n = 0; n <= most; n++) starts[n + 1] += starts[n];
      const next = starts.slice(0, most + 1);
      const order = new Uint32Array(counts.length);
      counts.forEach((n, p) => (order[next[n]++] = p));
      this.laneSets.set(letters, (lanes = { order, starts }));
    }
    return lanes;
  }

  /**
   * Slots of peptide p that at least one site of `set` can take (modifications.ts slotsIn, with
   * the counts kept here): residues of its letters, residues at a terminus, and the termini themselves.
   */
  slots(set: SlotSet, p: number): number {
    const slots = set.termini + (set.letters ? this.count(set.letters, p) : 0);
    if (set.terminal.length === 0) return slots;
    const first = p === 0 ? 0 : this.shard.sequenceEnds[p - 1];
    const last = this.shard.sequenceEnds[p] - 1;
    return slots + terminalSlots(set, this.shard.sequences[first], this.shard.sequences[last], first === last);
  }
}

/**
 * The composition of a cached shard, kept with it from its first use (Dataset.derived, always: precursor search
 * asks every shard it reads for it, over and over); a fresh one for a shard the cache does not hold.
 */
export function compositionOf(dataset: Dataset, shard: Shard): Composition {
  return dataset.derived(shard, 'composition', newComposition, true) ?? new Composition(shard);
}

/** A shard's composition, charged as its masses (8 bytes a peptide), four letter sets (2 bytes each) and one lane order (4). */
const newComposition = (shard: Shard) => ({ value: new Composition(shard, true), bytes: shard.sequenceEnds.length * 20 });

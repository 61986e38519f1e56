// What precursor search asks of a shard's peptides, computed once per peptide and kept with the shard: the
// exact unmodified mass, the count of residues of a letter set, the slots a set of sites offers.
import { RESIDUE_UNITS, WATER_UNITS } from '../model/chemistry.js';
import type { Shard } from '../model/format.js';
import { letterTable, terminalSlots, type SlotSet } from '../model/modifications.js';
import type { Dataset } from './dataset.js';

/** A count not yet made (peptides are at most 1,000 residues long). */
const UNKNOWN_COUNT = 0xffff;

export class Composition {
  /** Exact mass with water per peptide, in units; NaN until computed. */
  private units: Float64Array;
  /** Per letter set (sorted letters): residue count per peptide; UNKNOWN_COUNT until computed. */
  private counts = new Map<string, Uint16Array>();

  constructor(readonly shard: Shard) {
    this.units = new Float64Array(shard.sequenceEnds.length).fill(NaN);
  }

  private start = (p: number) => (p === 0 ? 0 : this.shard.sequenceEnds[p - 1]);

  /** Exact unmodified mass of peptide p (with water), in units of 1e-10 Da. */
  mass(p: number): number {
    let units = this.units[p];
    if (Number.isNaN(units)) {
      units = WATER_UNITS;
      const text = this.shard.sequences;
      for (let i = this.start(p), end = this.shard.sequenceEnds[p]; i < end; i++) units += RESIDUE_UNITS[text.charCodeAt(i)];
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
      for (let i = this.start(p), end = this.shard.sequenceEnds[p]; i < end; i++) n += member[text.charCodeAt(i) & 127];
      column[p] = n;
    }
    return n;
  }

  /**
   * Slots of peptide p that at least one site of `set` can take (modifications.ts slotsIn, with
   * the counts kept here): residues of its letters, residues at a terminus, and the termini themselves.
   */
  slots(set: SlotSet, p: number): number {
    const slots = set.termini + (set.letters ? this.count(set.letters, p) : 0);
    if (set.terminal.length === 0) return slots;
    const first = this.start(p);
    const last = this.shard.sequenceEnds[p] - 1;
    return slots + terminalSlots(set, this.shard.sequences[first], this.shard.sequences[last], first === last);
  }
}

/** The composition of a cached shard, kept with it (Dataset.derived); a fresh one when the cache keeps none. */
export function compositionOf(dataset: Dataset, shard: Shard): Composition {
  return dataset.derived(shard, 'composition', newComposition) ?? new Composition(shard);
}

/** A shard's composition, charged as its masses (8 bytes a peptide) and two letter sets' counts (2 bytes each). */
const newComposition = (shard: Shard) => ({ value: new Composition(shard), bytes: shard.sequenceEnds.length * 12 });

// Peptides per accession, counted as the merge phase streams the distinct peptides: each peptide counts once for
// every accession that has it. Fingerprinting weighs a protein's chance matches by this count.
import type { PartitionPeptides } from './partitions.js';

export class PeptideCounts {
  /** By accession rank. */
  readonly counts: Uint32Array;

  constructor(accessions: number) {
    this.counts = new Uint32Array(accessions);
  }

  /** Counts a partition's peptides (each distinct peptide must be added once; its ranks are unique). */
  add({ ranks }: PartitionPeptides): void {
    for (let r = 0; r < ranks.length; r++) this.counts[ranks[r]]++;
  }
}

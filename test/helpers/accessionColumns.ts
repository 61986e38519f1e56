// The build's AccessionColumns (accessions.ts) over plain arrays, for tests that write accession tables and
// protein pages from columns they made up or read back.
import type { AccessionColumns } from '../../builder/phases/accessions.js';

export interface AccessionArrays {
  sorted: string[];
  taxIds: ArrayLike<number>;
  reviewed: ArrayLike<number>;
  proteins: string[];
  organisms: string[];
}

export function accessionColumns(arrays: AccessionArrays): AccessionColumns {
  return {
    count: arrays.sorted.length,
    accession: (rank) => arrays.sorted[rank],
    taxIds: Int32Array.from(arrays.taxIds),
    reviewed: Uint8Array.from(arrays.reviewed),
    protein: (rank) => arrays.proteins[rank],
    organism: (rank) => arrays.organisms[rank],
  };
}

// Build phase 2, rank accessions: the sorted unique accession list shards refer to by rank, each protein's
// rank in it, and what each rank's first record says: taxId (from its header, else the taxonomy TSV), reviewed
// flag, protein and organism names.

/** What each protein's header says, by protein ordinal (the order of the input). */
export interface ProteinHeaders {
  /** OX= taxId, undefined when the header has none. */
  taxIds: (number | undefined)[];
  reviewed: boolean[];
  proteins: string[];
  organisms: string[];
}

export interface RankedAccessions {
  /** Unique accessions, ascending: a rank is an index here. */
  sorted: string[];
  /** Rank of each protein ordinal's accession. */
  rankOf: Uint32Array;
  /** TaxId of each rank, -1 when unknown. */
  taxIds: Int32Array;
  /** 1 when the rank's accession is UniProtKB/Swiss-Prot (`sp|`), else 0. */
  reviewed: Uint8Array;
  /** Protein and organism name of each rank ("" when its header has none). */
  proteins: string[];
  organisms: string[];
  /** Accessions that more than one record has (merged into one rank). */
  duplicates: string[];
  withoutTaxId: number;
  reviewedCount: number;
}

/** Sorted unique accessions, each protein ordinal's rank among them, and each rank's header fields. */
export function rankAccessions(accessions: readonly string[], headers: ProteinHeaders, taxonomy: ReadonlyMap<string, number>): RankedAccessions {
  const order = Array.from(accessions.keys()).sort((a, b) => (accessions[a] < accessions[b] ? -1 : accessions[a] > accessions[b] ? 1 : a - b));
  const rankOf = new Uint32Array(accessions.length);
  const sorted: string[] = [];
  const taxIdList: number[] = [];
  const reviewedList: number[] = [];
  const proteins: string[] = [];
  const organisms: string[] = [];
  const duplicates: string[] = [];
  for (const ordinal of order) {
    const accession = accessions[ordinal];
    if (sorted[sorted.length - 1] === accession) {
      if (duplicates[duplicates.length - 1] !== accession) duplicates.push(accession);
    } else {
      sorted.push(accession);
      // The first record of an accession (in input order: ties sort by ordinal) gives its fields.
      taxIdList.push(headers.taxIds[ordinal] ?? taxonomy.get(accession) ?? -1);
      reviewedList.push(headers.reviewed[ordinal] ? 1 : 0);
      proteins.push(headers.proteins[ordinal]);
      organisms.push(headers.organisms[ordinal]);
    }
    rankOf[ordinal] = sorted.length - 1;
  }
  const taxIds = Int32Array.from(taxIdList);
  const reviewed = Uint8Array.from(reviewedList);
  return {
    sorted, rankOf, taxIds, reviewed, proteins, organisms, duplicates,
    withoutTaxId: taxIds.filter((t) => t === -1).length,
    reviewedCount: reviewed.reduce((sum, r) => sum + r, 0),
  };
}

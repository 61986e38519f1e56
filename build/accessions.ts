// Build phase 2, rank accessions: the sorted unique accession list shards refer to by rank, each protein's
// rank in it, and each rank's taxId (from the first record's header, else the taxonomy file).
export interface RankedAccessions {
  /** Unique accessions, ascending: a rank is an index here. */
  sorted: string[];
  /** Rank of each protein ordinal's accession. */
  rankOf: Uint32Array;
  /** TaxId of each rank, -1 when unknown. */
  taxIds: Int32Array;
  /** Accessions that more than one record has (merged into one rank). */
  duplicates: string[];
  withoutTaxId: number;
}

/** Sorted unique accessions, each protein ordinal's rank among them, and each rank's taxId (-1 unknown). */
export function rankAccessions(accessions: readonly string[], headerTaxIds: readonly (number | undefined)[], taxonomy: ReadonlyMap<string, number>): RankedAccessions {
  const order = Array.from(accessions.keys()).sort((a, b) => (accessions[a] < accessions[b] ? -1 : accessions[a] > accessions[b] ? 1 : a - b));
  const rankOf = new Uint32Array(accessions.length);
  const sorted: string[] = [];
  const taxIdList: number[] = [];
  const duplicates: string[] = [];
  for (const ordinal of order) {
    const accession = accessions[ordinal];
    if (sorted[sorted.length - 1] === accession) {
      if (duplicates[duplicates.length - 1] !== accession) duplicates.push(accession);
    } else {
      sorted.push(accession);
      // The first record of an accession gives its taxId.
      taxIdList.push(headerTaxIds[ordinal] ?? taxonomy.get(accession) ?? -1);
    }
    rankOf[ordinal] = sorted.length - 1;
  }
  const taxIds = Int32Array.from(taxIdList);
  return { sorted, rankOf, taxIds, duplicates, withoutTaxId: taxIds.filter((t) => t === -1).length };
}

// Build phase 2, rank accessions: the header records (builder/inputs/headerRuns.ts) read in (accession, ordinal) order
// give the sorted unique accession list shards refer to by rank, each protein's rank in it, and what each rank's first
// record says: taxId (from its header, else the taxonomy TSV), reviewed flag, protein and organism names (and the
// record's sequence, when the header runs keep it), handed on rank by rank (to the accession table, protein page and
// sequence page writers), so only fixed-width columns stay in memory.
import type { HeaderFields } from '../inputs/fasta.js';
import type { HeaderRecord } from '../inputs/headerRuns.js';
import { Column } from '../../runtime/model/column.js';

/** The accession table's columns, by rank: what the accession table and the protein pages are written from. */
export interface AccessionColumns {
  count: number;
  accession(rank: number): string;
  /** TaxId of each rank, -1 when unknown. */
  taxIds: Int32Array;
  /** 1 when the rank's accession is UniProtKB/Swiss-Prot (`sp|`), else 0. */
  reviewed: Uint8Array;
  /** Protein and organism name ("" when its header has none). */
  protein(rank: number): string;
  organism(rank: number): string;
}

/** A rank's fields, from its accession's first record: its taxId resolved (-1 when unknown). */
export type RankFields = Omit<HeaderFields, 'taxId'> & { taxId: number };

export interface RankedAccessions {
  count: number;
  /** TaxId of each rank, -1 when unknown. */
  taxIds: Int32Array;
  /** 1 when the rank's accession is UniProtKB/Swiss-Prot (`sp|`), else 0. */
  reviewed: Uint8Array;
  /** Rank of each protein ordinal's accession (in shared memory: the runners read it without a copy each). */
  rankOf: Uint32Array;
  /** Accessions that more than one record has (merged into one rank): how many, and the first few. */
  duplicates: { count: number; examples: string[] };
  withoutTaxId: number;
  reviewedCount: number;
}

/** Duplicated accessions named in RankedAccessions.duplicates.examples. */
const DUPLICATE_EXAMPLES = 3;

/**
 * Ranks the accessions of `records`, the headers of `proteins` proteins in (accession, ordinal) order; calls
 * `onRank` with each rank's fields and its first record's sequence ("" when the records keep none), rank by rank.
 */
export function rankAccessions(
  records: Iterable<HeaderRecord>,
  proteins: number,
  taxonomy: ReadonlyMap<string, number>,
  onRank: (rank: number, fields: RankFields, sequence: string) => void = () => {},
): RankedAccessions {
  const rankOf = new Uint32Array(new SharedArrayBuffer(4 * proteins));
  const taxIds = new Column(new Int32Array(1024));
  const reviewed = new Column(new Uint8Array(1024));
  const duplicates = { count: 0, examples: [] as string[] };
  let [withoutTaxId, reviewedCount] = [0, 0];
  let previous: string | undefined;
  let duplicated = false;
  for (const record of records) {
    if (record.accession === previous) {
      if (!duplicated && duplicates.count++ < DUPLICATE_EXAMPLES) duplicates.examples.push(record.accession);
      duplicated = true;
    } else {
      // The first record of an accession (in input order: ties sort by ordinal) gives its fields.
      const taxId = record.taxId ?? taxonomy.get(record.accession) ?? -1;
      onRank(
        taxIds.length,
        {
          accession: record.accession,
          taxId,
          reviewed: record.reviewed,
          protein: record.protein,
          organism: record.organism,
        },
        record.sequence,
      );
      taxIds.push(taxId);
      reviewed.push(record.reviewed ? 1 : 0);
      if (taxId === -1) withoutTaxId++;
      if (record.reviewed) reviewedCount++;
      [previous, duplicated] = [record.accession, false];
    }
    rankOf[record.ordinal] = taxIds.length - 1;
  }
  return {
    count: taxIds.length,
    rankOf,
    taxIds: taxIds.data.slice(0, taxIds.length),
    reviewed: reviewed.data.slice(0, reviewed.length),
    duplicates,
    withoutTaxId,
    reviewedCount,
  };
}

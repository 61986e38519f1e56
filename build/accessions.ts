// Build phase 2, rank accessions: what each protein's header says (kept compact, by protein ordinal, while the
// input is read), then the sorted unique accession list shards refer to by rank, each protein's rank in it, and what
// each rank's first record says: taxId (from its header, else the taxonomy TSV), reviewed flag, protein and
// organism names.
import { constants } from 'node:buffer';
import { BuildError, type HeaderFields } from './fasta.js';
import { Column } from '../runtime/model/column.js';
import { TextColumn } from './columns.js';

/** What each protein's header says, by protein ordinal (the order of the input): ~65 bytes a protein of real UniProt headers. */
export class ProteinHeaders {
  readonly accessions = new TextColumn();
  private proteins = new TextColumn();
  /** OX= taxId, -1 when the header has none. */
  private taxIds = new Column(new Int32Array(1024));
  private reviewed = new Column(new Uint8Array(1024));
  /** Organism names repeat (thousands of proteins per organism): each is kept once, proteins hold its number. */
  private organismOf = new Column(new Uint32Array(1024));
  private organisms: string[] = [];
  private organismNumbers = new Map<string, number>();

  get count(): number {
    return this.accessions.length;
  }

  add(header: HeaderFields): void {
    this.accessions.push(header.accession);
    this.proteins.push(header.protein);
    this.taxIds.push(header.taxId ?? -1);
    this.reviewed.push(header.reviewed ? 1 : 0);
    let organism = this.organismNumbers.get(header.organism);
    if (organism === undefined) {
      organism = this.organisms.push(header.organism) - 1;
      this.organismNumbers.set(header.organism, organism);
    }
    this.organismOf.push(organism);
  }

  accession(ordinal: number): string {
    return this.accessions.get(ordinal);
  }

  /** OX= taxId, undefined when the header has none. */
  taxId(ordinal: number): number | undefined {
    const taxId = this.taxIds.data[ordinal];
    return taxId === -1 ? undefined : taxId;
  }

  isReviewed(ordinal: number): boolean {
    return this.reviewed.data[ordinal] === 1;
  }

  protein(ordinal: number): string {
    return this.proteins.get(ordinal);
  }

  organism(ordinal: number): string {
    return this.organisms[this.organismOf.data[ordinal]];
  }
}

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

export interface RankedAccessions extends AccessionColumns {
  /** UTF-8 bytes of the accession table's text (the accessions, newline-separated): at least its length. */
  textBytes: number;
  /** Rank of each protein ordinal's accession. */
  rankOf: Uint32Array;
  /** Accessions that more than one record has (merged into one rank). */
  duplicates: string[];
  withoutTaxId: number;
  reviewedCount: number;
}

/** Sorted unique accessions of `headers`, each protein ordinal's rank among them, and each rank's header fields. */
export function rankAccessions(headers: ProteinHeaders, taxonomy: ReadonlyMap<string, number>): RankedAccessions {
  const accessions = headers.accessions;
  const order = new Uint32Array(headers.count);
  for (let i = 0; i < order.length; i++) order[i] = i;
  order.sort((a, b) => accessions.compare(a, b) || a - b);
  const rankOf = new Uint32Array(headers.count);
  // The first record of an accession (in input order: ties sort by ordinal) gives its fields.
  const firstOrdinal = new Column(new Uint32Array(1024));
  const duplicates: string[] = [];
  let textBytes = 0;
  for (let i = 0; i < order.length; i++) {
    const ordinal = order[i];
    if (i > 0 && accessions.compare(order[i - 1], ordinal) === 0) {
      const accession = accessions.get(ordinal);
      if (duplicates[duplicates.length - 1] !== accession) duplicates.push(accession);
    } else {
      firstOrdinal.push(ordinal);
      textBytes += accessions.byteLength(ordinal) + (i > 0 ? 1 : 0);
    }
    rankOf[ordinal] = firstOrdinal.length - 1;
  }
  const count = firstOrdinal.length;
  const ordinalOf = (rank: number) => firstOrdinal.data[rank];
  const taxIds = new Int32Array(count);
  const reviewed = new Uint8Array(count);
  for (let rank = 0; rank < count; rank++) {
    const ordinal = ordinalOf(rank);
    taxIds[rank] = headers.taxId(ordinal) ?? taxonomy.get(headers.accession(ordinal)) ?? -1;
    reviewed[rank] = headers.isReviewed(ordinal) ? 1 : 0;
  }
  return {
    count, rankOf, taxIds, reviewed, duplicates, textBytes,
    accession: (rank) => headers.accession(ordinalOf(rank)),
    protein: (rank) => headers.protein(ordinalOf(rank)),
    organism: (rank) => headers.organism(ordinalOf(rank)),
    withoutTaxId: taxIds.filter((t) => t === -1).length,
    reviewedCount: reviewed.reduce((sum, r) => sum + r, 0),
  };
}

/**
 * Characters the accession table's text may have: format 2 keeps every accession in one table, decoded as one
 * JavaScript string, and V8 caps a string at this length (about 45 million UniProt accessions).
 */
export const MAX_ACCESSION_TEXT = constants.MAX_STRING_LENGTH;

/** Throws a BuildError, before any shard is written, when the accession table would be too large to read. */
export function checkAccessionText(ranked: Pick<RankedAccessions, 'count' | 'textBytes'>, limit = MAX_ACCESSION_TEXT): void {
  if (ranked.textBytes <= limit) return;
  throw new BuildError(
    `${ranked.count.toLocaleString('en')} accessions need an accession table of ${ranked.textBytes.toLocaleString('en')} characters, past the ` +
      `${limit.toLocaleString('en')} one table can hold (format 2 keeps every accession in one table; a partitioned build does not change that): ` +
      'build from fewer proteins (see docs/SCALE.md)',
  );
}

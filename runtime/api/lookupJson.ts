// Answers of the look-up endpoints: peptide → proteins (/api/v1/peptide) and taxa by name (/api/v1/taxa), as
// JSON objects and as TSV rows.
import type { PeptideResult } from '../core/lookup/peptideLookup.js';
import type { Protein } from '../core/lookup/proteins.js';
import type { TaxaResult } from '../core/lookup/taxa.js';
import type { Taxon } from '../model/taxonomy.js';
import { UNITS_PER_DA } from '../model/chemistry.js';
import { tsvRow } from './tsv.js';

/** /api/v1/peptide's answer. */
export interface PeptideJson {
  sequence: string;
  /** Its monoisotopic mass in Da, 6 decimals. */
  mass: number;
  peptides: { seq: string; accsTax: Protein[] }[];
  lca: PeptideResult['lca'];
}

/** /api/v1/taxa's answer. */
export interface TaxaJson {
  taxa: Taxon[];
}

/** `{"sequence", "mass", "peptides": [{"seq", "accsTax": [{acc, taxId, reviewed, protein, organism}]}], "lca"}`. */
export function peptideJson(result: PeptideResult): string {
  const json: PeptideJson = {
    sequence: result.query.sequence,
    mass: Number((result.query.units / UNITS_PER_DA).toFixed(6)),
    peptides: result.peptides.map(({ seq, proteins }) => ({ seq, accsTax: proteins })),
    lca: result.lca,
  };
  return JSON.stringify(json);
}

export const PEPTIDE_TSV_HEADER = 'sequence\taccession\ttaxId\treviewed\tprotein\torganism\n';

export const peptideRows = (_query: unknown, result: PeptideResult): string =>
  result.peptides
    .flatMap(({ seq, proteins }) =>
      proteins.map((p) => tsvRow([seq, p.acc, p.taxId, p.reviewed, p.protein, p.organism])),
    )
    .join('');

export const taxaJson = (result: TaxaResult): string => JSON.stringify({ taxa: result.taxa } satisfies TaxaJson);

export const TAXA_TSV_HEADER = 'taxId\tname\trank\tpeptides\n';

export const taxaRows = (_query: unknown, result: TaxaResult): string =>
  result.taxa.map((t) => tsvRow([t.taxId, t.name, t.rank, t.peptides])).join('');

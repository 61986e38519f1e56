// Answers of the look-up endpoints: peptide → proteins (/api/v1/peptide) and taxa by name (/api/v1/taxa), as
// JSON objects and as TSV rows.
import type { PeptideResult } from '../core/lookup/peptideLookup.js';
import type { TaxaResult } from '../core/lookup/taxa.js';
import { UNITS_PER_DA } from '../model/chemistry.js';

/** `{"sequence", "mass", "peptides": [{"seq", "accsTax": [{acc, taxId, reviewed, protein, organism}]}], "lca"}`. */
export function peptideJson(result: PeptideResult): string {
  return JSON.stringify({
    sequence: result.query.sequence,
    mass: Number((result.query.units / UNITS_PER_DA).toFixed(6)),
    peptides: result.peptides.map(({ seq, proteins }) => ({ seq, accsTax: proteins })),
    lca: result.lca,
  });
}

/** TSV text: tabs and line breaks inside a name become spaces. */
const cell = (value: string | number | boolean | null) => String(value ?? '').replace(/[\t\r\n]/g, ' ');

export const PEPTIDE_TSV_HEADER = 'sequence\taccession\ttaxId\treviewed\tprotein\torganism\n';

export const peptideRows = (_query: unknown, result: PeptideResult): string =>
  result.peptides
    .flatMap(({ seq, proteins }) =>
      proteins.map((p) => [seq, p.acc, p.taxId, p.reviewed, p.protein, p.organism].map(cell).join('\t') + '\n'),
    )
    .join('');

export const taxaJson = (result: TaxaResult): string => JSON.stringify({ taxa: result.taxa });

export const TAXA_TSV_HEADER = 'taxId\tname\trank\tpeptides\n';

export const taxaRows = (_query: unknown, result: TaxaResult): string =>
  result.taxa.map((t) => [t.taxId, t.name, t.rank, t.peptides].map(cell).join('\t') + '\n').join('');

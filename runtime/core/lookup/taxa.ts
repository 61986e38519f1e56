// Taxa by name (/api/v1/taxa), for type-ahead: the dataset's taxonomy nodes whose scientific name, or a word of
// it, starts with the text typed, with their rank and peptide count.
import { MAX_TAXA, type Taxon } from '../../model/taxonomy.js';
import type { Dataset } from '../storage/dataset.js';
import { QueryError, readParams, type Param, type ParamSource } from '../params.js';

export const MAX_NAME_LENGTH = 100;

export const TAXA_PARAMS: readonly Param[] = [
  {
    name: 'name',
    kind: 'text',
    required: true,
    max: MAX_NAME_LENGTH,
    description: `Start of a scientific name or of a word in it, case-insensitive (homo, sapiens, escherichia co). Up to ${MAX_TAXA} taxa: the exact name first, then names that start with it, then names with a word that does; most peptides first within each.`,
    example: 'homo',
  },
];

export interface TaxaQuery {
  name: string;
}

export interface TaxaResult {
  taxa: Taxon[];
  totalResult: number;
  page: number;
  pageSize: number;
}

export const parseTaxaQuery = (source: ParamSource): TaxaQuery => ({
  name: readParams(TAXA_PARAMS, source).name as string,
});

export async function runTaxaQuery(dataset: Dataset, query: TaxaQuery): Promise<TaxaResult> {
  const taxonomy = await dataset.taxonomy();
  if (!taxonomy) throw new QueryError(400, 'name: this dataset has no taxonomy (it was built without --taxdump)');
  const taxa = taxonomy.search(query.name);
  return { taxa, totalResult: taxa.length, page: 1, pageSize: MAX_TAXA };
}

// Taxa by name, for type-ahead: the dataset's taxonomy nodes whose scientific name, or a word of
// it, starts with the text typed, with their rank and peptide count.
import { MAX_TAXA, type Taxon } from '../../model/taxonomy.js';
import type { Dataset } from '../storage/dataset.js';
import { InvalidQuery } from '../errors.js';

export interface TaxaQuery {
  name: string;
}

export interface TaxaResult {
  taxa: Taxon[];
  totalResult: number;
  page: number;
  pageSize: number;
}

export async function runTaxaQuery(dataset: Dataset, query: TaxaQuery): Promise<TaxaResult> {
  const taxonomy = await dataset.taxonomy();
  if (!taxonomy) throw new InvalidQuery('name: this dataset has no taxonomy (it was built without --taxdump)');
  const taxa = taxonomy.search(query.name);
  return { taxa, totalResult: taxa.length, page: 1, pageSize: MAX_TAXA };
}

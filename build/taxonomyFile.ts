// The dataset's taxonomy file: the pruned NCBI tree with each node's peptide count, as JSON columns by ascending
// taxId (TaxonomyFile), named by content and pointed at by the manifest's `taxonomy`.
import { FORMAT_VERSION, taxonomyFileName, type FileEntry, type TaxonomyFile } from '../runtime/model/format.js';
import { writeDatasetFile, type Storage } from './datasetFile.js';
import type { Taxonomy } from './taxdump.js';

/** Writes the taxonomy file into `dir`; returns the manifest's `taxonomy` entry. */
export function writeTaxonomyFile(dir: string, taxonomy: Taxonomy, peptides: readonly number[], storage: Storage): FileEntry & { nodes: number } {
  const content: TaxonomyFile = {
    formatVersion: FORMAT_VERSION,
    taxIds: Array.from(taxonomy.taxIds),
    parents: Array.from(taxonomy.parents, (parent) => taxonomy.taxIds[parent]),
    ranks: taxonomy.ranks,
    names: taxonomy.names,
    peptides: [...peptides],
  };
  return { ...writeDatasetFile(dir, content, taxonomyFileName, storage), nodes: taxonomy.taxIds.length };
}

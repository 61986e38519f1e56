// The dataset's taxonomy file: the pruned NCBI tree with each node's peptide count, as JSON columns by ascending
// taxId (TaxonomyFile), named by content and pointed at by the manifest's `taxonomy`.
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FORMAT_VERSION, taxonomyFileName, type FileEntry, type TaxonomyFile } from '../runtime/model/format.js';
import type { Taxonomy } from './taxdump.js';

/** Writes the taxonomy file into `dir`; returns the manifest's `taxonomy` entry. */
export function writeTaxonomyFile(dir: string, taxonomy: Taxonomy, peptides: readonly number[]): FileEntry & { nodes: number } {
  const content: TaxonomyFile = {
    formatVersion: FORMAT_VERSION,
    taxIds: Array.from(taxonomy.taxIds),
    parents: Array.from(taxonomy.parents, (parent) => taxonomy.taxIds[parent]),
    ranks: taxonomy.ranks,
    names: taxonomy.names,
    peptides: [...peptides],
  };
  const bytes = Buffer.from(JSON.stringify(content) + '\n');
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const file = taxonomyFileName(sha256);
  writeFileSync(join(dir, file), bytes);
  return { file, sha256, bytes: bytes.length, nodes: taxonomy.taxIds.length };
}

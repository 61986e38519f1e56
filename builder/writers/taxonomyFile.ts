// The dataset's taxonomy file: the pruned NCBI tree with each node's peptide count and its own accessions (reviewed
// and not), as JSON columns by ascending taxId (TaxonomyFile), named by content and pointed at by the manifest's
// `taxonomy`.
import { FORMAT_VERSION, taxonomyFileName, type FileEntry, type TaxonomyFile } from '../../runtime/model/format.js';
import { writeDatasetFile, type Storage } from './datasetFile.js';
import type { Taxonomy } from '../inputs/taxdump.js';

/**
 * Writes the taxonomy file into `dir`: `nodeOf[a]` and `reviewed[a]` are accession a's node (-1: no lineage) and
 * reviewed flag, `peptides[i]` and `specificPeptides[i]` node i's peptide counts (TaxonCounts). Returns the manifest's `taxonomy` entry.
 */
export function writeTaxonomyFile(
  dir: string,
  { taxonomy, nodeOf }: { taxonomy: Taxonomy; nodeOf: Int32Array },
  reviewed: Uint8Array,
  peptides: readonly number[],
  specificPeptides: readonly number[],
  storage: Storage,
): FileEntry & { nodes: number } {
  const nodes = taxonomy.taxIds.length;
  const [reviewedAccessions, unreviewedAccessions] = [
    new Array<number>(nodes).fill(0),
    new Array<number>(nodes).fill(0),
  ];
  for (let a = 0; a < nodeOf.length; a++)
    if (nodeOf[a] >= 0) (reviewed[a] === 1 ? reviewedAccessions : unreviewedAccessions)[nodeOf[a]]++;
  const content: TaxonomyFile = {
    formatVersion: FORMAT_VERSION,
    taxIds: Array.from(taxonomy.taxIds),
    parents: Array.from(taxonomy.parents, (parent) => taxonomy.taxIds[parent]),
    ranks: taxonomy.ranks,
    names: taxonomy.names,
    peptides: [...peptides],
    specificPeptides: [...specificPeptides],
    reviewedAccessions,
    unreviewedAccessions,
  };
  return { ...writeDatasetFile(dir, content, taxonomyFileName, storage), nodes };
}

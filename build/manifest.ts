// Build phase 4, the manifest: the dataset version (a hash of everything that decides the data), the totals,
// the shard index (index page files written beside the shards when there are many), the accession table, the
// protein table pages and, with a taxdump, the taxonomy file.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { FORMAT_NAME, FORMAT_VERSION, type Manifest } from '../runtime/model/format.js';
import type { RankedAccessions } from './accessions.js';
import type { Digested } from './digestPhase.js';
import { writeShardIndex } from './indexPages.js';
import { describeSource } from './inputs.js';
import type { Merged } from './mergePhase.js';
import { DEFAULT_COMPRESSION, digestOptionsOf, type BuildOptions } from './options.js';
import { writeAccessionTable, writeProteinPages } from './proteinTable.js';
import { TAXDUMP_FILES, type Taxonomy } from './taxdump.js';
import { writeTaxonomyFile } from './taxonomyFile.js';


/** The taxonomy of a build with --taxdump: the pruned tree, its peptide counts, accessions without a lineage. */
export interface BuiltTaxonomy {
  taxonomy: Taxonomy;
  peptides: number[];
  withoutLineage: number;
}

/** The manifest of the dataset staged in `dir`; writes its index pages, protein pages and taxonomy file there. */
export async function assembleManifest(options: BuildOptions, digested: Digested, ranked: RankedAccessions, merged: Merged, dir: string, built?: BuiltTaxonomy): Promise<Manifest> {
  const { sources, skipped } = digested;
  const parameters = { ...digestOptionsOf(options), shardBytes: options.shardBytes };
  const compression = options.compression ?? DEFAULT_COMPRESSION;
  const taxonomySource = options.taxonomy ? await describeSource(options.taxonomy) : undefined;
  const taxdump = options.taxdump ? await Promise.all(TAXDUMP_FILES.map((file) => describeSource(join(options.taxdump!, file)))) : undefined;
  return {
    format: FORMAT_NAME,
    formatVersion: FORMAT_VERSION,
    compression,
    datasetVersion: createHash('sha256')
      .update(JSON.stringify({ formatVersion: FORMAT_VERSION, compression, parameters, sources, taxonomySource, release: options.release, taxdump }))
      .digest('hex')
      .slice(0, 16),
    parameters,
    ...(options.release ? { release: options.release } : {}),
    sources: [...sources, ...(taxonomySource ? [taxonomySource] : []), ...(taxdump ?? [])],
    totals: {
      proteins: digested.accessions.length,
      peptides: merged.peptides,
      massGroups: merged.shards.reduce((sum, s) => sum + s.massGroups, 0),
      shards: merged.shards.length,
      bytes: merged.bytes,
      accessions: ranked.sorted.length,
      reviewedAccessions: ranked.reviewedCount,
      accessionsWithoutTaxId: ranked.withoutTaxId,
      ...(built ? { accessionsWithoutLineage: built.withoutLineage, taxonomyNodes: built.taxonomy.taxIds.length } : {}),
      duplicateAccessions: ranked.duplicates.length,
      skippedRecords: skipped,
    },
    ...writeShardIndex(dir, merged.shards, compression),
    accessions: writeAccessionTable(dir, ranked, compression),
    proteins: { pages: writeProteinPages(dir, ranked, compression) },
    ...(built ? { taxonomy: writeTaxonomyFile(dir, built.taxonomy, built.peptides, compression) } : {}),
  };
}

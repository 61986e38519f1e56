// Build phase 4, the manifest: its head (the dataset version, a hash of everything that decides the data; the
// totals; the accession table, protein table and sequence table pages), then the shard index (its last index pages: the
// ShardIndexWriter writes them beside the shards as they come) and, with a taxdump, the taxonomy file's entry.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import {
  FORMAT_NAME,
  FORMAT_VERSION,
  type DatasetView,
  type Manifest,
  type Totals,
} from '../../runtime/model/format.js';
import type { RankedAccessions } from '../phases/accessions.js';
import type { Digested } from '../phases/digestPhase.js';
import type { ShardIndexWriter } from './indexPages.js';
import { describeSource } from '../inputs/inputs.js';
import type { AccessionTables } from '../phases/rankPhase.js';
import type { Storage } from './datasetFile.js';
import { digestOptionsOf, storageOf, type BuildOptions } from '../phases/options.js';
import { TAXDUMP_FILES, type Taxonomy } from '../inputs/taxdump.js';
import { parseViews } from '../phases/views.js';

/** The manifest's files counted over the peptides as they are merged (a part counts its slice's; a merge sums them). */
type Tally = 'taxonomy' | 'peptideCounts';
export type Tallies = Pick<Manifest, Tally>;

/** The taxonomy of a build with --taxdump: the pruned tree and the accessions without a lineage. */
export interface Lineages {
  taxonomy: Taxonomy;
  withoutLineage: number;
}

/**
 * Everything a manifest says that does not depend on the shards: the dataset version, parameters, sources,
 * accession totals, the accession table, protein pages and sequence pages. Every part of a partitioned
 * build computes the same head; the merge checks they agree.
 */
export type DatasetHead = Omit<Manifest, 'totals' | 'shards' | 'shardIndex' | 'views' | Tally> & {
  totals: Omit<Totals, 'peptides' | 'massGroups' | 'shards' | 'bytes'>;
};

/** The head of the dataset whose accession table, protein pages and sequence pages are `tables`. */
export async function describeDataset(
  options: BuildOptions,
  digested: Digested,
  ranked: RankedAccessions,
  tables: AccessionTables,
  lineages?: Lineages,
): Promise<DatasetHead> {
  const { sources, skipped } = digested;
  const storage = storageOf(options);
  const { compression, folderDigits } = storage;
  const views = parseViews(options.views ?? []).map((view) => view.fixed);
  const parameters = {
    ...digestOptionsOf(options),
    shardBytes: options.shardBytes,
    ...(folderDigits > 0 ? { folderDigits } : {}),
    ...(views.length > 0 ? { views } : {}),
  };
  const taxonomySource = options.taxonomy ? await describeSource(options.taxonomy) : undefined;
  const taxdump = options.taxdump
    ? await Promise.all(TAXDUMP_FILES.map((file) => describeSource(join(options.taxdump!, file))))
    : undefined;
  return {
    format: FORMAT_NAME,
    formatVersion: FORMAT_VERSION,
    compression,
    datasetVersion: createHash('sha256')
      .update(
        JSON.stringify({
          formatVersion: FORMAT_VERSION,
          compression,
          parameters,
          sources,
          taxonomySource,
          release: options.release,
          taxdump,
          // Only when written: the versions of datasets without the table stay as they were.
          ...(tables.sequences ? { sequences: true } : {}),
        }),
      )
      .digest('hex')
      .slice(0, 16),
    parameters,
    ...(options.release ? { release: options.release } : {}),
    sources: [...sources, ...(taxonomySource ? [taxonomySource] : []), ...(taxdump ?? [])],
    totals: {
      proteins: digested.headers.count,
      accessions: ranked.count,
      reviewedAccessions: ranked.reviewedCount,
      accessionsWithoutTaxId: ranked.withoutTaxId,
      ...(lineages
        ? { accessionsWithoutLineage: lineages.withoutLineage, taxonomyNodes: lineages.taxonomy.taxIds.length }
        : {}),
      duplicateAccessions: ranked.duplicates.count,
      skippedRecords: skipped,
    },
    accessions: tables.accessions,
    proteins: tables.proteins,
    ...(tables.sequences ? { sequences: tables.sequences } : {}),
  };
}

/** A view's modification and the index its shards went to. */
export interface BuiltView {
  fixed: string;
  index: ShardIndexWriter;
}

/** A view as the manifest lists it (DatasetView). */
const manifestView = ({ fixed, index }: BuiltView): DatasetView => ({
  fixed,
  totals: { peptides: index.peptides, massGroups: index.massGroups, shards: index.shards, bytes: index.bytes },
  ...index.finish(),
});

/** How the files of the dataset of `head` are stored. */
export function headStorage(head: Pick<DatasetHead, 'compression' | 'parameters'>): Storage {
  return { compression: head.compression, folderDigits: head.parameters.folderDigits ?? 0 };
}

/**
 * The manifest of `head` with the shards `index` was given (it writes the last index pages) and the files
 * counted over the peptides (`tallies`). The single build and the merge of a partitioned one both end here, so their manifests are the
 * same bytes.
 */
export function assembleManifest(
  head: DatasetHead,
  index: ShardIndexWriter,
  { taxonomy, peptideCounts }: Tallies = {},
  views: readonly BuiltView[] = [],
): Manifest {
  const { totals, accessions, proteins, sequences, ...top } = head;
  const { proteins: proteinCount, ...accessionTotals } = totals;
  return {
    ...top,
    totals: {
      proteins: proteinCount,
      peptides: index.peptides,
      massGroups: index.massGroups,
      shards: index.shards,
      bytes: index.bytes,
      ...accessionTotals,
    },
    ...index.finish(),
    ...(views.length > 0 ? { views: views.map(manifestView) } : {}),
    accessions,
    proteins,
    ...(sequences ? { sequences } : {}),
    ...(taxonomy ? { taxonomy } : {}),
    ...(peptideCounts ? { peptideCounts } : {}),
  };
}

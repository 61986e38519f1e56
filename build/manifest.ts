// Build phase 4, the manifest: the dataset version (a hash of everything that decides the data), the
// totals, and the shard index (index page files written beside the shards when there are many).
import { createHash } from 'node:crypto';
import { FORMAT_NAME, FORMAT_VERSION, type Manifest } from '../runtime/model/format.js';
import type { RankedAccessions } from './accessions.js';
import type { Digested } from './digestPhase.js';
import { writeShardIndex } from './indexPages.js';
import { describeSource } from './inputs.js';
import type { Merged } from './mergePhase.js';
import { digestOptionsOf, type BuildOptions } from './options.js';

/** The manifest of the dataset staged in `dir`; writes its index pages there when it needs them. */
export async function assembleManifest(options: BuildOptions, digested: Digested, ranked: RankedAccessions, merged: Merged, dir: string): Promise<Manifest> {
  const { sources, skipped } = digested;
  const parameters = { ...digestOptionsOf(options), shardBytes: options.shardBytes };
  const taxonomySource = options.taxonomy ? await describeSource(options.taxonomy) : undefined;
  return {
    format: FORMAT_NAME,
    formatVersion: FORMAT_VERSION,
    datasetVersion: createHash('sha256')
      .update(JSON.stringify({ formatVersion: FORMAT_VERSION, parameters, sources, taxonomySource, release: options.release }))
      .digest('hex')
      .slice(0, 16),
    parameters,
    ...(options.release ? { release: options.release } : {}),
    sources: taxonomySource ? [...sources, taxonomySource] : sources,
    totals: {
      proteins: digested.accessions.length,
      peptides: merged.peptides,
      massGroups: merged.shards.reduce((sum, s) => sum + s.massGroups, 0),
      shards: merged.shards.length,
      bytes: merged.bytes,
      accessions: ranked.sorted.length,
      accessionsWithoutTaxId: ranked.withoutTaxId,
      duplicateAccessions: ranked.duplicates.length,
      skippedRecords: skipped,
    },
    ...writeShardIndex(dir, merged.shards),
  };
}

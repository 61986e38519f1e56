// The build: FASTA files → digested peptides in mass partitions on disk → sorted, grouped shards → manifest,
// published atomically. Memory is bounded by one partition plus the protein table (and, with --taxdump, the
// NCBI tree in typed arrays), not by the database.
// This module only orders the phases; each phase is a module of its own.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Manifest } from '../runtime/model/format.js';
import { rankAccessions } from './accessions.js';
import { readAndDigest } from './digestPhase.js';
import { readTaxonomy, resolveInputs } from './inputs.js';
import { assembleManifest } from './manifest.js';
import { mergeIntoShards } from './mergePhase.js';
import { checkOptions, DEFAULT_COMPRESSION, digestOptionsOf, type BuildOptions } from './options.js';
import { createRunners } from './pool.js';
import { BuildProgress } from './progress.js';
import { openStaging, publish } from './publish.js';
import { pruneToLineages, readTaxdumpTree } from './taxdump.js';
import { TaxonCounts } from './taxonCounts.js';

export { rankAccessions } from './accessions.js';
export { resolveInputs } from './inputs.js';
export { DEFAULT_SHARD_BYTES, type BuildOptions } from './options.js';

/** Builds the dataset of `options.inputs` and publishes it into `options.out`; returns its manifest. */
export async function buildDataset(options: BuildOptions): Promise<Manifest> {
  checkOptions(options);
  const progress = new BuildProgress(options.log);
  const files = await resolveInputs(options.inputs);
  const taxonomy = options.taxonomy ? await readTaxonomy(options.taxonomy) : new Map<string, number>();
  // nodes.dmp is read and checked before any digestion, so a bad tree fails at once.
  const tree = options.taxdump ? await readTaxdumpTree(options.taxdump) : undefined;
  const tmp = openStaging(options.out);
  const partitionDir = join(tmp, 'partitions');
  mkdirSync(partitionDir);
  const runners = createRunners(options.threads, { dir: partitionDir, options: digestOptionsOf(options) });
  try {
    const digested = await readAndDigest(files, runners, partitionDir, progress);
    const ranked = rankAccessions(digested.accessions, digested.headers, taxonomy);
    progress.duplicates(ranked.duplicates);
    const lineages = tree ? await pruneToLineages(tree, ranked.taxIds) : undefined;
    if (lineages) progress.taxonomy(lineages.taxonomy.taxIds.length, lineages.withoutLineage);
    const counts = lineages ? new TaxonCounts(lineages.taxonomy.parents, lineages.nodeOf) : undefined;
    const merged = await mergeIntoShards(runners, digested.partitionFiles, ranked, tmp, options.shardBytes, options.compression ?? DEFAULT_COMPRESSION, progress, counts);
    const built = lineages && counts ? { taxonomy: lineages.taxonomy, peptides: counts.counts(), withoutLineage: lineages.withoutLineage } : undefined;
    const manifest = await assembleManifest(options, digested, ranked, merged, tmp, built);
    publish(tmp, options.out, manifest);
    progress.built(manifest.totals, options.out);
    return manifest;
  } finally {
    await Promise.all(runners.map((r) => r.close()));
    rmSync(tmp, { recursive: true, force: true });
  }
}

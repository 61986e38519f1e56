// The build: FASTA files → digested peptides in mass partitions on disk → sorted, grouped shards → manifest,
// published atomically. Memory is bounded by one partition plus fixed-width columns (a protein's rank, an
// accession's taxId and reviewed flag; with --taxdump, the NCBI tree in typed arrays), not by the database: headers
// wait on disk in sorted runs. A part of a partitioned build (`--part i/N`) runs the same
// phases on its mass slice only and publishes a part folder (build/part.ts) for build:merge instead.
// This module only orders the phases; each phase is a module of its own.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Manifest } from '../runtime/model/format.js';
import { readAndDigest } from './digestPhase.js';
import { readTaxonomy, resolveInputs } from './inputs.js';
import { assembleManifest, describeDataset, type DatasetHead, type BuiltView } from './manifest.js';
import { BuildError } from './fasta.js';
import { indexPageWriter, ShardIndexWriter } from './indexPages.js';
import { mergeIntoShards, mergeViewShards } from './mergePhase.js';
import { checkOptions, digestOptionsOf, storageOf, type BuildOptions } from './options.js';
import { publishPart, type PartManifest } from './part.js';
import { createRunners } from './pool.js';
import { BuildProgress } from './progress.js';
import { crowdingWarning, openStaging, publish } from './publish.js';
import { planPartitions, type KeySlice } from './partitions.js';
import { rankAndWriteTables } from './rankPhase.js';
import { ShardList, type ShardSink } from './shardWriter.js';
import { cutKeys, keySliceOf, SAMPLE_EVERY, sampleMassBuckets, sliceStarts, unitCounts, type PartSpec } from './slices.js';
import { pruneToLineages, readTaxdumpTree } from './taxdump.js';
import { TaxonCounts } from './taxonCounts.js';
import { writeTaxonomyFile } from './taxonomyFile.js';
import { parseViews, ViewSpill, viewSpillDir } from './views.js';

export { resolveInputs } from './inputs.js';
export { DEFAULT_SHARD_BYTES, type BuildOptions } from './options.js';

/** A build staged in `tmp`, before it is published: the head, the shards' sink, the taxonomy file's entry. */
interface Staged<S extends ShardSink> {
  tmp: string;
  head: DatasetHead;
  shards: S;
  /** Distinct peptides in the shards. */
  peptides: number;
  taxonomy?: Manifest['taxonomy'];
  /** The mass keys the build kept (all of them but for a part). */
  keys: KeySlice;
  /** The views' shard indexes (only a single build makes views). */
  views: BuiltView[];
}

/** Builds the dataset of `options.inputs` and publishes it into `options.out`; returns its manifest. */
export async function buildDataset(options: BuildOptions): Promise<Manifest> {
  const progress = new BuildProgress(options.log);
  // The shard index is written as the shards are (its leaf pages beside them in the staging folder).
  const sink = (tmp: string) => new ShardIndexWriter(indexPageWriter(tmp, storageOf(options)));
  return stage(options, undefined, progress, sink, ({ tmp, head, shards, taxonomy, views }) => {
    const manifest = assembleManifest(head, shards, taxonomy, views);
    const files = publish(tmp, options.out, manifest);
    progress.built(manifest.totals, options.out);
    progress.warn(crowdingWarning(files, manifest.parameters.folderDigits ?? 0));
    return manifest;
  });
}

/**
 * Builds part `part.index` of `part.count` of the dataset of `options.inputs`: every input is read and digested,
 * only the part's mass slice is kept; publishes a part folder into `options.out` and returns its part.json.
 */
export async function buildPart(options: BuildOptions, part: PartSpec): Promise<PartManifest> {
  if (options.views?.length) throw new BuildError('--view is made by a single build only, not with --part');
  const progress = new BuildProgress(options.log);
  return stage(options, part, progress, () => new ShardList(), ({ tmp, head, shards, peptides, taxonomy, keys }) => {
    const written: PartManifest = {
      format: 'digested-peptides-part',
      part: { ...part, lowKey: keys.lowKey, highKey: Number.isFinite(keys.highKey) ? keys.highKey : null },
      head,
      peptides,
      bytes: shards.bytes,
      shards: shards.shards,
      ...(taxonomy ? { taxonomy } : {}),
    };
    publishPart(tmp, options.out, written);
    progress.builtPart(part, shards.shards.length, peptides, options.out);
    return written;
  });
}

/**
 * Runs the build's phases into a staging folder in `options.out`, keeping only the peptides of the mass slice of
 * `part` when given, the shards' entries going to the sink `sinkIn` makes for the staging folder, then `publishStaged`.
 */
async function stage<T, S extends ShardSink>(
  options: BuildOptions,
  part: PartSpec | undefined,
  progress: BuildProgress,
  sinkIn: (tmp: string) => S,
  publishStaged: (staged: Staged<S>) => T,
): Promise<T> {
  checkOptions(options);
  const files = await resolveInputs(options.inputs);
  // The mass distribution of a sample decides the partitions (and a part's slice) before any digestion.
  const sample = await sampleMassBuckets(files, digestOptionsOf(options));
  const plan = planPartitions(sample.bytes, SAMPLE_EVERY, options.partitionBytes);
  const cuts = cutKeys(sample.records, SAMPLE_EVERY, options.cutRecords);
  const keys = part ? keySliceOf(sliceStarts(unitCounts(sample.records, cuts), part.count), part.index) : { lowKey: 0, highKey: Infinity };
  if (part) progress.slice(part, keys);
  const taxonomyTsv = options.taxonomy ? await readTaxonomy(options.taxonomy) : new Map<string, number>();
  // nodes.dmp is read and checked before any digestion, so a bad tree fails at once.
  const tree = options.taxdump ? await readTaxdumpTree(options.taxdump) : undefined;
  const tmp = openStaging(options.out);
  const partitionDir = join(tmp, 'partitions');
  mkdirSync(partitionDir);
  const runners = createRunners(options.threads, { dir: partitionDir, options: digestOptionsOf(options), keys, shifts: plan.shifts });
  let closing: Promise<unknown> | undefined;
  const closeRunners = () => (closing ??= Promise.all(runners.map((r) => r.close())));
  try {
    const digested = await readAndDigest(files, runners, partitionDir, join(tmp, 'headers'), progress);
    const storage = storageOf(options);
    const { ranked, tables } = rankAndWriteTables(digested.headers, taxonomyTsv, tmp, storage, options.maxAccessionText);
    progress.duplicates(ranked.duplicates);
    const lineages = tree ? await pruneToLineages(tree, ranked.taxIds) : undefined;
    if (lineages) progress.taxonomy(lineages.taxonomy.taxIds.length, lineages.withoutLineage);
    const counts = lineages ? new TaxonCounts(lineages.taxonomy.parents, lineages.nodeOf) : undefined;
    const shards = sinkIn(tmp);
    const spills = parseViews(options.views ?? []).map((view, i) => new ViewSpill(view, viewSpillDir(tmp), plan, i));
    const peptides = await mergeIntoShards(runners, digested.partitionFiles, ranked, tmp, options.shardBytes, storage, progress, cuts, shards, counts, spills);
    rmSync(partitionDir, { recursive: true, force: true });
    const views: BuiltView[] = [];
    for (const spill of spills) {
      const index = new ShardIndexWriter(indexPageWriter(tmp, storage));
      await mergeViewShards(runners, spill.finish(), tmp, options.shardBytes, storage, index);
      views.push({ fixed: spill.view.fixed, index });
      progress.view(spill.view.fixed, index.peptides, index.shards);
    }
    await closeRunners(); // their memory is not needed for what is left
    rmSync(viewSpillDir(tmp), { recursive: true, force: true });
    const head = await describeDataset(options, digested, ranked, tables, lineages);
    const taxonomy = lineages && counts ? writeTaxonomyFile(tmp, lineages.taxonomy, counts.counts(), storage) : undefined;
    return publishStaged({ tmp, head, shards, peptides, taxonomy, keys, views });
  } finally {
    await closeRunners();
    rmSync(tmp, { recursive: true, force: true });
  }
}

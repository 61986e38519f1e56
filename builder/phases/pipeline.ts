// The build: FASTA files → digested peptides in mass partitions on disk (and each view's, builder/phases/views.ts) →
// sorted, grouped shards → manifest, published atomically. Memory is bounded by one partition plus fixed-width
// columns (a protein's rank, an accession's taxId and reviewed flag; with --taxdump, the NCBI tree in typed
// arrays), not by the database: headers wait on disk in sorted runs. A part of a partitioned build (`--part i/N`)
// runs the same phases on its mass slice (and its slice of each view's keys) only and publishes a part folder
// (builder/writers/part.ts) for build:merge instead.
// This module only orders the phases; each phase is a module of its own.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Manifest } from '../../runtime/model/format.js';
import { readAndDigest } from './digestPhase.js';
import { readTaxonomy, resolveInputs } from '../inputs/inputs.js';
import {
  assembleManifest,
  describeDataset,
  type DatasetHead,
  type BuiltView,
  type Tallies,
} from '../writers/manifest.js';
import { indexPageWriter, ShardIndexWriter } from '../writers/indexPages.js';
import { mergeIntoShards, mergeViewShards } from './mergePhase.js';
import { checkOptions, digestOptionsOf, storageOf, type BuildOptions } from './options.js';
import { publishPart, type PartManifest, type PartView } from '../writers/part.js';
import { createRunners } from './pool.js';
import { BuildProgress } from './progress.js';
import { crowdingWarning, openStaging, publish } from '../writers/publish.js';
import type { KeySlice } from './partitions.js';
import { orderRanks, rankHeaders } from './rankPhase.js';
import { ShardList, type ShardSink } from '../writers/shardWriter.js';
import { keyLayout, sampleMassBuckets, type MassSample, type PartSpec } from './slices.js';
import { pruneToLineages, readTaxdumpTree } from '../inputs/taxdump.js';
import { TaxonCounts } from './taxonCounts.js';
import { writeTaxonomyFile } from '../writers/taxonomyFile.js';
import { writePeptideCounts } from '../writers/peptideCountsFile.js';
import { PeptideCounts } from './peptideCounts.js';
import { parseViews, viewKeysOf } from './views.js';

export { resolveInputs } from '../inputs/inputs.js';
export { DEFAULT_SHARD_BYTES, type BuildOptions } from './options.js';

/** A build staged in `tmp`, before it is published: the head, the shards' sink, the taxonomy file's entry. */
interface Staged<S extends ShardSink> {
  tmp: string;
  head: DatasetHead;
  shards: S;
  /** Distinct peptides in the shards. */
  peptides: number;
  tallies: Tallies;
  /** The mass keys the build kept (all of them but for a part). */
  keys: KeySlice;
  /** Each view's modification, the shards' sink, its peptides, and the view keys the build kept. */
  views: { fixed: string; shards: S; peptides: number; keys: KeySlice }[];
}

/** Builds the dataset of `options.inputs` and publishes it into `options.out`; returns its manifest. */
export async function buildDataset(options: BuildOptions): Promise<Manifest> {
  const progress = new BuildProgress(options.log, options.meter);
  // The shard index is written as the shards are (its leaf pages beside them in the staging folder).
  const sink = (tmp: string) => new ShardIndexWriter(indexPageWriter(tmp, storageOf(options)));
  return stage(options, undefined, progress, sink, ({ tmp, head, shards, tallies, views }) => {
    const built: BuiltView[] = views.map(({ fixed, shards }) => ({ fixed, index: shards }));
    const manifest = assembleManifest(head, shards, tallies, built);
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
  const progress = new BuildProgress(options.log, options.meter);
  return stage(
    options,
    part,
    progress,
    () => new ShardList(),
    ({ tmp, head, shards, peptides, tallies, keys, views }) => {
      const partViews: PartView[] = views.map((v) => ({
        fixed: v.fixed,
        ...sliceOf(v.keys),
        peptides: v.peptides,
        bytes: v.shards.bytes,
        shards: v.shards.shards,
      }));
      const written: PartManifest = {
        format: 'digested-peptides-part',
        part: { ...part, ...sliceOf(keys) },
        head,
        peptides,
        bytes: shards.bytes,
        shards: shards.shards,
        ...tallies,
        ...(partViews.length > 0 ? { views: partViews } : {}),
      };
      publishPart(tmp, options.out, written);
      progress.builtPart(part, shards.shards.length, peptides, options.out);
      return written;
    },
  );
}

/** A slice's keys as part.json writes them (highKey null: +inf). */
const sliceOf = (keys: KeySlice) => ({
  lowKey: keys.lowKey,
  highKey: Number.isFinite(keys.highKey) ? keys.highKey : null,
});

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
  // The mass distribution of a sample decides the partitions (and a part's slice) before any digestion, for the
  // dataset's keys and for each view's.
  const viewSpecs = parseViews(options.views ?? []);
  const sample = await sampleMassBuckets(files, digestOptionsOf(options), viewSpecs.map(viewKeysOf));
  const layout = (s: MassSample) => keyLayout(s, part, options.partitionBytes, options.cutRecords);
  const { plan, cuts, keys } = layout(sample);
  const viewLayouts = sample.views.map(layout);
  if (part) progress.slice(part, keys);
  const taxonomyTsv = options.taxonomy ? await readTaxonomy(options.taxonomy) : new Map<string, number>();
  // nodes.dmp is read and checked before any digestion, so a bad tree fails at once.
  const tree = options.taxdump ? await readTaxdumpTree(options.taxdump) : undefined;
  const tmp = openStaging(options.out);
  const partitionDir = join(tmp, 'partitions');
  mkdirSync(partitionDir);
  const views = viewSpecs.map((view, v) => ({ view, keys: viewLayouts[v].keys, shifts: viewLayouts[v].plan.shifts }));
  const runners = createRunners(options.threads, {
    dir: partitionDir,
    options: digestOptionsOf(options),
    keys,
    shifts: plan.shifts,
    views,
  });
  let closing: Promise<unknown> | undefined;
  const closeRunners = () => (closing ??= Promise.all(runners.map((r) => r.close())));
  try {
    const digested = await readAndDigest(files, runners, join(tmp, 'headers'), progress, options.sequences);
    const storage = storageOf(options);
    const rankedHeaders = rankHeaders(digested.headers, taxonomyTsv, tmp, storage, options);
    const { ranked } = rankedHeaders;
    progress.duplicates(ranked.duplicates);
    const lineages = tree ? await pruneToLineages(tree, ranked.taxIds) : undefined;
    if (lineages) progress.taxonomy(lineages.taxonomy.taxIds.length, lineages.withoutLineage);
    // Ranks are in the format's order from here on.
    const tables = orderRanks(rankedHeaders, lineages, options.accessionPageAccessions);
    const counts = lineages ? new TaxonCounts(lineages.taxonomy.parents, lineages.nodeOf) : undefined;
    const perAccession = new PeptideCounts(ranked.taxIds.length);
    const shards = sinkIn(tmp);
    const peptides = await mergeIntoShards(
      runners,
      digested.partitionSegments,
      ranked,
      tmp,
      options.shardBytes,
      storage,
      progress,
      cuts,
      shards,
      [perAccession, ...(counts ? [counts] : [])],
    );
    // The dataset's partitions go before the views' are merged: their disk does not add up.
    for (const file of new Set([...digested.partitionSegments.values()].flat().map((s) => s.file))) rmSync(file);
    const builtViews: Staged<S>['views'] = [];
    for (const [v, { fixed }] of viewSpecs.entries()) {
      const viewShards = sinkIn(tmp);
      const written = await mergeViewShards(
        runners,
        v,
        digested.viewPartitionSegments[v],
        tmp,
        options.shardBytes,
        storage,
        viewLayouts[v].cuts,
        viewShards,
      );
      builtViews.push({ fixed, shards: viewShards, peptides: written.peptides, keys: viewLayouts[v].keys });
      progress.view(fixed, written.peptides, written.shards);
    }
    await closeRunners(); // their memory is not needed for what is left
    rmSync(partitionDir, { recursive: true, force: true });
    const head = await describeDataset(options, digested, ranked, tables, lineages);
    const tallies: Tallies = { peptideCounts: writePeptideCounts(tmp, perAccession.counts, storage) };
    if (lineages && counts)
      tallies.taxonomy = writeTaxonomyFile(tmp, lineages, ranked.reviewed, counts.counts(), counts.specific(), storage);
    return publishStaged({ tmp, head, shards, peptides, tallies, keys, views: builtViews });
  } finally {
    await closeRunners();
    rmSync(tmp, { recursive: true, force: true });
  }
}

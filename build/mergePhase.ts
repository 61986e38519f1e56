// Build phase 3, merge into shards: the runners learn the accession ranks, merge the partitions in mass
// order (a few ahead, in parallel), and the sorted, grouped peptides are cut into shard files (and counted per
// taxon when the build has a taxonomy; spilled into the views when it makes some), whose entries go to a sink as
// they are written; then each view's partitions are merged into shards of its own the same way.
import type { Storage } from './datasetFile.js';
import type { RankedAccessions } from './accessions.js';
import type { PartitionPeptides } from './partitions.js';
import { leastBusy, settled, type Runner } from './pool.js';
import type { BuildProgress } from './progress.js';
import { ShardWriter, type ShardSink } from './shardWriter.js';
import type { TaxonCounts } from './taxonCounts.js';
import type { ViewSpill } from './views.js';

/**
 * Merges the partitions of `partitionFiles` into shards of about `shardBytes` (stored as `storage` says, ending at
 * the `cuts` keys too) written into `dir`, their entries handed to `sink` in mass order; counts taxa into
 * `taxonCounts` and spills each merged partition's peptides into the views' `spills`. Returns the number of peptides.
 */
export async function mergeIntoShards(
  runners: readonly Runner[],
  partitionFiles: ReadonlyMap<number, string[]>,
  ranked: RankedAccessions,
  dir: string,
  shardBytes: number,
  storage: Storage,
  progress: BuildProgress,
  cuts: readonly number[],
  sink: ShardSink,
  taxonCounts?: TaxonCounts,
  spills: readonly ViewSpill[] = [],
): Promise<number> {
  await Promise.all(runners.map((r) => r.run({ type: 'ranks', rankOf: ranked.rankOf })));
  const writer = new ShardWriter(dir, shardBytes, storage, sink, cuts);
  let peptides = 0;
  await mergeInOrder(runners, partitionFiles, false, (part, done, partitions) => {
    writer.add(part);
    taxonCounts?.add(part);
    for (const spill of spills) spill.add(part);
    peptides += part.keys.length;
    progress.merging(done, partitions, peptides, writer.written);
  });
  writer.finish();
  return peptides;
}

/** Merges a view's spilled partitions into its shards (no cut keys: only a single build makes views). */
export async function mergeViewShards(runners: readonly Runner[], partitionFiles: ReadonlyMap<number, string[]>, dir: string, shardBytes: number, storage: Storage, sink: ShardSink): Promise<void> {
  const writer = new ShardWriter(dir, shardBytes, storage, sink);
  await mergeInOrder(runners, partitionFiles, true, (part) => writer.add(part));
  writer.finish();
}

/**
 * Merges the partitions on the runners, a few ahead, in parallel, and hands each to `take` in mass order with
 * how many are done; `ranked`: the records hold accession ranks (a view's), not protein ordinals.
 */
async function mergeInOrder(
  runners: readonly Runner[],
  partitionFiles: ReadonlyMap<number, string[]>,
  ranked: boolean,
  take: (part: PartitionPeptides, done: number, partitions: number) => void,
): Promise<void> {
  const partitions = [...partitionFiles.keys()].sort((a, b) => a - b);
  const ahead: Promise<PartitionPeptides>[] = [];
  let next = 0;
  const launch = () => {
    if (next >= partitions.length) return;
    const p = partitions[next++];
    ahead.push(settled(leastBusy(runners).run({ type: 'merge', partition: p, files: partitionFiles.get(p)!, ranked }) as Promise<PartitionPeptides>));
  };
  for (let i = 0; i < runners.length + 1; i++) launch();
  for (let done = 0; ahead.length > 0; done++) {
    const part = await ahead.shift()!;
    launch();
    take(part, done + 1, partitions.length);
  }
}

// Build phase 3, merge into shards: the runners learn the accession ranks, merge the partitions in mass
// order (a few ahead, in parallel), and the sorted, grouped peptides are cut into shard files (and counted per
// taxon when the build has a taxonomy), whose entries go to a sink as they are written; then each view's
// partitions are merged into shards of its own the same way.
import type { Storage } from '../writers/datasetFile.js';
import type { RankedAccessions } from './accessions.js';
import type { PartitionPeptides, Segment } from './partitions.js';
import { leastBusy, settled, type Runner } from './pool.js';
import type { BuildProgress } from './progress.js';
import { ShardWriter, type ShardSink } from '../writers/shardWriter.js';

/**
 * Merges the partitions of `partitionSegments` into shards of about `shardBytes` (stored as `storage` says, ending at
 * the `cuts` keys too) written into `dir`, their entries handed to `sink` in mass order; each partition's peptides
 * also go to the `tallies` that count them. Returns the number of peptides.
 */
export async function mergeIntoShards(
  runners: readonly Runner[],
  partitionSegments: ReadonlyMap<number, Segment[]>,
  ranked: RankedAccessions,
  dir: string,
  shardBytes: number,
  storage: Storage,
  progress: BuildProgress,
  cuts: readonly number[],
  sink: ShardSink,
  tallies: readonly { add(part: PartitionPeptides): void }[] = [],
): Promise<number> {
  await Promise.all(runners.map((r) => r.run({ type: 'ranks', rankOf: ranked.rankOf })));
  const writer = new ShardWriter(dir, shardBytes, storage, sink, cuts);
  let peptides = 0;
  await mergeInOrder(runners, partitionSegments, 0, (part, done, partitions) => {
    writer.add(part);
    for (const tally of tallies) tally.add(part);
    peptides += part.keys.length;
    progress.merging(done, partitions, peptides, writer.written);
  });
  writer.finish();
  return peptides;
}

/** Merges view `view`'s partitions into its shards, cut at its own `cuts`; returns how many peptides and shards. */
export async function mergeViewShards(
  runners: readonly Runner[],
  view: number,
  partitionSegments: ReadonlyMap<number, Segment[]>,
  dir: string,
  shardBytes: number,
  storage: Storage,
  cuts: readonly number[],
  sink: ShardSink,
): Promise<{ peptides: number; shards: number }> {
  const writer = new ShardWriter(dir, shardBytes, storage, sink, cuts);
  let peptides = 0;
  await mergeInOrder(runners, partitionSegments, view + 1, (part) => {
    writer.add(part);
    peptides += part.keys.length;
  });
  writer.finish();
  return { peptides, shards: writer.written };
}

/**
 * Merges the partitions of key line `line` (builder/phases/jobs.ts) on the runners, a few ahead, in parallel, and hands
 * each to `take` in mass order with how many are done.
 */
async function mergeInOrder(
  runners: readonly Runner[],
  partitionSegments: ReadonlyMap<number, Segment[]>,
  line: number,
  take: (part: PartitionPeptides, done: number, partitions: number) => void,
): Promise<void> {
  const partitions = [...partitionSegments.keys()].sort((a, b) => a - b);
  const ahead: Promise<PartitionPeptides>[] = [];
  let next = 0;
  const launch = () => {
    if (next >= partitions.length) return;
    const p = partitions[next++];
    ahead.push(
      settled(
        leastBusy(runners).run({
          type: 'merge',
          line,
          partition: p,
          segments: partitionSegments.get(p)!,
        }) as Promise<PartitionPeptides>,
      ),
    );
  };
  for (let i = 0; i < runners.length + 1; i++) launch();
  for (let done = 0; ahead.length > 0; done++) {
    const part = await ahead.shift()!;
    launch();
    take(part, done + 1, partitions.length);
  }
}

// Build phase 3, merge into shards: the runners learn the accession ranks, merge the partitions in mass
// order (a few ahead, in parallel), and the sorted, grouped peptides are cut into shard files (and counted per
// taxon when the build has a taxonomy), whose entries go to a sink as they are written.
import type { Storage } from './datasetFile.js';
import type { RankedAccessions } from './accessions.js';
import type { PartitionPeptides } from './partitions.js';
import { leastBusy, settled, type Runner } from './pool.js';
import type { BuildProgress } from './progress.js';
import { ShardWriter, type ShardSink } from './shardWriter.js';
import type { TaxonCounts } from './taxonCounts.js';

/**
 * Merges the partitions of `partitionFiles` into shards of about `shardBytes` (stored as `storage` says, ending at
 * the `cuts` keys too) written into `dir`, their entries handed to `sink` in mass order; counts taxa into
 * `taxonCounts`. Returns the number of peptides.
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
): Promise<number> {
  await Promise.all(runners.map((r) => r.run({ type: 'ranks', rankOf: ranked.rankOf })));
  const writer = new ShardWriter(dir, shardBytes, storage, sink, cuts);
  const partitions = [...partitionFiles.keys()].sort((a, b) => a - b);
  const ahead: Promise<PartitionPeptides>[] = [];
  let next = 0;
  const launch = () => {
    if (next >= partitions.length) return;
    const p = partitions[next++];
    ahead.push(settled(leastBusy(runners).run({ type: 'merge', partition: p, files: partitionFiles.get(p)! }) as Promise<PartitionPeptides>));
  };
  for (let i = 0; i < runners.length + 1; i++) launch();
  let peptides = 0;
  for (let done = 0; ahead.length > 0; done++) {
    const part = await ahead.shift()!;
    launch();
    writer.add(part);
    taxonCounts?.add(part);
    peptides += part.keys.length;
    progress.merging(done + 1, partitions.length, peptides, writer.written);
  }
  writer.finish();
  return peptides;
}

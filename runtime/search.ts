// Range search over a dataset. Mass groups are numbered 0.. in ascending mass over the whole dataset, so a
// key range is a run of group ordinals: its two ends are found in the (at most two) shards the range cuts,
// its length is a subtraction, and a page is a sub-run whose shards are found by ordinal.
import type { Dataset } from './dataset.js';
import type { Shard } from './format.js';
import { partitionPoint, type LocatedShard } from './shardIndex.js';

export { partitionPoint };

/** One matching mass group: group `group` of a decoded shard. */
export interface GroupRef {
  shard: Shard;
  group: number;
}

export interface SearchResult {
  /** Mass groups with lowKey <= key <= highKey. */
  totalResult: number;
  groups: GroupRef[];
}

/** Index of the first group with key >= `key` (lower bound). */
export const firstGroupAtOrAbove = (shard: Shard, key: number) => partitionPoint(shard.massKeys.length, (g) => shard.massKeys[g] >= key);

/** Index of the first group with key > `key` (upper bound). */
export const firstGroupAbove = (shard: Shard, key: number) => partitionPoint(shard.massKeys.length, (g) => shard.massKeys[g] > key);

/** Ordinal of the first group with key >= lowKey, reading the shard only when the range cuts it. */
async function startOrdinal(dataset: Dataset, first: LocatedShard, lowKey: number): Promise<number> {
  if (first.entry.firstKey >= lowKey) return first.groupsBefore;
  return first.groupsBefore + firstGroupAtOrAbove(await dataset.shard(first.entry), lowKey);
}

/** Ordinal one past the last group with key <= highKey, reading the shard only when the range cuts it. */
async function endOrdinal(dataset: Dataset, last: LocatedShard, highKey: number): Promise<number> {
  if (last.entry.lastKey <= highKey) return last.groupsBefore + last.entry.massGroups;
  return last.groupsBefore + firstGroupAbove(await dataset.shard(last.entry), highKey);
}

/** Mass groups with lowKey <= key <= highKey, counted exactly, and the page's groups in ascending order. */
export async function searchRange(dataset: Dataset, lowKey: number, highKey: number, page: number, pageSize: number): Promise<SearchResult> {
  if (lowKey > highKey) return { totalResult: 0, groups: [] };
  const [first, last] = await Promise.all([dataset.index.firstEndingAtOrAbove(lowKey), dataset.index.lastStartingAtOrBelow(highKey)]);
  if (!first || !last || first.index > last.index) return { totalResult: 0, groups: [] };
  const [start, end] = await Promise.all([startOrdinal(dataset, first, lowKey), endOrdinal(dataset, last, highKey)]);
  const totalResult = end - start;

  const from = start + (page - 1) * pageSize;
  const to = Math.min(end, from + pageSize);
  if (from >= to) return { totalResult, groups: [] };
  // The page's shards, in order: the one holding group `from`, then each next one until `to` is covered.
  const located = [await dataset.index.shardOfGroup(from)];
  for (let l = located[0]; l.groupsBefore + l.entry.massGroups < to; located.push(l)) {
    l = await dataset.index.shardOfGroup(l.groupsBefore + l.entry.massGroups);
  }
  const shards = await Promise.all(located.map((l) => dataset.shard(l.entry)));

  const groups: GroupRef[] = [];
  located.forEach((l, k) => {
    const lo = Math.max(from, l.groupsBefore) - l.groupsBefore;
    const hi = Math.min(to, l.groupsBefore + l.entry.massGroups) - l.groupsBefore;
    for (let g = lo; g < hi; g++) groups.push({ shard: shards[k], group: g });
  });
  return { totalResult, groups };
}

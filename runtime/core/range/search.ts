// Range search over a dataset, as data: one page of a range query (runQuery), or every group of a range shard
// by shard (walkRange). Mass groups are numbered 0.. in ascending mass over the whole dataset, so a key range
// is a run of group ordinals: its two ends are found in the (at most two) shards the range cuts, its length
// is a subtraction, and a page is a sub-run whose shards are found by ordinal.
import { addPeptideRanks, NO_ACCESSIONS, type AccessionSet } from '../../model/accessionSet.js';
import type { Shard } from '../../model/format.js';
import type { Dataset } from '../storage/dataset.js';
import { partitionPoint, type LocatedShard, type ShardIndex } from '../storage/shardIndex.js';

/** A range query over mass keys, one page of its mass groups. */
export interface RangeQuery {
  lowKey: number;
  highKey: number;
  page: number;
  pageSize: number;
}

/** One matching mass group: group `group` of a decoded shard. */
export interface GroupRef {
  shard: Shard;
  group: number;
}

/** One page of a range query: the count of every matching group and the page's groups, ascending. */
export interface QueryResult {
  /** Mass groups with lowKey <= key <= highKey. */
  totalResult: number;
  page: number;
  pageSize: number;
  groups: GroupRef[];
  /** The accessions of the page's peptides. */
  accessions: AccessionSet;
}

/** Index of the first group with key >= `key` (lower bound). */
export const firstGroupAtOrAbove = (shard: Shard, key: number) =>
  partitionPoint(shard.massKeys.length, (g) => shard.massKeys[g] >= key);

/** Index of the first group with key > `key` (upper bound). */
export const firstGroupAbove = (shard: Shard, key: number) =>
  partitionPoint(shard.massKeys.length, (g) => shard.massKeys[g] > key);

/** A value now, or a promise of it where something must be read first. */
type Soon<T> = T | Promise<T>;
const isPromise = <T>(value: Soon<T>): value is Promise<T> => value instanceof Promise;

/** Ordinal of the first group with key >= lowKey, reading the shard only when the range cuts it. */
function startOrdinal(dataset: Dataset, first: LocatedShard, lowKey: number): Soon<number> {
  if (first.entry.firstKey >= lowKey) return first.groupsBefore;
  const shard = dataset.shardNowOrLater(first.entry);
  return isPromise(shard)
    ? shard.then((s) => first.groupsBefore + firstGroupAtOrAbove(s, lowKey))
    : first.groupsBefore + firstGroupAtOrAbove(shard, lowKey);
}

/** Ordinal one past the last group with key <= highKey, reading the shard only when the range cuts it. */
function endOrdinal(dataset: Dataset, last: LocatedShard, highKey: number): Soon<number> {
  if (last.entry.lastKey <= highKey) return last.groupsBefore + last.entry.massGroups;
  const shard = dataset.shardNowOrLater(last.entry);
  return isPromise(shard)
    ? shard.then((s) => last.groupsBefore + firstGroupAbove(s, highKey))
    : last.groupsBefore + firstGroupAbove(shard, highKey);
}

/** The first and last shard of a key range, when it touches any. */
const bothEnds = (
  first: LocatedShard | undefined,
  last: LocatedShard | undefined,
): [LocatedShard, LocatedShard] | undefined => (first && last && first.index <= last.index ? [first, last] : undefined);

/** The first and last shard a key range touches, or undefined when it touches none. */
function rangeShards(
  { index }: Dataset,
  lowKey: number,
  highKey: number,
): Soon<[LocatedShard, LocatedShard] | undefined> {
  if (lowKey > highKey) return undefined;
  const [first, last] = [index.firstEndingAtOrAboveNow(lowKey), index.lastStartingAtOrBelowNow(highKey)];
  if (first !== null && last !== null) return bothEnds(first, last);
  return Promise.all([index.firstEndingAtOrAbove(lowKey), index.lastStartingAtOrBelow(highKey)]).then(([f, l]) =>
    bothEnds(f, l),
  );
}

/**
 * Starts reading, all at once, the shards a first page needs beside those its count needs: the range's first
 * shard (the page starts there), the last when the range cuts it (its count reads it), and each shard after
 * the first that the page may reach (fewer than a page of range groups before it, counting one for a first
 * shard the range cuts). Not awaited here: each is awaited where it is used (shared, from the cache or the
 * read in flight), so a narrow query costs one round trip for its shards.
 */
function readAhead(
  dataset: Dataset,
  first: LocatedShard,
  last: LocatedShard,
  { lowKey, highKey, pageSize }: RangeQuery,
): void {
  const wanted = [first];
  if (last.entry.lastKey > highKey) wanted.push(last);
  const inFirst = first.entry.firstKey >= lowKey ? first.entry.massGroups : 1; // range groups in the first shard (at least)
  for (
    let l: LocatedShard | null = first, before = inFirst;
    l.index < last.index && before < pageSize;
    before += l.entry.massGroups
  ) {
    l = dataset.index.shardOfGroupNow(l.groupsBefore + l.entry.massGroups);
    if (!l) break; // on an index page not read yet: read when the page needs it
    wanted.push(l);
  }
  for (const located of wanted) {
    const shard = dataset.shardNowOrLater(located.entry);
    if (isPromise(shard)) shard.catch(() => undefined);
  }
}

/** The accessions of the peptides of mass groups from..to-1 of `shard`. */
const addGroupRanks = (shard: Shard, from: number, to: number, add: (rank: number) => void) =>
  from < to && addPeptideRanks(shard, from === 0 ? 0 : shard.groupEnds[from - 1], shard.groupEnds[to - 1], add);

/** A page of `query` without groups, of a query counting `totalResult`. */
const noGroups = ({ page, pageSize }: RangeQuery, totalResult: number): QueryResult => ({
  totalResult,
  page,
  pageSize,
  groups: [],
  accessions: NO_ACCESSIONS,
});

/**
 * Mass groups with lowKey <= key <= highKey, counted exactly, and the query's page of them in ascending order.
 * Where the index pages, shards and accessions it needs are in memory it takes them as they are (`...Now`), with no
 * await between: a fully cached query does not wait on a promise of its own.
 */
export async function runQuery(dataset: Dataset, query: RangeQuery): Promise<QueryResult> {
  const { lowKey, highKey, page, pageSize } = query;
  const soonEnds = rangeShards(dataset, lowKey, highKey);
  const ends = isPromise(soonEnds) ? await soonEnds : soonEnds;
  if (!ends) return noGroups(query, 0);
  const [first, last] = ends;
  if (page === 1) readAhead(dataset, first, last, query);
  let [start, end] = [startOrdinal(dataset, first, lowKey), endOrdinal(dataset, last, highKey)];
  if (isPromise(start) || isPromise(end)) [start, end] = await Promise.all([start, end]);
  const totalResult = end - start;

  const from = start + (page - 1) * pageSize;
  const to = Math.min(end, from + pageSize);
  if (from >= to) return noGroups(query, totalResult);
  // The page's shards, in order: the one holding group `from`, then each next one until `to` is covered.
  const { index } = dataset;
  const located = [index.shardOfGroupNow(from) ?? (await index.shardOfGroup(from))];
  for (let l = located[0]; l.groupsBefore + l.entry.massGroups < to; located.push(l)) {
    const next = l.groupsBefore + l.entry.massGroups;
    l = index.shardOfGroupNow(next) ?? (await index.shardOfGroup(next));
  }
  const soonShards = located.map((l) => dataset.shardNowOrLater(l.entry));
  const shards = soonShards.some(isPromise) ? await Promise.all(soonShards) : (soonShards as Shard[]);

  const groups: GroupRef[] = [];
  for (let k = 0; k < located.length; k++) {
    const { groupsBefore, entry } = located[k];
    const lo = Math.max(from, groupsBefore) - groupsBefore;
    const hi = Math.min(to, groupsBefore + entry.massGroups) - groupsBefore;
    for (let g = lo; g < hi; g++) groups.push({ shard: shards[k], group: g });
  }
  const accessions =
    dataset.wholeAccessions ??
    (await dataset.accessionSet((add) =>
      groups.forEach(({ shard, group }) => addGroupRanks(shard, group, group + 1, add)),
    ));
  return { totalResult, page, pageSize, groups, accessions };
}

/** Consecutive mass groups from..to-1 of one shard. */
export interface GroupRun {
  shard: Shard;
  from: number;
  to: number;
}

/** A run of groups with the accessions of its peptides. */
export interface ListedRun extends GroupRun {
  accessions: AccessionSet;
}

/**
 * The shards holding keys in [lowKey, highKey] in `index` (the dataset's, or a view's), in ascending order, located —
 * at once when the index pages they are listed in are in memory; null when a page must be read first (rangeEntries
 * reads it).
 */
export function rangeEntriesNow(index: ShardIndex, lowKey: number, highKey: number): LocatedShard[] | null {
  const entries: LocatedShard[] = [];
  if (lowKey > highKey) return entries;
  for (let located = index.firstEndingAtOrAboveNow(lowKey); ; ) {
    if (located === null) return null;
    if (located === undefined || located.entry.firstKey > highKey) return entries;
    entries.push(located);
    if (located.entry.lastKey >= highKey || located.index + 1 >= index.shardCount) return entries;
    located = index.shardOfGroupNow(located.groupsBefore + located.entry.massGroups);
  }
}

/**
 * The shards holding keys in [lowKey, highKey] in `index`, in ascending order, located (index pages read as needed).
 */
export async function rangeEntries(index: ShardIndex, lowKey: number, highKey: number): Promise<LocatedShard[]> {
  const now = rangeEntriesNow(index, lowKey, highKey);
  if (now) return now;
  await index.loadRange(lowKey, highKey);
  return rangeEntriesNow(index, lowKey, highKey)!;
}

/** The groups of a located shard with lowKey <= key <= highKey, as a run (from = to when it holds none). */
export function runOf(shard: Shard, lowKey: number, highKey: number): GroupRun {
  return { shard, from: firstGroupAtOrAbove(shard, lowKey), to: firstGroupAbove(shard, highKey) };
}

/**
 * Every mass group with lowKey <= key <= highKey, in ascending mass, one shard's run at a time with its
 * accessions: the next shard is read only when the consumer asks for it, so a dataset opened with no cache holds
 * one shard at a time.
 */
export async function* walkRange(dataset: Dataset, lowKey: number, highKey: number): AsyncGenerator<ListedRun> {
  for (const located of await rangeEntries(dataset.index, lowKey, highKey)) {
    const run = runOf(await dataset.shard(located.entry), lowKey, highKey);
    if (run.from < run.to)
      yield {
        ...run,
        accessions: await dataset.accessionSet((add) => addGroupRanks(run.shard, run.from, run.to, add)),
      };
  }
}

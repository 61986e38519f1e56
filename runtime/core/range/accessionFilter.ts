// Which accessions a query keeps: those whose organism is one of a set of taxa or below one (in the dataset's
// taxonomy), and/or whose reviewed flag is a given one. Resolved once per query against the dataset into intervals
// of accession ranks (shards refer to accessions by rank), so applying it reads nothing.
import type { Shard } from '../../model/format.js';
import type { Dataset } from '../storage/dataset.js';
import { InvalidQuery } from '../errors.js';

/** What a query asks for (from `taxon` and `reviewed`); empty `taxa` and no `reviewed` keep everything. */
export interface FilterSpec {
  taxa: number[];
  reviewed?: boolean;
}

export const NO_FILTER: FilterSpec = { taxa: [] };

/** A filter resolved against a dataset: which accession ranks it keeps. */
export interface AccessionFilter {
  keeps(rank: number): boolean;
  /** How many ranks it keeps. */
  readonly kept: number;
}

/**
 * The filter of `spec` on `dataset`, undefined when it keeps everything; InvalidQuery when it cannot apply. The
 * ranks are ordered so that a taxon's accessions are an interval among the reviewed and one among the others
 * (model/accessionOrder.ts): the filter is a few intervals of ranks, and no table is read to apply it.
 */
export async function resolveFilter(dataset: Dataset, spec: FilterSpec): Promise<AccessionFilter | undefined> {
  if (spec.taxa.length === 0 && spec.reviewed === undefined) return undefined;
  const { reviewedAccessions: reviewedTotal } = dataset.manifest.totals;
  if (reviewedTotal === undefined)
    throw new InvalidQuery(
      `${spec.reviewed === undefined ? 'taxon' : 'reviewed'}: this dataset does not record which accessions are reviewed, which its ranks are ordered by (rebuild it)`,
    );
  const count = dataset.manifest.accessions.count;
  let intervals: [number, number][] = [[0, count]];
  if (spec.taxa.length > 0) {
    const taxonomy = await dataset.taxonomy();
    if (!taxonomy) throw new InvalidQuery('taxon: this dataset has no taxonomy (it was built without --taxdump)');
    intervals = spec.taxa.flatMap((taxId) => {
      const node = taxonomy.nodeOf(taxId);
      if (node < 0) throw new InvalidQuery(`taxon ${taxId} is not in the dataset's taxonomy`);
      const { reviewed, unreviewed } = taxonomy.subtreeRanks(node, reviewedTotal);
      return [reviewed, unreviewed];
    });
  }
  if (spec.reviewed !== undefined) {
    const [low, high] = spec.reviewed ? [0, reviewedTotal] : [reviewedTotal, count];
    intervals = intervals.map(([first, end]) => [Math.max(first, low), Math.min(end, high)]);
  }
  return rankFilter(intervals);
}

/** The filter keeping the ranks of any of `intervals` ([first, end) each; empty or overlapping ones allowed). */
export function rankFilter(intervals: readonly (readonly [number, number])[]): AccessionFilter {
  // Disjoint, ascending: firsts[i] <= rank < ends[i] for the last i with firsts[i] <= rank.
  const sorted = intervals.filter(([first, end]) => first < end).sort((a, b) => a[0] - b[0]);
  const [firsts, ends]: number[][] = [[], []];
  for (const [first, end] of sorted) {
    if (ends.length > 0 && first <= ends[ends.length - 1]) ends[ends.length - 1] = Math.max(ends[ends.length - 1], end);
    else [firsts.push(first), ends.push(end)];
  }
  return {
    kept: firsts.reduce((sum, first, i) => sum + ends[i] - first, 0),
    keeps(rank) {
      let [lo, hi] = [0, firsts.length];
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (firsts[mid] <= rank) lo = mid + 1;
        else hi = mid;
      }
      return lo > 0 && rank < ends[lo - 1];
    },
  };
}

/** Whether peptide p of the shard keeps at least one accession. */
export function keepsAny(shard: Shard, filter: AccessionFilter, p: number): boolean {
  for (let r = p === 0 ? 0 : shard.accessionRefEnds[p - 1], end = shard.accessionRefEnds[p]; r < end; r++)
    if (filter.keeps(shard.accessionRefs[r])) return true;
  return false;
}

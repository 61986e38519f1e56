// Precursor search, its entry point: over a complete view (docs/format.md "Complete views") when
// every mass group of the window is an answer group — no accession filter, and the query's maxVariable the view's
// own, so every entry is a candidate — the window is one range of the view's keys, its groups come in answer order
// (by key, then sequence, each sequence once a group), the total is their count, and only the page's peptides are
// weighed. Every other search goes through the general merge (precursor.ts runPrecursorQuery), which weighs every
// peptide of every hypothesis.
import { addPeptideRanks } from '../../model/accessionSet.js';
import type { Shard } from '../../model/format.js';
import { compositionOf } from './composition.js';
import type { Dataset } from '../storage/dataset.js';
import type { Hypothesis } from './hypotheses.js';
import { CompleteWeigher } from './completeWeigher.js';
import {
  examine,
  runPrecursorQuery,
  type Candidate,
  type CandidateGroup,
  type PrecursorQuery,
  type PrecursorResult,
} from './precursor.js';
import { searchHypotheses } from './searchPlan.js';
import { rangeEntries, rangeEntriesNow, runOf } from '../range/search.js';

/** Every candidate of a precursor query, grouped by modified key (ascending), counted, and the query's page. */
export function searchPrecursor(dataset: Dataset, query: PrecursorQuery): Promise<PrecursorResult> {
  const all = searchHypotheses(dataset, query);
  return answersWhole(dataset, query, all)
    ? runCompleteQuery(dataset, query, all)
    : runPrecursorQuery(dataset, query, all);
}

/** Whether a search's hypotheses are a complete view's and every group of its window is an answer group (see above). */
export function answersWhole(dataset: Dataset, query: PrecursorQuery, all: readonly Hypothesis[]): boolean {
  const [first] = all;
  const filtered = query.filter.taxa.length > 0 || query.filter.reviewed !== undefined;
  return (
    !filtered && first?.readsCounts !== undefined && query.maxVariable === dataset.views[first.view!].variable?.max
  );
}

/** The page and total of a search answersWhole says every window group answers. */
export async function runCompleteQuery(
  dataset: Dataset,
  query: PrecursorQuery,
  all: readonly Hypothesis[],
): Promise<PrecursorResult> {
  const view = all[0].view!;
  const { index } = dataset.views[view];
  const located =
    rangeEntriesNow(index, query.lowKey, query.highKey) ?? (await rangeEntries(index, query.lowKey, query.highKey));
  const shards = await Promise.all(located.map(({ entry }) => dataset.shard(entry)));
  const runs = shards.map((shard) => runOf(shard, query.lowKey, query.highKey));
  const found = { scanned: 0 };
  for (const { shard, from, to } of runs)
    if (from < to) examine(found, shard.groupEnds[to - 1] - (from === 0 ? 0 : shard.groupEnds[from - 1]));

  const groups: CandidateGroup[] = [];
  let skip = (query.page - 1) * query.pageSize;
  let totalResult = 0;
  for (const { shard, from, to } of runs) {
    totalResult += Math.max(0, to - from);
    const first = Math.min(to, from + skip);
    skip -= first - from;
    const last = Math.min(to, first + query.pageSize - groups.length);
    if (first < last) groups.push(...pageGroups(dataset, all, view, shard, first, last));
  }
  const accessions = await dataset.accessionSet((add) => {
    for (const group of groups)
      for (const c of group.candidates) addPeptideRanks(c.shard, c.peptide, c.peptide + 1, add);
  });
  return {
    totalResult,
    page: query.page,
    pageSize: query.pageSize,
    groups,
    hypotheses: all.length,
    completeView: view,
    accessions,
  };
}

/**
 * Groups from..to-1 of a shard of the complete view as candidate groups, each peptide weighed (its count off its key).
 */
function pageGroups(
  dataset: Dataset,
  all: readonly Hypothesis[],
  view: number,
  shard: Shard,
  from: number,
  to: number,
): CandidateGroup[] {
  let p = from === 0 ? 0 : shard.groupEnds[from - 1];
  const weigher = new CompleteWeigher(
    dataset.views[view],
    compositionOf(dataset, shard, p, shard.groupEnds[to - 1]),
    shard,
  );
  const groups: CandidateGroup[] = [];
  for (let g = from; g < to; g++) {
    const key = shard.massKeys[g];
    const candidates: Candidate[] = [];
    for (const end = shard.groupEnds[g]; p < end; p++) {
      weigher.weigh(g, p);
      candidates.push({
        shard,
        peptide: p,
        variableCounts: all[weigher.count].variableCounts,
        units: weigher.units,
        key,
      });
    }
    groups.push({ key, candidates });
  }
  return groups;
}

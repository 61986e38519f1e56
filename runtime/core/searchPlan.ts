// Which hypotheses a precursor search makes on a dataset, and which shard index each reads: the dataset's own (a
// range of unmodified masses per count of every fixed and variable site), or, for a fixed modification the dataset
// has a view of, the view (one range for every count of that modification's residues: its keys carry it already).
import { residueBound } from '../model/format.js';
import { sitesOverlap, type ModSpec } from '../model/modifications.js';
import type { Dataset } from './dataset.js';
import { hypotheses, keyWindowUnits, VIEW_COUNT, type Hypothesis } from './hypotheses.js';
import type { ShardIndex } from './shardIndex.js';

/** What a search's hypotheses depend on: its window on modified-mass keys (inclusive) and its modifications. */
export interface SearchWindow {
  lowKey: number;
  highKey: number;
  fixed: ModSpec[];
  variable: ModSpec[];
  maxVariable: number;
}

/** The shard index a hypothesis reads: the dataset's, or its view's. */
export const indexOf = (dataset: Dataset, h: Hypothesis): ShardIndex => (h.view === undefined ? dataset.index : dataset.views[h.view].index);

/**
 * The view a search can read (its number in Dataset.views) and the fixed spec it stands for: one of the query's
 * fixed modifications is the view's, on exactly its letters, and no other modification of the query can sit on
 * those residues; undefined when there is none.
 */
export function viewOf(dataset: Dataset, query: Pick<SearchWindow, 'fixed' | 'variable'>): { view: number; fixed: number } | undefined {
  for (let view = 0; view < dataset.views.length; view++) {
    const { spec } = dataset.views[view];
    const fixed = query.fixed.findIndex(
      (f) => f.site.kind === 'residues' && f.site.letters === spec.site.letters && f.modification.name === spec.modification.name && f.modification.deltaUnits === spec.modification.deltaUnits,
    );
    if (fixed < 0) continue;
    const others = [...query.fixed.filter((_, i) => i !== fixed), ...query.variable];
    if (!others.some((other) => sitesOverlap(other.site, spec.site))) return { view, fixed };
  }
  return undefined;
}

/**
 * The hypotheses of a search's window on this dataset (TooManyHypotheses, a 400, past the bound). With a view of one
 * of its fixed modifications, the peptides without its residues are read from the dataset's shards (that spec's
 * count 0) and those with some from the view, one range for all their counts (VIEW_COUNT).
 */
export function hypothesesOf(dataset: Dataset, query: SearchWindow): Hypothesis[] {
  const { minLength, maxLength } = dataset.manifest.parameters;
  const window = keyWindowUnits(query.lowKey, query.highKey);
  const of = (fixed: ModSpec[], index: ShardIndex) =>
    hypotheses(fixed, query.variable, query.maxVariable, window, { minLength, maxLength, mostResidues: (letters) => residueBound(index.all, letters) });
  const use = viewOf(dataset, query);
  if (!use) return of(query.fixed, dataset.index);
  const { view, fixed } = use;
  // Every count is enumerated, as without the view, so that the same queries meet the hypothesis bound; count 0 is kept.
  const without = of(query.fixed, dataset.index).filter((h) => h.fixedCounts[fixed] === 0);
  const inView = of(query.fixed.filter((_, i) => i !== fixed), dataset.views[view].index).map((h): Hypothesis => {
    const fixedCounts = [...h.fixedCounts];
    fixedCounts.splice(fixed, 0, VIEW_COUNT);
    return { ...h, fixedCounts, view };
  });
  return [...without, ...inView];
}

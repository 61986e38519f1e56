// Which hypotheses a precursor search makes on a dataset, and which shard index each reads: the dataset's own (a
// range of unmodified masses per count of every fixed and variable site), or, for a fixed modification the dataset
// has a view of, the view (one range for every count of that modification's residues: its keys carry it already);
// or, for a query of exactly a complete view's modifications, that view alone (one range for every hypothesis).
import { InvalidQuery } from '../errors.js';
import { residueBound } from '../../model/format.js';
import { sitesOverlap, specText, type ModSpec } from '../../model/modifications.js';
import type { Dataset } from '../storage/dataset.js';
import { hypotheses, keyWindowUnits, VIEW_COUNT, type Hypothesis } from './hypotheses.js';
import type { ShardIndex } from '../storage/shardIndex.js';

/** What a search's hypotheses depend on: its window on modified-mass keys (inclusive) and its modifications. */
export interface SearchWindow {
  lowKey: number;
  highKey: number;
  fixed: ModSpec[];
  variable: ModSpec[];
  maxVariable: number;
}

/** The shard index a hypothesis reads: the dataset's, or its view's. */
export const indexOf = (dataset: Dataset, h: Hypothesis): ShardIndex =>
  h.view === undefined ? dataset.index : dataset.views[h.view].index;

/** Whether a query's spec is a view's: the same modification on exactly its letters. */
const sameOnResidues = (spec: ModSpec, view: ModSpec & { site: { kind: 'residues' } }) =>
  spec.site.kind === 'residues' &&
  spec.site.letters === view.site.letters &&
  spec.modification.name === view.modification.name &&
  spec.modification.deltaUnits === view.modification.deltaUnits;

/**
 * The view a search can read (its number in Dataset.views) and the fixed spec it stands for: one of the query's
 * fixed modifications is the view's, on exactly its letters, and no other modification of the query can sit on
 * those residues; undefined when there is none.
 */
export function viewOf(
  dataset: Dataset,
  query: Pick<SearchWindow, 'fixed' | 'variable'>,
): { view: number; fixed: number } | undefined {
  for (let view = 0; view < dataset.views.length; view++) {
    const { spec, variable } = dataset.views[view];
    if (variable) continue; // a complete view holds peptides once per count: completeHypotheses reads it
    const fixed = query.fixed.findIndex((f) => sameOnResidues(f, spec));
    if (fixed < 0) continue;
    const others = [...query.fixed.filter((_, i) => i !== fixed), ...query.variable];
    if (!others.some((other) => sitesOverlap(other.site, spec.site))) return { view, fixed };
  }
  return undefined;
}

/**
 * The hypotheses of a search's window on this dataset (TooManyHypotheses past the bound). With a view of one
 * of its fixed modifications, the peptides without its residues are read from the dataset's shards (that spec's
 * count 0) and those with some from the view, one range for all their counts (VIEW_COUNT).
 */
export function hypothesesOf(dataset: Dataset, query: SearchWindow): Hypothesis[] {
  const { minLength, maxLength, specificity } = dataset.manifest.parameters;
  // Builds that record the peptides starting a protein write their specificity; older ones do not.
  const proteinSite = [...query.fixed, ...query.variable].find((spec) => spec.site.kind === 'protein terminus');
  if (proteinSite && specificity === undefined)
    throw new InvalidQuery(
      `${specText(proteinSite)}: this dataset does not record which peptides start a protein; rebuild it with npm run build:shards`,
    );
  const window = keyWindowUnits(query.lowKey, query.highKey);
  const of = (fixed: ModSpec[], index: ShardIndex) =>
    hypotheses(fixed, query.variable, query.maxVariable, window, {
      minLength,
      maxLength,
      mostResidues: (letters) => residueBound(index.all, letters),
    });
  const use = viewOf(dataset, query);
  if (!use) return of(query.fixed, dataset.index);
  const { view, fixed } = use;
  // Every count is enumerated, as without the view, so that the same queries meet the hypothesis bound; count 0 is
  // kept.
  const without = of(query.fixed, dataset.index).filter((h) => h.fixedCounts[fixed] === 0);
  const inView = of(
    query.fixed.filter((_, i) => i !== fixed),
    dataset.views[view].index,
  ).map((h): Hypothesis => {
    const fixedCounts = [...h.fixedCounts];
    fixedCounts.splice(fixed, 0, VIEW_COUNT);
    return { ...h, fixedCounts, view };
  });
  return [...without, ...inView];
}

/**
 * A search's hypotheses over a complete view (docs/format.md "Views") when the dataset has one of exactly its modifications
 * (its one fixed and its one variable spec are the view's, and its maxVariable is at most the view's): count j of the
 * variable modification for j = 0 … maxVariable, all read by the first in one range of the view's keys, which are the
 * modified masses themselves. Undefined when no complete view serves the query.
 */
export function completeHypotheses(dataset: Dataset, query: SearchWindow): Hypothesis[] | undefined {
  const [fixed, variable] = [query.fixed, query.variable];
  const view = dataset.views.findIndex(
    (v) =>
      v.variable &&
      fixed.length === 1 &&
      variable.length === 1 &&
      sameOnResidues(fixed[0], v.spec) &&
      sameOnResidues(variable[0], v.variable.spec) &&
      query.maxVariable <= v.variable.max,
  );
  if (view < 0) return undefined;
  const window = { shiftUnits: 0, baseLowKey: query.lowKey, baseHighKey: query.highKey, view };
  return Array.from(
    { length: query.maxVariable + 1 },
    (_, count): Hypothesis => ({
      fixedCounts: [VIEW_COUNT],
      variableCounts: [count],
      ...window,
      ...(count === 0 ? { readsCounts: query.maxVariable } : { filed: true }),
    }),
  );
}

/** The hypotheses a precursor search makes: over a complete view when one serves it, else hypothesesOf's. */
export const searchHypotheses = (dataset: Dataset, query: SearchWindow): Hypothesis[] =>
  completeHypotheses(dataset, query) ?? hypothesesOf(dataset, query);

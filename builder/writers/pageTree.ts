// The tree above a list of pages (index pages of shards, protein table pages), so that the manifest's root stays
// small at any size: while the root would list more than `rootLimit` pages, consecutive pages are grouped into
// inner pages of up to `innerPages` entries, one more level each time (docs/format.md, "The index tree").
import { INDEX_INNER_PAGES, INDEX_ROOT_LIMIT, MAX_INDEX_LEVELS } from '../../runtime/model/format.js';

/** How wide the tree is: at most `rootLimit` entries in the manifest, `innerPages` in an inner page. */
export interface TreeShape {
  rootLimit: number;
  innerPages: number;
}

export const TREE_SHAPE: TreeShape = { rootLimit: INDEX_ROOT_LIMIT, innerPages: INDEX_INNER_PAGES };

/**
 * The manifest's view of a tree: its root entries, and `levels` (levels of pages below the manifest) only when it is 2
 * or more.
 */
export interface TreeRoot<E> {
  pages: E[];
  levels?: number;
}

/** Consecutive runs of `size` items (the last may be shorter). */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const runs: T[][] = [];
  for (let first = 0; first < items.length; first += size) runs.push(items.slice(first, first + size));
  return runs;
}

/**
 * The root over `leaves` (the entries of the leaf pages, in order): `writeInner` writes an inner page of
 * consecutive entries of one level and returns its entry, summarising them. A tree of one level (the leaves fit
 * in the root) has no `levels`: its manifest is a flat list, as readers without trees expect.
 */
export function pageTree<E>(leaves: E[], writeInner: (children: E[]) => E, shape: TreeShape = TREE_SHAPE): TreeRoot<E> {
  if (!(shape.rootLimit >= 1 && shape.innerPages >= 2))
    throw new Error(
      `a tree needs a root of 1 entry or more and inner pages of 2 or more (got ${shape.rootLimit}, ${shape.innerPages})`,
    );
  let pages = leaves;
  let levels = 1;
  while (pages.length > shape.rootLimit) {
    pages = chunks(pages, shape.innerPages).map(writeInner);
    levels++;
  }
  if (levels > MAX_INDEX_LEVELS)
    throw new Error(
      `${leaves.length} pages need ${levels} levels of index pages; readers accept ${MAX_INDEX_LEVELS} at most`,
    );
  return levels > 1 ? { pages, levels } : { pages };
}

/**
 * Every page entry of the tree under `root` (`levels` levels of pages below the manifest), level by level from the
 * top, and the last level's: the leaf pages. `innerPages` reads an inner page's entries.
 */
export function treePages<E extends { file: string }>(
  root: TreeRoot<E>,
  innerPages: (file: string) => E[],
): { pages: E[]; leaves: E[] } {
  const pages: E[] = [];
  let level = root.pages;
  for (let below = (root.levels ?? 1) - 1; below > 0; below--) {
    pages.push(...level);
    level = level.flatMap((p) => innerPages(p.file));
  }
  pages.push(...level);
  return { pages, leaves: level };
}

// Precursor search with isotope errors: each window (isotopeErrors.ts) searched as a precursor search of its own, and
// the windows answered as one list — in the order asked, each window's mass groups by key — counted and paged over
// that list.
import type { Dataset } from '../storage/dataset.js';
import type { IsotopeWindow } from './isotopeErrors.js';
import type { CandidateGroup, PrecursorQuery, PrecursorResult } from './precursor.js';
import { searchPrecursor } from './precursorSearch.js';

/**
 * The smallest page, of at least `count` groups, that holds groups from..from+count−1 of a search: its page, size and
 * where they start in it. With count 0, a page of no group: the search counts its groups and makes none.
 */
export function coveringPage(from: number, count: number): { page: number; pageSize: number; skip: number } {
  if (count === 0) return { page: 1, pageSize: 0, skip: 0 };
  // Ends at pageSize = from + count (page 1) at the latest; a few steps past count in practice.
  for (let pageSize = count; ; pageSize++) {
    const page = Math.floor(from / pageSize) + 1;
    if (page * pageSize >= from + count) return { page, pageSize, skip: from - (page - 1) * pageSize };
  }
}

/** One window's part of an answer: its search (the query and result: its total) and its groups on the page. */
export interface IsotopeWindowResult {
  isotopeError: number;
  query: PrecursorQuery;
  result: PrecursorResult;
  groups: CandidateGroup[];
}

/** The windows' answer: groups over all windows, and the query's page of them, window by window. */
export interface IsotopeResult {
  totalResult: number;
  page: number;
  pageSize: number;
  windows: IsotopeWindowResult[];
}

/**
 * Every window searched as `query` is (its modifications and filter), in order; the page is `query`'s over the
 * windows' groups in that order. Each window is one precursor search, asked for the smallest page that holds its
 * part of this page (a window the page is past, or does not reach, only counted).
 */
export async function searchIsotopes(
  dataset: Dataset,
  query: PrecursorQuery,
  windows: readonly IsotopeWindow[],
): Promise<IsotopeResult> {
  const start = (query.page - 1) * query.pageSize;
  let [totalResult, wanted] = [0, query.pageSize];
  const parts: IsotopeWindowResult[] = [];
  for (const { isotopeError, centre, lowKey, highKey } of windows) {
    const from = Math.max(0, start - totalResult);
    // A window holds at most one group per key: a page starting past them all is past the window.
    const count = from <= highKey - lowKey ? wanted : 0;
    const { page, pageSize, skip } = coveringPage(from, count);
    const windowQuery = { ...query, lowKey, highKey, centre, page, pageSize };
    const result = await searchPrecursor(dataset, windowQuery);
    const groups = result.groups.slice(skip, skip + count);
    parts.push({ isotopeError, query: windowQuery, result, groups });
    totalResult += result.totalResult;
    wanted -= groups.length;
  }
  return { totalResult, page: query.page, pageSize: query.pageSize, windows: parts };
}

// /api/v1/search with isotopeErrors, run: the windows searched (core/precursor/isotopeSearch.ts) and the page's groups
// made into the answer's entries, each with the isotope error it matched at after its ppm (with proteins=true, each
// accession with its protein). A module of its own, imported when a search first asks for isotope errors: the page
// opens without it.
import type { IsotopeWindow } from '../core/precursor/isotopeErrors.js';
import { searchIsotopes } from '../core/precursor/isotopeSearch.js';
import type { PrecursorQuery } from '../core/precursor/precursor.js';
import type { Dataset } from '../core/storage/dataset.js';
import { formatMassKey } from '../model/massKey.js';
import type { IsotopeAnswer } from './isotopeJson.js';
import { groupEntries, withProteins } from './precursorJson.js';

/** The page of a search of `windows` (as `query` asks, its modifications, filter and paging) as the answer lists it. */
export async function answerIsotopes(
  dataset: Dataset,
  query: PrecursorQuery,
  windows: readonly IsotopeWindow[],
  proteins: boolean,
): Promise<IsotopeAnswer> {
  const found = await searchIsotopes(dataset, query, windows);
  const groups = await Promise.all(
    found.windows.map(async (w) => {
      const page = { ...w.result, groups: w.groups };
      const known = proteins ? (await withProteins(dataset, page)).proteins : undefined;
      return w.groups.map((group) => ({
        [formatMassKey(group.key)]: groupEntries(w.query, group, page).map(({ accsTax, ...head }) => ({
          ...head,
          isotopeError: w.isotopeError,
          accsTax: known ? accsTax.map(({ acc }) => known.get(acc)!) : accsTax,
        })),
      }));
    }),
  );
  const { totalResult, page, pageSize } = found;
  return { totalResult, page, pageSize, result: groups.flat() };
}

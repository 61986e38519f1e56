// The page arithmetic of a search with isotope errors (runtime/core/precursor/isotopeSearch.ts): the one page of a
// window's search that holds its part of the answer's page. The search itself is compared with the brute-force
// reference in isotopeSearch.differential.test.ts.
import { describe, expect, it } from 'vitest';
import { coveringPage } from '../../../../runtime/core/precursor/isotopeSearch.js';

describe('coveringPage', () => {
  it('is the smallest page (at least count groups) holding groups from..from+count−1, and where they start in it', () => {
    for (let from = 0; from < 400; from++) {
      for (let count = 1; count <= 25; count++) {
        const { page, pageSize, skip } = coveringPage(from, count);
        const first = (page - 1) * pageSize;
        expect(first + skip).toBe(from);
        expect(page * pageSize).toBeGreaterThanOrEqual(from + count);
        // No smaller page size has a page holding them all.
        for (let smaller = count; smaller < pageSize; smaller++)
          expect((Math.floor(from / smaller) + 1) * smaller).toBeLessThan(from + count);
      }
    }
  });

  it('asks for no group when none is wanted: the search then only counts', () => {
    expect(coveringPage(0, 0)).toEqual({ page: 1, pageSize: 0, skip: 0 });
    expect(coveringPage(1234, 0)).toEqual({ page: 1, pageSize: 0, skip: 0 });
  });
});

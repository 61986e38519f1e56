// The brute-force answer to a precursor search with isotope errors, written from docs/api.md's rule on the
// brute-force precursor reference (referencePrecursor.ts), importing nothing from runtime/: for each isotope error n,
// in the order given, every stored peptide whose modified mass has its key within the tolerance of M − n × the 13C −
// 12C spacing, each window's forms by key, sequence and ProForma, each entry with its n after its ppm; counted and
// paged over that list of windows.
import { referenceWindow, type RefAnswer, type RefEntry, type ReferencePrecursor } from './referencePrecursor.js';

/** 13C − 12C in Da, from NIST's "Atomic Weights and Isotopic Compositions" (13C: 13.0033548378). */
export const REFERENCE_ISOTOPE_SPACING = 13.0033548378 - 12;

/** A tolerance as the search takes it: widths below and above the precursor mass, in ppm of the mass or in Da. */
export interface RefTolerance {
  below: number;
  above: number;
  unit: 'ppm' | 'Da';
}

export type RefIsotopeEntry = RefEntry & { isotopeError: number };

/** Each isotope error's window, in the order given: the mass it searches and its groups, every entry with its n. */
export function referenceIsotopeWindows(
  reference: ReferencePrecursor,
  mass: number,
  tolerance: RefTolerance,
  errors: readonly number[],
): { isotopeError: number; centre: number; groups: Record<string, RefIsotopeEntry[]>[] }[] {
  return errors.map((isotopeError) => {
    const centre = mass - isotopeError * REFERENCE_ISOTOPE_SPACING;
    const { lowKey, highKey } = referenceWindow(centre, tolerance.below, tolerance.above, tolerance.unit);
    const groups = reference
      .answer(lowKey, highKey, 1, Number.MAX_SAFE_INTEGER, centre)
      .result.map((group) =>
        Object.fromEntries(
          Object.entries(group).map(([key, entries]) => [
            key,
            entries.map(({ accsTax, ...head }) => ({ ...head, isotopeError, accsTax })),
          ]),
        ),
      );
    return { isotopeError, centre, groups };
  });
}

/** Every group of /api/v1/search with isotopeErrors over all its pages: the windows' groups in order. */
export function referenceIsotopeGroups(
  reference: ReferencePrecursor,
  mass: number,
  tolerance: RefTolerance,
  errors: readonly number[],
): Record<string, RefIsotopeEntry[]>[] {
  return referenceIsotopeWindows(reference, mass, tolerance, errors).flatMap((w) => w.groups);
}

/** Page `page` of `groups` (all of a search's), as the envelope less memory and duration. */
export function referencePageOf(
  groups: readonly Record<string, RefEntry[]>[],
  page: number,
  pageSize: number,
): RefAnswer {
  return {
    totalResult: groups.length,
    page,
    pageSize,
    result: groups.slice((page - 1) * pageSize, page * pageSize),
  };
}

/** The page of /api/v1/search with isotopeErrors (less memory and duration): the windows' groups in order, paged. */
export function referenceIsotopeAnswer(
  reference: ReferencePrecursor,
  mass: number,
  tolerance: RefTolerance,
  errors: readonly number[],
  page: number,
  pageSize: number,
): RefAnswer {
  return referencePageOf(referenceIsotopeGroups(reference, mass, tolerance, errors), page, pageSize);
}

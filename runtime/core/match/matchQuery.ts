// What a batch match asks (a precursor search's tolerance, modifications and filter, the charges and isotope errors
// to try and a cut-off) and the precursors it matches: each precursor becomes one search per charge and isotope
// error tried, with a precursor search's window.
import { neutralMass } from '../../model/chemistry.js';
import type { ModSpec } from '../../model/modifications.js';
import type { FilterSpec } from '../range/accessionFilter.js';
import { lessIsotopes, noPositiveIsotopeMass } from '../precursor/isotopeErrors.js';
import { keyWindow, noPositiveMass, type Tolerance } from '../precursor/window.js';
import type { Spectrum } from './mgf.js';

/** What every search of a batch shares. */
export interface MatchQuery {
  tolerance: Tolerance;
  fixed: ModSpec[];
  variable: ModSpec[];
  maxVariable: number;
  filter: FilterSpec;
  /** Charges tried for a precursor that gives none. */
  charges: number[];
  /** Isotope errors tried for each precursor (n: its monoisotopic peak mis-picked n peaks up); [0] when not given. */
  isotopeErrors?: readonly number[];
  top?: number;
}

/**
 * A precursor to match: a spectrum of an MGF file, or a JSON item (an m/z with or without charge, or a neutral mass).
 */
export type Precursor = Spectrum | { index: number; mz: number; charges: number[] } | { index: number; mass: number };

/**
 * One search of a precursor: the charge tried (none for a neutral mass), the isotope error tried, the neutral mass
 * searched (the precursor's, less the isotope error's spacings) and its key window.
 */
export interface PrecursorSearch {
  charge?: number;
  isotopeError?: number;
  mass: number;
  lowKey: number;
  highKey: number;
  /** Why this search was not made (as a precursor search of it would be refused). */
  error?: string;
}

/**
 * The searches of a precursor: one per charge (its own, else the query's) and isotope error (the query's, in that
 * order within a charge), each with a precursor search's window.
 */
export function searchesOf(query: MatchQuery, precursor: Precursor): PrecursorSearch[] {
  const errors = query.isotopeErrors ?? [0];
  const shifted = (mass: number, charge?: number) =>
    errors.map((n): PrecursorSearch => {
      const searched = lessIsotopes(mass, n);
      const search = { charge, ...(query.isotopeErrors && { isotopeError: n }), mass: searched };
      return searched > 0
        ? { ...search, ...keyWindow(searched, query.tolerance) }
        : {
            ...search,
            lowKey: 0,
            highKey: -1,
            error: noPositiveIsotopeMass(mass, n),
          };
    });
  if ('mass' in precursor) return shifted(precursor.mass);
  const charges = precursor.charges.length > 0 ? precursor.charges : query.charges;
  return charges.flatMap((charge) => {
    const mass = neutralMass(precursor.mz, charge);
    if (!(mass > 0)) return [{ charge, mass, lowKey: 0, highKey: -1, error: noPositiveMass(precursor.mz, charge) }];
    return shifted(mass, charge);
  });
}

// Isotope errors of a precursor: a precursor picked n isotope peaks above its monoisotopic one weighs n 13C − 12C
// spacings more, so isotope error n searches its neutral mass less n spacings, in a window of its own
// (isotopeSearch.ts searches the windows).
import { ISOTOPE_SPACING_DA } from '../../model/chemistry.js';
import { keyWindow, type Tolerance } from './window.js';

/** A neutral mass less n isotope spacings: the monoisotopic mass of a precursor picked n peaks above it. */
export const lessIsotopes = (mass: number, n: number): number => mass - n * ISOTOPE_SPACING_DA;

/** Why an isotope error cannot be searched: the mass it leaves is not above 0. */
export const noPositiveIsotopeMass = (mass: number, n: number) =>
  `neutral mass ${mass} less ${n} isotope spacings is not positive`;

/** The window of one isotope error: the mass it searches (its centre) and the mass keys within the tolerance of it. */
export interface IsotopeWindow {
  isotopeError: number;
  centre: number;
  lowKey: number;
  highKey: number;
}

/**
 * The window of each isotope error around a neutral mass, in the order given; a ppm tolerance is of each window's own
 * mass, as a precursor search of that mass takes it.
 */
export function isotopeWindows(mass: number, tolerance: Tolerance, errors: readonly number[]): IsotopeWindow[] {
  return errors.map((isotopeError) => {
    const centre = lessIsotopes(mass, isotopeError);
    return { isotopeError, centre, ...keyWindow(centre, tolerance) };
  });
}

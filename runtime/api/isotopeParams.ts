// The isotopeErrors parameter, one row and one parser for every endpoint that takes it (/api/v1/search,
// POST /api/v1/match, POST /api/v1/identify): the isotope peaks a precursor may have been picked at.
import { QueryError, type Param } from './params.js';

/** Isotope errors that may be tried: a precursor picked up to 3 peaks above, or 1 below, its monoisotopic one. */
export const ISOTOPE_ERRORS = { min: -1, max: 3 };

/**
 * The row: what every endpoint means by it, then `tail` (what its answer says of it, from `;` or `.`), and what the
 * endpoint sets besides (a default).
 */
export const isotopeErrorsParam = (tail: string, more: Partial<Param> = {}): Param => ({
  name: 'isotopeErrors',
  alsoCalled: ['isotopeError', 'isotopes'],
  kind: 'text',
  required: false,
  max: 20,
  description: `Isotope errors to try, comma-separated whole numbers from ${ISOTOPE_ERRORS.min} to ${ISOTOPE_ERRORS.max}: n searches the precursor's neutral mass less n × 1.0033548 Da (its monoisotopic peak mis-picked n peaks up)${tail}`,
  example: '0,1',
  ...more,
});

/** The isotope errors a text of the row asks for, each once, in the order given; QueryError (400) naming it otherwise. */
export function parseIsotopeErrors(text: string): number[] {
  const errors = [...new Set(text.split(',').map((t) => (t.trim() === '' ? NaN : Number(t))))];
  if (errors.some((n) => !Number.isInteger(n) || n < ISOTOPE_ERRORS.min || n > ISOTOPE_ERRORS.max))
    throw new QueryError(
      400,
      `isotopeErrors must be whole numbers from ${ISOTOPE_ERRORS.min} to ${ISOTOPE_ERRORS.max}, comma-separated, got ${JSON.stringify(text)}`,
    );
  return errors;
}

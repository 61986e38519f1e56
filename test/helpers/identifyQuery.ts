// The identify query the tests search with unless they say otherwise: Carbamidomethyl@C fixed, Oxidation@M variable
// (2 at most), ±10 ppm precursors at charges 2 and 3 with isotope errors 0 and 1, ±20 ppm fragments up to charge 3,
// the 150 most intense peaks, 4 ions at least, one PSM a spectrum.
import type { IdentifyQuery } from '../../runtime/core/identify/identify.js';
import { parseModifications } from '../../runtime/model/modifications.js';

export const identifyQuery = (overrides: Partial<IdentifyQuery> = {}): IdentifyQuery => ({
  tolerance: { unit: 'ppm', below: 10, above: 10 },
  fixed: parseModifications('Carbamidomethyl@C'),
  variable: parseModifications('Oxidation@M'),
  maxVariable: 2,
  filter: { taxa: [] },
  charges: [2, 3],
  isotopeErrors: [0, 1],
  fragmentTolerance: { value: 20, unit: 'ppm' },
  maxFragmentCharge: 3,
  topPeaks: 150,
  minMatched: 4,
  report: 1,
  ...overrides,
});

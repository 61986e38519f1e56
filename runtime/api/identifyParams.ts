// The parameters of an identification (`npm run query -- identify`, POST /api/v1/identify): a batch match's
// precursor search, the isotope errors tried, and how fragments are scored, as one table.
import type { IdentifyQuery } from '../core/identify/identify.js';
import { MATCH_PARAMS, parseMatchQuery } from './matchParams.js';
import { QueryError, readParams, type Param, type ParamSource } from './params.js';

/** Isotope errors an identification may try: a precursor picked up to 3 peaks above, or 1 below, its monoisotopic one. */
const ISOTOPE_ERRORS = { min: -1, max: 3 };

export const IDENTIFY_PARAMS: readonly Param[] = [
  ...MATCH_PARAMS.filter((p) => p.name !== 'top').map((p) =>
    p.name === 'charges' ? { ...p, default: '2,3,4', example: '2,3,4' } : p,
  ),
  {
    name: 'isotopeErrors',
    alsoCalled: ['isotopeError', 'isotopes'],
    kind: 'text',
    required: false,
    default: '0',
    max: 20,
    description: `Isotope errors to try, comma-separated whole numbers from ${ISOTOPE_ERRORS.min} to ${ISOTOPE_ERRORS.max}: n searches the precursor's neutral mass less n × 1.0033548 Da (its monoisotopic peak mis-picked n peaks up).`,
    example: '0,1',
  },
  {
    name: 'fragmentTolerance',
    alsoCalled: ['fragmentTol', 'fragmentMassTolerance', 'ms2Tolerance'],
    kind: 'number',
    required: false,
    default: 20,
    min: 0,
    exclusiveMin: true,
    max: 1000,
    description: 'Fragment tolerance, ± this many of fragmentUnit (high-resolution MS2: 10–20 ppm; ion trap: ~0.5 Da).',
  },
  {
    name: 'fragmentUnit',
    kind: 'choice',
    required: false,
    choices: ['ppm', 'Da'],
    default: 'ppm',
    description: 'Unit of the fragment tolerance: ppm of the fragment m/z, or Da.',
  },
  {
    name: 'maxFragmentCharge',
    kind: 'integer',
    required: false,
    default: 3,
    min: 1,
    max: 5,
    description:
      'Highest fragment charge: a precursor of charge z is scored with b and y ions of 1 to min(z − 1, this).',
  },
  {
    name: 'topPeaks',
    alsoCalled: ['maxPeaks'],
    kind: 'integer',
    required: false,
    default: 150,
    min: 1,
    max: 10_000,
    description: 'Peaks scored per spectrum: its most intense, those within 1.5 m/z of the precursor left out.',
  },
  {
    name: 'minMatched',
    alsoCalled: ['minMatchedPeaks'],
    kind: 'integer',
    required: false,
    default: 4,
    min: 1,
    max: 100,
    description: 'Fewest matched fragment ions a PSM needs.',
  },
  {
    name: 'reportPsms',
    alsoCalled: ['psms', 'rank'],
    kind: 'integer',
    required: false,
    default: 1,
    min: 1,
    max: 10,
    description: "PSMs reported per spectrum, best first (only each spectrum's best counts for the FDR).",
  },
];

/** The identification these parameters ask for; QueryError (400) naming the parameter otherwise. */
export function parseIdentifyQuery(source: ParamSource): IdentifyQuery {
  const values = readParams(IDENTIFY_PARAMS, source);
  // The match rows read again, with this table's charges default and no `top` (every candidate is scored).
  const match = parseMatchQuery((name) =>
    name === 'charges' ? [values.charges as string] : name === 'top' ? [] : source(name),
  );
  const isotopeErrors = [...new Set((values.isotopeErrors as string).split(',').map((t) => t.trim()))].map(Number);
  if (isotopeErrors.some((n) => !Number.isInteger(n) || n < ISOTOPE_ERRORS.min || n > ISOTOPE_ERRORS.max))
    throw new QueryError(
      400,
      `isotopeErrors must be whole numbers from ${ISOTOPE_ERRORS.min} to ${ISOTOPE_ERRORS.max}, comma-separated, got ${JSON.stringify(values.isotopeErrors)}`,
    );
  return {
    ...match,
    isotopeErrors,
    fragmentTolerance: { value: values.fragmentTolerance as number, unit: values.fragmentUnit as 'ppm' | 'Da' },
    maxFragmentCharge: values.maxFragmentCharge as number,
    topPeaks: values.topPeaks as number,
    minMatched: values.minMatched as number,
    report: values.reportPsms as number,
  };
}

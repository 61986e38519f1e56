// The parameters of /api/v1/search as one table, and the precursor query they ask for: the precursor (a neutral
// mass, m/z with charge, or an explicit range), its tolerance window as mass keys (one per isotope error asked),
// and the modifications.
import { neutralMass } from '../model/chemistry.js';
import { KEYS_PER_DA, type MassText } from '../model/massKey.js';
import { sitesOverlap, specText, type ModSpec } from '../model/modifications.js';
import type { PrecursorQuery } from '../core/precursor/precursor.js';
import { keyWindow, MAX_PRECURSOR_MASS, noPositiveMass, type Tolerance } from '../core/precursor/window.js';
import { isotopeWindows, noPositiveIsotopeMass, type IsotopeWindow } from '../core/precursor/isotopeErrors.js';
import { isotopeErrorsParam, parseIsotopeErrors } from './isotopeParams.js';
import { QueryError, readParams, type Param, type ParamSource, type ParamValues } from './params.js';
import { FILTER_PARAMS, filterOf, pagingParams } from './rangeParams.js';

/** Tolerances accepted, per unit; and the widest explicit range. */
export const MAX_TOLERANCE = { ppm: 1000, Da: 5 } as const;
export const MAX_RANGE_DA = 10;
export const MAX_VARIABLE = 4;

const range = (name: 'mass1' | 'mass2'): Param => ({
  name,
  kind: 'mass',
  required: false,
  description: `${name === 'mass1' ? 'Low' : 'High'} end of an explicit window on the modified mass in Da, inclusive, compared exactly to 4-decimal keys (instead of mass or mz; at most ${MAX_RANGE_DA} Da wide; no tolerance then).`,
  example: name === 'mass1' ? 1000.5 : 1000.6,
});

const tolerance = (name: string, description: string): Param => ({
  name,
  kind: 'number',
  required: false,
  min: 0,
  description,
});

export const PRECURSOR_PARAMS: readonly Param[] = [
  {
    name: 'mass',
    alsoCalled: ['mw', 'neutralMass', 'precursorMass'],
    kind: 'number',
    required: false,
    min: 0,
    exclusiveMin: true,
    max: MAX_PRECURSOR_MASS,
    description: 'Neutral monoisotopic precursor mass in Da (instead of mz and charge, or mass1 and mass2).',
    example: 1298.6231,
  },
  {
    name: 'mz',
    alsoCalled: ['pepmass', 'precursorMz', 'm/z', 'massToCharge'],
    kind: 'number',
    required: false,
    min: 0,
    exclusiveMin: true,
    max: MAX_PRECURSOR_MASS,
    description:
      'Precursor m/z; with charge, the neutral mass is (mz − 1.007276466621) × charge (proton mass, CODATA 2018).',
    example: 650.3188,
  },
  {
    name: 'charge',
    alsoCalled: ['z', 'chargeState'],
    kind: 'integer',
    chargeNotation: true,
    required: false,
    min: 1,
    max: 10,
    description: 'Precursor charge, 1 to 10, also written as MGF writes it (`2+`); required with mz.',
    example: 2,
  },
  range('mass1'),
  range('mass2'),
  {
    alsoCalled: ['tol', 'ppm', 'da', 'error', 'window', 'precursorTolerance', 'massTolerance'],
    ...tolerance(
      'tolerance',
      `Half-width of the window around the precursor mass, in \`unit\`: greater than 0, at most ${MAX_TOLERANCE.ppm} ppm or ${MAX_TOLERANCE.Da} Da.`,
    ),
    exclusiveMin: true,
    default: 10,
  },
  tolerance(
    'toleranceLow',
    'Width of the window below the precursor mass, in `unit` (default: tolerance); for an asymmetric window.',
  ),
  tolerance('toleranceHigh', 'Width of the window above the precursor mass, in `unit` (default: tolerance).'),
  {
    name: 'unit',
    alsoCalled: ['toleranceUnit'],
    kind: 'choice',
    required: false,
    choices: ['ppm', 'Da'],
    default: 'ppm',
    description: 'Unit of the tolerances: ppm of the precursor mass, or Da.',
  },
  isotopeErrorsParam(
    "; one window each, listed in the order given (each window's groups by mass; totalResult and the pages count all windows' groups), each candidate with its `isotopeError`. With mass, or mz and charge.",
  ),
  {
    name: 'fixed',
    alsoCalled: ['fixedMods', 'fixedModifications', 'fix', 'static', 'staticMods'],
    kind: 'modifications',
    required: false,
    description:
      'Fixed modifications, comma-separated `Name@Sites` (Carbamidomethyl@C, TMT6plex@K,TMT6plex@N-term): every matching site carries them.',
    example: 'Carbamidomethyl@C',
  },
  {
    name: 'variable',
    alsoCalled: ['variableMods', 'variableModifications', 'varMods', 'var', 'dynamic', 'mods', 'modifications'],
    kind: 'modifications',
    required: false,
    description:
      'Variable modifications, comma-separated `Name@Sites` (Oxidation@M, Phospho@STY, Gln->pyro-Glu@Q@N-term): each site may or may not carry them.',
    example: 'Oxidation@M',
  },
  {
    name: 'maxVariable',
    alsoCalled: ['maxMods', 'maxVar', 'maxVariableMods', 'maxModifications'],
    kind: 'integer',
    required: false,
    default: 2,
    min: 0,
    max: MAX_VARIABLE,
    description: 'Most variable modifications on one peptide.',
  },
  ...FILTER_PARAMS,
  ...pagingParams(100, 400),
];

/** Fixed modifications may not share a site with each other or with a variable one. */
export function checkConflicts(fixed: readonly ModSpec[], variable: readonly ModSpec[]): void {
  fixed.forEach((a, i) => {
    for (const b of fixed.slice(i + 1)) {
      if (sitesOverlap(a.site, b.site))
        throw new QueryError(
          400,
          `fixed: ${specText(a)} and ${specText(b)} share a site; a site carries at most one fixed modification`,
        );
    }
    for (const v of variable) {
      if (sitesOverlap(a.site, v.site))
        throw new QueryError(
          400,
          `variable: ${specText(v)} shares a site with fixed ${specText(a)}; a site is either fixed or variable`,
        );
    }
  });
}

/** A precursor query as /api/v1/search's parameters ask for it: with isotopeErrors, the window of each, in order. */
export interface SearchQuery extends PrecursorQuery {
  isotopes?: IsotopeWindow[];
}

/** The precursor query /api/v1/search's parameters ask for; QueryError (400) naming the parameter otherwise. */
export function parsePrecursorQuery(source: ParamSource): SearchQuery {
  const values = readParams(PRECURSOR_PARAMS, source);
  const given = (name: string) => source(name).length > 0;
  const forms = [given('mass') && 'mass', given('mz') && 'mz', values.mass1 !== undefined && 'mass1/mass2'].filter(
    Boolean,
  );
  if (forms.length === 0)
    throw new QueryError(400, 'a precursor is required: mass, or mz with charge, or mass1 and mass2');
  if (forms.length > 1) {
    const named =
      forms.length === 2
        ? `${forms[0]} and ${forms[1]} are both given`
        : `${forms.slice(0, -1).join(', ')} and ${forms.at(-1)} are all given`;
    throw new QueryError(400, `give the precursor once: ${named} (use mass, or mz with charge, or mass1 and mass2)`);
  }
  if (given('mz') && !given('charge')) throw new QueryError(400, 'charge is required with mz (1 to 10)');
  if (!given('mz') && given('charge'))
    throw new QueryError(400, 'charge goes with mz; with mass or mass1/mass2 leave it out');
  const tolerances = ['tolerance', 'toleranceLow', 'toleranceHigh', 'unit', 'isotopeErrors'].filter(given);
  if (values.mass1 !== undefined && tolerances.length > 0)
    throw new QueryError(400, `${tolerances[0]} applies to mass or mz; mass1 and mass2 are the window itself`);
  const isotopeText = values.isotopeErrors as string | undefined;
  const isotopeErrors = isotopeText === undefined ? undefined : parseIsotopeErrors(isotopeText);

  const fixed = values.fixed as ModSpec[];
  const variable = values.variable as ModSpec[];
  checkConflicts(fixed, variable);
  const common = {
    fixed,
    variable,
    maxVariable: values.maxVariable as number,
    filter: filterOf(values),
    page: values.page as number,
    pageSize: values.pageSize as number,
  };

  if (values.mass1 !== undefined) {
    const [low, high] = [values.mass1 as MassText, values.mass2 as MassText];
    // Measured on the exact keys, so a window of exactly 10 Da passes whatever its decimals.
    if (high.floorKey - low.ceilKey > MAX_RANGE_DA * KEYS_PER_DA)
      throw new QueryError(400, `mass1 to mass2 spans more than ${MAX_RANGE_DA} Da (${low.value} to ${high.value})`);
    return { lowKey: low.ceilKey, highKey: high.floorKey, ...common };
  }
  const tolerance = toleranceOf(values, given);
  const centre = given('mass') ? (values.mass as number) : neutralMass(values.mz as number, values.charge as number);
  if (!(centre > 0)) throw new QueryError(400, noPositiveMass(values.mz as number, values.charge as number));
  const query = { ...keyWindow(centre, tolerance), centre, ...common };
  if (isotopeErrors === undefined) return query;
  const isotopes = isotopeWindows(centre, tolerance, isotopeErrors);
  const empty = isotopes.find((w) => !(w.centre > 0));
  if (empty) throw new QueryError(400, `isotopeErrors: ${noPositiveIsotopeMass(centre, empty.isotopeError)}`);
  return { ...query, isotopes };
}

/**
 * The tolerance of checked values of the tolerance rows (tolerance, toleranceLow, toleranceHigh, unit); QueryError
 * (400) naming the parameter when it cannot apply.
 */
export function toleranceOf(values: ParamValues, given: (name: string) => boolean): Tolerance {
  const unit = values.unit as 'ppm' | 'Da';
  if (unit === 'Da' && !given('tolerance') && !(given('toleranceLow') && given('toleranceHigh'))) {
    throw new QueryError(400, 'tolerance is required with unit=Da (its default, 10, is in ppm)');
  }
  for (const name of ['tolerance', 'toleranceLow', 'toleranceHigh'].filter(given)) {
    const t = values[name] as number;
    if (t > MAX_TOLERANCE[unit])
      throw new QueryError(400, `${name} must be at most ${MAX_TOLERANCE[unit]} ${unit}, got ${t}`);
  }
  const [below, above] = ['toleranceLow', 'toleranceHigh'].map((name) => (values[name] ?? values.tolerance) as number);
  return { unit, below, above };
}

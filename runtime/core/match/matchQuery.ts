// The parameters of a batch match (POST /api/v1/match, `npm run query -- match`) as one table — the rows of
// /api/v1/search but the precursor and the paging, plus the charges to try and a cut-off — and the precursors
// of a JSON body. Each precursor becomes one search per charge tried, with /api/v1/search's window.
import { neutralMass } from '../../model/chemistry.js';
import type { ModSpec } from '../../model/modifications.js';
import { filterOf, type FilterSpec } from '../range/accessionFilter.js';
import { MAX_CHARGE, parseCharges, type Spectrum } from './mgf.js';
import { QueryError, readParams, type Param, type ParamSource } from '../params.js';
import {
  checkConflicts,
  keyWindow,
  MAX_PRECURSOR_MASS,
  noPositiveMass,
  PRECURSOR_PARAMS,
  toleranceOf,
  type Tolerance,
} from '../precursor/precursorQuery.js';

/** Most precursors (MGF records or JSON items) one POST /api/v1/match takes. */
export const MAX_MATCH_PRECURSORS = 1000;
/** Largest request body POST /api/v1/match reads (413 beyond): under Netlify's 6 MB function payload. */
export const MAX_MATCH_BODY_BYTES = 5 * 2 ** 20;
/** Most stored peptides one POST /api/v1/match may examine over all its searches (100 searches at their own bound). */
export const MAX_MATCH_SCANNED = 200_000_000;
/** Most candidates `top` keeps per search. */
export const MAX_TOP = 1000;

const SEARCH_ROWS = [
  'tolerance',
  'toleranceLow',
  'toleranceHigh',
  'unit',
  'fixed',
  'variable',
  'maxVariable',
  'taxon',
  'reviewed',
];

export const MATCH_PARAMS: readonly Param[] = [
  ...SEARCH_ROWS.map((name) => PRECURSOR_PARAMS.find((p) => p.name === name)!),
  {
    name: 'charges',
    kind: 'text',
    required: false,
    default: '2,3',
    max: 100,
    description: `Charges to try for a precursor that gives none (an MGF record without CHARGE, a JSON item without charge), comma-separated, each 1 to ${MAX_CHARGE} (\`3-\` for negative mode).`,
    example: '2,3',
  },
  {
    name: 'top',
    kind: 'integer',
    required: false,
    min: 1,
    max: MAX_TOP,
    description: `Keep only the candidates of each search closest to its precursor mass, at most this many (ties kept in the answer's order); all when not given.`,
  },
];

/** What every search of a batch shares. */
export interface MatchQuery {
  tolerance: Tolerance;
  fixed: ModSpec[];
  variable: ModSpec[];
  maxVariable: number;
  filter: FilterSpec;
  /** Charges tried for a precursor that gives none. */
  charges: number[];
  top?: number;
}

/** The match query these parameters ask for; QueryError (400) naming the parameter otherwise. */
export function parseMatchQuery(source: ParamSource): MatchQuery {
  const values = readParams(MATCH_PARAMS, source);
  const given = (name: string) => source(name).length > 0;
  const tolerance = toleranceOf(values, given);
  const fixed = values.fixed as ModSpec[];
  const variable = values.variable as ModSpec[];
  checkConflicts(fixed, variable);
  const charges = parseCharges((values.charges as string | undefined) ?? '2,3');
  if (typeof charges === 'string') throw new QueryError(400, `charges: ${charges}`);
  const top = values.top as number | undefined;
  return {
    tolerance,
    fixed,
    variable,
    maxVariable: values.maxVariable as number,
    filter: filterOf(values),
    charges,
    ...(top === undefined ? {} : { top }),
  };
}

/** A precursor to match: a spectrum of an MGF file, or a JSON item (an m/z with or without charge, or a neutral mass). */
export type Precursor = Spectrum | { index: number; mz: number; charges: number[] } | { index: number; mass: number };

/** One search of a precursor: the charge tried (none for a neutral mass), its neutral mass and key window. */
export interface PrecursorSearch {
  charge?: number;
  mass: number;
  lowKey: number;
  highKey: number;
  /** Why this search was not made (the 400 /api/v1/search would answer). */
  error?: string;
}

/** The searches of a precursor: one per charge (its own, else the query's), each with /api/v1/search's window. */
export function searchesOf(query: MatchQuery, precursor: Precursor): PrecursorSearch[] {
  if ('mass' in precursor) return [{ mass: precursor.mass, ...keyWindow(precursor.mass, query.tolerance) }];
  const charges = precursor.charges.length > 0 ? precursor.charges : query.charges;
  return charges.map((charge) => {
    const mass = neutralMass(precursor.mz, charge);
    if (!(mass > 0)) return { charge, mass, lowKey: 0, highKey: -1, error: noPositiveMass(precursor.mz, charge) };
    return { charge, mass, ...keyWindow(mass, query.tolerance) };
  });
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A positive finite number at most MAX_PRECURSOR_MASS, or a QueryError naming `name`. */
function positive(value: unknown, name: string): number {
  if (typeof value !== 'number' || !(value > 0 && value <= MAX_PRECURSOR_MASS))
    throw new QueryError(
      400,
      `${name} must be a number above 0 and at most ${MAX_PRECURSOR_MASS}, got ${JSON.stringify(value) ?? 'nothing'}`,
    );
  return value;
}

/** The precursors of a JSON body `{"precursors": [{"mz", "charge"?} | {"mass"}]}` (charge: 1..10, or -1..-10). */
export function precursorsOfJson(body: unknown): Precursor[] {
  if (!isObject(body) || !Array.isArray(body.precursors))
    throw new QueryError(
      400,
      'precursors: the JSON body must be {"precursors": [{"mz": 650.32, "charge": 2}, {"mass": 1298.62}, ...]}',
    );
  if (body.precursors.length > MAX_MATCH_PRECURSORS)
    throw new QueryError(
      413,
      `precursors: ${body.precursors.length} given; at most ${MAX_MATCH_PRECURSORS} per request`,
    );
  return body.precursors.map((item: unknown, i): Precursor => {
    const name = `precursors[${i}]`;
    if (!isObject(item))
      throw new QueryError(400, `${name} must be an object such as {"mz": 650.32, "charge": 2} or {"mass": 1298.62}`);
    const unknown = Object.keys(item).find((k) => k !== 'mz' && k !== 'charge' && k !== 'mass');
    if (unknown !== undefined)
      throw new QueryError(400, `${name}.${unknown} is not a precursor field (mz, charge or mass)`);
    if ('mass' in item) {
      if ('mz' in item || 'charge' in item)
        throw new QueryError(400, `${name}: give mass, or mz with an optional charge, not both`);
      return { index: i + 1, mass: positive(item.mass, `${name}.mass`) };
    }
    const mz = positive(item.mz, `${name}.mz`);
    if (item.charge === undefined) return { index: i + 1, mz, charges: [] };
    const charge = item.charge;
    if (typeof charge !== 'number' || !Number.isInteger(charge) || charge === 0 || Math.abs(charge) > MAX_CHARGE) {
      throw new QueryError(
        400,
        `${name}.charge must be an integer from 1 to ${MAX_CHARGE} (or -1 to -${MAX_CHARGE}), got ${JSON.stringify(charge)}`,
      );
    }
    return { index: i + 1, mz, charges: [charge] };
  });
}

// The API's query parameters: each endpoint's rules and defaults, turned into exact key bounds or an error.
import { massKey, peptideMass } from './chemistry.js';
import { parseMass } from './keys.js';

export type EntryShape = 'acc' | 'accsTax';

export interface Endpoint {
  path: string;
  defaultPageSize: number;
  /** Status for a page or pageSize that is not an integer (the contract we reproduce says 500 on one). */
  notIntegerStatus: 400 | 500;
  /** How a range is given: by mass1/mass2 (peptide optional, search.php only), or by peptide only. */
  by: 'mass' | 'mass-or-peptide' | 'peptide';
  entries: EntryShape;
}

export const ENDPOINTS: readonly Endpoint[] = [
  { path: '/search.php', defaultPageSize: 10, notIntegerStatus: 400, by: 'mass-or-peptide', entries: 'acc' },
  { path: '/search-peptide.php', defaultPageSize: 1000, notIntegerStatus: 500, by: 'peptide', entries: 'acc' },
  { path: '/search-taxonomy.php', defaultPageSize: 1000, notIntegerStatus: 400, by: 'mass', entries: 'accsTax' },
];

export const MAX_PAGE_SIZE = 1000;
export const MAX_PEPTIDE_LENGTH = 1000;

export interface Query {
  lowKey: number;
  highKey: number;
  page: number;
  pageSize: number;
}

export class ApiError {
  constructor(
    readonly status: number,
    readonly message: string,
  ) {}
}

/** Echo of user text in messages: short; JSON encoding makes any character safe. */
const quote = (text: string) => JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);

/** The single value of a parameter; a parameter given twice is refused rather than guessed at. */
function single(params: URLSearchParams, name: string): string | undefined {
  const values = params.getAll(name);
  if (values.length > 1) throw new ApiError(400, `${name} is given ${values.length} times; give it once`);
  return values[0];
}

function integerParam(params: URLSearchParams, name: string, fallback: number, endpoint: Endpoint, max: number): number {
  const text = single(params, name);
  if (text === undefined) return fallback;
  const value = /^[+-]?\d{1,10}$/.test(text) ? Number(text) : NaN;
  if (!Number.isInteger(value) || value > 2 ** 31 - 1 || value < -(2 ** 31)) {
    throw new ApiError(endpoint.notIntegerStatus, `${name} must be an integer, got ${quote(text)}`);
  }
  if (value < 1 || value > max) {
    throw new ApiError(400, max === MAX_PAGE_SIZE ? `${name} must be from 1 to ${max}, got ${value}` : `${name} must be at least 1, got ${value}`);
  }
  return value;
}

/** The exact mass key of a peptide typed by a user (case and surrounding white space ignored). */
export function peptideKey(text: string): number {
  // ASCII letters only: Unicode upper-casing turns "ı" into I and "ſ" into S, a peptide nobody typed.
  const sequence = text.trim().replace(/[a-z]/g, (c) => c.toUpperCase());
  if (sequence === '') throw new ApiError(400, 'Peptide is required');
  const length = [...sequence].length;
  if (length > MAX_PEPTIDE_LENGTH) throw new ApiError(400, `Peptide is ${length} residues long; at most ${MAX_PEPTIDE_LENGTH} are allowed`);
  const mass = peptideMass(sequence);
  if ('error' in mass) {
    throw new ApiError(400, `Peptide character ${JSON.stringify(mass.character)} at position ${mass.position} ${mass.error}`);
  }
  return massKey(mass.units);
}

function massRange(params: URLSearchParams): { lowKey: number; highKey: number } {
  const texts = { mass1: single(params, 'mass1'), mass2: single(params, 'mass2') };
  const masses = { mass1: parseMass(texts.mass1 ?? ''), mass2: parseMass(texts.mass2 ?? '') };
  for (const name of ['mass1', 'mass2'] as const) {
    const text = texts[name];
    const why = text === undefined ? 'is missing' : text.trim() === '' ? 'is empty' : masses[name] ? '' : `is not a finite number (${quote(text)})`;
    if (why) throw new ApiError(400, `${name} ${why}: mass1 and mass2 are required as doubles (Da), e.g. mass1=1000.5&mass2=1001.5`);
    if (masses[name]!.value < 0) throw new ApiError(400, `${name} must not be negative, got ${masses[name]!.value}`);
  }
  const { mass1, mass2 } = masses as { mass1: NonNullable<typeof masses.mass1>; mass2: NonNullable<typeof masses.mass2> };
  if (mass1.value > mass2.value) throw new ApiError(400, `mass1 (${mass1.value}) must not be greater than mass2 (${mass2.value})`);
  return { lowKey: mass1.ceilKey, highKey: mass2.floorKey };
}

/** The query an endpoint's parameters ask for; throws ApiError with the contract's status otherwise. */
export function parseQuery(endpoint: Endpoint, params: URLSearchParams): Query {
  const paging = () => ({
    page: integerParam(params, 'page', 1, endpoint, 2 ** 31 - 1),
    pageSize: integerParam(params, 'pageSize', endpoint.defaultPageSize, endpoint, MAX_PAGE_SIZE),
  });
  if (endpoint.by === 'peptide') {
    const pages = paging();
    const key = peptideKey(single(params, 'peptide') ?? '');
    return { lowKey: key, highKey: key, ...pages };
  }
  const peptide = endpoint.by === 'mass-or-peptide' ? single(params, 'peptide') : undefined;
  if (peptide !== undefined && peptide.trim() !== '') {
    const key = peptideKey(peptide);
    return { lowKey: key, highKey: key, ...paging() };
  }
  const range = massRange(params);
  return { ...range, ...paging() };
}

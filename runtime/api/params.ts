// Query parameters driven by a table: each endpoint lists its parameters (name, kind, required, default,
// limits, description) in the order they are checked, and this module reads them — one value each, typed,
// within limits — or throws a QueryError naming the parameter. The same rows drive the OpenAPI document,
// the CLI flags and the usage text.
import { peptideMass, type PeptideMass } from '../model/chemistry.js';
import { parseMass, type MassText } from '../model/massKey.js';
import { ModificationError, parseModifications, type ModSpec } from '../model/modifications.js';

/** A refused query: the HTTP status it is answered with and a message that names the parameter. */
export class QueryError {
  constructor(
    readonly status: number,
    readonly message: string,
  ) {}
}

/**
 * What a parameter holds. `mass`: Da, >= 0, parsed exactly; two consecutive mass rows form an inclusive
 * range (both are read, then both checked, then low <= high). `integer`: whole number within [min, max].
 * `sequence`: a peptide, case-insensitive, letters with a defined mass only. `number`: a finite decimal
 * within [min, max] (above min when `exclusiveMin`). `choice`: one of `choices` (case-insensitive).
 * `modifications`: a comma-separated `Name@Sites` list (runtime/model/modifications.ts). `taxa`: comma-separated
 * NCBI taxIds (positive integers), at most `max` of them. `text`: free text, trimmed, 1 to `max` characters.
 */
export type ParamKind = 'mass' | 'integer' | 'sequence' | 'number' | 'choice' | 'modifications' | 'taxa' | 'text';

export interface Param {
  name: string;
  /** Other names it is read under, alike (the name documented is `name`); giving two of them is giving it twice. */
  aliases?: readonly string[];
  /** Names people use for it that are not accepted: an unknown parameter of one of these names suggests this row. */
  alsoCalled?: readonly string[];
  kind: ParamKind;
  /** Must be given (not empty). A parameter with `unless` is required only when that one is not given. */
  required: boolean;
  /** Not read when the named parameter is given (not empty): e.g. mass1/mass2 when `peptide` is. */
  unless?: string;
  default?: number | string;
  min?: number;
  max?: number;
  /**
   * `integer` rows: also written as MGF writes a charge, `2+` or `2-` (the sign after the digits; a `+` typed in a
   * URL arrives as a space).
   */
  chargeNotation?: boolean;
  /** `number` rows: the value must be above `min`, not equal to it. */
  exclusiveMin?: boolean;
  /** `choice` rows: the values accepted, as written in answers. */
  choices?: readonly string[];
  description: string;
  example?: string | number;
}

/** The values of one query, by parameter name: MassText, number, a peptide, a choice or modifications. */
export type ParamValues = Record<string, MassText | number | Peptide | string | ModSpec[] | number[] | undefined>;

export interface Peptide {
  sequence: string;
  units: number;
}

/** Reads a parameter's values, e.g. URLSearchParams.getAll or the CLI's flags. */
export type ParamSource = (name: string) => string[];

/** The largest int32: integers are 32-bit, as in the service we reproduce. */
export const INT32_MAX = 2 ** 31 - 1;

/** Echo of user text in messages: short; JSON encoding makes any character safe. */
const quote = (text: string) => JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);

/** The single value of a parameter (under its name or an alias); a parameter given twice is refused rather than guessed at. */
function single(source: ParamSource, param: Param): string | undefined {
  const given = [param.name, ...(param.aliases ?? [])]
    .map((name) => ({ name, values: source(name) }))
    .filter((g) => g.values.length > 0);
  const values = given.flatMap((g) => g.values);
  if (values.length > 1)
    throw new QueryError(
      400,
      given.length > 1
        ? `${given.map((g) => g.name).join(' and ')} are the same parameter; give it once`
        : `${given[0].name} is given ${values.length} times; give it once`,
    );
  return values[0];
}

function integer(param: Param, raw: string | undefined, notIntegerStatus: number): number | undefined {
  if (raw === undefined) return param.default as number | undefined;
  const charge = param.chargeNotation ? /^\s*(\d{1,10})\s*([+-]?)\s*$/.exec(raw) : null;
  const text = charge ? `${charge[2] === '-' ? '-' : ''}${charge[1]}` : raw;
  const value = /^[+-]?\d{1,10}$/.test(text) ? Number(text) : NaN;
  if (!Number.isInteger(value) || value > INT32_MAX || value < -(2 ** 31)) {
    throw new QueryError(notIntegerStatus, `${param.name} must be an integer, got ${quote(raw)}`);
  }
  const min = param.min ?? -(2 ** 31);
  const max = param.max ?? INT32_MAX;
  if (value < min || value > max) {
    throw new QueryError(
      400,
      max === INT32_MAX
        ? `${param.name} must be at least ${min}, got ${value}`
        : `${param.name} must be from ${min} to ${max}, got ${value}`,
    );
  }
  return value;
}

/** A peptide typed by a user: case and surrounding white space ignored, at most `max` residues. */
function sequence(param: Param, text: string): Peptide {
  // ASCII letters only: Unicode upper-casing turns "ı" into I and "ſ" into S, a peptide nobody typed.
  // The seed's messages call its `peptide` parameter "Peptide"; other rows are named as they are.
  const label = param.name === 'peptide' ? 'Peptide' : param.name;
  const sequence = text.trim().replace(/[a-z]/g, (c) => c.toUpperCase());
  if (sequence === '') throw new QueryError(400, `${label} is required`);
  const length = [...sequence].length;
  if (param.max !== undefined && length > param.max)
    throw new QueryError(400, `${label} is ${length} residues long; at most ${param.max} are allowed`);
  const mass: PeptideMass = peptideMass(sequence);
  if ('error' in mass)
    throw new QueryError(
      400,
      `${label} character ${JSON.stringify(mass.character)} at position ${mass.position} ${mass.error}`,
    );
  return { sequence, units: mass.units };
}

function number(param: Param, text: string | undefined): number | undefined {
  if (text === undefined) return param.default as number | undefined;
  const value = parseMass(text)?.value ?? NaN;
  if (!Number.isFinite(value)) throw new QueryError(400, `${param.name} must be a number, got ${quote(text)}`);
  const { min, max } = param;
  if (min !== undefined && (param.exclusiveMin ? value <= min : value < min)) {
    throw new QueryError(
      400,
      `${param.name} must be ${param.exclusiveMin ? 'greater than' : 'at least'} ${min}, got ${value}`,
    );
  }
  if (max !== undefined && value > max) throw new QueryError(400, `${param.name} must be at most ${max}, got ${value}`);
  return value;
}

function choice(param: Param, text: string | undefined): string | undefined {
  if (text === undefined) return param.default as string | undefined;
  const value = param.choices!.find((c) => c.toLowerCase() === text.trim().toLowerCase());
  if (value === undefined)
    throw new QueryError(400, `${param.name} must be one of ${param.choices!.join(', ')}, got ${quote(text)}`);
  return value;
}

function modifications(param: Param, text: string | undefined): ModSpec[] {
  if (text === undefined || text.trim() === '') return [];
  try {
    return parseModifications(text);
  } catch (e) {
    if (e instanceof ModificationError) throw new QueryError(400, `${param.name}: ${e.message}`);
    throw e;
  }
}

function text(param: Param, raw: string | undefined): string | undefined {
  const value = raw?.trim() ?? '';
  if (value === '') {
    if (param.required) throw new QueryError(400, `${param.name} is required`);
    return undefined;
  }
  if (param.max !== undefined && [...value].length > param.max)
    throw new QueryError(
      400,
      `${param.name} is ${[...value].length} characters long; at most ${param.max} are allowed`,
    );
  return value;
}

/** Distinct taxIds of a comma-separated list; [] when the parameter is not given, an error when it is empty. */
function taxa(param: Param, text: string | undefined): number[] {
  if (text === undefined) return [];
  const items = text.split(',').map((item) => item.trim());
  if (text.trim() === '')
    throw new QueryError(400, `${param.name} is empty: give NCBI taxIds, comma-separated (e.g. ${param.name}=2,9606)`);
  const ids = items.map((item) => {
    const id = /^\d{1,10}$/.test(item) ? Number(item) : NaN;
    // A name is answered with where its taxId is found rather than guessed at: names repeat across the tree.
    if (/\p{L}{2}/u.test(item))
      throw new QueryError(
        400,
        `${param.name}: ${quote(item)} is a name, not a taxId; find its taxId with /api/v1/taxa?name=${encodeURIComponent(item)}`,
      );
    if (!(id >= 1 && id <= INT32_MAX))
      throw new QueryError(400, `${param.name}: ${quote(item)} is not a taxId (a positive integer)`);
    return id;
  });
  const distinct = [...new Set(ids)];
  if (param.max !== undefined && distinct.length > param.max)
    throw new QueryError(400, `${param.name} lists ${distinct.length} taxIds; at most ${param.max} are allowed`);
  return distinct;
}

/** An inclusive mass range from two mass rows: both read, each checked, then low <= high. */
function massRange(low: Param, high: Param, source: ParamSource): [MassText, MassText] {
  const texts = [single(source, low), single(source, high)];
  const masses = texts.map((text) => parseMass(text ?? ''));
  [low, high].forEach((param, i) => {
    const text = texts[i];
    const why =
      text === undefined
        ? 'is missing'
        : text.trim() === ''
          ? 'is empty'
          : masses[i]
            ? ''
            : `is not a finite number (${quote(text)})`;
    if (why)
      throw new QueryError(
        400,
        `${param.name} ${why}: ${low.name} and ${high.name} are required as doubles (Da), e.g. ${low.name}=1000.5&${high.name}=1001.5`,
      );
    if (masses[i]!.value < 0) throw new QueryError(400, `${param.name} must not be negative, got ${masses[i]!.value}`);
  });
  const [from, to] = masses as [MassText, MassText];
  if (from.value > to.value)
    throw new QueryError(400, `${low.name} (${from.value}) must not be greater than ${high.name} (${to.value})`);
  return [from, to];
}

/**
 * The values of `params` read from `source`, checked row by row in table order (so the first problem in that
 * order is the one reported). `notIntegerStatus` is the status for an integer that is not one.
 */
export function readParams(params: readonly Param[], source: ParamSource, notIntegerStatus = 400): ParamValues {
  const values: ParamValues = {};
  for (let i = 0; i < params.length; i++) {
    const param = params[i];
    if (param.unless !== undefined && values[param.unless] !== undefined) continue;
    if (param.kind === 'mass') {
      const high = params[++i];
      if (high?.kind !== 'mass')
        throw new Error(`parameter table: ${param.name} is not followed by the other end of its range`);
      // An optional range (not required, not an alternative to another parameter) may be left out whole.
      const absent = source(param.name).length === 0 && source(high.name).length === 0;
      if (!(absent && !param.required && param.unless === undefined))
        [values[param.name], values[high.name]] = massRange(param, high, source);
    } else if (param.kind === 'integer') {
      values[param.name] = integer(param, single(source, param), notIntegerStatus);
    } else if (param.kind === 'number') {
      values[param.name] = number(param, single(source, param));
    } else if (param.kind === 'choice') {
      values[param.name] = choice(param, single(source, param));
    } else if (param.kind === 'modifications') {
      values[param.name] = modifications(param, single(source, param));
    } else if (param.kind === 'text') {
      values[param.name] = text(param, single(source, param));
    } else if (param.kind === 'taxa') {
      values[param.name] = taxa(param, single(source, param));
    } else {
      const text = single(source, param);
      if (param.required || (text !== undefined && text.trim() !== ''))
        values[param.name] = sequence(param, text ?? '');
    }
  }
  return values;
}

/** `pageSize` → `page-size`, `equateIL` → `equate-il`: a parameter's command-line flag. */
export const flagOf = (name: string) => name.replace(/[A-Z]+/g, (c) => `-${c.toLowerCase()}`);

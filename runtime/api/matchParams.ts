// POST /api/v1/match's request: the query string's parameters as one table (the rows of /api/v1/search but the
// precursor and the paging, plus the charges and isotope errors to try and a cut-off) and the precursors of its
// body, a peak list (MGF) or JSON. At most MAX_MATCH_PRECURSORS precursors and MAX_MATCH_BODY_BYTES of body (413 beyond), and
// MAX_MATCH_SCANNED stored peptides examined in all: one request cannot hold a function for minutes.
import type { MatchQuery, Precursor } from '../core/match/matchQuery.js';
import { MAX_CHARGE, parseCharges, type Malformed } from '../core/match/mgf.js';
import { MAX_PRECURSOR_MASS } from '../core/precursor/window.js';
import type { ModSpec } from '../model/modifications.js';
import type { Call } from './call.js';
import { isotopeErrorsParam, parseIsotopeErrors } from './isotopeParams.js';
import { QueryError, readParams, type Param, type ParamSource } from './params.js';
import { joinBytes } from './bytes.js';
import { checkConflicts, PRECURSOR_PARAMS, toleranceOf } from './precursorParams.js';
import { filterOf } from './rangeParams.js';

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
    alsoCalled: ['z'],
    kind: 'text',
    required: false,
    default: '2,3',
    max: 100,
    description: `Charges to try for a precursor that gives none (an MGF record without CHARGE, a JSON item without charge), comma-separated, each 1 to ${MAX_CHARGE} (\`3-\` for negative mode).`,
    example: '2,3',
  },
  isotopeErrorsParam('; one search each per charge tried, with its `isotopeError`.'),
  {
    name: 'top',
    alsoCalled: ['limit', 'best', 'max'],
    kind: 'integer',
    required: false,
    min: 1,
    max: MAX_TOP,
    description: `Keep only the candidates of each search closest to its precursor mass, at most this many (ties kept in the answer's order); all when not given.`,
  },
];

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
  const isotopes = values.isotopeErrors as string | undefined;
  return {
    tolerance,
    fixed,
    variable,
    maxVariable: values.maxVariable as number,
    filter: filterOf(values),
    charges,
    ...(isotopes === undefined ? {} : { isotopeErrors: parseIsotopeErrors(isotopes) }),
    ...(top === undefined ? {} : { top }),
  };
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

const MB = (MAX_MATCH_BODY_BYTES / 2 ** 20).toFixed(0);

/**
 * The body's bytes, at most MAX_MATCH_BODY_BYTES (413 beyond, before reading more than that, with `advice` on what to
 * send instead).
 */
export async function bodyBytes(
  call: Call,
  advice = `send at most ${MAX_MATCH_PRECURSORS.toLocaleString('en')} precursors per request, peaks may be left out`,
): Promise<Uint8Array<ArrayBuffer>> {
  const tooLarge = () =>
    new QueryError(
      413,
      `the body is larger than ${MB} MiB (${MAX_MATCH_BODY_BYTES.toLocaleString('en')} bytes); ${advice}`,
    );
  if (Number(call.contentLength ?? 0) > MAX_MATCH_BODY_BYTES) throw tooLarge();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for await (const chunk of call.body?.() ?? []) {
    length += chunk.length;
    if (length > MAX_MATCH_BODY_BYTES) throw tooLarge();
    chunks.push(chunk);
  }
  return joinBytes(chunks, length);
}

/** The precursors of a body: JSON precursors or an MGF peak list, plain, gzipped or uploaded (peakListBody.ts). */
async function precursorsOf(
  call: Call,
  body: Uint8Array<ArrayBuffer>,
): Promise<{ precursors: Precursor[]; malformed: Malformed[] }> {
  const { peakListBody, spectraOfBody } = await import('./peakListBody.js');
  const { bytes, kind } = await peakListBody(call, body);
  const text = new TextDecoder().decode(bytes);
  if (kind === 'json') {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (e) {
      throw new QueryError(400, `precursors: the body is not valid JSON (${(e as Error).message})`);
    }
    return { precursors: precursorsOfJson(json), malformed: [] };
  }
  const { spectra: precursors, malformed } = await spectraOfBody(bytes, kind, false, MAX_MATCH_PRECURSORS);
  if (precursors.length === 0 && malformed.length === 0)
    throw new QueryError(
      400,
      'the body holds no precursors: send an MGF peak list (BEGIN IONS … END IONS) or JSON {"precursors": [{"mz": 650.32, "charge": 2}]}',
    );
  return { precursors, malformed };
}

/** A batch match as POST /api/v1/match asks it: the query string's query, and the precursors of the body. */
export interface MatchCall {
  match: MatchQuery;
  precursors: Precursor[];
  malformed: Malformed[];
}

/** The request body as the OpenAPI document describes it. */
export const MATCH_BODY = {
  description: `An MGF peak list (peaks may be left out): plain, gzip-compressed (Content-Encoding: gzip, or a .mgf.gz file as it is), or the file of a multipart/form-data upload; or JSON precursors. At most ${MAX_MATCH_PRECURSORS} precursors and ${MAX_MATCH_BODY_BYTES} bytes. A body that is none of these (a FASTA file, an mzML file, binary data) is a 400 saying what it looks like.`,
  content: {
    'multipart/form-data': {
      schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } } },
    },
    'text/plain': {
      schema: { type: 'string' },
      example: 'BEGIN IONS\nTITLE=scan 1\nPEPMASS=650.3188\nCHARGE=2+\nEND IONS\n',
    },
    'application/json': {
      schema: {
        type: 'object',
        required: ['precursors'],
        properties: { precursors: { type: 'array', maxItems: MAX_MATCH_PRECURSORS, items: { type: 'object' } } },
      },
      example: { precursors: [{ mz: 650.3188, charge: 2 }, { mz: 500.2 }, { mass: 1298.62 }] },
    },
  },
  tooLarge: `More than ${MAX_MATCH_PRECURSORS} precursors, or a body over ${MAX_MATCH_BODY_BYTES} bytes.`,
};

/** The precursors of a call's body (413 when it holds too many or too much; 400 when it holds none). */
export async function readMatchBody(call: Call): Promise<{ precursors: Precursor[]; malformed: Malformed[] }> {
  return precursorsOf(call, await bodyBytes(call));
}

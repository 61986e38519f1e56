// The parameters of an identification (`npm run query -- identify`, POST /api/v1/identify): a batch match's
// precursor search, the isotope errors tried, and how fragments are scored, as one table; and the spectra of a
// request's body (an MGF peak list with its peaks), within limits that keep one request to seconds.
import type { IdentifyQuery } from '../core/identify/identify.js';
import type { Malformed, Spectrum } from '../core/match/mgf.js';
import type { Call } from './call.js';
import { isotopeErrorsParam } from './isotopeParams.js';
import { bodyBytes, MATCH_PARAMS, MAX_MATCH_BODY_BYTES, parseMatchQuery } from './matchParams.js';
import { QueryError, readParams, type Param, type ParamSource } from './params.js';

/** Widest fragment tolerance in Da: wider, every peak matches every ion. */
const MAX_FRAGMENT_DA = 2;

export const IDENTIFY_PARAMS: readonly Param[] = [
  ...MATCH_PARAMS.filter((p) => p.name !== 'top').map((p) =>
    p.name === 'charges'
      ? { ...p, default: '2,3,4', example: '2,3,4', description: `${p.description.replace(/\.$/, '')}; default 2,3,4.` }
      : p.name === 'isotopeErrors'
        ? isotopeErrorsParam('; default 0.', { default: '0' })
        : p,
  ),
  {
    name: 'fragmentTolerance',
    alsoCalled: ['fragmentTol', 'fragmentMassTolerance', 'ms2Tolerance'],
    kind: 'number',
    required: false,
    default: 20,
    min: 0,
    exclusiveMin: true,
    max: 1000,
    description: `Fragment tolerance, ± this many of fragmentUnit, at most 1000 ppm or ${MAX_FRAGMENT_DA} Da (high-resolution MS2: 10–20 ppm; ion trap: ~0.5 Da).`,
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
  // The match rows read again, with this table's defaults of charges and isotopeErrors, and no `top` (every
  // candidate is scored).
  const defaults = new Map([
    ['charges', [(values.charges as string | undefined) ?? '2,3,4']],
    ['isotopeErrors', [(values.isotopeErrors as string | undefined) ?? '0']],
    ['top', []],
  ]);
  const match = parseMatchQuery((name) => defaults.get(name) ?? source(name));
  const fragmentUnit = values.fragmentUnit as 'ppm' | 'Da';
  if (fragmentUnit === 'Da' && (values.fragmentTolerance as number) > MAX_FRAGMENT_DA)
    throw new QueryError(
      400,
      `fragmentTolerance in Da must be at most ${MAX_FRAGMENT_DA}, got ${values.fragmentTolerance} (with fragmentUnit=ppm it may be up to 1000)`,
    );
  return {
    ...match,
    isotopeErrors: match.isotopeErrors ?? [0],
    fragmentTolerance: { value: values.fragmentTolerance as number, unit: fragmentUnit },
    maxFragmentCharge: values.maxFragmentCharge as number,
    topPeaks: values.topPeaks as number,
    minMatched: values.minMatched as number,
    report: values.reportPsms as number,
  };
}

/** Most spectra one POST /api/v1/identify scores: each is scored against every form of its candidates and decoys. */
export const MAX_IDENTIFY_SPECTRA = 1000;

/** An identification as POST /api/v1/identify asks it: the query string's query and the spectra of the body. */
export interface IdentifyCall {
  identify: IdentifyQuery;
  spectra: Spectrum[];
  malformed: Malformed[];
}

/** The request body as the OpenAPI document describes it. */
export const IDENTIFY_BODY = {
  description: `An MGF peak list with its peaks: plain, gzip-compressed (Content-Encoding: gzip, or a .mgf.gz file as it is), or the file of a multipart/form-data upload. At most ${MAX_IDENTIFY_SPECTRA} spectra and ${MAX_MATCH_BODY_BYTES} bytes. A body that is not one (JSON precursors, a FASTA file, an mzML file, binary data) is a 400 saying what it looks like.`,
  content: {
    'multipart/form-data': {
      schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } } },
    },
    'text/plain': {
      schema: { type: 'string' },
      example: 'BEGIN IONS\nTITLE=scan 1\nPEPMASS=650.3188\nCHARGE=2+\n175.119 1200\n276.155 800\nEND IONS\n',
    },
  },
  tooLarge: `More than ${MAX_IDENTIFY_SPECTRA} spectra, or a body over ${MAX_MATCH_BODY_BYTES} bytes.`,
};

/** The spectra of a call's body with their peaks (413 when it holds too many or too much; 400 when it holds none). */
export async function readIdentifyBody(call: Call): Promise<{ spectra: Spectrum[]; malformed: Malformed[] }> {
  const { peakListBody, spectraOfBody } = await import('./peakListBody.js');
  const { bytes, kind } = await peakListBody(
    call,
    await bodyBytes(call, `send fewer spectra per request (at most ${MAX_IDENTIFY_SPECTRA.toLocaleString('en')})`),
  );
  if (kind === 'json')
    throw new QueryError(400, 'identify scores peaks: send an MGF peak list with its peaks, not JSON precursors');
  const { spectra, malformed } = await spectraOfBody(bytes, kind, true, MAX_IDENTIFY_SPECTRA);
  if (spectra.length === 0 && malformed.length === 0)
    throw new QueryError(400, 'the body holds no spectra: send an MGF peak list (BEGIN IONS … END IONS) with peaks');
  return { spectra, malformed };
}

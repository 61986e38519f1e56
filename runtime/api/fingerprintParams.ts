// A peptide mass fingerprint's parameters (`npm run query -- fingerprint`, POST /api/v1/fingerprint) as one table —
// the peaks' window and ion, the modifications and filters of a precursor search, the rank organisms are scored at,
// how many proteins and organisms each answer lists, the output format — and the limits that keep one request to
// seconds: lists, peaks per list and in all, body bytes, stored peptides examined (the body is read within them
// by fingerprintOperation.ts).
import type { FingerprintQuery, NamedPeakList, PeakIon } from '../core/fingerprint/fingerprint.js';
import { MAX_CHARGE } from '../core/match/mgf.js';
import type { ModSpec } from '../model/modifications.js';
import { MAX_MATCH_BODY_BYTES } from './matchParams.js';
import { QueryError, readParams, type Param, type ParamSource } from './params.js';
import { MAX_DECOMPRESSED_BYTES } from './bytes.js';
import { checkConflicts, PRECURSOR_PARAMS, toleranceOf } from './precursorParams.js';
import { filterOf } from './rangeParams.js';

/** The peaks' tolerance when none is given: MALDI-TOF peaks are good to tens of ppm. */
export const DEFAULT_TOLERANCE_PPM = 50;
/** Most peak lists one POST /api/v1/fingerprint takes (413 beyond). */
export const MAX_FINGERPRINT_LISTS = 1000;
/** Most peaks one list of a request may search (after topPeaks; 413 beyond). */
export const MAX_LIST_PEAKS = 5000;
/** Most peaks one request may search over all its lists (413 beyond). */
export const MAX_REQUEST_PEAKS = 200_000;
/**
 * Most stored peptides one request may examine: a peak's window holds thousands in a Swiss-Prot-sized dataset at
 * ±50 ppm, so this keeps a request to seconds (thousands of peaks), where match's bound would take minutes.
 */
export const MAX_FINGERPRINT_SCANNED = 20_000_000;
/** Most proteins and organisms an answer lists per peak list. */
export const MAX_LISTED = 1000;

/** The ranks organisms may be scored at: NCBI's, from a strain up. */
export const FINGERPRINT_RANKS = [
  'strain',
  'subspecies',
  'species',
  'genus',
  'family',
  'order',
  'class',
  'phylum',
  'kingdom',
  'superkingdom',
  'domain',
  'realm',
] as const;

const precursorRow = (name: string) => PRECURSOR_PARAMS.find((p) => p.name === name)!;

export const FINGERPRINT_PARAMS: readonly Param[] = [
  {
    ...precursorRow('tolerance'),
    default: DEFAULT_TOLERANCE_PPM,
    description: `Half-width of each peak's window around its neutral mass, in \`unit\`: greater than 0, at most 1000 ppm or 5 Da; default ${DEFAULT_TOLERANCE_PPM} ppm.`,
  },
  { ...precursorRow('unit'), description: "Unit of the tolerance: ppm of the peak's neutral mass, or Da." },
  {
    name: 'ion',
    alsoCalled: ['ionType', 'adduct', 'peakType', 'massType', 'mh'],
    kind: 'choice',
    required: false,
    choices: ['mh', 'neutral'],
    default: 'mh',
    description:
      "What a peak's m/z is: `mh`, a singly protonated peptide [M+H]+ (MALDI), or `neutral`, a neutral monoisotopic mass. For ions of a higher charge give `charge` instead.",
  },
  {
    name: 'charge',
    alsoCalled: ['z', 'chargeState', 'charges'],
    kind: 'integer',
    chargeNotation: true,
    required: false,
    min: 1,
    max: MAX_CHARGE,
    description: `The peaks are [M+zH]z+ ions of this charge, 1 to ${MAX_CHARGE} (also written \`2+\`), instead of ion=mh's [M+H]+; not with ion=neutral.`,
    example: 2,
  },
  {
    name: 'topPeaks',
    alsoCalled: ['maxPeaks', 'peaks', 'top', 'mostIntense'],
    kind: 'integer',
    required: false,
    min: 1,
    max: 100_000,
    description:
      'Search only the most intense peaks of each list, this many (a list without intensities is searched whole); all when not given.',
  },
  ...['fixed', 'variable', 'maxVariable'].map(precursorRow),
  // `organism` is a near-miss of `organisms` here, which is what it is taken for.
  { ...precursorRow('taxon'), alsoCalled: precursorRow('taxon').alsoCalled?.filter((n) => n !== 'organism') },
  precursorRow('reviewed'),
  {
    name: 'rank',
    alsoCalled: ['taxonRank', 'level', 'organismRank'],
    kind: 'choice',
    required: false,
    choices: FINGERPRINT_RANKS,
    default: 'species',
    description:
      "The taxon rank organisms are scored at: a peak counts for the taxon of this rank above the lowest common ancestor of its peptide's proteins.",
  },
  {
    name: 'proteins',
    alsoCalled: ['maxProteins', 'topProteins', 'hits'],
    kind: 'integer',
    required: false,
    default: 20,
    min: 1,
    max: MAX_LISTED,
    description: 'Proteins each answer lists, best score first.',
  },
  {
    name: 'organisms',
    alsoCalled: ['maxOrganisms', 'topOrganisms', 'maxTaxa'],
    kind: 'integer',
    required: false,
    default: 10,
    min: 1,
    max: MAX_LISTED,
    description: 'Organisms (taxa of `rank`) each answer lists, best score first.',
  },
  {
    name: 'format',
    alsoCalled: ['output', 'accept'],
    kind: 'choice',
    required: false,
    choices: ['json', 'tsv'],
    default: 'json',
    description:
      'The answer as JSON (`{"lists": [...]}`) or as TSV (one row per listed protein and organism of each list).',
  },
];

/** A fingerprint as its parameters ask it, and the format of its answer. */
export interface FingerprintAsked {
  query: FingerprintQuery;
  format: 'json' | 'tsv';
}

/** The fingerprint these parameters ask for; QueryError (400) naming the parameter otherwise. */
export function parseFingerprintQuery(source: ParamSource): FingerprintAsked {
  const values = readParams(FINGERPRINT_PARAMS, source);
  const given = (name: string) => source(name).length > 0;
  if (values.unit === 'Da' && !given('tolerance'))
    throw new QueryError(400, `tolerance is required with unit=Da (its default, ${DEFAULT_TOLERANCE_PPM}, is in ppm)`);
  const tolerance = toleranceOf(values, given);
  const charge = values.charge as number | undefined;
  if (charge !== undefined && given('ion')) {
    if (values.ion === 'neutral')
      throw new QueryError(400, 'charge goes with ions; with ion=neutral the peaks are neutral masses, leave it out');
    if (charge !== 1)
      throw new QueryError(
        400,
        `charge=${charge} contradicts ion=mh ([M+H]+, charge 1); give charge alone for [M+${charge}H]${charge}+ ions`,
      );
  }
  const fixed = values.fixed as ModSpec[];
  const variable = values.variable as ModSpec[];
  checkConflicts(fixed, variable);
  const topPeaks = values.topPeaks as number | undefined;
  const ion: PeakIon = charge ?? (values.ion as 'mh' | 'neutral');
  return {
    query: {
      tolerance,
      fixed,
      variable,
      maxVariable: values.maxVariable as number,
      filter: filterOf(values),
      ion,
      ...(topPeaks !== undefined && { topPeaks }),
      rank: values.rank as string,
      proteins: values.proteins as number,
      organisms: values.organisms as number,
    },
    format: values.format as 'json' | 'tsv',
  };
}

/** A fingerprint as POST /api/v1/fingerprint asks it: the query string's query and format, the body's lists. */
export interface FingerprintCall extends FingerprintAsked {
  lists: NamedPeakList[];
}

export const count = (n: number) => n.toLocaleString('en');

/** The request body as the OpenAPI document describes it. */
export const FINGERPRINT_BODY = {
  description: `A peak list file: text (one peak a line, its m/z then optionally its intensity; or a CSV/TSV table whose header names its m/z column and optionally its intensity column; Mascot's KEY=value parameters at its head must agree with the query, COM titling the list) is one list, an MGF file one list per BEGIN IONS … END IONS record (its TITLE as the list's title; PEPMASS and CHARGE play no part), an mzML file one list per MS1 spectrum (centroided; its native id as the title). Plain, gzip-compressed (Content-Encoding: gzip, or a .gz file as it is), or the file of a multipart/form-data upload. At most ${count(MAX_FINGERPRINT_LISTS)} lists, ${count(MAX_LIST_PEAKS)} peaks searched per list (after topPeaks), ${count(MAX_REQUEST_PEAKS)} in all, and ${count(MAX_MATCH_BODY_BYTES)} bytes (${count(MAX_DECOMPRESSED_BYTES)} decompressed). A body that is not a peak list (JSON, a FASTA file, binary data) is a 400 saying what it looks like; one that cannot be read, a 400 naming the line.`,
  content: {
    'multipart/form-data': {
      schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } } },
    },
    'text/plain': {
      schema: { type: 'string' },
      example: 'm/z\tintensity\n1045.5642\t1200\n1296.6848\t860\n1570.6774\t2300\n',
    },
  },
  posted: 'a peak list (text, CSV, MGF or mzML)',
  tooLarge: `More than ${count(MAX_FINGERPRINT_LISTS)} lists, ${count(MAX_LIST_PEAKS)} peaks searched in a list or ${count(MAX_REQUEST_PEAKS)} in all, or a body over ${count(MAX_MATCH_BODY_BYTES)} bytes (${count(MAX_DECOMPRESSED_BYTES)} decompressed).`,
};

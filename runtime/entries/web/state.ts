// What a search is, as the page's URL holds it: a mode and the API's own parameters (`/?mz=650.32&charge=2&…` is
// `/api/v1/search?mz=650.32&charge=2&…`; `/?peptide=SEQ` is the peptide view; `/?mode=identify&…` is Identify mode
// with /api/v1/identify's parameters, `/?mode=fingerprint&…` Fingerprint mode with /api/v1/fingerprint's, the file or
// pasted peaks being the page's own). Read from and written to a query string, and turned into the API requests the
// page makes. No DOM here: the tests run it in Node.
import { endpointAt } from '../../api/endpoints.js';
import { FINGERPRINT_PARAMS, parseFingerprintQuery } from '../../api/fingerprintParams.js';
import { IDENTIFY_PARAMS } from '../../api/identifyParams.js';
import { checkParamNames } from '../../api/paramNames.js';
import { QueryError } from '../../api/params.js';
import { UNITS_PER_DA, peptideMass } from '../../model/chemistry.js';
import { parseModifications, slotCount } from '../../model/modifications.js';

export type Mode = 'precursor' | 'range' | 'peptide' | 'identify' | 'fingerprint';

export interface SearchState {
  mode: Mode;
  /** The precursor as m/z with charge, or as a neutral mass. */
  precursor: 'mz' | 'mass';
  mz: string;
  charge: string;
  mass: string;
  mass1: string;
  mass2: string;
  peptide: string;
  equateIL: boolean;
  tolerance: string;
  unit: string;
  /** `Name@Sites` items, as the API takes them. */
  fixed: string[];
  variable: string[];
  maxVariable: string;
  /** NCBI taxIds. */
  taxon: string[];
  /** '', 'true' or 'false'. */
  reviewed: string;
  page: string;
  pageSize: string;
  /**
   * Identify mode: charges tried for a spectrum without CHARGE, isotope errors (also precursor mode's), and the
   * fragment tolerance.
   */
  charges: string;
  isotopeErrors: string;
  fragmentTolerance: string;
  fragmentUnit: string;
  /**
   * Fingerprint mode: what a peak's m/z is ('mh', 'neutral', or 'charge': an ion of charge `ionCharge`; a URL may
   * give a charge with another ion), the most intense peaks kept ('' for all), and the rank organisms are scored at.
   */
  ion: string;
  ionCharge: string;
  topPeaks: string;
  rank: string;
  /**
   * Identify and Fingerprint modes: the other parameters of their endpoint a URL gave (Identify's topPeaks, …), which
   * the form has no field for.
   */
  more: [string, string][];
}

export const PAGE_SIZES = ['100', '250', '1000'];

/** The API's defaults: a parameter a URL leaves out means what the API takes it to mean. */
const API_DEFAULTS = { tolerance: '10', unit: 'ppm', maxVariable: '2', page: '1', pageSize: '100' };

/** /api/v1/identify's defaults for the fields Identify mode adds. */
const IDENTIFY_DEFAULTS = Object.fromEntries(
  (['charges', 'isotopeErrors', 'fragmentTolerance', 'fragmentUnit'] as const).map((name) => [
    name,
    String(IDENTIFY_PARAMS.find((p) => p.name === name)!.default),
  ]),
) as Record<'charges' | 'isotopeErrors' | 'fragmentTolerance' | 'fragmentUnit', string>;

/** /api/v1/fingerprint's default for a parameter, as the form writes it ('' when it has none). */
const fingerprintDefault = (name: string) => String(FINGERPRINT_PARAMS.find((p) => p.name === name)?.default ?? '');

/** The identify parameters the form has a field for; a URL's others are kept in `more`. */
const IDENTIFY_FIELDS = new Set([
  'tolerance',
  'unit',
  'fixed',
  'variable',
  'maxVariable',
  'taxon',
  'reviewed',
  ...Object.keys(IDENTIFY_DEFAULTS),
]);

/** The fingerprint parameters the form has a field for (`format` is the page's to choose: no URL gives it). */
const FINGERPRINT_FIELDS = new Set([
  'tolerance',
  'unit',
  'ion',
  'charge',
  'topPeaks',
  'fixed',
  'variable',
  'maxVariable',
  'taxon',
  'reviewed',
  'rank',
  'format',
]);

/** The blank form: what a proteomics user expects (10 ppm, Carbamidomethyl@C fixed, Oxidation@M one click away). */
export const FORM_DEFAULTS: SearchState = {
  mode: 'precursor',
  precursor: 'mz',
  mz: '',
  charge: '2',
  mass: '',
  mass1: '',
  mass2: '',
  peptide: '',
  equateIL: false,
  ...API_DEFAULTS,
  fixed: ['Carbamidomethyl@C'],
  variable: [],
  taxon: [],
  reviewed: '',
  ...IDENTIFY_DEFAULTS,
  ion: 'mh',
  ionCharge: '',
  topPeaks: '',
  rank: fingerprintDefault('rank'),
  more: [],
};

const items = (text: string | null) =>
  (text ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** `mode=identify` or `mode=fingerprint`: the page's own parameter of Identify and Fingerprint modes. */
const MODE_PARAM = {
  name: 'mode',
  kind: 'choice',
  required: false,
  choices: ['identify', 'fingerprint'],
  description: '',
} as const;

const isIdentify = (query: URLSearchParams) => query.get('mode')?.trim() === 'identify';
const isFingerprint = (query: URLSearchParams) => query.get('mode')?.trim() === 'fingerprint';

/**
 * What is wrong with the names of a page URL's query, as the API says it of its own: a page URL takes
 * /api/v1/search's parameters and the peptide view's (`peptide`, also read as `sequence`, and `equateIL`), with
 * `mode=identify` /api/v1/identify's, with `mode=fingerprint` /api/v1/fingerprint's but `format`.
 */
export function pageQueryRefusal(query: URLSearchParams): string | undefined {
  const peptideView = endpointAt('/api/v1/peptide')!.params.filter(
    (p) => p.name === 'sequence' || p.name === 'equateIL',
  );
  const names = isIdentify(query)
    ? [...IDENTIFY_PARAMS, MODE_PARAM]
    : isFingerprint(query)
      ? [...FINGERPRINT_PARAMS.filter((p) => p.name !== 'format'), MODE_PARAM]
      : [...endpointAt('/api/v1/search')!.params, ...peptideView];
  try {
    checkParamNames(names, query.keys(), 'refuse');
    return undefined;
  } catch (e) {
    if (e instanceof QueryError) return e.message;
    throw e;
  }
}

/** The search a page URL's query asks for; null when it asks for none (the home view). */
export function stateOfQuery(query: URLSearchParams): SearchState | null {
  const has = (name: string) => (query.get(name) ?? '').trim() !== '';
  if (has('sequence') && !has('peptide')) query.set('peptide', query.get('sequence')!);
  const mode: Mode | null = isIdentify(query)
    ? 'identify'
    : isFingerprint(query)
      ? 'fingerprint'
      : has('peptide')
        ? 'peptide'
        : has('mass1') || has('mass2')
          ? 'range'
          : has('mz') || has('mass') || has('charge')
            ? 'precursor'
            : null;
  if (!mode) return null;
  const get = (name: string, fallback = '') => (has(name) ? query.get(name)!.trim() : fallback);
  const fingerprint = mode === 'fingerprint';
  return {
    mode,
    precursor: has('mass') && !has('mz') ? 'mass' : 'mz',
    mz: get('mz'),
    charge: get('charge'),
    mass: get('mass'),
    mass1: get('mass1'),
    mass2: get('mass2'),
    peptide: get('peptide'),
    equateIL: get('equateIL') === 'true',
    tolerance: get('tolerance', defaultTolerance(mode)),
    unit: get('unit', API_DEFAULTS.unit),
    fixed: items(query.get('fixed')),
    variable: items(query.get('variable')),
    maxVariable: get('maxVariable', API_DEFAULTS.maxVariable),
    taxon: items(query.get('taxon')),
    reviewed: get('reviewed'),
    page: get('page', API_DEFAULTS.page),
    pageSize: get('pageSize', API_DEFAULTS.pageSize),
    charges: get('charges', IDENTIFY_DEFAULTS.charges),
    isotopeErrors: get('isotopeErrors', IDENTIFY_DEFAULTS.isotopeErrors),
    fragmentTolerance: get('fragmentTolerance', IDENTIFY_DEFAULTS.fragmentTolerance),
    fragmentUnit: get('fragmentUnit', IDENTIFY_DEFAULTS.fragmentUnit),
    ion: fingerprint && has('charge') && !has('ion') ? 'charge' : get('ion', FORM_DEFAULTS.ion),
    ionCharge: fingerprint ? get('charge') : '',
    topPeaks: get('topPeaks'),
    rank: get('rank', FORM_DEFAULTS.rank),
    more:
      mode === 'identify' || fingerprint
        ? [...query].filter(([k]) => k !== 'mode' && !(fingerprint ? FINGERPRINT_FIELDS : IDENTIFY_FIELDS).has(k))
        : [],
  };
}

/** The tolerance a mode takes when none is given: /api/v1/fingerprint's for Fingerprint mode, the others' 10 ppm. */
export const defaultTolerance = (mode: Mode): string =>
  mode === 'fingerprint' ? fingerprintDefault('tolerance') : API_DEFAULTS.tolerance;

type Params = [string, string][];

/** Modifications, filters and paging: the parameters every mode shares (defaults left out). */
function shared(s: SearchState): Params {
  const params: Params = [];
  if (s.fixed.length) params.push(['fixed', s.fixed.join(',')]);
  if (s.variable.length) params.push(['variable', s.variable.join(',')]);
  if (s.maxVariable !== API_DEFAULTS.maxVariable) params.push(['maxVariable', s.maxVariable]);
  if (s.taxon.length) params.push(['taxon', s.taxon.join(',')]);
  if (s.reviewed) params.push(['reviewed', s.reviewed]);
  if (s.page !== API_DEFAULTS.page) params.push(['page', s.page]);
  if (s.pageSize !== API_DEFAULTS.pageSize) params.push(['pageSize', s.pageSize]);
  return params;
}

const window = (s: SearchState): Params => [
  ['tolerance', s.tolerance],
  ['unit', s.unit],
];

/**
 * The isotope errors of a precursor search, when they ask for more than the precursor's own mass: the field's blank
 * and default ('0', Identify mode's) search as /api/v1/search without them does.
 */
const isotopeParams = (s: SearchState): Params =>
  s.isotopeErrors === '' || s.isotopeErrors === IDENTIFY_DEFAULTS.isotopeErrors
    ? []
    : [['isotopeErrors', s.isotopeErrors]];

/** The precursor (or window) of a precursor or range search. */
function precursorParams(s: SearchState): Params {
  if (s.mode === 'range')
    return [
      ['mass1', s.mass1],
      ['mass2', s.mass2],
    ];
  return [
    ...(s.precursor === 'mz'
      ? ([
          ['mz', s.mz],
          ['charge', s.charge],
        ] as Params)
      : ([['mass', s.mass]] as Params)),
    ...window(s),
    ...isotopeParams(s),
  ];
}

/** A query string with `@`, `,` and `:` left readable (`fixed=Carbamidomethyl@C`); everything else encoded. */
export const queryText = (params: Params): string =>
  params
    .map(([k, v]) => `${k}=${encodeURIComponent(v).replace(/%40/g, '@').replace(/%2C/g, ',').replace(/%3A/g, ':')}`)
    .join('&');

/** /api/v1/identify's query (without `?`) for Identify mode: windows always, other parameters when not defaults. */
export function identifyQuery(s: SearchState): string {
  return queryText([
    ...window(s),
    ['fragmentTolerance', s.fragmentTolerance],
    ['fragmentUnit', s.fragmentUnit],
    ...(['charges', 'isotopeErrors'] as const)
      .filter((k) => s[k] !== IDENTIFY_DEFAULTS[k])
      .map((k): [string, string] => [k, s[k]]),
    ...shared(s).filter(([k]) => k !== 'page' && k !== 'pageSize'),
    ...s.more,
  ]);
}

/**
 * /api/v1/fingerprint's query (without `?`) for Fingerprint mode: the window always, the peaks' ion, top peaks and
 * rank when not defaults, then modifications, filters and the URL's other parameters.
 */
export function fingerprintQuery(s: SearchState): string {
  // A charge given with an ion (a URL's) is kept with it: the API says whether they agree.
  const ion: Params =
    s.ion === 'charge'
      ? [['charge', s.ionCharge]]
      : [
          ...(s.ion !== FORM_DEFAULTS.ion || s.ionCharge ? ([['ion', s.ion]] as Params) : []),
          ...(s.ionCharge ? ([['charge', s.ionCharge]] as Params) : []),
        ];
  return queryText([
    ...window(s),
    ...ion,
    ...(s.topPeaks ? ([['topPeaks', s.topPeaks]] as Params) : []),
    ...shared(s).filter(([k]) => k !== 'page' && k !== 'pageSize'),
    ...(s.rank === FORM_DEFAULTS.rank ? [] : ([['rank', s.rank]] as Params)),
    ...s.more,
  ]);
}

/** What /api/v1/fingerprint's parser says of Fingerprint mode's parameters; undefined when it takes them. */
export function fingerprintRefusal(s: SearchState): string | undefined {
  const query = new URLSearchParams(fingerprintQuery(s));
  try {
    parseFingerprintQuery((name) => query.getAll(name));
    return undefined;
  } catch (e) {
    if (e instanceof QueryError) return e.message;
    throw e;
  }
}

/** The page URL's query (without `?`) for a search. */
export function queryOfState(s: SearchState): string {
  if (s.mode === 'identify') return `mode=identify&${identifyQuery(s)}`;
  if (s.mode === 'fingerprint') return `mode=fingerprint&${fingerprintQuery(s)}`;
  const head: Params =
    s.mode === 'peptide'
      ? [['peptide', s.peptide], ...(s.equateIL ? ([['equateIL', 'true']] as Params) : []), ...window(s)]
      : precursorParams(s);
  return queryText([...head, ...shared(s)]);
}

/** The filter parameters of /api/v1/peptide. */
const filterParams = (s: SearchState): Params => [
  ...(s.taxon.length ? ([['taxon', s.taxon.join(',')]] as Params) : []),
  ...(s.reviewed ? ([['reviewed', s.reviewed]] as Params) : []),
];

/** /api/v1/search for a precursor or range search, with each accession's protein (proteins=true). */
export const searchPath = (s: SearchState): string =>
  `/api/v1/search?${queryText([...precursorParams(s), ...shared(s), ['proteins', 'true']])}`;

/** /api/v1/peptide for the peptide view. */
export const peptidePath = (s: SearchState): string =>
  `/api/v1/peptide?${queryText([['sequence', s.peptide], ...(s.equateIL ? ([['equateIL', 'true']] as Params) : []), ...filterParams(s)])}`;

/**
 * The peptide's mass in Da with the fixed modifications on every site it has (what its isobaric peptides weigh,
 * modified as the search modifies them); undefined when the sequence has no mass. Modifications the model cannot
 * read are left out here: the API's answer then names them.
 */
export function modifiedPeptideMass(s: SearchState): number | undefined {
  const sequence = s.peptide.toUpperCase();
  const mass = peptideMass(sequence);
  if (!('units' in mass)) return undefined;
  let units = mass.units;
  try {
    for (const spec of parseModifications(s.fixed.join(',')))
      units += spec.modification.deltaUnits * slotCount([spec.site], sequence);
  } catch {
    // the isobaric search's answer reports the list
  }
  return units / UNITS_PER_DA;
}

/** /api/v1/search for the peptides isobaric with the peptide view's sequence (within the tolerance of its mass). */
export function isobaricPath(s: SearchState, mass: number): string {
  return `/api/v1/search?${queryText([['mass', String(mass)], ...window(s), ...shared(s), ['proteins', 'true']])}`;
}

/** Form fields, by the API parameter names whose errors they show. */
const FIELD_OF_PARAM: Record<string, string> = {
  sequence: 'peptide',
  toleranceLow: 'tolerance',
  toleranceHigh: 'tolerance',
  page: 'pageSize',
};

/** Fingerprint mode's fields of words its errors use: the peaks' charge, and the peak list's lines. */
const FINGERPRINT_FIELD_OF: Record<string, string> = { charge: 'ionCharge', line: 'peaks', body: 'peaks' };

/** The fields a search's form shows. */
export function fieldsOf(s: SearchState): string[] {
  const own = {
    precursor: [...(s.precursor === 'mz' ? ['mz', 'charge'] : ['mass']), 'tolerance', 'unit', 'isotopeErrors'],
    range: ['mass1', 'mass2'],
    peptide: ['peptide', 'equateIL', 'tolerance', 'unit'],
    identify: ['file', 'tolerance', 'unit', 'fragmentTolerance', 'fragmentUnit', 'charges', 'isotopeErrors'],
    fingerprint: ['peaks', 'tolerance', 'unit', 'ion', ...(s.ion === 'charge' ? ['ionCharge'] : []), 'topPeaks'],
  }[s.mode];
  return [
    ...own,
    'fixed',
    'variable',
    'maxVariable',
    'taxon',
    'reviewed',
    ...(s.mode === 'identify' ? [] : s.mode === 'fingerprint' ? ['rank'] : ['pageSize']),
  ];
}

/**
 * The form field an API error message is about: the first shown field it names (`charge must be …`, `variable:
 * …`, `taxon 1 is not …`); undefined when it names none. In the peptide view the isobaric search's `mass` is the
 * peptide's.
 */
export function fieldOfError(message: string, s: SearchState): string | undefined {
  const shown = fieldsOf(s);
  for (const word of message.match(/[A-Za-z][A-Za-z0-9]*/g) ?? []) {
    const name =
      s.mode === 'peptide' && word === 'mass'
        ? 'peptide'
        : s.mode === 'fingerprint' && word in FINGERPRINT_FIELD_OF
          ? FINGERPRINT_FIELD_OF[word]
          : (FIELD_OF_PARAM[word] ?? word);
    if (shown.includes(name)) return name;
  }
  return undefined;
}

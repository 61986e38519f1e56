// The endpoints as data: for each, its path, its command-line name, the entry shape of its answer, and one
// table of its parameters (checked in this order). Parsing, the OpenAPI document, the CLI and its usage text
// all read these rows: adding a parameter is adding a row.
import { massKey, type MassText } from '../model/massKey.js';
import { INT32_MAX, readParams, type Param, type ParamSource, type Peptide } from './params.js';
import { PEPTIDE_PARAMS } from './lookup/peptideLookup.js';
import { PRECURSOR_PARAMS } from './precursor/precursorQuery.js';
import { TAXA_PARAMS } from './lookup/taxa.js';
import type { RangeQuery } from './range/search.js';

export type { RangeQuery };

/** How a peptide's accessions are written: `acc: [..]`, or `accsTax: [{acc, taxId}]`. */
export type EntryShape = 'acc' | 'accsTax';

export interface Endpoint {
  path: string;
  /** Its name on the command line (`npm run query -- <command>`). */
  command: string;
  summary: string;
  /** What it answers: a range of stored mass groups (the seed's endpoints), a precursor with modifications, or
   * what the dataset is (`dbInfo` in the original's shape, `info` in ours). */
  kind: 'range' | 'precursor' | 'peptide' | 'taxa' | 'dbInfo' | 'info';
  entries: EntryShape;
  /** Status for a page or pageSize that is not an integer (the contract we reproduce says 500 on one). */
  notIntegerStatus: 400 | 500;
  params: readonly Param[];
}

export const MAX_PAGE_SIZE = 1000;
export const MAX_PEPTIDE_LENGTH = 1000;

const massParam = (name: 'mass1' | 'mass2', required: boolean): Param => ({
  name,
  kind: 'mass',
  required,
  ...(required ? {} : { unless: 'peptide' }),
  description:
    `${name === 'mass1' ? 'Low' : 'High'} end of the mass range in Da (monoisotopic, neutral peptide), inclusive, compared exactly ` +
    'to the mass keys (masses rounded half-up to 4 decimals). Decimal or exponent notation; must be >= 0 and mass1 <= mass2.' +
    (required ? '' : ' Required unless `peptide` is given.'),
  example: name === 'mass1' ? 1000.5 : 1001.5,
});

/** An inclusive mass range: mass1 and mass2, required, or read only when no `peptide` is given. */
export const massRangeParams = (required: boolean): Param[] => [
  massParam('mass1', required),
  massParam('mass2', required),
];

const peptideParam = (required: boolean): Param => ({
  name: 'peptide',
  kind: 'sequence',
  required,
  max: MAX_PEPTIDE_LENGTH,
  description:
    'Peptide sequence (one-letter residue codes, case-insensitive, surrounding white space ignored). The range is the ' +
    "peptide's own mass key: every peptide of the same mass is returned." +
    (required ? '' : ' When given and not empty, mass1 and mass2 are ignored.'),
  example: 'PEPTIDE',
});

const pagingParams = (defaultPageSize: number, notIntegerStatus: 400 | 500): Param[] => {
  const notInteger =
    notIntegerStatus === 500
      ? ' A value that is not an integer is answered with 500 (as the original service does).'
      : '';
  return [
    {
      name: 'page',
      kind: 'integer',
      required: false,
      default: 1,
      min: 1,
      max: INT32_MAX,
      description: `Page of mass groups to return, from 1. A page past the end returns an empty result.${notInteger}`,
    },
    {
      name: 'pageSize',
      kind: 'integer',
      required: false,
      default: defaultPageSize,
      min: 1,
      max: MAX_PAGE_SIZE,
      description: `Mass groups per page.${notInteger}`,
    },
  ];
};

/** /api/v1/search's opt-in: what the dataset knows of each accession, as /api/v1/peptide lists it (read after the rest). */
export const PROTEINS_PARAM: Param = {
  name: 'proteins',
  kind: 'choice',
  required: false,
  choices: ['true', 'false'],
  default: 'false',
  description:
    'true: each accession also gives `reviewed`, `protein` and `organism`, as /api/v1/peptide lists them (reads the protein table: slower).',
};

/** Whether a /api/v1/search query asks for proteins (PROTEINS_PARAM). */
export const wantsProteins = (source: ParamSource): boolean => readParams([PROTEINS_PARAM], source).proteins === 'true';

/** The three endpoints of the service we reproduce, then ours. */
export const ENDPOINTS: readonly Endpoint[] = [
  {
    path: '/search.php',
    command: 'search',
    summary: "Peptides in a mass range (or of a peptide's mass), with their accessions",
    kind: 'range',
    entries: 'acc',
    notIntegerStatus: 400,
    params: [peptideParam(false), ...massRangeParams(false), ...pagingParams(10, 400)],
  },
  {
    path: '/search-peptide.php',
    command: 'search-peptide',
    summary: 'Peptides of the same mass as a given peptide, with their accessions',
    kind: 'range',
    entries: 'acc',
    notIntegerStatus: 500,
    // Paging is checked before the peptide, as the service we reproduce does.
    params: [...pagingParams(1000, 500), peptideParam(true)],
  },
  {
    path: '/search-taxonomy.php',
    command: 'search-taxonomy',
    summary: 'Peptides in a mass range, with their accessions and NCBI taxonomy IDs',
    kind: 'range',
    entries: 'accsTax',
    notIntegerStatus: 400,
    params: [...massRangeParams(true), ...pagingParams(1000, 400)],
  },
  {
    path: '/api/v1/search',
    command: 'v1',
    summary:
      'Precursor search: peptides whose modified mass is in the window of a precursor (m/z and charge, or mass), with fixed and variable modifications',
    kind: 'precursor',
    entries: 'accsTax',
    notIntegerStatus: 400,
    params: [...PRECURSOR_PARAMS, PROTEINS_PARAM],
  },
  {
    path: '/api/v1/peptide',
    command: 'peptide',
    summary:
      'Peptide → proteins: the proteins (accessions, reviewed, names, organisms) that contain this exact peptide, optionally with I and L equated, and the lowest common ancestor of their organisms',
    kind: 'peptide',
    entries: 'accsTax',
    notIntegerStatus: 400,
    params: PEPTIDE_PARAMS,
  },
  {
    path: '/api/v1/taxa',
    command: 'taxa',
    summary:
      "Taxa of the dataset's taxonomy by name (prefix or word match), with rank and peptide count: for type-ahead",
    kind: 'taxa',
    entries: 'acc',
    notIntegerStatus: 400,
    params: TAXA_PARAMS,
  },
  {
    path: '/db-info.php',
    command: 'db-info',
    summary: "The dataset's build properties as the original service's /db-info gives them: a JSON object of strings",
    kind: 'dbInfo',
    entries: 'acc',
    notIntegerStatus: 400,
    params: [],
  },
  {
    path: '/api/v1/info',
    command: 'info',
    summary: 'What the dataset is: its version, build parameters, totals, release and input files',
    kind: 'info',
    entries: 'acc',
    notIntegerStatus: 400,
    params: [],
  },
];

/** The endpoint whose command-line name is `command`. */
export const endpointByCommand = (command: string) => ENDPOINTS.find((e) => e.command === command);

/** The range query an endpoint's parameters ask for; throws QueryError with the contract's status otherwise. */
export function parseRangeQuery(endpoint: Endpoint, source: ParamSource): RangeQuery {
  const values = readParams(endpoint.params, source, endpoint.notIntegerStatus);
  const peptide = values.peptide as Peptide | undefined;
  const paging = { page: values.page as number, pageSize: values.pageSize as number };
  if (peptide) return { lowKey: massKey(peptide.units), highKey: massKey(peptide.units), ...paging };
  return { lowKey: (values.mass1 as MassText).ceilKey, highKey: (values.mass2 as MassText).floorKey, ...paging };
}

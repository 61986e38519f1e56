// The parameter rows of the mass-range endpoints (the seed's three), the accession filter's rows and /api/v1/search's
// `proteins` opt-in, and the range query those rows ask for.
import { massKey, type MassText } from '../model/massKey.js';
import type { FilterSpec } from '../core/range/accessionFilter.js';
import type { RangeQuery } from '../core/range/search.js';
import { INT32_MAX, readParams, type Param, type ParamSource, type ParamValues, type Peptide } from './params.js';

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

export const peptideParam = (required: boolean): Param => ({
  name: 'peptide',
  aliases: ['sequence'],
  alsoCalled: ['seq', 'pep'],
  kind: 'sequence',
  required,
  max: MAX_PEPTIDE_LENGTH,
  description:
    'Peptide sequence (one-letter residue codes, case-insensitive, surrounding white space ignored). The range is the ' +
    "peptide's own mass key: every peptide of the same mass is returned." +
    (required ? '' : ' When given and not empty, mass1 and mass2 are ignored.'),
  example: 'PEPTIDE',
});

export const pagingParams = (defaultPageSize: number, notIntegerStatus: 400 | 500): Param[] => {
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
      alsoCalled: ['limit', 'size', 'perPage', 'rows'],
      kind: 'integer',
      required: false,
      default: defaultPageSize,
      min: 1,
      max: MAX_PAGE_SIZE,
      description: `Mass groups per page.${notInteger}`,
    },
  ];
};

/**
 * /api/v1/search's opt-in: what the dataset knows of each accession, as /api/v1/peptide lists it (read after the rest).
 */
export const PROTEINS_PARAM: Param = {
  name: 'proteins',
  alsoCalled: ['accessions', 'organisms'],
  kind: 'choice',
  required: false,
  choices: ['true', 'false'],
  default: 'false',
  description:
    'true: each accession also gives `reviewed`, `protein` and `organism`, as /api/v1/peptide lists them (reads the protein table: slower).',
};

/** Whether a /api/v1/search query asks for proteins (PROTEINS_PARAM). */
export const wantsProteins = (source: ParamSource): boolean => readParams([PROTEINS_PARAM], source).proteins === 'true';

/** Most taxa one filter lists. */
export const MAX_FILTER_TAXA = 100;

/** The accession filter's rows, shared by every endpoint that filters accessions. */
export const FILTER_PARAMS: readonly Param[] = [
  {
    name: 'taxon',
    alsoCalled: ['taxId', 'taxIds', 'taxa', 'tax', 'organism', 'species', 'ox'],
    kind: 'taxa',
    required: false,
    max: MAX_FILTER_TAXA,
    description: `NCBI taxIds, comma-separated (at most ${MAX_FILTER_TAXA}): keep accessions whose organism is one of them or a descendant in the dataset's taxonomy (2: Bacteria, 9606: Homo sapiens). An accession whose taxId has no lineage matches none.`,
    example: '9606',
  },
  {
    name: 'reviewed',
    alsoCalled: ['swissprot', 'sp'],
    kind: 'choice',
    required: false,
    choices: ['true', 'false'],
    description: 'true: keep UniProtKB/Swiss-Prot (reviewed) accessions only; false: TrEMBL (unreviewed) only.',
  },
];

/** The filter that FILTER_PARAMS' values ask for. */
export const filterOf = (values: ParamValues): FilterSpec => ({
  taxa: values.taxon as number[],
  ...(values.reviewed === undefined ? {} : { reviewed: values.reviewed === 'true' }),
});

/** The range query a range endpoint's parameters ask for; throws QueryError with the contract's status otherwise. */
export function parseRangeQuery(
  endpoint: { params: readonly Param[]; notIntegerStatus: 400 | 500 },
  source: ParamSource,
): RangeQuery {
  const values = readParams(endpoint.params, source, endpoint.notIntegerStatus);
  const peptide = values.peptide as Peptide | undefined;
  const paging = { page: values.page as number, pageSize: values.pageSize as number };
  if (peptide) return { lowKey: massKey(peptide.units), highKey: massKey(peptide.units), ...paging };
  return { lowKey: (values.mass1 as MassText).ceilKey, highKey: (values.mass2 as MassText).floorKey, ...paging };
}

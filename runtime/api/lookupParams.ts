// The parameter rows of the look-ups, peptide → proteins (/api/v1/peptide) and taxa by name (/api/v1/taxa), and
// the queries they ask for.
import type { PeptideQuery } from '../core/lookup/peptideLookup.js';
import type { TaxaQuery } from '../core/lookup/taxa.js';
import { MAX_TAXA } from '../model/taxonomy.js';
import { readParams, type Param, type ParamSource, type Peptide } from './params.js';
import { FILTER_PARAMS, filterOf } from './rangeParams.js';

export const MAX_LOOKUP_LENGTH = 1000;
export const MAX_NAME_LENGTH = 100;

export const PEPTIDE_PARAMS: readonly Param[] = [
  {
    name: 'sequence',
    aliases: ['peptide'],
    alsoCalled: ['seq', 'pep'],
    kind: 'sequence',
    required: true,
    max: MAX_LOOKUP_LENGTH,
    description:
      'The peptide (one-letter codes, case-insensitive). Looked up by its own mass, so a sequence the digestion cannot produce is simply not found.',
    example: 'LVNELTEFAK',
  },
  {
    name: 'equateIL',
    alsoCalled: ['il', 'leucine', 'isoleucine'],
    kind: 'choice',
    required: false,
    choices: ['true', 'false'],
    default: 'false',
    description:
      'true: I and L count as the same letter (they weigh the same), so every stored peptide equal up to I/L is returned.',
  },
  ...FILTER_PARAMS,
];

export function parsePeptideQuery(source: ParamSource): PeptideQuery {
  const values = readParams(PEPTIDE_PARAMS, source);
  const { sequence, units } = values.sequence as Peptide;
  return { sequence, units, equateIL: values.equateIL === 'true', filter: filterOf(values) };
}

export const TAXA_PARAMS: readonly Param[] = [
  {
    name: 'name',
    alsoCalled: ['q', 'query', 'search', 'taxon', 'organism', 'species'],
    kind: 'text',
    required: true,
    max: MAX_NAME_LENGTH,
    description: `Start of a scientific name or of a word in it, case-insensitive (homo, sapiens, escherichia co). Up to ${MAX_TAXA} taxa: the exact name first, then names that start with it, then names with a word that does; most peptides first within each.`,
    example: 'homo',
  },
];

export const parseTaxaQuery = (source: ParamSource): TaxaQuery => ({
  name: readParams(TAXA_PARAMS, source).name as string,
});

// The OpenAPI schema of identifyJson.ts's document, made from the same columns: apart, so that what renders an
// identification (the page's worker, the API) does not carry the document's descriptions.
import { MIN_PER_CLASS } from '../core/identify/discriminant.js';
import { MAX_FORMS } from '../core/identify/forms.js';
import { PSM_COLUMNS } from './identifyColumns.js';
import { MALFORMED_LISTED } from './matchJson.js';

const count = { type: 'integer', minimum: 0 };

/** The OpenAPI schema of identificationJson's document (with the HTTP answer's memory and duration). */
export const IDENTIFY_ANSWER_SCHEMA = {
  type: 'object',
  required: [
    'spectra',
    'fdr',
    'rescored',
    'passing',
    'malformedCount',
    'malformed',
    'refused',
    'cutCandidates',
    'taxa',
    'psms',
  ],
  properties: {
    spectra: { ...count, description: 'Spectra read (with or without a PSM).' },
    fdr: { type: 'number', description: 'The false discovery rate `passing` counts at.' },
    rescored: {
      type: 'boolean',
      description: `Whether the q-values rank by a linear discriminant fit to this request's best PSMs (targets against decoys, as Sage rescores; at least ${MIN_PER_CLASS} of each), else by the hyperscore.`,
    },
    passing: {
      type: 'object',
      required: ['psms', 'peptides', 'proteins'],
      description:
        'At the FDR: target spectra (best PSMs) by spectrum q, distinct peptide forms by peptide q, proteins by protein q.',
      properties: { psms: count, peptides: count, proteins: count },
    },
    malformedCount: { ...count, description: 'MGF records that could not be read, skipped.' },
    malformed: {
      type: 'array',
      maxItems: MALFORMED_LISTED,
      items: { type: 'object', required: ['line', 'error'], properties: { line: count, error: { type: 'string' } } },
    },
    refused: {
      type: 'array',
      description: 'Spectra not searched, and why (too many peptides to examine).',
      items: { type: 'object', required: ['index', 'error'] },
    },
    cutCandidates: {
      ...count,
      description: `Candidates with more than ${MAX_FORMS} placements of their variable modifications: the first ${MAX_FORMS} were scored.`,
    },
    taxa: {
      type: 'array',
      description:
        'The taxa of the peptides passing at the peptide level: each peptide assigned to the lowest common ancestor of its proteins; `assigned` counts those assigned to the taxon, `within` those assigned to it or below. Most `within` first.',
      items: {
        type: 'object',
        required: ['taxId', 'name', 'rank', 'parent', 'assigned', 'within'],
        properties: {
          taxId: count,
          name: { type: 'string' },
          rank: { type: 'string' },
          parent: count,
          assigned: count,
          within: count,
        },
      },
    },
    psms: {
      type: 'array',
      description: "Each spectrum's best PSMs (targets and decoys), in file order, best first.",
      items: {
        type: 'object',
        required: PSM_COLUMNS.map((c) => c.name),
        properties: Object.fromEntries(PSM_COLUMNS.map((c) => [c.name, { type: ['string', 'number'] }])),
      },
    },
    memory: { type: 'string', pattern: '^\\d+ MB$' },
    duration: { type: 'string', pattern: '^\\d{2,}:\\d{2}:\\d{2}\\.\\d{3}$' },
  },
};

// The JSON Schemas of the API's answers (components.schemas of the OpenAPI document, runtime/api/openapi.ts):
// the seed's envelope and entries, precursor candidates, look-ups, the dataset's descriptions and errors.
import { FINGERPRINT_ANSWER_SCHEMA } from './fingerprintSchema.js';
import { IDENTIFY_ANSWER_SCHEMA } from './identifySchema.js';
import { MALFORMED_LISTED } from './matchJson.js';
import { MAX_MATCH_PRECURSORS } from './matchParams.js';
import { MAX_PAGE_SIZE } from './rangeParams.js';
import { MAX_TAXA } from '../model/taxonomy.js';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const massKey = {
  type: 'string',
  pattern: '^\\d+\\.\\d{1,4}$',
  description: 'Mass key in Da, as Java writes a double: at least one decimal ("1000.0", "1247.6087").',
};
const sequence = { type: 'string', pattern: '^[A-Z]+$', description: 'Peptide sequence, upper case.' };
const accession = { type: 'string', minLength: 1, description: 'UniProt accession.' };
const accessionTaxId = { type: 'integer', minimum: -1, description: 'NCBI taxonomy ID; -1 when unknown.' };

/** One mass group: an object with a single property, the mass key, holding the group's peptides. */
const massGroup = (entry: string) => ({
  type: 'object',
  minProperties: 1,
  maxProperties: 1,
  propertyNames: massKey,
  additionalProperties: { type: 'array', minItems: 1, items: ref(entry) },
});

const envelope = (group: string) => ({
  type: 'object',
  required: ['totalResult', 'memory', 'duration', 'page', 'pageSize', 'result'],
  additionalProperties: false,
  properties: {
    totalResult: { type: 'integer', minimum: 0, description: 'Mass groups in the whole range (all pages).' },
    memory: { type: 'string', pattern: '^\\d+ MB$', description: 'Resident memory of the answering process.' },
    duration: { type: 'string', pattern: '^\\d{2,}:\\d{2}:\\d{2}\\.\\d{3}$', description: 'Time taken, HH:MM:SS.mmm.' },
    page: { type: 'integer', minimum: 1 },
    pageSize: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE },
    result: {
      type: 'array',
      maxItems: MAX_PAGE_SIZE,
      items: ref(group),
      description: "This page's mass groups, ascending mass.",
    },
  },
});

/** Every answer schema, by name. */
export const answerSchemas = () => ({
  EnvelopeAcc: envelope('MassGroupAcc'),
  EnvelopeAccsTax: envelope('MassGroupAccsTax'),
  EnvelopePrecursor: envelope('MassGroupPrecursor'),
  MassGroupAcc: massGroup('EntryAcc'),
  MassGroupAccsTax: massGroup('EntryAccsTax'),
  MassGroupPrecursor: massGroup('EntryPrecursor'),
  EntryAcc: {
    type: 'object',
    required: ['seq', 'acc'],
    additionalProperties: false,
    properties: {
      seq: sequence,
      acc: { type: 'array', minItems: 1, uniqueItems: true, items: accession, description: 'Accessions, ascending.' },
    },
  },
  EntryAccsTax: {
    type: 'object',
    required: ['seq', 'accsTax'],
    additionalProperties: false,
    properties: {
      seq: sequence,
      accsTax: {
        type: 'array',
        minItems: 1,
        description: 'Accessions, ascending, with the NCBI taxonomy ID of each.',
        items: {
          type: 'object',
          required: ['acc', 'taxId'],
          additionalProperties: false,
          properties: { acc: accession, taxId: accessionTaxId },
        },
      },
    },
  },
  EntryPrecursor: {
    type: 'object',
    required: ['seq', 'proforma', 'mass', 'accsTax'],
    additionalProperties: false,
    description: "One modified peptide: a stored peptide with one composition of the query's modifications.",
    properties: {
      seq: sequence,
      proforma: {
        type: 'string',
        minLength: 1,
        description:
          'ProForma 2.0: fixed modifications as global <[Name]@C> tags, variable ones localised when their count fills all their sites, else [Name]^n? (unlocalised); terminal ones [Name]-SEQ / SEQ-[Name]. Equals seq when unmodified.',
      },
      mass: { type: 'number', minimum: 0, description: 'Modified monoisotopic mass in Da (6 decimals).' },
      ppm: {
        type: 'number',
        description:
          '(query mass − mass) / mass × 10^6, 2 decimals (observed minus theoretical); absent for mass1/mass2 windows.',
      },
      isotopeError: { type: 'integer', description: 'The isotope error n it matched at (isotopeErrors).' },
      accsTax: {
        description:
          'Accessions with their taxIds; with proteins=true, each also with reviewed, protein and organism (as /api/v1/peptide gives them).',
        oneOf: [
          { $ref: '#/components/schemas/EntryAccsTax/properties/accsTax' },
          { $ref: '#/components/schemas/PeptideProteins/properties/peptides/items/properties/accsTax' },
        ],
      },
    },
  },
  PeptideProteins: {
    type: 'object',
    required: ['sequence', 'mass', 'peptides', 'lca'],
    additionalProperties: false,
    properties: {
      sequence,
      mass: { type: 'number', minimum: 0, description: "The sequence's neutral monoisotopic mass in Da (6 decimals)." },
      peptides: {
        type: 'array',
        description:
          'Stored peptides equal to the sequence (up to I/L with equateIL), by sequence; empty when there is none.',
        items: {
          type: 'object',
          required: ['seq', 'accsTax'],
          additionalProperties: false,
          properties: {
            seq: sequence,
            accsTax: {
              type: 'array',
              minItems: 1,
              description: 'Accessions, ascending, with what the dataset knows of each protein.',
              items: {
                type: 'object',
                required: ['acc', 'taxId', 'reviewed', 'protein', 'organism'],
                additionalProperties: false,
                properties: {
                  acc: accession,
                  taxId: accessionTaxId,
                  reviewed: { type: 'boolean', description: 'UniProtKB/Swiss-Prot (reviewed) entry.' },
                  protein: { type: ['string', 'null'], description: 'Protein name from the FASTA header.' },
                  organism: { type: ['string', 'null'], description: 'Organism name (OS=) from the FASTA header.' },
                },
              },
            },
          },
        },
      },
      lca: {
        oneOf: [{ type: 'null' }, { $ref: '#/components/schemas/TaxonRef' }],
        description:
          "Lowest common ancestor of the listed accessions' organisms (Unipept's: the deepest node on every lineage); null when none has a lineage.",
      },
    },
  },
  TaxonRef: {
    type: 'object',
    required: ['taxId', 'name', 'rank'],
    additionalProperties: false,
    properties: { taxId: { type: 'integer', minimum: 1 }, name: { type: 'string' }, rank: { type: 'string' } },
  },
  Taxa: {
    type: 'object',
    required: ['taxa'],
    additionalProperties: false,
    properties: {
      taxa: {
        type: 'array',
        maxItems: MAX_TAXA,
        items: {
          type: 'object',
          required: ['taxId', 'name', 'rank', 'peptides'],
          additionalProperties: false,
          properties: {
            taxId: { type: 'integer', minimum: 1 },
            name: { type: 'string', description: 'Scientific name.' },
            rank: { type: 'string' },
            peptides: {
              type: 'integer',
              minimum: 0,
              description: 'Distinct peptides with an accession of this taxon or below.',
            },
          },
        },
      },
    },
  },
  DbInfo: {
    type: 'object',
    description: "The original service's /db-info keys (every value a string), then ours.",
    required: [
      'db_name',
      'enzyme_name',
      'miss_cleavage',
      'min_peptide_length',
      'max_peptide_length',
      'protein_count',
      'peptide_count',
    ],
    additionalProperties: { type: 'string' },
  },
  DatasetInfo: {
    type: 'object',
    required: [
      'datasetVersion',
      'format',
      'formatVersion',
      'compression',
      'parameters',
      'totals',
      'release',
      'sources',
      'taxonomy',
    ],
    additionalProperties: false,
    properties: {
      datasetVersion: { type: 'string', pattern: '^[0-9a-f]{16}$' },
      format: { type: 'string', const: 'digested-peptides' },
      formatVersion: { type: 'integer', minimum: 2 },
      compression: {
        type: 'string',
        enum: ['gzip', 'br'],
        description: 'How every dataset file but the manifest is stored (shards/FORMAT.md).',
      },
      parameters: {
        type: 'object',
        description: 'Build parameters: enzyme, missedCleavages, minLength, maxLength, shardBytes.',
      },
      totals: {
        type: 'object',
        description: 'Proteins, distinct peptides, mass groups, shards, bytes, accessions and what the build skipped.',
      },
      release: {
        type: ['object', 'null'],
        additionalProperties: { type: 'string' },
        description: 'The release the inputs come from (name, date, url, sha256...), or null.',
      },
      sources: {
        type: 'array',
        items: { type: 'object', required: ['file', 'bytes', 'sha256'] },
        description: 'Input files with their size and sha256.',
      },
      taxonomy: {
        type: ['object', 'null'],
        required: ['nodes', 'sources'],
        properties: {
          nodes: { type: 'integer', minimum: 1 },
          sources: { type: 'array', items: { type: 'object', required: ['file', 'bytes', 'sha256'] } },
        },
        description:
          'The NCBI taxonomy held (nodes on the lineages of its organisms) and the taxdump files it came from; null when built without one.',
      },
    },
  },
  IdentifyAnswer: IDENTIFY_ANSWER_SCHEMA,
  FingerprintAnswer: FINGERPRINT_ANSWER_SCHEMA,
  MatchAnswer: {
    type: 'object',
    required: [
      'precursors',
      'withCandidates',
      'candidates',
      'malformedCount',
      'malformed',
      'memory',
      'duration',
      'result',
    ],
    additionalProperties: false,
    properties: {
      precursors: {
        type: 'integer',
        minimum: 0,
        maximum: MAX_MATCH_PRECURSORS,
        description: 'Precursors matched (MGF records read, or JSON items).',
      },
      withCandidates: { type: 'integer', minimum: 0, description: 'Precursors with at least one candidate.' },
      candidates: { type: 'integer', minimum: 0, description: 'Candidates of all searches.' },
      malformedCount: {
        type: 'integer',
        minimum: 0,
        description: 'MGF records that could not be read, skipped (not counted in `precursors`).',
      },
      malformed: {
        type: 'array',
        maxItems: MALFORMED_LISTED,
        description: `The first ${MALFORMED_LISTED} of those records, with their line and what is wrong.`,
        items: {
          type: 'object',
          required: ['line', 'error'],
          additionalProperties: false,
          properties: { line: { type: 'integer', minimum: 1 }, error: { type: 'string' } },
        },
      },
      memory: { type: 'string', pattern: '^\\d+ MB$' },
      duration: { type: 'string', pattern: '^\\d{2,}:\\d{2}:\\d{2}\\.\\d{3}$' },
      result: {
        type: 'array',
        items: ref('MatchPrecursor'),
        description: 'Every precursor, in the order of the body.',
      },
    },
  },
  MatchPrecursor: {
    type: 'object',
    required: ['index', 'searches'],
    additionalProperties: false,
    properties: {
      index: {
        type: 'integer',
        minimum: 1,
        description: 'Ordinal of the MGF record (malformed ones counted) or of the JSON item, from 1.',
      },
      line: { type: 'integer', minimum: 1, description: 'Line of the record’s BEGIN IONS.' },
      title: { type: 'string' },
      scans: { type: 'string' },
      rtSeconds: { type: 'number' },
      mz: { type: 'number', exclusiveMinimum: 0 },
      intensity: { type: 'number' },
      charges: {
        type: 'array',
        items: { type: 'integer' },
        description: 'Charges the record or item gave; empty: `charges` were tried.',
      },
      mass: { type: 'number', exclusiveMinimum: 0, description: 'Neutral mass given instead of an m/z.' },
      searches: { type: 'array', minItems: 1, items: ref('MatchSearch') },
    },
  },
  MatchSearch: {
    type: 'object',
    required: ['mass', 'candidates'],
    additionalProperties: false,
    properties: {
      charge: { type: 'integer', description: 'Charge tried (negative for negative mode); absent for a neutral mass.' },
      isotopeError: { type: 'integer', description: 'The isotope error n tried (isotopeErrors).' },
      mass: { type: 'number', description: 'Neutral precursor mass in Da.' },
      candidates: {
        type: 'array',
        items: ref('EntryPrecursor'),
        description:
          'Every candidate /api/v1/search gives this precursor, over all its pages, in its order (or the `top` closest).',
      },
      error: { type: 'string', description: 'Why this search was not made: the 400 /api/v1/search would answer.' },
    },
  },
  Error: {
    type: 'object',
    required: ['error'],
    additionalProperties: false,
    properties: { error: { type: 'string', minLength: 1, description: 'What was wrong, in one sentence.' } },
  },
});

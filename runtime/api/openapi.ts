// OpenAPI 3.1 description of the API (served at GET /openapi.json), generated from the endpoint tables so
// paths, parameters, defaults and limits cannot drift from what the parser enforces.
import { ENDPOINTS, MAX_PAGE_SIZE, type Endpoint } from '../core/endpoints.js';
import type { Param } from '../core/params.js';
import { ALLOWED_METHODS, ANSWER_CACHE_CONTROL, jsonAnswer, MAX_QUERY_LENGTH, methodNotAllowed, type Answer } from './answer.js';

export const OPENAPI_PATH = '/openapi.json';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const header = (description: string, schema: Record<string, unknown>) => ({ description, schema });
const errorContent = { 'application/json': { schema: ref('Error') } };

/** Headers on every answer (errors included); Content-Type is given by each response's content. */
const commonHeaders = {
  'Access-Control-Allow-Origin': { $ref: '#/components/headers/AccessControlAllowOrigin' },
  'X-Content-Type-Options': { $ref: '#/components/headers/XContentTypeOptions' },
};
const errorHeaders = { ...commonHeaders, 'Cache-Control': { $ref: '#/components/headers/NoStore' } };
const cacheHeaders = {
  ETag: { $ref: '#/components/headers/ETag' },
  'Cache-Control': { $ref: '#/components/headers/CacheControl' },
  'X-Dataset-Version': { $ref: '#/components/headers/XDatasetVersion' },
};

const error = (description: string) => ({ description, headers: errorHeaders, content: errorContent });

const sharedResponses = () => ({
  NotModified: {
    description: 'The dataset has not changed since the ETag given in If-None-Match (no body).',
    headers: { 'Access-Control-Allow-Origin': commonHeaders['Access-Control-Allow-Origin'], ...cacheHeaders },
  },
  BadRequest: error('A parameter is missing, repeated, malformed or out of range; `error` says which and why.'),
  NotFound: error('No such path: only the three endpoints and /openapi.json exist.'),
  MethodNotAllowed: {
    description: 'Only GET and HEAD are answered.',
    headers: { ...errorHeaders, Allow: header('The methods answered.', { type: 'string', const: ALLOWED_METHODS }) },
    content: errorContent,
  },
  UriTooLong: error(`The query string is longer than ${MAX_QUERY_LENGTH} characters.`),
  InternalError: error('Unexpected failure (`{"error": "internal error"}`; details go to the server log only).'),
  BadGateway: error('The dataset storage answered wrongly: a file failed its sha256 check or is not readable.'),
  Unavailable: error('The dataset storage is unreachable or holds no valid manifest; try again later.'),
});

const responseRef = (name: keyof ReturnType<typeof sharedResponses>) => ({ $ref: `#/components/responses/${name}` });

/** A parameter row as an OpenAPI query parameter. */
function parameter(param: Param) {
  const schemas: Record<Param['kind'], Record<string, unknown>> = {
    mass: { type: 'number', minimum: 0 },
    integer: { type: 'integer', minimum: param.min, maximum: param.max, default: param.default },
    number: {
      type: 'number',
      ...(param.min === undefined ? {} : param.exclusiveMin ? { exclusiveMinimum: param.min } : { minimum: param.min }),
      ...(param.max === undefined ? {} : { maximum: param.max }),
      ...(param.default === undefined ? {} : { default: param.default }),
    },
    choice: { type: 'string', enum: param.choices, default: param.default },
    sequence: { type: 'string', minLength: 1, maxLength: param.max },
    modifications: { type: 'string', pattern: '^[^,@]+@[^,]+(,[^,@]+@[^,]+)*$' },
    taxa: { type: 'string', pattern: '^\\s*\\d+\\s*(,\\s*\\d+\\s*)*$' },
    text: { type: 'string', minLength: 1, maxLength: param.max },
  };
  const schema = schemas[param.kind];
  return {
    name: param.name,
    in: 'query',
    required: param.required && param.unless === undefined,
    description: param.description,
    schema,
    ...(param.example !== undefined ? { example: param.example } : {}),
  };
}

function parameters(endpoint: Endpoint) {
  return [
    ...endpoint.params.map(parameter),
    { name: 'If-None-Match', in: 'header', required: false, description: 'An ETag of an earlier answer: 304 while the dataset is unchanged.', schema: { type: 'string' } },
  ];
}

function operations(endpoint: Endpoint) {
  const id = endpoint.command.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());
  const envelope = {
    range: endpoint.entries === 'acc' ? 'EnvelopeAcc' : 'EnvelopeAccsTax',
    precursor: 'EnvelopePrecursor',
    peptide: 'PeptideProteins',
    taxa: 'Taxa',
    dbInfo: 'DbInfo',
    info: 'DatasetInfo',
  }[endpoint.kind];
  const described = {
    range: 'One page of the mass groups in the range, in ascending mass.',
    precursor: 'One page of the mass groups in the window, in ascending modified mass.',
    peptide: 'The stored peptides equal to the sequence, with their proteins, and the LCA of their organisms.',
    taxa: 'The taxa whose name matches, best first.',
    dbInfo: "The dataset's description (from its manifest).",
    info: "The dataset's description (from its manifest).",
  }[endpoint.kind];
  const summary = endpoint.summary;
  const responses = (withBody: boolean) => ({
    '200': {
      description: described,
      headers: { ...commonHeaders, ...cacheHeaders },
      ...(withBody ? { content: { 'application/json': { schema: ref(envelope) } } } : {}),
    },
    '304': responseRef('NotModified'),
    '400': responseRef('BadRequest'),
    '414': responseRef('UriTooLong'),
    '500':
      endpoint.notIntegerStatus === 500
        ? error('`page` or `pageSize` is not an integer (kept from the original service), or an unexpected failure.')
        : responseRef('InternalError'),
    '502': responseRef('BadGateway'),
    '503': responseRef('Unavailable'),
  });
  return {
    get: { operationId: id, summary, tags: ['search'], parameters: parameters(endpoint), responses: responses(true) },
    head: { operationId: `${id}Head`, summary: `${summary} (headers only)`, tags: ['search'], parameters: parameters(endpoint), responses: responses(false) },
    ...Object.fromEntries(OTHER_METHODS.map((m) => [m, notAllowed(id, m)])),
  };
}

/** Methods that get 405 where GET and HEAD are answered. */
const OTHER_METHODS = ['post', 'put', 'patch', 'delete'];
const capital = (text: string) => text[0].toUpperCase() + text.slice(1);

const notAllowed = (id: string, method: string) => ({
  operationId: `${id}${capital(method)}NotAllowed`,
  summary: `${method.toUpperCase()} is not allowed`,
  responses: { '405': responseRef('MethodNotAllowed') },
});

const massKey = { type: 'string', pattern: '^\\d+\\.\\d{1,4}$', description: 'Mass key in Da, as Java writes a double: at least one decimal ("1000.0", "1247.6087").' };
const sequence = { type: 'string', pattern: '^[A-Z]+$', description: 'Peptide sequence, upper case.' };
const accession = { type: 'string', minLength: 1, description: 'UniProt accession.' };

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
    result: { type: 'array', maxItems: MAX_PAGE_SIZE, items: ref(group), description: "This page's mass groups, ascending mass." },
  },
});

/** The document, built once on first use. */
export function openapiDocument(): Record<string, unknown> {
  cached ??= build();
  return cached;
}

let cached: Record<string, unknown> | undefined;

const build = () => ({
  openapi: '3.1.0',
  info: {
    title: 'Digested peptides',
    version: '1',
    description:
      'Search of in-silico digested peptides by monoisotopic mass. Mass ranges are inclusive and exact at 4 decimals. ' +
      'Every endpoint answers GET and HEAD; other methods get 405, other paths 404. Answers carry a weak ETag of ' +
      'the dataset version. The dataset itself is downloadable under /shards/ (manifest.json and msgpack shards; ' +
      'format in shards/FORMAT.md).',
    license: { name: 'Data: CC BY 4.0 (UniProt)', url: 'https://creativecommons.org/licenses/by/4.0/' },
  },
  servers: [{ url: '/' }],
  tags: [{ name: 'search' }],
  paths: {
    ...Object.fromEntries(ENDPOINTS.map((e) => [e.path, operations(e)])),
    [OPENAPI_PATH]: {
      get: {
        operationId: 'openapi',
        summary: 'This document',
        responses: { '200': { description: 'The OpenAPI document.', headers: commonHeaders, content: { 'application/json': { schema: { type: 'object' } } } } },
      },
      head: { operationId: 'openapiHead', summary: 'This document (headers only)', responses: { '200': { description: 'The OpenAPI document (no body).', headers: commonHeaders } } },
      ...Object.fromEntries(OTHER_METHODS.map((m) => [m, notAllowed('openapi', m)])),
    },
    '/{path}': {
      parameters: [{ name: 'path', in: 'path', required: true, schema: { type: 'string' } }],
      ...Object.fromEntries(
        ['get', 'head', ...OTHER_METHODS].map((m) => [m, { operationId: `unknownPath${capital(m)}`, summary: 'Any other path, any method', responses: { '404': responseRef('NotFound') } }]),
      ),
    },
  },
  components: {
    schemas: {
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
        properties: { seq: sequence, acc: { type: 'array', minItems: 1, uniqueItems: true, items: accession, description: 'Accessions, ascending.' } },
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
              properties: { acc: accession, taxId: { type: 'integer', minimum: -1, description: 'NCBI taxonomy ID; -1 when unknown.' } },
            },
          },
        },
      },
      EntryPrecursor: {
        type: 'object',
        required: ['seq', 'proforma', 'mass', 'accsTax'],
        additionalProperties: false,
        description: 'One modified peptide: a stored peptide with one composition of the query\'s modifications.',
        properties: {
          seq: sequence,
          proforma: { type: 'string', minLength: 1, description: 'ProForma 2.0: fixed modifications as global <[Name]@C> tags, variable ones localised when their count fills all their sites, else [Name]^n? (unlocalised); terminal ones [Name]-SEQ / SEQ-[Name]. Equals seq when unmodified.' },
          mass: { type: 'number', minimum: 0, description: 'Modified monoisotopic mass in Da (6 decimals).' },
          ppm: { type: 'number', description: '(query mass − mass) / mass × 10^6, 2 decimals (observed minus theoretical); absent for mass1/mass2 windows.' },
          accsTax: { $ref: '#/components/schemas/EntryAccsTax/properties/accsTax' },
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
            description: 'Stored peptides equal to the sequence (up to I/L with equateIL), by sequence; empty when there is none.',
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
                      taxId: { type: 'integer', minimum: -1, description: 'NCBI taxonomy ID; -1 when unknown.' },
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
            description: "Lowest common ancestor of the listed accessions' organisms (Unipept's: the deepest node on every lineage); null when none has a lineage.",
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
            maxItems: 20,
            items: {
              type: 'object',
              required: ['taxId', 'name', 'rank', 'peptides'],
              additionalProperties: false,
              properties: {
                taxId: { type: 'integer', minimum: 1 },
                name: { type: 'string', description: 'Scientific name.' },
                rank: { type: 'string' },
                peptides: { type: 'integer', minimum: 0, description: 'Distinct peptides with an accession of this taxon or below.' },
              },
            },
          },
        },
      },
      DbInfo: {
        type: 'object',
        description: "The original service's /db-info keys (every value a string), then ours.",
        required: ['db_name', 'enzyme_name', 'miss_cleavage', 'min_peptide_length', 'max_peptide_length', 'protein_count', 'peptide_count'],
        additionalProperties: { type: 'string' },
      },
      DatasetInfo: {
        type: 'object',
        required: ['datasetVersion', 'format', 'formatVersion', 'parameters', 'totals', 'release', 'sources', 'taxonomy'],
        additionalProperties: false,
        properties: {
          datasetVersion: { type: 'string', pattern: '^[0-9a-f]{16}$' },
          format: { type: 'string', const: 'digested-peptides' },
          formatVersion: { type: 'integer', minimum: 1 },
          parameters: { type: 'object', description: 'Build parameters: enzyme, missedCleavages, minLength, maxLength, shardBytes.' },
          totals: { type: 'object', description: 'Proteins, distinct peptides, mass groups, shards, bytes, accessions and what the build skipped.' },
          release: { type: ['object', 'null'], additionalProperties: { type: 'string' }, description: 'The release the inputs come from (name, date, url, sha256...), or null.' },
          sources: { type: 'array', items: { type: 'object', required: ['file', 'bytes', 'sha256'] }, description: 'Input files with their size and sha256.' },
          taxonomy: {
            type: ['object', 'null'],
            required: ['nodes', 'sources'],
            properties: { nodes: { type: 'integer', minimum: 1 }, sources: { type: 'array', items: { type: 'object', required: ['file', 'bytes', 'sha256'] } } },
            description: 'The NCBI taxonomy held (nodes on the lineages of its organisms) and the taxdump files it came from; null when built without one.',
          },
        },
      },
      Error: {
        type: 'object',
        required: ['error'],
        additionalProperties: false,
        properties: { error: { type: 'string', minLength: 1, description: 'What was wrong, in one sentence.' } },
      },
    },
    responses: sharedResponses(),
    headers: {
      AccessControlAllowOrigin: header('Any origin may read answers.', { type: 'string', const: '*' }),
      XContentTypeOptions: header('No content sniffing.', { type: 'string', const: 'nosniff' }),
      NoStore: header('Errors are not cached.', { type: 'string', const: 'no-store' }),
      CacheControl: header('Answers may be cached for an hour.', { type: 'string', const: ANSWER_CACHE_CONTROL }),
      ETag: header('Weak ETag of the dataset version.', { type: 'string', pattern: '^W/"[0-9a-f]{16}"$' }),
      XDatasetVersion: header("The manifest's datasetVersion.", { type: 'string', pattern: '^[0-9a-f]{16}$' }),
    },
  },
});

/** GET or HEAD /openapi.json; 405 for other methods. */
export function openapiAnswer(method: string): Answer {
  return methodNotAllowed(method) ?? jsonAnswer(200, openapiDocument(), { 'Cache-Control': ANSWER_CACHE_CONTROL }, method === 'HEAD');
}

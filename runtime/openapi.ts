// OpenAPI 3.1 description of the API (served at GET /openapi.json), generated from the endpoint table so
// paths, defaults and limits cannot drift from what params.ts enforces.
import { MAX_QUERY_LENGTH, type Call } from './handler.js';
import { ENDPOINTS, MAX_PAGE_SIZE, MAX_PEPTIDE_LENGTH, type Endpoint } from './params.js';
import { errorAnswer, jsonAnswer, type Answer } from './respond.js';

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
    headers: { ...errorHeaders, Allow: header('The methods answered.', { type: 'string', const: 'GET, HEAD' }) },
    content: errorContent,
  },
  UriTooLong: error(`The query string is longer than ${MAX_QUERY_LENGTH} characters.`),
  InternalError: error('Unexpected failure (`{"error": "internal error"}`; details go to the server log only).'),
  BadGateway: error('The dataset storage answered wrongly: a file failed its sha256 check or is not readable.'),
  Unavailable: error('The dataset storage is unreachable or holds no valid manifest; try again later.'),
});

const responseRef = (name: keyof ReturnType<typeof sharedResponses>) => ({ $ref: `#/components/responses/${name}` });

function parameters(endpoint: Endpoint) {
  const integer = (name: string, fallback: number, max: number, description: string) => ({
    name,
    in: 'query',
    required: false,
    description,
    schema: { type: 'integer', minimum: 1, maximum: max, default: fallback },
  });
  const mass = (name: string, required: boolean, side: string) => ({
    name,
    in: 'query',
    required,
    description:
      `${side} of the mass range in Da (monoisotopic, neutral peptide), inclusive, compared exactly to the mass keys ` +
      '(masses rounded half-up to 4 decimals). Decimal or exponent notation; must be >= 0 and mass1 <= mass2.' +
      (required ? '' : ' Required unless `peptide` is given.'),
    schema: { type: 'number', minimum: 0 },
    example: side === 'Low end' ? 1000.5 : 1001.5,
  });
  const peptide = (required: boolean) => ({
    name: 'peptide',
    in: 'query',
    required,
    description:
      'Peptide sequence (one-letter residue codes, case-insensitive, surrounding white space ignored). The range is the ' +
      "peptide's own mass key: every peptide of the same mass is returned." +
      (required ? '' : ' When given and not empty, mass1 and mass2 are ignored.'),
    schema: { type: 'string', minLength: 1, maxLength: MAX_PEPTIDE_LENGTH },
    example: 'PEPTIDE',
  });
  const list: Record<string, unknown>[] = [];
  if (endpoint.by !== 'peptide') list.push(mass('mass1', endpoint.by === 'mass', 'Low end'), mass('mass2', endpoint.by === 'mass', 'High end'));
  if (endpoint.by !== 'mass') list.push(peptide(endpoint.by === 'peptide'));
  const notInteger = endpoint.notIntegerStatus === 500 ? ' A value that is not an integer is answered with 500 (as the original service does).' : '';
  list.push(
    integer('page', 1, 2 ** 31 - 1, `Page of mass groups to return, from 1. A page past the end returns an empty result.${notInteger}`),
    integer('pageSize', endpoint.defaultPageSize, MAX_PAGE_SIZE, `Mass groups per page.${notInteger}`),
    { name: 'If-None-Match', in: 'header', required: false, description: 'An ETag of an earlier answer: 304 while the dataset is unchanged.', schema: { type: 'string' } },
  );
  return list;
}

function operations(endpoint: Endpoint) {
  const name = endpoint.path.slice(1, -'.php'.length);
  const id = name.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());
  const envelope = endpoint.entries === 'acc' ? 'EnvelopeAcc' : 'EnvelopeAccsTax';
  const summary = {
    'mass-or-peptide': 'Peptides in a mass range (or of a peptide\'s mass), with their accessions',
    peptide: 'Peptides of the same mass as a given peptide, with their accessions',
    mass: 'Peptides in a mass range, with their accessions and NCBI taxonomy IDs',
  }[endpoint.by];
  const responses = (withBody: boolean) => ({
    '200': {
      description: 'One page of the mass groups in the range, in ascending mass.',
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

/** The document (built on first use: handler.ts, which serves it, is imported by this module too). */
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
      MassGroupAcc: massGroup('EntryAcc'),
      MassGroupAccsTax: massGroup('EntryAccsTax'),
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
      CacheControl: header('Answers may be cached for an hour.', { type: 'string', const: 'public, max-age=3600' }),
      ETag: header('Weak ETag of the dataset version.', { type: 'string', pattern: '^W/"[0-9a-f]{16}"$' }),
      XDatasetVersion: header("The manifest's datasetVersion.", { type: 'string', pattern: '^[0-9a-f]{16}$' }),
    },
  },
});

/** GET or HEAD /openapi.json; 405 for other methods. */
export function openapiAnswer(call: Call): Answer {
  const head = call.method === 'HEAD';
  if (call.method !== 'GET' && !head) return errorAnswer(405, `method ${call.method.slice(0, 20)} is not allowed; use GET or HEAD`, { Allow: 'GET, HEAD' });
  return jsonAnswer(200, openapiDocument(), { 'Cache-Control': 'public, max-age=3600' }, head);
}

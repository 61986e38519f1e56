// OpenAPI 3.1 description of the API (served at GET /openapi.json), generated from the endpoint tables so
// paths, parameters, defaults and limits cannot drift from what the parser enforces.
import { ENDPOINTS, OPENAPI_PATH, type Endpoint } from './endpoints.js';
import type { Param } from './params.js';
import { answerSchemas } from './openapiSchemas.js';
import {
  ALLOWED_METHODS,
  ANSWER_CACHE_CONTROL,
  BODY_METHODS,
  jsonAnswer,
  MAX_QUERY_LENGTH,
  methodNotAllowed,
  type Answer,
} from './answer.js';

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
    description:
      param.description +
      (param.aliases?.length ? ` Also read under the name ${param.aliases.map((a) => `\`${a}\``).join(', ')}.` : ''),
    schema,
    ...(param.example !== undefined ? { example: param.example } : {}),
  };
}

function parameters(endpoint: Endpoint) {
  return [
    ...endpoint.params.map(parameter),
    {
      name: 'If-None-Match',
      in: 'header',
      required: false,
      description: 'An ETag of an earlier answer: 304 while the dataset is unchanged.',
      schema: { type: 'string' },
    },
  ];
}

/** The operationId of an endpoint: its command in camelCase. */
const operationId = (endpoint: Endpoint) => endpoint.command.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());

/** A GET endpoint: GET and HEAD, 405 for other methods. */
function getOperations(endpoint: Endpoint) {
  const id = operationId(endpoint);
  const summary = endpoint.summary;
  const responses = (withBody: boolean) => ({
    '200': {
      description: endpoint.answer.description,
      headers: { ...commonHeaders, ...cacheHeaders },
      ...(withBody ? { content: { 'application/json': { schema: ref(endpoint.answer.schema) } } } : {}),
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
    head: {
      operationId: `${id}Head`,
      summary: `${summary} (headers only)`,
      tags: ['search'],
      parameters: parameters(endpoint),
      responses: responses(false),
    },
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

/** An endpoint that reads a request body: POST (its query parameters, its body, its answers), OPTIONS, 405 else. */
function postOperations(endpoint: Endpoint) {
  const id = operationId(endpoint);
  const body = endpoint.body!;
  return {
    post: {
      operationId: id,
      summary: endpoint.summary,
      tags: ['search'],
      parameters: endpoint.params.map(parameter),
      requestBody: { required: true, description: body.description, content: body.content },
      responses: {
        '200': {
          description: endpoint.answer.description,
          headers: errorHeaders,
          content: {
            'application/json': { schema: ref(endpoint.answer.schema) },
            ...(endpoint.formatOf && {
              'text/tab-separated-values': {
                schema: { type: 'string', description: 'The answer as TSV (format=tsv).' },
              },
            }),
          },
        },
        '400': responseRef('BadRequest'),
        '413': error(body.tooLarge),
        '414': responseRef('UriTooLong'),
        '500': responseRef('InternalError'),
        '502': responseRef('BadGateway'),
        '503': responseRef('Unavailable'),
      },
    },
    options: {
      operationId: `${id}Preflight`,
      summary: 'CORS preflight',
      responses: { '204': { description: 'POST is allowed from any origin.', headers: commonHeaders } },
    },
    ...Object.fromEntries(
      ['get', 'head', 'put', 'patch', 'delete'].map((m) => [
        m,
        {
          operationId: `${id}${capital(m)}NotAllowed`,
          summary: `${m.toUpperCase()} is not allowed`,
          responses: { '405': error(`Only ${BODY_METHODS} are answered.`) },
        },
      ]),
    ),
  };
}

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
      'Every endpoint answers GET and HEAD (POST /api/v1/match takes a peak list); other methods get 405, other paths 404. Answers carry a weak ETag of ' +
      'the dataset version. The dataset itself is downloadable under /shards/ (manifest.json and msgpack shards; ' +
      'format in shards/FORMAT.md).',
    license: { name: 'Data: CC BY 4.0 (UniProt)', url: 'https://creativecommons.org/licenses/by/4.0/' },
  },
  servers: [{ url: '/' }],
  tags: [{ name: 'search' }],
  paths: {
    ...Object.fromEntries(ENDPOINTS.map((e) => [e.path, e.method === 'GET' ? getOperations(e) : postOperations(e)])),
    [OPENAPI_PATH]: {
      get: {
        operationId: 'openapi',
        summary: 'This document',
        responses: {
          '200': {
            description: 'The OpenAPI document.',
            headers: commonHeaders,
            content: { 'application/json': { schema: { type: 'object' } } },
          },
        },
      },
      head: {
        operationId: 'openapiHead',
        summary: 'This document (headers only)',
        responses: { '200': { description: 'The OpenAPI document (no body).', headers: commonHeaders } },
      },
      ...Object.fromEntries(OTHER_METHODS.map((m) => [m, notAllowed('openapi', m)])),
    },
    '/{path}': {
      parameters: [{ name: 'path', in: 'path', required: true, schema: { type: 'string' } }],
      ...Object.fromEntries(
        ['get', 'head', ...OTHER_METHODS].map((m) => [
          m,
          {
            operationId: `unknownPath${capital(m)}`,
            summary: 'Any other path, any method',
            responses: { '404': responseRef('NotFound') },
          },
        ]),
      ),
    },
  },
  components: {
    schemas: answerSchemas(),
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
  return (
    methodNotAllowed(method) ??
    jsonAnswer(200, openapiDocument(), { 'Cache-Control': ANSWER_CACHE_CONTROL }, method === 'HEAD')
  );
}

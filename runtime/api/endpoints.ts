// The API's endpoints as data, one row each: its path and method, its command on the command line, its parameter
// table (checked in this order), how it parses a query and runs it on the core, its renderers by output format,
// and what the OpenAPI document says of it. The handler, the CLI, the OpenAPI document and the page read these
// rows: an endpoint is a row, its operation and its renderers.
import { datasetInfo, dbInfo } from '../core/lookup/info.js';
import { runPeptideLookup, type PeptideQuery, type PeptideResult } from '../core/lookup/peptideLookup.js';
import { runTaxaQuery, type TaxaQuery, type TaxaResult } from '../core/lookup/taxa.js';
import { matchPrecursors, type MatchBatch } from '../core/match/match.js';
import type { PrecursorResult } from '../core/precursor/precursor.js';
import { searchPrecursor } from '../core/precursor/precursorSearch.js';
import { runQuery, type QueryResult, type RangeQuery } from '../core/range/search.js';
import type { Dataset } from '../core/storage/dataset.js';
import type { Manifest } from '../model/format.js';
import { AsciiWriter } from './asciiWriter.js';
import type { Call } from './call.js';
import { cachedCompleteHeads } from './completeHeads.js';
import { cachedEntryJson, type EntryShape } from './entryJson.js';
import { renderJson } from './envelope.js';
import { PEPTIDE_PARAMS, parsePeptideQuery, parseTaxaQuery, TAXA_PARAMS } from './lookupParams.js';
import { PEPTIDE_TSV_HEADER, peptideJson, peptideRows, TAXA_TSV_HEADER, taxaJson, taxaRows } from './lookupJson.js';
import { matchAnswerJson, MatchSummary, precursorJson } from './matchJson.js';
import {
  MATCH_BODY,
  MATCH_PARAMS,
  MAX_MATCH_SCANNED,
  parseMatchQuery,
  readMatchBody,
  type MatchCall,
} from './matchParams.js';
import { matchTsvHeader, writePrecursorRows } from './matchTsv.js';
import { identifyAll, type Identification } from '../core/identify/identification.js';
import {
  IDENTIFY_BODY,
  IDENTIFY_PARAMS,
  parseIdentifyQuery,
  readIdentifyBody,
  type IdentifyCall,
} from './identifyParams.js';
import { identificationJson } from './identifyJson.js';
import type { Fingerprint } from '../core/fingerprint/fingerprint.js';
import {
  FINGERPRINT_BODY,
  FINGERPRINT_PARAMS,
  parseFingerprintQuery,
  type FingerprintCall,
  MAX_FINGERPRINT_SCANNED,
} from './fingerprintParams.js';
import { fingerprintAnswerJson } from './fingerprintJson.js';
import { FINGERPRINT_TSV_HEADER, fingerprintRows } from './fingerprintTsv.js';
import { PSM_TSV_HEADER, psmTsvRow } from './identifyColumns.js';
import { formatDuration } from './envelope.js';
import type { UnknownParams } from './paramNames.js';
import type { Param, ParamSource } from './params.js';
import { parsePrecursorQuery, PRECURSOR_PARAMS, type SearchQuery } from './precursorParams.js';
import { answerIsotopes } from './isotopeAnswer.js';
import { ISOTOPE_TSV_HEADER, isotopeRows, renderIsotopeJson, type IsotopeAnswer } from './isotopeJson.js';
import {
  PRECURSOR_TSV_HEADER,
  precursorRows,
  renderPrecursorJson,
  renderPrecursorProteinsJson,
  withProteins,
  type PrecursorProteinsResult,
} from './precursorJson.js';
import {
  massRangeParams,
  pagingParams,
  parseRangeQuery,
  peptideParam,
  PROTEINS_PARAM,
  wantsProteins,
} from './rangeParams.js';
import { groupRows, TSV_HEADER, tsvRow } from './tsv.js';

/** Where the API's OpenAPI document is served (openapi.ts writes it). */
export const OPENAPI_PATH = '/openapi.json';

export type { EntryShape, RangeQuery };

/** A result's paging, for summaries. */
export interface Paged {
  totalResult: number;
  page: number;
  pageSize: number;
}

/** The output formats: `json` is the API's answer; the command line writes any (`--format`). */
export type Format = 'json' | 'tsv';

/** A result in one format; `started` (performance.now()) times the answer, `memory` fills its `memory` field. */
export type Renderer<Q, R> = (
  dataset: Dataset,
  query: Q,
  result: R,
  started: number,
  memory: () => string,
) => Uint8Array<ArrayBuffer> | string;

export interface Endpoint<Q = unknown, R = Paged> {
  path: string;
  /**
   * GET: answers GET and HEAD, cached by dataset version (ETag). POST: reads a request body (readBody), never
   * cached; OPTIONS answers browsers' preflight. Any other method is a 405.
   */
  method: 'GET' | 'POST';
  /** Its name on the command line (`npm run query -- <command>`). */
  command: string;
  summary: string;
  /** What a success holds: the OpenAPI response's description and its schema's name under components.schemas. */
  answer: { description: string; schema: string };
  /** How its entries write a peptide's accessions. */
  entries: EntryShape;
  /** Status for a page or pageSize that is not an integer (the contract we reproduce says 500 on one). */
  notIntegerStatus: 400 | 500;
  params: readonly Param[];
  /**
   * A parameter its table does not list: refused (ours), or refused only when it is a near-miss of a listed one (the
   * compatible endpoints: that service's clients may send parameters of their own).
   */
  unknownParams: UnknownParams;
  /** The query its parameters ask for; throws QueryError (with the contract's status) otherwise. */
  parse(source: ParamSource): Q;
  /** POST: the query completed by the request body (read before the dataset is opened). */
  readBody?(query: Q, call: Call): Promise<Q>;
  /** POST: the request body as the OpenAPI document describes it, what is refused with 413, what a 405 says to post. */
  body?: { description: string; content: Record<string, unknown>; tooLarge: string; posted?: string };
  run(dataset: Dataset, query: Q): Promise<R>;
  /** One renderer per output format: a new format is a renderer. */
  renderers: Record<Format, Renderer<Q, R>>;
  /** The format a query asks its answer in, for an endpoint with a `format` parameter (others answer JSON). */
  formatOf?(query: Q): Format;
  /** Whether results are pages of mass groups (Paged: the command line sums up a TSV page on stderr). */
  paged: boolean;
}

/** A row of the table: its query and result types checked where it is written, not where it is read. */
const row = <Q, R>(endpoint: Endpoint<Q, R>) => endpoint as unknown as Endpoint;

/** A mass-range endpoint of the service we reproduce: one page of mass groups, its entries in `entries`' shape. */
function rangeEndpoint(
  endpoint: Pick<Endpoint, 'path' | 'command' | 'summary' | 'entries' | 'notIntegerStatus' | 'params'>,
): Endpoint {
  const self: Endpoint<RangeQuery, QueryResult> = {
    ...endpoint,
    method: 'GET',
    unknownParams: 'nearMisses',
    answer: {
      description: 'One page of the mass groups in the range, in ascending mass.',
      schema: endpoint.entries === 'acc' ? 'EnvelopeAcc' : 'EnvelopeAccsTax',
    },
    parse: (source) => parseRangeQuery(self, source),
    run: runQuery,
    renderers: {
      json: (dataset, _query, result, started, memory) =>
        renderJson(dataset, result, endpoint.entries, started, memory),
      tsv: (_dataset, _query, result) =>
        TSV_HEADER + result.groups.map((group) => groupRows(group, result.accessions)).join(''),
    },
    paged: true,
  };
  return row(self);
}

/** A precursor query, and whether its answer lists each accession's protein (`proteins=true`). */
type PrecursorCall = SearchQuery & { proteins: boolean };

/** What /api/v1/search finds: one window's groups (with proteins or not), or with isotope errors the answer's page. */
type PrecursorFound = PrecursorResult | PrecursorProteinsResult | IsotopeAnswer;

const precursorEndpoint: Endpoint<PrecursorCall, PrecursorFound> = {
  unknownParams: 'refuse',
  path: '/api/v1/search',
  method: 'GET',
  command: 'v1',
  summary:
    'Precursor search: peptides whose modified mass is in the window of a precursor (m/z and charge, or mass), with fixed and variable modifications',
  answer: {
    description:
      'One page of the mass groups in the window, in ascending modified mass (with isotopeErrors: window by window, in the order given).',
    schema: 'EnvelopePrecursor',
  },
  entries: 'accsTax',
  notIntegerStatus: 400,
  params: [...PRECURSOR_PARAMS, PROTEINS_PARAM],
  parse: (source) => ({ ...parsePrecursorQuery(source), proteins: wantsProteins(source) }),
  run: async (dataset, query) => {
    if (query.isotopes) return answerIsotopes(dataset, query, query.isotopes, query.proteins);
    const result = await searchPrecursor(dataset, query);
    return query.proteins ? withProteins(dataset, result) : result;
  },
  renderers: {
    json: (dataset, query, result, started, memory) =>
      'result' in result
        ? renderIsotopeJson(result, started, memory)
        : 'proteins' in result
          ? renderPrecursorProteinsJson(query, result, started, memory)
          : renderPrecursorJson(
              query,
              result,
              started,
              memory,
              (shard) => cachedEntryJson(dataset, shard, 'accsTax'),
              (shard) =>
                result.completeView === undefined
                  ? undefined
                  : cachedCompleteHeads(dataset, result.completeView, shard, query.fixed, query.variable),
            ),
    tsv: (_dataset, query, result) =>
      'result' in result
        ? ISOTOPE_TSV_HEADER + isotopeRows(result)
        : PRECURSOR_TSV_HEADER + precursorRows(query, result),
  },
  paged: true,
};

const peptideEndpoint: Endpoint<PeptideQuery, PeptideResult> = {
  unknownParams: 'refuse',
  path: '/api/v1/peptide',
  method: 'GET',
  command: 'peptide',
  summary:
    'Peptide → proteins: the proteins (accessions, reviewed, names, organisms) that contain this exact peptide, optionally with I and L equated, and the lowest common ancestor of their organisms',
  answer: {
    description: 'The stored peptides equal to the sequence, with their proteins, and the LCA of their organisms.',
    schema: 'PeptideProteins',
  },
  entries: 'accsTax',
  notIntegerStatus: 400,
  params: PEPTIDE_PARAMS,
  parse: parsePeptideQuery,
  run: runPeptideLookup,
  renderers: {
    json: (_dataset, _query, result) => peptideJson(result),
    tsv: (_dataset, query, result) => PEPTIDE_TSV_HEADER + peptideRows(query, result),
  },
  paged: false,
};

const taxaEndpoint: Endpoint<TaxaQuery, TaxaResult> = {
  unknownParams: 'refuse',
  path: '/api/v1/taxa',
  method: 'GET',
  command: 'taxa',
  summary: "Taxa of the dataset's taxonomy by name (prefix or word match), with rank and peptide count: for type-ahead",
  answer: { description: 'The taxa whose name matches, best first.', schema: 'Taxa' },
  entries: 'acc',
  notIntegerStatus: 400,
  params: TAXA_PARAMS,
  parse: parseTaxaQuery,
  run: runTaxaQuery,
  renderers: {
    json: (_dataset, _query, result) => taxaJson(result),
    tsv: (_dataset, query, result) => TAXA_TSV_HEADER + taxaRows(query, result),
  },
  paged: false,
};

/** An endpoint that describes the dataset from its manifest: JSON as given, TSV as `name<TAB>value` rows. */
function describeEndpoint(
  endpoint: Pick<Endpoint, 'path' | 'command' | 'summary' | 'unknownParams'>,
  schema: string,
  describe: (manifest: Manifest) => object,
): Endpoint {
  const rows = (value: object, prefix = ''): string =>
    Object.entries(value)
      .map(([k, v]) => (v !== null && typeof v === 'object' ? rows(v, `${prefix}${k}.`) : tsvRow([`${prefix}${k}`, v])))
      .join('');
  return row<null, Paged & { value: object }>({
    ...endpoint,
    method: 'GET',
    answer: { description: "The dataset's description (from its manifest).", schema },
    entries: 'acc',
    notIntegerStatus: 400,
    params: [],
    parse: () => null,
    run: async (dataset) => ({ totalResult: 1, page: 1, pageSize: 1, value: describe(dataset.manifest) }),
    renderers: {
      json: (_dataset, _query, result) => JSON.stringify(result.value),
      tsv: (_dataset, _query, result) => 'name\tvalue\n' + rows(result.value),
    },
    paged: false,
  });
}

/** POST /api/v1/match: every precursor of a peak list (MGF) or a JSON list, searched as /api/v1/search searches it. */
const matchEndpoint: Endpoint<MatchCall, MatchBatch> = {
  unknownParams: 'refuse',
  path: '/api/v1/match',
  method: 'POST',
  command: 'match',
  summary: 'Every precursor of a peak list, as /api/v1/search answers it (all its candidates)',
  answer: { description: 'Every precursor with its searches and candidates.', schema: 'MatchAnswer' },
  entries: 'accsTax',
  notIntegerStatus: 400,
  params: MATCH_PARAMS,
  parse: (source) => ({ match: parseMatchQuery(source), precursors: [], malformed: [] }),
  readBody: async (query, call) => ({ ...query, ...(await readMatchBody(call)) }),
  body: MATCH_BODY,
  run: (dataset, query) => matchPrecursors(dataset, query.match, query.precursors, { maxScanned: MAX_MATCH_SCANNED }),
  renderers: {
    json: (_dataset, query, batch, started, memory) => {
      const summary = new MatchSummary();
      summary.malformed = query.malformed;
      const results = query.precursors.map((_, i) => precursorJson(batch, i));
      for (const json of results) summary.count(json.searches);
      return matchAnswerJson(results, summary, started, memory);
    },
    tsv: (_dataset, query, batch) => {
      const w = new AsciiWriter();
      w.write(matchTsvHeader(query.match));
      query.precursors.forEach((_, i) => writePrecursorRows(w, batch, i));
      return w.takeBytes();
    },
  },
  paged: false,
};

/** POST /api/v1/identify: the spectra of a peak list scored against their candidates, with target-decoy FDR. */
const identifyEndpoint: Endpoint<IdentifyCall, Identification> = {
  unknownParams: 'refuse',
  path: '/api/v1/identify',
  method: 'POST',
  command: 'identify',
  summary: 'Peptides identified from MS/MS spectra: scored PSMs, q-values, proteins and organisms',
  answer: {
    description: 'The PSMs with their q-values, the counts at 1 % FDR and the taxon table.',
    schema: 'IdentifyAnswer',
  },
  entries: 'accsTax',
  notIntegerStatus: 400,
  params: IDENTIFY_PARAMS,
  parse: (source) => ({ identify: parseIdentifyQuery(source), spectra: [], malformed: [] }),
  readBody: async (query, call) => ({ ...query, ...(await readIdentifyBody(call)) }),
  body: IDENTIFY_BODY,
  run: async (dataset, query) => {
    const items = query.spectra.map((spectrum) => ({ spectrum }));
    const result = await identifyAll(dataset, query.identify, asAsync(items), { maxScanned: MAX_MATCH_SCANNED });
    return { ...result, malformed: query.malformed };
  },
  renderers: {
    json: (_dataset, _query, result, started, memory) =>
      JSON.stringify({
        ...identificationJson(result, 'request'),
        memory: memory(),
        duration: formatDuration(performance.now() - started),
      }),
    tsv: (_dataset, _query, result) =>
      PSM_TSV_HEADER + result.psms.map((psm, i) => psmTsvRow(psm, { filename: 'request', id: i + 1 })).join(''),
  },
  paged: false,
};

/** POST /api/v1/fingerprint: the proteins and organisms that explain each peak list of a file. */
const fingerprintEndpoint: Endpoint<FingerprintCall, Fingerprint[]> = {
  unknownParams: 'refuse',
  path: '/api/v1/fingerprint',
  method: 'POST',
  command: 'fingerprint',
  summary:
    'Peptide mass fingerprinting: the proteins and organisms whose peptides explain the peaks of each peak list, scored by the chance of doing so at random',
  answer: {
    description: 'One fingerprint per peak list of the body, in its order (TSV with format=tsv).',
    schema: 'FingerprintAnswer',
  },
  entries: 'accsTax',
  notIntegerStatus: 400,
  params: FINGERPRINT_PARAMS,
  parse: (source) => ({ ...parseFingerprintQuery(source), lists: [] }),
  readBody: async (asked, call) => {
    const { readFingerprintBody } = await import('./fingerprintOperation.js');
    return { ...asked, lists: await readFingerprintBody(call, asked.query) };
  },
  body: FINGERPRINT_BODY,
  run: async (dataset, { query, lists }) => {
    // Loaded when first asked for, like the OpenAPI document: the page opens without fingerprinting's code.
    const { runFingerprint } = await import('./fingerprintOperation.js');
    return runFingerprint(dataset, query, lists, { maxScanned: MAX_FINGERPRINT_SCANNED });
  },
  renderers: {
    json: (_dataset, _query, lists, started, memory) => fingerprintAnswerJson(lists, started, memory),
    tsv: (_dataset, _query, lists) => FINGERPRINT_TSV_HEADER + fingerprintRows(lists),
  },
  formatOf: (call) => call.format,
  paged: false,
};

/** The items of an array as an async iterable. */
async function* asAsync<T>(items: readonly T[]): AsyncGenerator<T> {
  yield* items;
}

/** Every endpoint: the three of the service we reproduce first, then ours; the POST endpoints last. */
export const ENDPOINTS: readonly Endpoint[] = [
  rangeEndpoint({
    path: '/search.php',
    command: 'search',
    summary: "Peptides in a mass range (or of a peptide's mass), with their accessions",
    entries: 'acc',
    notIntegerStatus: 400,
    params: [peptideParam(false), ...massRangeParams(false), ...pagingParams(10, 400)],
  }),
  rangeEndpoint({
    path: '/search-peptide.php',
    command: 'search-peptide',
    summary: 'Peptides of the same mass as a given peptide, with their accessions',
    entries: 'acc',
    notIntegerStatus: 500,
    // Paging is checked before the peptide, as the service we reproduce does.
    params: [...pagingParams(1000, 500), peptideParam(true)],
  }),
  rangeEndpoint({
    path: '/search-taxonomy.php',
    command: 'search-taxonomy',
    summary: 'Peptides in a mass range, with their accessions and NCBI taxonomy IDs',
    entries: 'accsTax',
    notIntegerStatus: 400,
    params: [...massRangeParams(true), ...pagingParams(1000, 400)],
  }),
  row(precursorEndpoint),
  row(peptideEndpoint),
  row(taxaEndpoint),
  describeEndpoint(
    {
      path: '/db-info.php',
      command: 'db-info',
      unknownParams: 'nearMisses',
      summary: "The dataset's build properties as the original service's /db-info gives them: a JSON object of strings",
    },
    'DbInfo',
    dbInfo,
  ),
  describeEndpoint(
    {
      path: '/api/v1/info',
      command: 'info',
      unknownParams: 'refuse',
      summary: 'What the dataset is: its version, build parameters, totals, release and input files',
    },
    'DatasetInfo',
    datasetInfo,
  ),
  row(matchEndpoint),
  row(identifyEndpoint),
  row(fingerprintEndpoint),
];

/** The endpoints answered with GET and HEAD (the queries of a page, the command line's endpoint commands). */
export const GET_ENDPOINTS: readonly Endpoint[] = ENDPOINTS.filter((e) => e.method === 'GET');

/** The endpoint whose command-line name is `command`. */
export const endpointByCommand = (command: string) => ENDPOINTS.find((e) => e.command === command);

/** The endpoint at `path`. */
export const endpointAt = (path: string) => ENDPOINTS.find((e) => e.path === path);

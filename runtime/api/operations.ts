// What each kind of endpoint does, as one record: parse its parameters (by its table), run the query on the
// core, and render the result as the API's JSON or as TSV. The handler and the CLI both go through these.
import type { Dataset } from '../core/storage/dataset.js';
import { parseRangeQuery, wantsProteins, type Endpoint } from '../core/endpoints.js';
import type { ParamSource } from '../core/params.js';
import type { PrecursorQuery, PrecursorResult } from '../core/precursor/precursor.js';
import { searchPrecursor } from '../core/precursor/precursorSearch.js';
import { parsePrecursorQuery } from '../core/precursor/precursorQuery.js';
import { runQuery } from '../core/range/search.js';
import {
  parsePeptideQuery,
  runPeptideLookup,
  type PeptideQuery,
  type PeptideResult,
} from '../core/lookup/peptideLookup.js';
import { parseTaxaQuery, runTaxaQuery, type TaxaQuery, type TaxaResult } from '../core/lookup/taxa.js';
import { PEPTIDE_TSV_HEADER, peptideJson, peptideRows, TAXA_TSV_HEADER, taxaJson, taxaRows } from './lookupJson.js';
import { datasetInfo, dbInfo } from '../core/lookup/info.js';
import type { Manifest } from '../model/format.js';
import { renderJson } from './envelope.js';
import { cachedCompleteHeads } from './completeHeads.js';
import { cachedEntryJson } from './entryJson.js';
import {
  PRECURSOR_TSV_HEADER,
  precursorRows,
  renderPrecursorJson,
  renderPrecursorProteinsJson,
  withProteins,
  type PrecursorProteinsResult,
} from './precursorJson.js';
import { groupRows, TSV_HEADER } from './tsv.js';

/** A result's paging, for summaries. */
export interface Paged {
  totalResult: number;
  page: number;
  pageSize: number;
}

export interface Operation<Q = unknown, R extends Paged = Paged> {
  parse(source: ParamSource): Q;
  run(dataset: Dataset, query: Q): Promise<R>;
  /** The success body; `started` (performance.now()) times the answer, `memory` fills its `memory` field. */
  json(dataset: Dataset, query: Q, result: R, started: number, memory: () => string): Uint8Array<ArrayBuffer> | string;
  tsvHeader: string;
  tsvRows(query: Q, result: R): string;
  /** Whether results are pages of mass groups (the CLI then sums up a TSV page on stderr). */
  paged: boolean;
}

function rangeOperation(
  endpoint: Endpoint,
): Operation<ReturnType<typeof parseRangeQuery>, Awaited<ReturnType<typeof runQuery>>> {
  return {
    parse: (source) => parseRangeQuery(endpoint, source),
    run: runQuery,
    json: (dataset, _query, result, started, memory) => renderJson(dataset, result, endpoint.entries, started, memory),
    tsvHeader: TSV_HEADER,
    tsvRows: (_query, result) => result.groups.map((group) => groupRows(group, result.accessions)).join(''),
    paged: true,
  };
}

/** A precursor query, and whether its answer lists each accession's protein (`proteins=true`). */
type PrecursorCall = PrecursorQuery & { proteins: boolean };

const precursorOperation: Operation<PrecursorCall, PrecursorResult | PrecursorProteinsResult> = {
  parse: (source) => ({ ...parsePrecursorQuery(source), proteins: wantsProteins(source) }),
  run: async (dataset, query) => {
    const result = await searchPrecursor(dataset, query);
    return query.proteins ? withProteins(dataset, result) : result;
  },
  json: (dataset, query, result, started, memory) =>
    'proteins' in result
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
  tsvHeader: PRECURSOR_TSV_HEADER,
  tsvRows: precursorRows,
  paged: true,
};

const peptideOperation: Operation<PeptideQuery, PeptideResult> = {
  parse: parsePeptideQuery,
  run: runPeptideLookup,
  json: (_dataset, _query, result) => peptideJson(result),
  tsvHeader: PEPTIDE_TSV_HEADER,
  tsvRows: peptideRows,
  paged: false,
};

const taxaOperation: Operation<TaxaQuery, TaxaResult> = {
  parse: parseTaxaQuery,
  run: runTaxaQuery,
  json: (_dataset, _query, result) => taxaJson(result),
  tsvHeader: TAXA_TSV_HEADER,
  tsvRows: taxaRows,
  paged: false,
};

/** An operation that describes the dataset from its manifest: JSON as given, TSV as `name<TAB>value` rows. */
function describeOperation(describe: (manifest: Manifest) => object): Operation<null, Paged & { value: object }> {
  const rows = (value: object, prefix = ''): string =>
    Object.entries(value)
      .map(([k, v]) =>
        v !== null && typeof v === 'object' ? rows(v, `${prefix}${k}.`) : `${prefix}${k}\t${v ?? ''}\n`,
      )
      .join('');
  return {
    parse: () => null,
    run: async (dataset) => ({ totalResult: 1, page: 1, pageSize: 1, value: describe(dataset.manifest) }),
    json: (_dataset, _query, result) => JSON.stringify(result.value),
    tsvHeader: 'name\tvalue\n',
    tsvRows: (_query, result) => rows(result.value),
    paged: false,
  };
}

/** The operation of an endpoint. */
export function operationOf(endpoint: Endpoint): Operation {
  const operations: Record<Endpoint['kind'], () => unknown> = {
    range: () => rangeOperation(endpoint),
    precursor: () => precursorOperation,
    peptide: () => peptideOperation,
    taxa: () => taxaOperation,
    dbInfo: () => describeOperation(dbInfo),
    info: () => describeOperation(datasetInfo),
  };
  return operations[endpoint.kind]() as Operation;
}

// What each kind of endpoint does, as one record: parse its parameters (by its table), run the query on the
// core, and render the result as the API's JSON or as TSV. The handler and the CLI both go through these.
import type { Dataset } from '../core/dataset.js';
import { parseRangeQuery, type Endpoint } from '../core/endpoints.js';
import type { ParamSource } from '../core/params.js';
import { runPrecursorQuery, type PrecursorQuery, type PrecursorResult } from '../core/precursor.js';
import { parsePrecursorQuery } from '../core/precursorQuery.js';
import { runQuery } from '../core/search.js';
import { renderJson } from './envelope.js';
import { cachedEntryJson } from './entryJson.js';
import { PRECURSOR_TSV_HEADER, precursorRows, renderPrecursorJson } from './precursorJson.js';
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
}

function rangeOperation(endpoint: Endpoint): Operation<ReturnType<typeof parseRangeQuery>, Awaited<ReturnType<typeof runQuery>>> {
  return {
    parse: (source) => parseRangeQuery(endpoint, source),
    run: runQuery,
    json: (dataset, _query, result, started, memory) => renderJson(dataset, result, endpoint.entries, started, memory),
    tsvHeader: TSV_HEADER,
    tsvRows: (_query, result) => result.groups.map(groupRows).join(''),
  };
}

const precursorOperation: Operation<PrecursorQuery, PrecursorResult> = {
  parse: parsePrecursorQuery,
  run: runPrecursorQuery,
  json: (dataset, query, result, started, memory) => renderPrecursorJson(query, result, started, memory, (shard) => cachedEntryJson(dataset, shard, 'accsTax')),
  tsvHeader: PRECURSOR_TSV_HEADER,
  tsvRows: precursorRows,
};

/** The operation of an endpoint. */
export function operationOf(endpoint: Endpoint): Operation {
  return (endpoint.kind === 'range' ? rangeOperation(endpoint) : precursorOperation) as Operation;
}

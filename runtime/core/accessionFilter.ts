// Which accessions a query keeps: those whose organism is one of a set of taxa or below one (in the dataset's
// taxonomy), and/or whose reviewed flag is a given one. Resolved once per query against the dataset, applied as
// a mask over the dataset's accession table (which every shard's ranks point into), memoized per filter.
import type { AccessionTable, Shard } from '../model/format.js';
import type { Taxonomy } from '../model/taxonomy.js';
import type { Dataset } from './dataset.js';
import { QueryError, type Param, type ParamValues } from './params.js';

/** What a query asks for (from `taxon` and `reviewed`); empty `taxa` and no `reviewed` keep everything. */
export interface FilterSpec {
  taxa: number[];
  reviewed?: boolean;
}

export const NO_FILTER: FilterSpec = { taxa: [] };

/** Most taxa one filter lists. */
export const MAX_FILTER_TAXA = 100;

/** The filter's parameter rows, shared by every endpoint that filters accessions. */
export const FILTER_PARAMS: readonly Param[] = [
  { name: 'taxon', kind: 'taxa', required: false, max: MAX_FILTER_TAXA, description: `NCBI taxIds, comma-separated (at most ${MAX_FILTER_TAXA}): keep accessions whose organism is one of them or a descendant in the dataset's taxonomy (2: Bacteria, 9606: Homo sapiens). An accession whose taxId has no lineage matches none.`, example: '9606' },
  { name: 'reviewed', kind: 'choice', required: false, choices: ['true', 'false'], description: 'true: keep UniProtKB/Swiss-Prot (reviewed) accessions only; false: TrEMBL (unreviewed) only.' },
];

/** The filter that FILTER_PARAMS' values ask for. */
export const filterOf = (values: ParamValues): FilterSpec => ({
  taxa: values.taxon as number[],
  ...(values.reviewed === undefined ? {} : { reviewed: values.reviewed === 'true' }),
});

/** A filter resolved against a dataset: a mask over the accession table of a shard, 1 for each accession kept. */
export interface AccessionFilter {
  mask(shard: Shard): Uint8Array;
}

/** Masks of the filters used most recently, per accession table (its accessionEnds identify it): at most this many. */
const MASKS_KEPT = 16;
const tableMasks = new WeakMap<Uint32Array, Map<string, Uint8Array>>();
const tableNodes = new WeakMap<Uint32Array, Int32Array>();

/** The filter of `spec` on `dataset`, undefined when it keeps everything; QueryError (400) when it cannot apply. */
export async function resolveFilter(dataset: Dataset, spec: FilterSpec): Promise<AccessionFilter | undefined> {
  if (spec.taxa.length === 0 && spec.reviewed === undefined) return undefined;
  if (spec.reviewed !== undefined && dataset.manifest.totals.reviewedAccessions === undefined) {
    throw new QueryError(400, 'reviewed: this dataset does not record which accessions are reviewed (rebuild it)');
  }
  let taxonomy: Taxonomy | undefined;
  let nodes: number[] = [];
  if (spec.taxa.length > 0) {
    taxonomy = await dataset.taxonomy();
    if (!taxonomy) throw new QueryError(400, 'taxon: this dataset has no taxonomy (it was built without --taxdump)');
    nodes = spec.taxa.map((taxId) => {
      const node = taxonomy!.nodeOf(taxId);
      if (node < 0) throw new QueryError(400, `taxon ${taxId} is not in the dataset's taxonomy`);
      return node;
    });
  }
  const key = `filter:${[...spec.taxa].sort((a, b) => a - b).join(',')}|${spec.reviewed ?? ''}`;
  const build = (table: AccessionTable) => {
    const mask = new Uint8Array(table.taxIds.length);
    const lineageNodes = taxonomy && taxonNodes(taxonomy, table);
    for (let a = 0; a < mask.length; a++) {
      const node = lineageNodes ? lineageNodes[a] : 0;
      const inTaxa = !taxonomy || (node >= 0 && nodes.some((t) => taxonomy.within(node, t)));
      mask[a] = inTaxa && (spec.reviewed === undefined || (table.reviewed[a] === 1) === spec.reviewed) ? 1 : 0;
    }
    return mask;
  };
  let last: { table: Uint32Array; mask: Uint8Array } | undefined; // this query's: every shard shares the table
  return {
    mask(shard) {
      if (last?.table === shard.accessionEnds) return last.mask;
      let masks = tableMasks.get(shard.accessionEnds);
      if (!masks) tableMasks.set(shard.accessionEnds, (masks = new Map()));
      let mask = masks.get(key);
      if (mask) masks.delete(key); // re-inserted below as the most recent
      else mask = build(shard);
      masks.set(key, mask);
      if (masks.size > MASKS_KEPT) masks.delete(masks.keys().next().value!);
      last = { table: shard.accessionEnds, mask };
      return mask;
    },
  };
}

/** Taxonomy node of each accession of the table (-1: no lineage), built once per table. */
function taxonNodes(taxonomy: Taxonomy, table: AccessionTable): Int32Array {
  let nodes = tableNodes.get(table.accessionEnds);
  if (!nodes) tableNodes.set(table.accessionEnds, (nodes = Int32Array.from(table.taxIds, (taxId) => taxonomy.nodeOf(taxId))));
  return nodes;
}

/** Whether peptide p of the shard keeps at least one accession. */
export function keepsAny(shard: Shard, mask: Uint8Array, p: number): boolean {
  for (let r = p === 0 ? 0 : shard.accessionRefEnds[p - 1], end = shard.accessionRefEnds[p]; r < end; r++) if (mask[shard.accessionRefs[r]] === 1) return true;
  return false;
}

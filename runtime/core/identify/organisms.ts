// The organisms of identified peptides, as Unipept's metaproteomics analysis gives them: each peptide assigned to
// the lowest common ancestor of its proteins' taxa, and a sample's taxon table — how many peptides each taxon was
// assigned, and how many it and every taxon below it were.
import type { Taxon, Taxonomy } from '../../model/taxonomy.js';

/** The lowest common ancestor node of `taxIds` (those the taxonomy holds), or -1 when it holds none. */
export function lcaNode(taxonomy: Taxonomy, taxIds: readonly number[]): number {
  return taxonomy.lca(taxIds.map((t) => taxonomy.nodeOf(t)).filter((node) => node >= 0));
}

/** One row of a taxon table: the taxon, its peptides assigned, and those assigned to it or below it. */
export interface TaxonRow extends Omit<Taxon, 'peptides'> {
  /** The parent's taxId (the root's is its own). */
  parent: number;
  assigned: number;
  within: number;
}

/**
 * The taxon table of peptides assigned to `nodes` (one node each; -1 for none, not counted): every taxon on the
 * lineage of an assigned one, by `within` descending, then taxId.
 */
export function taxonTable(taxonomy: Taxonomy, nodes: readonly number[]): TaxonRow[] {
  const assigned = new Map<number, number>();
  const within = new Map<number, number>();
  for (const node of nodes) {
    if (node < 0) continue;
    assigned.set(node, (assigned.get(node) ?? 0) + 1);
    for (let n = node; ; n = taxonomy.parents[n]) {
      within.set(n, (within.get(n) ?? 0) + 1);
      if (taxonomy.parents[n] === n) break;
    }
  }
  return [...within.keys()]
    .map((node): TaxonRow => {
      const { taxId, name, rank } = taxonomy.taxon(node);
      const parent = taxonomy.taxIds[taxonomy.parents[node]];
      return { taxId, name, rank, parent, assigned: assigned.get(node) ?? 0, within: within.get(node)! };
    })
    .sort((a, b) => b.within - a.within || a.taxId - b.taxId);
}

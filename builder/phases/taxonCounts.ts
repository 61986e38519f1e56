// Peptides per taxon, counted as the merge phase streams the distinct peptides: a peptide counts once for every
// taxonomy node that is the node, or an ancestor of the node, of at least one of its accessions; and, as specific to
// a taxon, for the lowest common ancestor of its accessions' nodes and every ancestor of it.
import { depthFirstOrder, lowestCommonAncestor } from '../../runtime/model/taxonomy.js';
import type { PartitionPeptides } from './partitions.js';

export class TaxonCounts {
  /** Peptides counted by walking their lineages (several accession nodes), by node. */
  private readonly walked: Float64Array;
  /** Peptides whose accessions all sit on one node, by that node: added to it and its ancestors at the end. */
  private readonly direct: Float64Array;
  /** The last peptide (stamp) that counted each node: a node counts once per peptide. */
  private readonly stamps: Float64Array;
  private stamp = 0;
  /** Peptides by the lowest common ancestor of their accessions' nodes: added to its ancestors at the end. */
  private readonly lowest: Float64Array;
  private readonly depths: Uint16Array;

  /**
   * @param parents index of each node's parent; the root's is its own.
   * @param nodeOfRank the taxonomy node of each accession rank, -1 when it has no lineage.
   */
  constructor(
    private readonly parents: Int32Array,
    private readonly nodeOfRank: Int32Array,
  ) {
    this.walked = new Float64Array(parents.length);
    this.direct = new Float64Array(parents.length);
    this.stamps = new Float64Array(parents.length);
    this.lowest = new Float64Array(parents.length);
    this.depths = depthFirstOrder(parents).depths;
  }

  /** Counts a partition's peptides (each distinct peptide must be added once). */
  add(part: PartitionPeptides): void {
    const { rankEnds, ranks } = part;
    for (let p = 0, start = 0; p < rankEnds.length; start = rankEnds[p++]) {
      let only = -1;
      let several = false;
      for (let r = start; r < rankEnds[p]; r++) {
        const node = this.nodeOfRank[ranks[r]];
        if (node < 0 || node === only) continue;
        if (only >= 0) {
          several = true;
          break;
        }
        only = node;
      }
      if (only < 0) continue;
      if (!several) {
        this.direct[only]++;
        this.lowest[only]++;
        continue;
      }
      this.lowest[this.lcaOf(ranks, start, rankEnds[p])]++;
      // The union of the accessions' lineages: stop where this peptide already counted (the rest is counted too).
      const stamp = ++this.stamp;
      for (let r = start; r < rankEnds[p]; r++) {
        for (
          let node = this.nodeOfRank[ranks[r]];
          node >= 0 && this.stamps[node] !== stamp;
          node = this.parents[node]
        ) {
          this.stamps[node] = stamp;
          this.walked[node]++;
          if (this.parents[node] === node) break;
        }
      }
    }
  }

  /** Peptides per node: those with at least one accession whose node is this node or a descendant of it. */
  counts(): number[] {
    return this.upwards(this.direct, Array.from(this.walked));
  }

  /** Peptides per node whose accessions' lowest common ancestor is this node or a descendant of it. */
  specific(): number[] {
    return this.upwards(this.lowest, new Array<number>(this.parents.length).fill(0));
  }

  /** `total` with each node's count in `own` added to it and to every ancestor of it. */
  private upwards(own: Float64Array, total: number[]): number[] {
    own.forEach((n, node) => {
      if (n === 0) return;
      for (let j = node; ; j = this.parents[j]) {
        total[j] += n;
        if (this.parents[j] === j) break;
      }
    });
    return total;
  }

  /** The lowest common ancestor of the nodes of ranks[from..to) (those with a lineage). */
  private lcaOf(ranks: Uint32Array, from: number, to: number): number {
    let common = -1;
    for (let r = from; r < to; r++) {
      const node = this.nodeOfRank[ranks[r]];
      if (node >= 0) common = common < 0 ? node : lowestCommonAncestor(this.parents, this.depths, node, common);
    }
    return common;
  }
}

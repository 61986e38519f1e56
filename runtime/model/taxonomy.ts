// The dataset's NCBI taxonomy as a tree to ask questions of: a taxId's node, whether one node descends from
// another (by its interval in a depth-first order), the accession ranks of a subtree, lineages, the lowest common
// ancestor, and name search. Built from the taxonomy file (format.ts TaxonomyFile), whose structure it checks.
import { subtreeRanks, type SubtreeRanks } from './accessionOrder.js';
import type { TaxonomyFile } from './format.js';

/** One node as answers show it. */
export interface Taxon {
  taxId: number;
  name: string;
  rank: string;
  /** Distinct peptides with an accession in this node's subtree. */
  peptides: number;
}

/** Most taxa a name search returns. */
export const MAX_TAXA = 20;

export class Taxonomy {
  /** Ascending: a node is an index here. */
  readonly taxIds: Int32Array;
  /** Parent node of each node; the root's is itself. */
  readonly parents: Int32Array;
  readonly depths: Uint16Array;
  /** Node i's subtree is exactly the nodes whose `enter` lies in [enter[i], exit[i]). */
  private enter: Int32Array;
  private exit: Int32Array;
  /** Scientific names lower-cased, for search. */
  private folded: string[];
  /** The accession ranks of each subtree, once asked for (they depend on the dataset's reviewed accessions). */
  private ranks: { reviewedTotal: number; of: (node: number) => SubtreeRanks } | undefined;

  constructor(private file: TaxonomyFile) {
    const n = file.taxIds.length;
    const columns = [
      file.parents,
      file.ranks,
      file.names,
      file.peptides,
      file.reviewedAccessions,
      file.unreviewedAccessions,
    ];
    if (n === 0 || columns.some((c) => !Array.isArray(c) || c.length !== n))
      throw new Error('taxonomy columns are missing or differ in length');
    if (
      file.specificPeptides !== undefined &&
      (!Array.isArray(file.specificPeptides) || file.specificPeptides.length !== n)
    )
      throw new Error('taxonomy specificPeptides differs in length');
    this.taxIds = Int32Array.from(file.taxIds);
    for (let i = 1; i < n; i++)
      if (!(this.taxIds[i - 1] < this.taxIds[i])) throw new Error('taxonomy taxIds are not ascending');
    this.parents = Int32Array.from(file.parents, (taxId) => {
      const node = this.nodeOf(taxId);
      if (node < 0) throw new Error(`taxonomy parent ${taxId} is not a node`);
      return node;
    });
    for (const counts of [file.reviewedAccessions, file.unreviewedAccessions]) {
      if (!counts.every((c) => Number.isInteger(c) && c >= 0))
        throw new Error('taxonomy accession counts are not whole numbers');
    }
    const { depths, enter, exit } = depthFirstOrder(this.parents);
    [this.depths, this.enter, this.exit] = [depths, enter, exit];
    this.folded = file.names.map((name) => String(name).toLowerCase());
  }

  get size(): number {
    return this.taxIds.length;
  }

  /** Node of a taxId, or -1 when the taxonomy does not hold it. */
  nodeOf(taxId: number): number {
    let [lo, hi] = [0, this.taxIds.length];
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.taxIds[mid] < taxId) lo = mid + 1;
      else hi = mid;
    }
    return lo < this.taxIds.length && this.taxIds[lo] === taxId ? lo : -1;
  }

  /**
   * The accession ranks of node's subtree (accessionOrder.ts): an accession matches the taxon exactly when its rank
   * lies in one of the two intervals. `reviewedTotal`: the dataset's reviewed accessions (manifest totals).
   */
  subtreeRanks(node: number, reviewedTotal: number): SubtreeRanks {
    if (this.ranks?.reviewedTotal !== reviewedTotal) {
      this.ranks = {
        reviewedTotal,
        of: subtreeRanks(
          this.enter,
          this.exit,
          this.file.reviewedAccessions,
          this.file.unreviewedAccessions,
          reviewedTotal,
        ),
      };
    }
    return this.ranks.of(node);
  }

  /** Whether node `node` is `ancestor` or lies below it. */
  within(node: number, ancestor: number): boolean {
    return this.enter[ancestor] <= this.enter[node] && this.enter[node] < this.exit[ancestor];
  }

  /** The deepest node on the lineage of every node given (-1 for none). */
  lca(nodes: Iterable<number>): number {
    let common = -1;
    for (const node of nodes)
      common = common < 0 ? node : lowestCommonAncestor(this.parents, this.depths, node, common);
    return common;
  }

  /**
   * Distinct peptides found only at or below node: all its accessions' lowest common ancestor lies there (a dataset
   * built before they were counted gives every peptide with an accession there, an upper bound).
   */
  specificPeptides(node: number): number {
    return (this.file.specificPeptides ?? this.file.peptides)[node];
  }

  taxon(node: number): Taxon {
    return {
      taxId: this.taxIds[node],
      name: this.file.names[node],
      rank: this.file.ranks[node],
      peptides: this.file.peptides[node],
    };
  }

  /**
   * Every name from its start and from each of its words' starts, sorted (code units), with its node: the names that
   * start with a text, or have a word that does, are those of one run of this list. Made at the first search.
   */
  private pieces: { texts: string[]; nodes: Int32Array } | undefined;

  /** The nodes whose folded name, or a word of it, starts with `q` (non-empty), each once, in no order. */
  private holding(q: string): Set<number> {
    if (!this.pieces) {
      const all: { text: string; node: number }[] = [];
      this.folded.forEach((name, node) => {
        all.push({ text: name, node });
        for (let at = 1; at < name.length; at++)
          if (!WORD_CHARACTER.test(name[at - 1])) all.push({ text: name.slice(at), node });
      });
      all.sort((a, b) => (a.text < b.text ? -1 : a.text > b.text ? 1 : 0));
      this.pieces = { texts: all.map((p) => p.text), nodes: Int32Array.from(all, (p) => p.node) };
    }
    const { texts, nodes } = this.pieces;
    let [lo, hi] = [0, texts.length];
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (texts[mid] < q) lo = mid + 1;
      else hi = mid;
    }
    const found = new Set<number>();
    for (let i = lo; i < texts.length && texts[i].startsWith(q); i++) found.add(nodes[i]);
    return found;
  }

  /**
   * Nodes whose scientific name starts with `query` (case-insensitive), or has a word that does (a word starts
   * after any character that is not a letter or digit): the exact name first, then name prefixes, then word
   * prefixes; within each, most peptides first, then by name and taxId. At most `limit`.
   */
  search(query: string, limit = MAX_TAXA): Taxon[] {
    const q = query.trim().toLowerCase();
    const found: { node: number; tier: number }[] = [];
    for (const node of q === '' ? this.folded.keys() : this.holding(q)) {
      const name = this.folded[node];
      const tier = name === q ? 0 : name.startsWith(q) ? 1 : wordStartsWith(name, q) ? 2 : -1;
      if (tier >= 0) found.push({ node, tier });
    }
    const { names, peptides } = this.file;
    found.sort(
      (a, b) =>
        a.tier - b.tier ||
        peptides[b.node] - peptides[a.node] ||
        (names[a.node] < names[b.node] ? -1 : names[a.node] > names[b.node] ? 1 : 0) ||
        a.node - b.node,
    );
    return found.slice(0, limit).map(({ node }) => this.taxon(node));
  }
}

const WORD_CHARACTER = /[\p{L}\p{N}]/u;

/** Whether a word of `name` after its first (one that follows a character that is not a letter or digit) starts with `q`. */
function wordStartsWith(name: string, q: string): boolean {
  for (let at = name.indexOf(q, 1); at > 0; at = name.indexOf(q, at + 1)) {
    if (!WORD_CHARACTER.test(name[at - 1])) return true;
  }
  return false;
}

/** The deepest node on the lineages of nodes `a` and `b` (`parents` and `depths` as depthFirstOrder gives them). */
export function lowestCommonAncestor(parents: Int32Array, depths: Uint16Array, a: number, b: number): number {
  while (depths[a] > depths[b]) a = parents[a];
  while (depths[b] > depths[a]) b = parents[b];
  while (a !== b) [a, b] = [parents[a], parents[b]];
  return a;
}

/**
 * Depth of each node and its subtree's interval in the depth-first order (a node before its descendants, children
 * in node order: by ascending taxId), node i's position being enter[i]; throws when the parents (node indexes) hold
 * a cycle or no single root. The accession order (accessionOrder.ts) sorts by these positions.
 */
export function depthFirstOrder(parents: Int32Array): { depths: Uint16Array; enter: Int32Array; exit: Int32Array } {
  const n = parents.length;
  const childCount = new Int32Array(n + 1);
  let root = -1;
  for (let i = 0; i < n; i++) {
    if (parents[i] === i) {
      if (root >= 0) throw new Error('taxonomy has more than one root');
      root = i;
    } else childCount[parents[i] + 1]++;
  }
  if (root < 0) throw new Error('taxonomy has no root');
  // Children of node i: children[firstChild[i] .. firstChild[i+1]).
  const firstChild = childCount;
  for (let i = 0; i < n; i++) firstChild[i + 1] += firstChild[i];
  const children = new Int32Array(n);
  const fill = firstChild.slice(0, n);
  for (let i = 0; i < n; i++) if (i !== root) children[fill[parents[i]]++] = i;
  const depths = new Uint16Array(n);
  const enter = new Int32Array(n).fill(-1);
  const exit = new Int32Array(n);
  const stack = [root];
  let clock = 0;
  enter[root] = clock++;
  const cursor = firstChild.slice(0, n);
  while (stack.length > 0) {
    const node = stack[stack.length - 1];
    if (cursor[node] < firstChild[node + 1]) {
      const child = children[cursor[node]++];
      depths[child] = depths[node] + 1;
      enter[child] = clock++;
      stack.push(child);
    } else {
      exit[node] = clock;
      stack.pop();
    }
  }
  if (clock !== n) throw new Error('taxonomy holds a cycle or nodes not under its root');
  return { depths, enter, exit };
}

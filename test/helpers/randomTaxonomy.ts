// A seeded random taxonomy file for tests of the taxonomy tree and of the accession order: a tree rooted at taxId 1
// with sparse taxIds, names, ranks, peptide counts and each node's own accessions.
import type { TaxonomyFile } from '../../runtime/model/format.js';
import { prng } from './prng.js';

/** A random tree of `n` nodes with sparse taxIds, root taxId 1; columns ordered by taxId. */
export function randomTree(seed: number, n: number): TaxonomyFile {
  const random = prng(seed);
  const ids = new Set<number>([1]);
  while (ids.size < n) ids.add(2 + Math.floor(random() * n * 20));
  const byInsertion = [...ids];
  // Each node's parent is an earlier node: a tree rooted at 1.
  const parentOf = new Map<number, number>([[1, 1]]);
  byInsertion.slice(1).forEach((id, i) => parentOf.set(id, byInsertion[Math.floor(random() * (i + 1))]));
  const taxIds = [...ids].sort((a, b) => a - b);
  const words = ['homo', 'sapiens', 'escherichia', 'coli', 'bacillus', 'subtilis', 'mus', 'musculus'];
  return {
    formatVersion: 1,
    taxIds,
    parents: taxIds.map((id) => parentOf.get(id)!),
    ranks: taxIds.map((id) => (id === 1 ? 'no rank' : ['species', 'genus', 'family'][id % 3])),
    names: taxIds.map((id) => (id === 1 ? 'root' : `${words[id % 8]} ${words[(id >> 3) % 8]}-${id % 5}`)),
    peptides: taxIds.map((id) => id % 7),
    reviewedAccessions: taxIds.map((id) => (id % 5 === 0 ? id % 3 : 0)),
    unreviewedAccessions: taxIds.map((id) => id % 4),
  };
}

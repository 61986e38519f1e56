// Tests builder/phases/taxonCounts.ts: TaxonCounts counts, for every taxonomy node, the distinct peptides with at least
// one accession whose node is that node or a descendant — checked against a brute-force count (per peptide, the set
// union of its accessions' lineages, walked here) on hand-made and random trees, peptides split over partitions.
import { describe, expect, it } from 'vitest';
import type { PartitionPeptides } from '../../../builder/phases/partitions.js';
import { TaxonCounts } from '../../../builder/phases/taxonCounts.js';
import { prng } from '../../helpers/prng.js';

/** A partition whose peptides have these accession ranks (keys and sequences do not matter here). */
function partition(peptides: number[][]): PartitionPeptides {
  let end = 0;
  return {
    keys: new Uint32Array(peptides.length),
    sequences: 'A'.repeat(peptides.length),
    sequenceEnds: Uint32Array.from(peptides, (_, i) => i + 1),
    rankEnds: Uint32Array.from(peptides, (ranks) => (end += ranks.length)),
    ranks: Uint32Array.from(peptides.flat()),
    rankPlaces: new Uint8Array(peptides.flat().length),
  };
}

/** The brute-force count: per peptide, the union of its accessions' lineages as a Set; each node once. */
function bruteForce(parents: Int32Array, nodeOfRank: Int32Array, peptides: number[][]): number[] {
  const counts = new Array<number>(parents.length).fill(0);
  for (const ranks of peptides) {
    const nodes = new Set<number>();
    for (const rank of ranks) {
      let node = nodeOfRank[rank];
      if (node < 0) continue;
      for (;;) {
        nodes.add(node);
        if (parents[node] === node) break;
        node = parents[node];
      }
    }
    for (const node of nodes) counts[node]++;
  }
  return counts;
}

function counted(parents: Int32Array, nodeOfRank: Int32Array, parts: number[][][]): number[] {
  const counts = new TaxonCounts(parents, nodeOfRank);
  for (const part of parts) counts.add(partition(part));
  return counts.counts();
}

describe('TaxonCounts', () => {
  // 0 root; 1 Bacteria, 2 Eukaryota under the root; 3 E. coli under 1; 4 Homo under 2; 5 H. sapiens under 4; 6 Mus
  // under 2.
  const parents = Int32Array.of(0, 0, 0, 1, 2, 4, 2);
  // Accession ranks: 0 → E. coli, 1 → H. sapiens, 2 → no lineage, 3 → Mus, 4 → H. sapiens, 5 → Homo.
  const nodeOfRank = Int32Array.of(3, 5, -1, 6, 5, 4);

  it('counts a peptide once per node, however many of its accessions lie below it', () => {
    const peptides = [
      [0], // E. coli only: root, Bacteria, E. coli
      [1, 4], // two H. sapiens accessions: root, Eukaryota, Homo, H. sapiens, each once
      [0, 1], // E. coli and H. sapiens: both lineages, the root once
      [2], // no lineage: nothing
      [], // no accession: nothing
      [2, 3], // Mus and one without lineage
      [1, 5], // H. sapiens and its genus Homo
      [3, 1, 0, 4, 5, 2], // everything
    ];
    const got = counted(parents, nodeOfRank, [peptides]);
    expect(got).toEqual(bruteForce(parents, nodeOfRank, peptides));
    // By hand: root, Bacteria, Eukaryota, E. coli, Homo, H. sapiens, Mus.
    expect(got).toEqual([6, 3, 5, 3, 4, 4, 2]);
  });

  it('gives the same counts however the peptides are split into partitions', () => {
    const peptides = [[0], [1, 4], [0, 1], [2], [3], [5], [1], [0, 3]];
    const whole = counted(parents, nodeOfRank, [peptides]);
    expect(counted(parents, nodeOfRank, [peptides.slice(0, 3), [], peptides.slice(3, 4), peptides.slice(4)])).toEqual(
      whole,
    );
  });

  it('counts nothing without peptides, or without accessions with a lineage', () => {
    expect(counted(parents, nodeOfRank, [])).toEqual([0, 0, 0, 0, 0, 0, 0]);
    expect(counted(parents, nodeOfRank, [[[2], [2, 2], []]])).toEqual([0, 0, 0, 0, 0, 0, 0]);
  });

  it('agrees with the brute force on random trees and peptides', () => {
    const random = prng(7);
    for (let round = 0; round < 30; round++) {
      // A random tree: node i's parent is an earlier node (deep chains and wide fans alike); node 0 the root.
      const n = 1 + Math.floor(random() * 200);
      const deep = random() < 0.5;
      const tree = Int32Array.from({ length: n }, (_, i) =>
        i === 0 ? 0 : deep ? Math.max(0, i - 1 - Math.floor(random() * 3)) : Math.floor(random() * i),
      );
      const ranks = 1 + Math.floor(random() * 60);
      const nodeOf = Int32Array.from({ length: ranks }, () => (random() < 0.15 ? -1 : Math.floor(random() * n)));
      const peptides = Array.from({ length: Math.floor(random() * 400) }, () => {
        const set = new Set(
          Array.from({ length: Math.floor(random() * (random() < 0.7 ? 2 : 8)) }, () => Math.floor(random() * ranks)),
        );
        return [...set].sort((a, b) => a - b);
      });
      const cut = Math.floor(random() * peptides.length);
      expect(counted(tree, nodeOf, [peptides.slice(0, cut), peptides.slice(cut)]), `round ${round}`).toEqual(
        bruteForce(tree, nodeOf, peptides),
      );
    }
  });
});

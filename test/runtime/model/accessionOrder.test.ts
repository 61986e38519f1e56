// runtime/model/accessionOrder.ts against brute force: rankOrder sorts accessions (given in byte order) by reviewed
// flag, depth-first position of their node (no lineage last) and byte order, as a plain comparison sort does; and
// the rank intervals Taxonomy.subtreeRanks derives from a taxonomy file's counts of each node's own accessions hold
// exactly the accessions whose lineage holds the taxon, on seeded random trees and accession lists ordered as
// docs/format.md's "Accession order" says (depth-first positions found here by a recursive walk of this file's own).
import { describe, expect, it } from 'vitest';
import { rankOrder } from '../../../runtime/model/accessionOrder.js';
import { Taxonomy } from '../../../runtime/model/taxonomy.js';
import { prng } from '../../helpers/prng.js';
import { randomTree } from '../../helpers/randomTaxonomy.js';

describe('rankOrder', () => {
  it('sorts by reviewed flag, then position (none last), keeping byte order among equals, as a comparison sort does', () => {
    const random = prng(11);
    for (const [count, positions] of [
      [0, 0],
      [1, 1],
      [50, 3],
      [5000, 40],
      [5000, 1],
    ]) {
      const reviewed = Uint8Array.from({ length: count }, () => (random() < 0.3 ? 1 : 0));
      const position = Int32Array.from({ length: count }, () =>
        random() < 0.1 ? -1 : Math.floor(random() * positions),
      );
      const rankOf = rankOrder(reviewed, position, positions);
      const key = (a: number) => [1 - reviewed[a], position[a] < 0 ? Infinity : position[a], a];
      const sorted = Array.from({ length: count }, (_, a) => a).sort((a, b) => {
        const [x, y] = [key(a), key(b)];
        return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
      });
      expect(Array.from({ length: count }, (_, r) => r).map((r) => sorted[r])).toEqual(
        Array.from(rankOf.keys()).sort((a, b) => rankOf[a] - rankOf[b]),
      );
      expect(new Set(rankOf).size).toBe(count); // a permutation
    }
  });

  it('without a taxonomy, orders by reviewed flag alone, keeping byte order', () => {
    const rankOf = rankOrder(Uint8Array.of(0, 1, 0, 1, 1), undefined, 0);
    expect([...rankOf]).toEqual([3, 0, 4, 1, 2]);
  });
});

describe('Taxonomy.subtreeRanks', () => {
  for (const seed of [1, 2, 3]) {
    it(`gives each taxon the ranks of exactly the accessions below it (random tree ${seed})`, () => {
      const file = randomTree(seed, 300);
      const parent = new Map(file.taxIds.map((id, i) => [id, file.parents[i]]));
      // Depth-first positions, children by ascending taxId, by recursion (not the runtime's walk).
      const children = new Map<number, number[]>();
      for (const id of file.taxIds)
        if (parent.get(id) !== id) children.set(parent.get(id)!, [...(children.get(parent.get(id)!) ?? []), id]);
      const position = new Map<number, number>();
      const visit = (id: number) => {
        position.set(id, position.size);
        for (const child of (children.get(id) ?? []).sort((a, b) => a - b)) visit(child);
      };
      visit(1);
      // The dataset's accessions: each node's own, then some without a lineage; ordered as "Accession order" says.
      const accessions: { taxId: number; reviewed: boolean }[] = [];
      file.taxIds.forEach((taxId, i) => {
        for (let k = 0; k < file.reviewedAccessions[i]; k++) accessions.push({ taxId, reviewed: true });
        for (let k = 0; k < file.unreviewedAccessions[i]; k++) accessions.push({ taxId, reviewed: false });
      });
      for (let k = 0; k < 7; k++) accessions.push({ taxId: -1, reviewed: k % 2 === 0 });
      const place = (a: { taxId: number; reviewed: boolean }) => [
        a.reviewed ? 0 : 1,
        position.get(a.taxId) ?? Infinity,
      ];
      accessions.sort((a, b) => place(a)[0] - place(b)[0] || place(a)[1] - place(b)[1]);
      const reviewedTotal = accessions.filter((a) => a.reviewed).length;
      const lineage = (taxId: number) => {
        const path = [taxId];
        while (parent.has(path[path.length - 1]) && parent.get(path[path.length - 1]) !== path[path.length - 1])
          path.push(parent.get(path[path.length - 1])!);
        return parent.has(taxId) ? path : [];
      };
      const tree = new Taxonomy(file);
      for (const taxon of file.taxIds) {
        const expected = accessions.flatMap((a, rank) => (lineage(a.taxId).includes(taxon) ? [rank] : []));
        const { reviewed, unreviewed } = tree.subtreeRanks(tree.nodeOf(taxon), reviewedTotal);
        const got = [reviewed, unreviewed].flatMap(([first, end]) =>
          Array.from({ length: end - first }, (_, k) => first + k),
        );
        if (JSON.stringify(got) !== JSON.stringify(expected)) expect(got, `taxon ${taxon}`).toEqual(expected);
      }
      const root = tree.subtreeRanks(tree.nodeOf(1), reviewedTotal);
      expect(root.reviewed[0]).toBe(0);
      expect(root.unreviewed[1]).toBe(accessions.length - 3); // all but the 3 unreviewed ones without a lineage
    });
  }

  it('refuses counts of more reviewed accessions than the dataset has', () => {
    const tree = new Taxonomy(randomTree(4, 50));
    expect(() => tree.subtreeRanks(0, 0)).toThrow(/reviewed accessions/);
  });
});

// Tests runtime/core/identify/organisms.ts on random taxonomies against a brute force from the definitions: the LCA
// is the deepest node whose subtree holds every node given (walking parents); the taxon table counts, for each node,
// the peptides assigned to it and to it or any descendant.
import { describe, expect, it } from 'vitest';
import { lcaNode, taxonTable } from '../../../../runtime/core/identify/organisms.js';
import { Taxonomy } from '../../../../runtime/model/taxonomy.js';
import { prng } from '../../../helpers/prng.js';
import { randomTree } from '../../../helpers/randomTaxonomy.js';

describe('organisms', () => {
  it('assigns LCAs and counts taxa as the brute force does', () => {
    const random = prng(4503);
    for (let trial = 0; trial < 20; trial++) {
      const file = randomTree(100 + trial, 40 + Math.floor(random() * 200));
      const taxonomy = new Taxonomy(file);
      const parentOf = new Map(file.taxIds.map((t, i) => [t, file.parents[i]]));
      const lineage = (taxId: number) => {
        const line = [taxId];
        while (parentOf.get(line[0]) !== line[0]) line.unshift(parentOf.get(line[0])!);
        return line; // root first
      };
      const nodes: number[] = [];
      const assignedTaxIds: number[] = [];
      for (let p = 0; p < 60; p++) {
        const taxIds = Array.from(
          { length: 1 + Math.floor(random() * 4) },
          () => file.taxIds[Math.floor(random() * file.taxIds.length)],
        );
        if (random() < 0.1) taxIds.push(999_999_999); // not in the taxonomy: left out
        const lines = taxIds.filter((t) => parentOf.has(t)).map(lineage);
        let depth = 0;
        while (lines.every((l) => depth < l.length && l[depth] === lines[0][depth])) depth++;
        const expected = lines[0][depth - 1];
        const node = lcaNode(taxonomy, taxIds);
        expect(taxonomy.taxIds[node]).toBe(expected);
        nodes.push(node);
        assignedTaxIds.push(expected);
      }
      const table = taxonTable(taxonomy, [...nodes, -1]);
      const expected = [...new Set(assignedTaxIds.flatMap(lineage))]
        .map((taxId) => ({
          taxId,
          parent: parentOf.get(taxId),
          assigned: assignedTaxIds.filter((t) => t === taxId).length,
          within: assignedTaxIds.filter((t) => lineage(t).includes(taxId)).length,
        }))
        .sort((a, b) => b.within - a.within || a.taxId - b.taxId);
      expect(table.map(({ taxId, parent, assigned, within }) => ({ taxId, parent, assigned, within }))).toEqual(
        expected,
      );
      expect(table[0].taxId).toBe(1); // the root holds every peptide
      expect(table.every((row) => row.name === file.names[file.taxIds.indexOf(row.taxId)])).toBe(true);
    }
  });
});

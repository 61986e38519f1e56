// The taxonomy tree (runtime/model/taxonomy.ts) against brute force on seeded random trees: node look-up,
// descendant tests, LCA as the deepest node on every lineage, name search order; and the checks that refuse a
// taxonomy file that is not a tree.
import { describe, expect, it } from 'vitest';
import type { TaxonomyFile } from '../../../runtime/model/format.js';
import { Taxonomy } from '../../../runtime/model/taxonomy.js';
import { prng } from '../../helpers/prng.js';
import { randomTree } from '../../helpers/randomTaxonomy.js';

/** Lineage of taxId (itself up to the root), walking the file's parent column. */
function lineage(file: TaxonomyFile, taxId: number): number[] {
  const parent = new Map(file.taxIds.map((id, i) => [id, file.parents[i]]));
  const out = [taxId];
  while (parent.get(out[out.length - 1]) !== out[out.length - 1]) out.push(parent.get(out[out.length - 1])!);
  return out;
}

describe('Taxonomy', () => {
  for (const seed of [1, 2, 3]) {
    it(`answers nodeOf, within and lca as brute force does (random tree ${seed})`, () => {
      const file = randomTree(seed, 400);
      const tree = new Taxonomy(file);
      const random = prng(seed + 100);
      const pick = () => file.taxIds[Math.floor(random() * file.taxIds.length)];
      for (let i = 0; i < 300; i++) {
        const [a, b] = [pick(), pick()];
        expect(tree.within(tree.nodeOf(a), tree.nodeOf(b))).toBe(lineage(file, a).includes(b));
        const set = Array.from({ length: 1 + Math.floor(random() * 4) }, pick);
        const lineages = set.map((id) => lineage(file, id));
        const expected = lineages[0].find((id) => lineages.every((l) => l.includes(id)));
        expect(tree.taxIds[tree.lca(set.map((id) => tree.nodeOf(id)))]).toBe(expected);
      }
      expect(tree.nodeOf(0)).toBe(-1);
      expect(tree.nodeOf(file.taxIds[file.taxIds.length - 1] + 1)).toBe(-1);
      expect(tree.lca([])).toBe(-1);
    });
  }

  it('finds names by prefix and by word, exact first, then prefixes, then words, most peptides first', () => {
    const file = randomTree(7, 300);
    const tree = new Taxonomy(file);
    for (const query of [
      'homo',
      'Coli',
      'mus',
      'musculus-',
      'sapiens homo',
      'escherichia coli-3',
      'zzz',
      ' bacillus ',
    ]) {
      const q = query.trim().toLowerCase();
      const tier = (name: string) =>
        name === q
          ? 0
          : name.startsWith(q)
            ? 1
            : [...name].some((_, i) => i > 0 && /[^a-z0-9]/.test(name[i - 1]) && name.slice(i).startsWith(q))
              ? 2
              : -1;
      const expected = file.taxIds
        .map((taxId, i) => ({
          taxId,
          name: file.names[i],
          rank: file.ranks[i],
          peptides: file.peptides[i],
          tier: tier(file.names[i].toLowerCase()),
        }))
        .filter((t) => t.tier >= 0)
        .sort(
          (a, b) =>
            a.tier - b.tier ||
            b.peptides - a.peptides ||
            (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) ||
            a.taxId - b.taxId,
        )
        .slice(0, 20)
        .map(({ tier: _tier, ...t }) => t);
      expect(tree.search(query), query).toEqual(expected);
    }
  });

  it('refuses a taxonomy file that is not one tree', () => {
    const base = {
      formatVersion: 1,
      ranks: ['a', 'b', 'c'],
      names: ['r', 'x', 'y'],
      peptides: [0, 0, 0],
      reviewedAccessions: [0, 1, 0],
      unreviewedAccessions: [2, 0, 0],
    };
    expect(() => new Taxonomy({ ...base, taxIds: [1, 2, 3], parents: [1, 3, 2] })).toThrow(/cycle/);
    expect(() => new Taxonomy({ ...base, taxIds: [1, 2, 3], parents: [1, 2, 1] })).toThrow(/more than one root/);
    expect(() => new Taxonomy({ ...base, taxIds: [1, 2, 3], parents: [1, 9, 1] })).toThrow(/parent 9/);
    expect(() => new Taxonomy({ ...base, taxIds: [1, 3, 2], parents: [1, 1, 1] })).toThrow(/ascending/);
    expect(() => new Taxonomy({ ...base, taxIds: [1, 2], parents: [1, 1] })).toThrow(/columns/);
    expect(
      () => new Taxonomy({ ...base, taxIds: [1, 2, 3], parents: [1, 1, 1], unreviewedAccessions: [2, -1, 0] }),
    ).toThrow(/accession counts/);
    expect(
      () => new Taxonomy({ ...base, taxIds: [1, 2, 3], parents: [1, 1, 1], reviewedAccessions: [0, 0.5, 0] }),
    ).toThrow(/accession counts/);
    const { reviewedAccessions: _, ...withoutCounts } = base;
    expect(
      () => new Taxonomy({ ...withoutCounts, taxIds: [1, 2, 3], parents: [1, 1, 1] } as unknown as TaxonomyFile),
    ).toThrow(/columns/);
  });
});

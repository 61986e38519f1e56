// Tests builder/inputs/taxdump.ts: readTaxdumpTree reads NCBI's nodes.dmp (any line order, CRLF too) into typed columns
// by ascending taxId and refuses a bad taxdump with one line (no folder, a missing file, a malformed line, a
// repeated taxId, an unknown parent, a cycle, no root); pruneToLineages keeps exactly the nodes on the lineages
// of the dataset's taxIds (checked against lineages walked here on a Map, on fixed and random trees), names
// them from names.dmp's scientific names, and counts accessions whose taxId has no lineage.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BuildError } from '../../../builder/errors.js';
import { pruneToLineages, readTaxdumpTree, type TaxdumpTree } from '../../../builder/inputs/taxdump.js';
import { removeTempDirs, SAMPLE_TAXDUMP, tempDir } from '../../helpers/datasets.js';
import { prng } from '../../helpers/prng.js';

afterAll(removeTempDirs);

interface Node {
  taxId: number;
  parent: number;
  rank: string;
  name: string;
}

/** A small real-looking tree: root, cellular organisms, three superkingdoms, a few genera and species. */
const TREE: Node[] = [
  { taxId: 1, parent: 1, rank: 'no rank', name: 'root' },
  { taxId: 131567, parent: 1, rank: 'no rank', name: 'cellular organisms' },
  { taxId: 2, parent: 131567, rank: 'superkingdom', name: 'Bacteria' },
  { taxId: 1224, parent: 2, rank: 'phylum', name: 'Proteobacteria' },
  { taxId: 561, parent: 1224, rank: 'genus', name: 'Escherichia' },
  { taxId: 562, parent: 561, rank: 'species', name: 'Escherichia coli' },
  { taxId: 2759, parent: 131567, rank: 'superkingdom', name: 'Eukaryota' },
  { taxId: 9605, parent: 2759, rank: 'genus', name: 'Homo' },
  { taxId: 9606, parent: 9605, rank: 'species', name: 'Homo sapiens' },
  { taxId: 10088, parent: 2759, rank: 'genus', name: 'Mus' },
  { taxId: 10090, parent: 10088, rank: 'species', name: 'Mus musculus' },
  { taxId: 10239, parent: 1, rank: 'superkingdom', name: 'Viruses' },
  { taxId: 11069, parent: 10239, rank: 'species', name: 'Dengue virus 3' },
];

const nodeLine = (n: Node) =>
  `${n.taxId}\t|\t${n.parent}\t|\t${n.rank}\t|\tXX\t|\t0\t|\t1\t|\t11\t|\t1\t|\t0\t|\t1\t|\t0\t|\t0\t|\t\t|\n`;
const nameLines = (n: Node) =>
  `${n.taxId}\t|\t${n.name} (synonym)\t|\t\t|\tsynonym\t|\n${n.taxId}\t|\t${n.name}\t|\t\t|\tscientific name\t|\n${n.taxId}\t|\t${n.name}, common\t|\t${n.name} <x>\t|\tgenbank common name\t|\n`;

/** A taxdump folder of `nodes` (lines in the given order), or of the given file texts. */
function taxdump(label: string, nodes: Node[], files: { nodes?: string; names?: string } = {}): string {
  const dir = join(tempDir(label), 'taxdump');
  mkdirSync(dir);
  writeFileSync(join(dir, 'nodes.dmp'), files.nodes ?? nodes.map(nodeLine).join(''));
  writeFileSync(join(dir, 'names.dmp'), files.names ?? nodes.map(nameLines).join(''));
  return dir;
}

/** The lineage of `taxId` (itself up to the root), walked on a Map: the independent expectation. */
function lineage(nodes: Node[], taxId: number): number[] {
  const parent = new Map(nodes.map((n) => [n.taxId, n.parent]));
  const path = [taxId];
  while (path[path.length - 1] !== 1) path.push(parent.get(path[path.length - 1])!);
  return path;
}

/** What pruning must keep for `taxIds`: the union of their lineages (taxIds absent from the tree have none). */
function expectedNodes(nodes: Node[], taxIds: number[]): Node[] {
  const present = new Set(nodes.map((n) => n.taxId));
  const kept = new Set(taxIds.filter((t) => present.has(t)).flatMap((t) => lineage(nodes, t)));
  return nodes.filter((n) => kept.has(n.taxId)).sort((a, b) => a.taxId - b.taxId);
}

/** The pruned taxonomy as nodes (parents as taxIds). */
async function pruned(tree: TaxdumpTree, taxIds: number[]) {
  const { taxonomy, nodeOf, withoutLineage } = await pruneToLineages(tree, Int32Array.from(taxIds));
  const nodes = Array.from(taxonomy.taxIds, (taxId, i) => ({
    taxId,
    parent: taxonomy.taxIds[taxonomy.parents[i]],
    rank: taxonomy.ranks[i],
    name: taxonomy.names[i],
  }));
  return { nodes, nodeOf: Array.from(nodeOf, (i) => (i < 0 ? -1 : taxonomy.taxIds[i])), withoutLineage };
}

describe('readTaxdumpTree', () => {
  it('reads nodes.dmp into columns by ascending taxId, whatever the line order and line ends', async () => {
    const shuffled = [...TREE].reverse();
    for (const [label, dir] of [
      [
        'sorted',
        taxdump(
          'tree-sorted',
          [...TREE].sort((a, b) => a.taxId - b.taxId),
        ),
      ],
      ['shuffled', taxdump('tree-shuffled', shuffled)],
      ['crlf', taxdump('tree-crlf', shuffled, { nodes: shuffled.map(nodeLine).join('').replace(/\n/g, '\r\n') })],
    ] as const) {
      const tree = await readTaxdumpTree(dir);
      const sorted = [...TREE].sort((a, b) => a.taxId - b.taxId);
      expect(Array.from(tree.taxIds), label).toEqual(sorted.map((n) => n.taxId));
      expect(
        Array.from(tree.parents, (p) => tree.taxIds[p]),
        label,
      ).toEqual(sorted.map((n) => n.parent));
      expect(
        Array.from(tree.ranks, (r) => tree.rankNames[r]),
        label,
      ).toEqual(sorted.map((n) => n.rank));
    }
  });

  it('reads the bundled taxdump (data/taxdump): 11,094 nodes, a root that is its own parent', async () => {
    const tree = await readTaxdumpTree(SAMPLE_TAXDUMP);
    expect(tree.taxIds.length).toBe(11_094);
    expect(tree.taxIds[0]).toBe(1);
    expect(tree.parents[0]).toBe(0);
    expect(tree.rankNames).toEqual(
      expect.arrayContaining(['no rank', 'superkingdom', 'phylum', 'class', 'order', 'family', 'genus', 'species']),
    );
  });
});

describe('a bad taxdump is one clear BuildError', () => {
  const refused = async (dir: string, message: RegExp) => {
    const failure = await readTaxdumpTree(dir).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(failure).toBeInstanceOf(BuildError);
    expect((failure as Error).message).toMatch(message);
    expect((failure as Error).message).not.toContain('\n');
  };
  const withNodes = (label: string, nodes: string) => taxdump(label, TREE, { nodes });
  const good = TREE.map(nodeLine).join('');

  it('no folder, or a folder without nodes.dmp or names.dmp', async () => {
    const dir = tempDir('taxdump-missing');
    await refused(join(dir, 'nowhere'), /nowhere is not a folder/);
    await refused(dir, /has no nodes\.dmp/);
    writeFileSync(join(dir, 'nodes.dmp'), good);
    await refused(dir, /has no names\.dmp/);
  });

  it('a malformed nodes.dmp line, naming the line', async () => {
    const lines = good.split('\n');
    const broken = (i: number, line: string) => [...lines.slice(0, i), line, ...lines.slice(i + 1)].join('\n');
    await refused(withNodes('bad-sep', broken(3, '1224 | 2 | phylum |')), /nodes\.dmp line 4: malformed/);
    await refused(withNodes('bad-fields', broken(3, '1224\t|\t2\t|')), /nodes\.dmp line 4: malformed/);
    await refused(
      withNodes('bad-end', broken(2, '2\t|\t131567\t|\tsuperkingdom\t|\tBA')),
      /nodes\.dmp line 3: malformed/,
    );
    await refused(withNodes('bad-id', broken(1, 'x131567\t|\t1\t|\tno rank\t|')), /nodes\.dmp line 2: malformed/);
    await refused(withNodes('bad-parent', broken(1, '131567\t|\t-1\t|\tno rank\t|')), /nodes\.dmp line 2: malformed/);
    await refused(withNodes('zero-id', broken(1, '0\t|\t1\t|\tno rank\t|')), /nodes\.dmp line 2: malformed/);
    await refused(withNodes('huge-id', broken(1, '2147483648\t|\t1\t|\tno rank\t|')), /nodes\.dmp line 2: malformed/);
  });

  it('a taxId listed twice', async () => {
    await refused(
      withNodes('twice', good + nodeLine({ taxId: 562, parent: 2, rank: 'species', name: '' })),
      /taxId 562 is listed twice/,
    );
  });

  it('a parent that is not a node', async () => {
    await refused(
      withNodes('orphan', good + nodeLine({ taxId: 7, parent: 6, rank: 'species', name: '' })),
      /the parent 6 of taxId 7 is not in nodes\.dmp/,
    );
  });

  it('a cycle, or a node other than the root that is its own parent', async () => {
    const cycle =
      good +
      nodeLine({ taxId: 5, parent: 6, rank: 'genus', name: '' }) +
      nodeLine({ taxId: 6, parent: 7, rank: 'genus', name: '' }) +
      nodeLine({ taxId: 7, parent: 5, rank: 'genus', name: '' }) +
      nodeLine({ taxId: 8, parent: 7, rank: 'species', name: '' });
    await refused(withNodes('cycle', cycle), /taxId [567] is its own ancestor/);
    await refused(
      withNodes('self', good + nodeLine({ taxId: 5, parent: 5, rank: 'genus', name: '' })),
      /taxId 5 is its own ancestor/,
    );
  });

  it('no root, or a root that is not its own parent', async () => {
    await refused(
      withNodes(
        'rootless',
        good
          .split('\n')
          .slice(1)
          .join('\n')
          .replace(/^131567\t\|\t1\t/m, '131567\t|\t131567\t'),
      ),
      /no root node \(taxId 1\)/,
    );
    await refused(
      withNodes('root-parent', good.replace(/^1\t\|\t1\t/, '1\t|\t2\t')),
      /root \(taxId 1\) must be its own parent, not 2/,
    );
  });

  it('a malformed names.dmp line, or no scientific name for a kept node', async () => {
    const names = TREE.map(nameLines).join('');
    const badLine = taxdump('bad-names', TREE, {
      names: names.replace(
        '562\t|\tEscherichia coli\t|\t\t|\tscientific name\t|',
        '562 | Escherichia coli | | scientific name |',
      ),
    });
    const tree = await readTaxdumpTree(badLine);
    await expect(pruneToLineages(tree, Int32Array.of(9606))).rejects.toThrow(/names\.dmp line \d+: malformed/);
    const unnamed = taxdump('unnamed', TREE, {
      names: names.replace('9605\t|\tHomo\t|\t\t|\tscientific name\t|\n', ''),
    });
    await expect(pruneToLineages(await readTaxdumpTree(unnamed), Int32Array.of(562))).resolves.toBeDefined(); // Homo is not on 562's lineage
    await expect(pruneToLineages(await readTaxdumpTree(unnamed), Int32Array.of(9606))).rejects.toThrow(
      /names\.dmp has no scientific name for taxId 9605/,
    );
  });
});

describe('pruneToLineages', () => {
  it('keeps exactly the nodes on the lineages of the dataset’s taxIds, named by their scientific names', async () => {
    const tree = await readTaxdumpTree(taxdump('prune', TREE));
    const taxIds = [9606, 562, -1, 424242, 9606, 562, 9606];
    const { nodes, nodeOf, withoutLineage } = await pruned(tree, taxIds);
    expect(nodes).toEqual(expectedNodes(TREE, taxIds));
    expect(nodes.map((n) => n.name)).toEqual([
      'root',
      'Bacteria',
      'Escherichia',
      'Escherichia coli',
      'Proteobacteria',
      'Eukaryota',
      'Homo',
      'Homo sapiens',
      'cellular organisms',
    ]);
    expect(nodeOf).toEqual([9606, 562, -1, -1, 9606, 562, 9606]);
    // -1 is no taxId (counted elsewhere); 424242 is a taxId the tree lacks.
    expect(withoutLineage).toBe(1);
  });

  it('keeps the root alone for the root, nothing for no taxId', async () => {
    const tree = await readTaxdumpTree(taxdump('prune-edges', TREE));
    expect((await pruned(tree, [1])).nodes).toEqual([TREE[0]]);
    expect(await pruned(tree, [-1, -1])).toEqual({ nodes: [], nodeOf: [-1, -1], withoutLineage: 0 });
    expect((await pruned(tree, [5])).withoutLineage).toBe(1);
  });

  it('keeps exactly the lineage nodes of random taxId sets on random trees', async () => {
    const random = prng(11);
    for (let round = 0; round < 12; round++) {
      // A random tree: each node's parent is an earlier node; taxIds scattered; lines shuffled.
      const size = 20 + Math.floor(random() * 300);
      const ids = new Set<number>([1]);
      while (ids.size < size) ids.add(2 + Math.floor(random() * 5_000_000));
      const idList = [...ids];
      const nodes: Node[] = idList.map((taxId, i) => ({
        taxId,
        parent: i === 0 ? 1 : idList[Math.floor(random() * i)],
        rank: ['no rank', 'genus', 'species', 'strain'][i % 4],
        name: `Taxon ${taxId} ü`,
      }));
      const lines = [...nodes].sort(() => random() - 0.5);
      const tree = await readTaxdumpTree(taxdump(`random-${round}`, lines));
      const taxIds = Array.from({ length: 1 + Math.floor(random() * 40) }, () =>
        random() < 0.1 ? -1 : random() < 0.1 ? 9_999_999 : idList[Math.floor(random() * size)],
      );
      const got = await pruned(tree, taxIds);
      expect(got.nodes, `round ${round}`).toEqual(expectedNodes(nodes, taxIds));
      expect(got.nodeOf).toEqual(taxIds.map((t) => (t === 9_999_999 ? -1 : t)));
      expect(got.withoutLineage).toBe(taxIds.filter((t) => t === 9_999_999).length);
    }
  });
});

// The build with --taxdump (builder/phases/pipeline.ts) on small fixtures: the taxonomy file holds exactly the lineage
// nodes of the dataset's taxIds, each with its peptide count checked against a brute-force count over a reference
// digestion written here; manifest entry, totals, sources and dataset version; the same bytes with worker threads;
// and a bad taxdump (each kind) is a one-line BuildError that leaves the published dataset byte-identical.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BuildError } from '../../../builder/errors.js';
import type { Manifest } from '../../../runtime/model/format.js';
import {
  build,
  readProteinTable,
  readTaxonomyFile,
  removeTempDirs,
  sampleRecords,
  snapshot,
  tempDir,
  writeFixture,
  writeTaxdump,
  type TaxdumpNode,
} from '../../helpers/datasets.js';
import { runTsx } from '../../helpers/process.js';
import { referenceDigest, REFERENCE_ENZYMES } from '../../helpers/reference.js';
import { folderDifferences } from '../../helpers/folders.js';

afterAll(removeTempDirs);

const TREE: TaxdumpNode[] = [
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
  { taxId: 4751, parent: 2759, rank: 'kingdom', name: 'Fungi' }, // no protein below: pruned away
  { taxId: 4932, parent: 4751, rank: 'species', name: 'Saccharomyces cerevisiae' },
  { taxId: 10239, parent: 1, rank: 'superkingdom', name: 'Viruses' },
  { taxId: 11069, parent: 10239, rank: 'species', name: 'Dengue virus 3' },
];

/** Taxa the fixture's records get, in turn: species, a genus, a superkingdom, the root, one not in the tree, none. */
const ASSIGNED: (number | undefined)[] = [9606, 10090, 562, 11069, 9605, 2, 9606, 424242, undefined, 1, 10090, 562];
/** Tryptic pieces shared by many records, so peptides have accessions of several organisms. */
const SHARED = ['GLSDGEWQQVLNVWGK', 'VEADIAGHGQEVLIR', 'LFTGHPETLEK'];

interface Record_ {
  accession: string;
  taxId: number | undefined;
  reviewed: boolean;
  sequence: string;
}

/**
 * 36 records: real sequences of the sample with shared pieces appended, given the taxa of ASSIGNED; one duplicate
 * accession.
 */
function fixtureRecords(): Record_[] {
  const sequences = sampleRecords(36)
    .split('>')
    .slice(1)
    .map((r) => r.split('\n').slice(1).join(''));
  const records = sequences.map((sequence, i) => ({
    accession: `T${String(i).padStart(5, '0')}`,
    taxId: ASSIGNED[i % ASSIGNED.length],
    reviewed: i % 3 === 0,
    sequence: sequence + SHARED.filter((_, s) => (i + s) % (s + 2) === 0).join(''),
  }));
  // A second record of T00001 (Mus musculus): its own taxId and peptides, but the first record's taxId counts.
  records.push({ accession: 'T00001', taxId: 11069, reviewed: true, sequence: 'MKWVTFISLLLLFSSAYSRGVFRR' + SHARED[2] });
  return records;
}

function fasta(records: Record_[]): string {
  return records
    .map(
      (r) =>
        `>${r.reviewed ? 'sp' : 'tr'}|${r.accession}|${r.accession}_X Protein ${r.accession} OS=Organism ${r.taxId ?? 'none'}${r.taxId ? ` OX=${r.taxId}` : ''} PE=1 SV=1\n${r.sequence}\n`,
    )
    .join('');
}

/** The lineage of a taxId in `tree` (itself up to the root), or [] when the tree lacks it. */
function lineage(tree: TaxdumpNode[], taxId: number): number[] {
  const parent = new Map(tree.map((n) => [n.taxId, n.parent]));
  if (!parent.has(taxId)) return [];
  const path = [taxId];
  while (path[path.length - 1] !== 1) path.push(parent.get(path[path.length - 1])!);
  return path;
}

/**
 * What the taxonomy file must hold, by brute force: lineage nodes, and per node the peptides with an accession below
 * it.
 */
function expectedTaxonomy(records: Record_[], tree: TaxdumpNode[]) {
  const taxIdOf = new Map<string, number>();
  const reviewedOf = new Map<string, boolean>();
  for (const r of records)
    if (!taxIdOf.has(r.accession)) [taxIdOf.set(r.accession, r.taxId ?? -1), reviewedOf.set(r.accession, r.reviewed)];
  const own = (taxId: number, reviewed: boolean) =>
    [...taxIdOf].filter(([a, t]) => t === taxId && reviewedOf.get(a) === reviewed).length;
  const accessionsOf = new Map<string, Set<string>>();
  for (const r of records) {
    for (const peptide of referenceDigest(r.sequence, REFERENCE_ENZYMES.trypsin, 2, 6, 50))
      accessionsOf.set(peptide, (accessionsOf.get(peptide) ?? new Set()).add(r.accession));
  }
  const nodes = new Set([...taxIdOf.values()].flatMap((t) => lineage(tree, t)));
  const peptides = new Map([...nodes].map((n) => [n, 0]));
  // Specific: the nodes on every lineage of a peptide's accessions (those with a lineage).
  const specific = new Map([...nodes].map((n) => [n, 0]));
  for (const accessions of accessionsOf.values()) {
    const lineages = [...accessions].map((a) => lineage(tree, taxIdOf.get(a)!)).filter((l) => l.length > 0);
    const below = new Set(lineages.flat());
    for (const node of below) peptides.set(node, peptides.get(node)! + 1);
    for (const node of lineages[0] ?? [])
      if (lineages.every((l) => l.includes(node))) specific.set(node, specific.get(node)! + 1);
  }
  const kept = tree.filter((n) => nodes.has(n.taxId)).sort((a, b) => a.taxId - b.taxId);
  return {
    file: {
      formatVersion: 3,
      taxIds: kept.map((n) => n.taxId),
      parents: kept.map((n) => n.parent),
      ranks: kept.map((n) => n.rank),
      names: kept.map((n) => n.name),
      peptides: kept.map((n) => peptides.get(n.taxId)!),
      specificPeptides: kept.map((n) => specific.get(n.taxId)!),
      reviewedAccessions: kept.map((n) => own(n.taxId, true)),
      unreviewedAccessions: kept.map((n) => own(n.taxId, false)),
    },
    withoutLineage: [...taxIdOf.values()].filter((t) => t !== -1 && lineage(tree, t).length === 0).length,
    withoutTaxId: [...taxIdOf.values()].filter((t) => t === -1).length,
    peptides: accessionsOf.size,
  };
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const records = fixtureRecords();
let dir: string;
let input: string;
let taxdump: string;
let out: string;
let manifest: Manifest;

beforeAll(async () => {
  dir = tempDir('taxonomy-build');
  input = writeFixture(dir, 'fixture.fasta', fasta(records));
  taxdump = writeTaxdump(dir, TREE);
  out = join(dir, 'out');
  manifest = await build([input], out, { taxdump, shardBytes: 5000 });
});

describe('a build with --taxdump', () => {
  it('the taxonomy file holds exactly the lineage nodes, with peptide counts equal to a brute-force count', () => {
    const expected = expectedTaxonomy(records, TREE);
    // The expectation itself is not trivial: shared peptides, an unused branch, a taxId the tree lacks.
    expect(expected.file.taxIds).toEqual([1, 2, 561, 562, 1224, 2759, 9605, 9606, 10088, 10090, 10239, 11069, 131567]);
    expect(expected.file.peptides[0]).toBeLessThan(expected.peptides);
    expect(expected.file.peptides.every((n) => n > 0)).toBe(true);
    expect(readTaxonomyFile(out)).toEqual(expected.file);
    expect(manifest.totals).toMatchObject({
      peptides: expected.peptides,
      taxonomyNodes: expected.file.taxIds.length,
      accessionsWithoutLineage: expected.withoutLineage,
      accessionsWithoutTaxId: expected.withoutTaxId,
      reviewedAccessions: new Set(
        records
          .filter((r, i) => r.reviewed && records.findIndex((q) => q.accession === r.accession) === i)
          .map((r) => r.accession),
      ).size,
    });
    expect(expected.withoutLineage).toBe(3);
  });

  it('the manifest points at the taxonomy file by name, sha256 and size, and lists the taxdump among its sources', () => {
    const bytes = readFileSync(join(out, manifest.taxonomy!.file));
    expect(manifest.taxonomy).toEqual({
      file: `taxonomy-${sha256(bytes).slice(0, 20)}.json.gz`,
      sha256: sha256(bytes),
      bytes: bytes.length,
      nodes: 13,
    });
    const source = (path: string, file: string) => ({
      file,
      bytes: readFileSync(path).length,
      sha256: sha256(readFileSync(path)),
    });
    expect(manifest.sources).toEqual([
      source(input, 'fixture.fasta'),
      source(join(taxdump, 'nodes.dmp'), 'nodes.dmp'),
      source(join(taxdump, 'names.dmp'), 'names.dmp'),
    ]);
    const listed = [
      ...manifest.shards!.map((s) => s.file),
      manifest.accessions.pages[0].file,
      ...manifest.proteins!.pages.map((p) => p.file),
      manifest.taxonomy!.file,
      ...manifest.peptideCounts!.pages.map((p) => p.file),
      'manifest.json',
    ];
    expect(readdirSync(out).sort()).toEqual(listed.sort());
  });

  it('the protein table keeps each accession’s taxId as its first record gives it, lineage or not', () => {
    const table = readProteinTable(out);
    expect(table.accessions).toEqual([...new Set(records.map((r) => r.accession))].sort());
    expect(table.taxIds[1]).toBe(10090);
    expect(table.taxIds).toEqual(table.accessions.map((a) => records.find((r) => r.accession === a)!.taxId ?? -1));
  });

  it('the dataset version covers the taxdump: equal inputs give equal versions, a changed name or no taxdump another', async () => {
    const again = await build([input], join(dir, 'again'), { taxdump, shardBytes: 5000 });
    expect(again.datasetVersion).toBe(manifest.datasetVersion);
    const renamed = writeTaxdump(
      join(dir, 'renamed'),
      TREE.map((n) => (n.taxId === 9606 ? { ...n, name: 'Homo sapiens sapiens' } : n)),
    );
    const other = await build([input], join(dir, 'renamed-out'), { taxdump: renamed, shardBytes: 5000 });
    expect(other.datasetVersion).not.toBe(manifest.datasetVersion);
    expect(readTaxonomyFile(join(dir, 'renamed-out'))!.names).toContain('Homo sapiens sapiens');
    const none = await build([input], join(dir, 'none'), { shardBytes: 5000 });
    expect(none.datasetVersion).not.toBe(manifest.datasetVersion);
    expect(none.taxonomy).toBeUndefined();
    expect(none.totals).not.toHaveProperty('taxonomyNodes');
    expect(none.totals).not.toHaveProperty('accessionsWithoutLineage');
    expect(none.totals.reviewedAccessions).toBe(manifest.totals.reviewedAccessions);
    expect(none.sources.map((s) => s.file)).toEqual(['fixture.fasta']);
  });

  it('worker threads write the same bytes as an in-process build', async () => {
    const threaded = join(dir, 'threaded');
    await build([input], threaded, { taxdump, shardBytes: 5000, threads: 2 });
    expect(folderDifferences(snapshot(threaded), snapshot(out))).toEqual([]);
  });
});

describe('a bad taxdump fails the build and publishes nothing', () => {
  /** A taxdump folder: TREE's files with `change` applied to one of them (or the file removed). */
  function broken(
    label: string,
    file: 'nodes.dmp' | 'names.dmp',
    change: ((text: string) => string) | 'remove',
  ): string {
    const folder = writeTaxdump(tempDir(label), TREE);
    if (change === 'remove') rmSync(join(folder, file));
    else writeFileSync(join(folder, file), change(readFileSync(join(folder, file), 'utf8')));
    return folder;
  }

  const cases: [string, () => string, RegExp][] = [
    ['no folder', () => join(tempDir('bad-none'), 'taxdump'), /is not a folder/],
    ['no names.dmp', () => broken('bad-nonames', 'names.dmp', 'remove'), /has no names\.dmp/],
    [
      'a malformed nodes.dmp line',
      () => broken('bad-line', 'nodes.dmp', (t) => t.replace('9606\t|\t9605', '9606 |\t9605')),
      /nodes\.dmp line 9: malformed/,
    ],
    [
      'an unknown parent',
      () => broken('bad-parent', 'nodes.dmp', (t) => t.replace('9606\t|\t9605', '9606\t|\t9604')),
      /the parent 9604 of taxId 9606 is not in nodes\.dmp/,
    ],
    [
      'a cycle',
      () => broken('bad-cycle', 'nodes.dmp', (t) => t.replace('2759\t|\t131567', '2759\t|\t9606')),
      /is its own ancestor/,
    ],
    [
      'a malformed names.dmp line (found after the digest)',
      () => broken('bad-names', 'names.dmp', (t) => t + '562\t|\tE. coli\n'),
      /names\.dmp line 46: malformed/,
    ],
    [
      'no scientific name for a lineage node',
      () => broken('bad-noname', 'names.dmp', (t) => t.replace('10088\t|\tMus\t|\t\t|\tscientific name\t|\n', '')),
      /no scientific name for taxId 10088/,
    ],
  ];

  for (const [label, folder, message] of cases) {
    it(`${label}: a BuildError, the previous dataset byte-identical`, async () => {
      const before = snapshot(out);
      const failure = await build([input], out, { taxdump: folder(), shardBytes: 5000 }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(failure).toBeInstanceOf(BuildError);
      expect((failure as Error).message).toMatch(message);
      expect(folderDifferences(snapshot(out), before)).toEqual([]);
    });
  }

  it('through the CLI: exit 1 and one line, nothing published', async () => {
    const fresh = join(tempDir('bad-cli'), 'out');
    const run = await runTsx([
      'builder/commands/cli.ts',
      '--input',
      input,
      '--out',
      fresh,
      '--taxdump',
      broken('bad-cli-tree', 'nodes.dmp', (t) => t.replace('562\t|\t561', '562\t|\t5')),
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^build:shards: error: --taxdump nodes\.dmp: the parent 5 of taxId 562 is not in nodes\.dmp\n$/,
    );
    expect(existsSync(fresh)).toBe(false); // the tree is checked before the output folder is touched
  });
});

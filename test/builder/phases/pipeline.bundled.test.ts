// The bundled sample built as npm start builds it (data/uniprot-sample.fasta.gz with --taxdump data/taxdump),
// checked against what this file computes on its own: the taxonomy (nodes.dmp and names.dmp read with a plain
// split), the lineage nodes of the sample's taxIds, every node's peptide count (a brute-force set union over the
// stored peptides), the protein table (headers parsed word by word) and each shard's reviewed column.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Manifest, ProteinPage, TaxonomyFile } from '../../../runtime/model/format.js';
import {
  bundledDataset,
  readAccessionTable,
  readDataset,
  readPeptideCounts,
  readProteinTable,
  readTaxonomyFile,
  SAMPLE_FASTA,
  SAMPLE_TAXDUMP,
  type ReadBack,
} from '../../helpers/datasets.js';

let manifest: Manifest;
let dataset: ReadBack;
let taxonomy: TaxonomyFile;
let table: Omit<ProteinPage, 'formatVersion'>;
let out: string;

beforeAll(async () => {
  // The shared build of the bundled sample, as npm start builds it (its views are files of their own).
  out = await bundledDataset();
  dataset = readDataset(out);
  manifest = dataset.manifest;
  taxonomy = readTaxonomyFile(out)!;
  table = readProteinTable(out);
}, 120_000);

/** A .dmp file's rows as arrays of fields (a plain split on the separator; the final `\t|` dropped). */
const rows = (file: string) =>
  readFileSync(join(SAMPLE_TAXDUMP, file), 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => l.replace(/\t\|$/, '').split('\t|\t'));

/**
 * The sample's headers, first record of each accession: accession, taxId, reviewed, protein and organism names, read
 * word by word.
 */
function headers() {
  const text = gunzipSync(readFileSync(SAMPLE_FASTA)).toString('latin1');
  const byAccession = new Map<string, { taxId: number; reviewed: number; protein: string; organism: string }>();
  for (const line of text.split('\n')) {
    if (!line.startsWith('>')) continue;
    const words = line.slice(1).split(' ');
    const [db, accession] = words[0].split('|');
    const isField = (w: string) => /^[A-Z][A-Z]=/.test(w);
    const firstField = words.findIndex((w, i) => i > 0 && isField(w));
    const os = words.findIndex((w) => w.startsWith('OS='));
    const osEnd = words.findIndex((w, i) => i > os && isField(w));
    const ox = words.find((w) => w.startsWith('OX='));
    if (byAccession.has(accession)) continue;
    byAccession.set(accession, {
      taxId: ox ? Number(ox.slice(3)) : -1,
      reviewed: db === 'sp' ? 1 : 0,
      protein: words.slice(1, firstField < 0 ? undefined : firstField).join(' '),
      organism:
        os < 0
          ? ''
          : words
              .slice(os, osEnd < 0 ? undefined : osEnd)
              .join(' ')
              .slice(3),
    });
  }
  return byAccession;
}

describe('the bundled sample with its taxonomy', () => {
  it('holds exactly the nodes on the lineages of the sample’s taxIds, with NCBI’s parents, ranks and scientific names', () => {
    const parent = new Map(rows('nodes.dmp').map((f) => [Number(f[0]), Number(f[1])]));
    const rank = new Map(rows('nodes.dmp').map((f) => [Number(f[0]), f[2]]));
    const name = new Map(
      rows('names.dmp')
        .filter((f) => f[3] === 'scientific name')
        .map((f) => [Number(f[0]), f[1]]),
    );
    const lineageNodes = new Set<number>();
    for (const taxId of new Set(table.taxIds)) {
      for (let t = taxId; parent.has(t) && !lineageNodes.has(t); t = parent.get(t)!) lineageNodes.add(t);
    }
    const expected = [...lineageNodes].sort((a, b) => a - b);
    // data/taxdump is pruned to these lineages already (data/README.md): every one of its 11,094 nodes is kept.
    expect(expected).toHaveLength(11_094);
    expect(taxonomy.taxIds).toEqual(expected);
    expect(taxonomy.parents).toEqual(expected.map((t) => parent.get(t)));
    expect(taxonomy.ranks).toEqual(expected.map((t) => rank.get(t)));
    expect(taxonomy.names).toEqual(expected.map((t) => name.get(t)));
    expect(taxonomy.formatVersion).toBe(3);
    expect(manifest.totals.taxonomyNodes).toBe(11_094);
    expect(manifest.taxonomy!.nodes).toBe(11_094);
    // 137 of the sample's taxIds could not be placed (data/README.md): their accessions have no lineage.
    const unplaced = table.taxIds.filter((t) => !parent.has(t));
    expect(new Set(unplaced).size).toBe(137);
    expect(manifest.totals.accessionsWithoutLineage).toBe(unplaced.length);
  });

  it('counts, per node, the distinct peptides with an accession at or below it, and those all of whose accessions are (brute force)', () => {
    const index = new Map(taxonomy.taxIds.map((t, i) => [t, i]));
    const taxIdOf = new Map(table.accessions.map((a, i) => [a, table.taxIds[i]]));
    const lineages = new Map<number, number[]>();
    const lineageOf = (taxId: number) => {
      let path = lineages.get(taxId);
      if (!path) {
        path = [];
        for (let i = index.get(taxId); i !== undefined; i = index.get(taxonomy.parents[i])) {
          path.push(i);
          if (taxonomy.parents[i] === taxonomy.taxIds[i]) break;
        }
        lineages.set(taxId, path);
      }
      return path;
    };
    const counts = new Array<number>(taxonomy.taxIds.length).fill(0);
    // Specific: the nodes common to every lineage of a peptide's accessions (those with a lineage).
    const specific = new Array<number>(taxonomy.taxIds.length).fill(0);
    for (const { accessions } of dataset.peptides.values()) {
      const paths = accessions.map((a) => lineageOf(taxIdOf.get(a)!)).filter((path) => path.length > 0);
      const nodes = new Set(paths.flat());
      for (const node of nodes) counts[node]++;
      for (const node of paths[0] ?? []) if (paths.every((path) => path.includes(node))) specific[node]++;
    }
    expect(taxonomy.peptides).toEqual(counts);
    expect(taxonomy.specificPeptides).toEqual(specific);
    // A peptide shared by two species is specific to neither: some nodes count fewer specific peptides.
    expect(specific.some((n, i) => n < counts[i])).toBe(true);
    // The root counts every peptide with an accession with a lineage: nearly all of them, not all.
    expect(counts[0]).toBeLessThan(manifest.totals.peptides);
    expect(counts[0]).toBeGreaterThan(manifest.totals.peptides * 0.98);
    expect(taxonomy.peptides[taxonomy.taxIds.indexOf(2)]).toBeGreaterThan(0); // Bacteria
  });

  it('counts, per accession, the stored peptides that list it (a count over the peptides)', () => {
    const expected = new Map<string, number>();
    for (const { accessions } of dataset.peptides.values())
      for (const accession of accessions) expected.set(accession, (expected.get(accession) ?? 0) + 1);
    const { accessions, accessionEnds } = readAccessionTable(out);
    const counts = readPeptideCounts(out)!;
    expect(counts.length).toBe(manifest.accessions.count);
    const wrong = counts.flatMap((count, rank) => {
      const accession = accessions.slice(rank === 0 ? 0 : accessionEnds[rank - 1], accessionEnds[rank]);
      return count === (expected.get(accession) ?? 0) ? [] : [`${accession}: ${count} vs ${expected.get(accession)}`];
    });
    expect(wrong).toEqual([]);
    expect(counts.reduce((a, b) => a + b, 0)).toBeGreaterThan(manifest.totals.peptides); // shared peptides count twice
  });

  it('the protein table is every accession’s first header: taxId, sp|, protein and organism names', () => {
    const expected = headers();
    expect(table.accessions).toEqual([...expected.keys()].sort());
    const column = <K extends 'taxId' | 'reviewed' | 'protein' | 'organism'>(key: K) =>
      table.accessions.map((a) => expected.get(a)![key]);
    expect(table.taxIds).toEqual(column('taxId'));
    expect(table.reviewed).toEqual(column('reviewed'));
    expect(table.proteins).toEqual(column('protein'));
    expect(table.organisms).toEqual(column('organism'));
    expect(table.reviewed.filter((r) => r === 1)).toHaveLength(2_765); // data/README.md
    expect(manifest.totals.reviewedAccessions).toBe(2_765);
    const pages = manifest.proteins!.pages;
    expect(pages.map((p) => p.accessions)).toEqual([...Array(8).fill(2048), 17_602 - 8 * 2048]);
    pages.forEach((page, i) =>
      expect([page.firstAccession, page.lastAccession]).toEqual([
        table.accessions[i * 2048],
        table.accessions[Math.min(i * 2048 + 2047, 17_601)],
      ]),
    );
  });

  it('each shard’s reviewed column is its accessions’ flags', () => {
    const reviewed = new Map(table.accessions.map((a, i) => [a, table.reviewed[i]]));
    let checked = 0;
    const wrong: string[] = [];
    for (const { entry, shard } of dataset.shards) {
      // A plain loop: a deep equality over every shard's whole column is slow and says no more.
      expect(shard.reviewed!.length).toBe(shard.accessionEnds.length);
      shard.accessionEnds.forEach((end, a) => {
        const accession = shard.accessions.slice(a === 0 ? 0 : shard.accessionEnds[a - 1], end);
        if (shard.reviewed![a] !== reviewed.get(accession)) wrong.push(`${entry.file}: ${accession}`);
      });
      checked += shard.accessionEnds.length;
    }
    expect(wrong.slice(0, 5)).toEqual([]);
    expect(checked).toBeGreaterThan(17_602);
  });
});

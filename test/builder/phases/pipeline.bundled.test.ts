// The bundled sample built as npm start builds it (data/uniprot-sample.fasta.gz with --taxdump data/taxdump),
// checked against what this file computes on its own: the taxonomy (nodes.dmp and names.dmp read with a plain
// split), the lineage nodes of the sample's taxIds, every node's peptide count (a brute-force set union over the
// stored peptides), the protein table (headers parsed word by word) and each shard's reviewed column.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import type {
  AccessionTable,
  Manifest,
  ProteinPage,
  Shard,
  ShardEntry,
  TaxonomyFile,
} from '../../../runtime/model/format.js';
import { decodeShard } from '../../../runtime/model/shardCodec.js';
import {
  bundledDataset,
  readAccessionTable,
  readManifest,
  readPeptideCounts,
  readProteinTable,
  readStored,
  readTaxonomyFile,
  SAMPLE_FASTA,
  SAMPLE_TAXDUMP,
  shardEntries,
} from '../../helpers/datasets.js';
import { lettersText } from '../../helpers/letters.js';

/**
 * The dataset's shards, each decoded with the accession table its ranks point into (as datasets.ts readDataset reads
 * them, without ordering each peptide's ranks: only sets and counts are checked here), every stored peptide's ranks by
 * sequence, and each rank's accession.
 */
interface Stored {
  shards: { entry: ShardEntry; shard: Shard & AccessionTable }[];
  peptides: Map<string, Uint32Array>;
  names: string[];
}

function readShards(dir: string, compression: Manifest['compression']): Stored {
  const accessionTable = readAccessionTable(dir);
  const { accessions, accessionEnds } = accessionTable;
  const names = Array.from(accessionEnds, (end, a) => accessions.slice(a === 0 ? 0 : accessionEnds[a - 1], end));
  const peptides = new Map<string, Uint32Array>();
  const shards = shardEntries(dir).map((entry) => {
    const shard = { ...decodeShard(readStored(dir, entry.file, compression), names.length), ...accessionTable };
    const letters = lettersText(shard.sequences);
    for (let p = 0; p < shard.accessionRefEnds.length; p++) {
      const refs = shard.accessionRefs.subarray(p === 0 ? 0 : shard.accessionRefEnds[p - 1], shard.accessionRefEnds[p]);
      peptides.set(letters.slice(p === 0 ? 0 : shard.sequenceEnds[p - 1], shard.sequenceEnds[p]), refs);
    }
    return { entry, shard };
  });
  return { shards, peptides, names };
}

let manifest: Manifest;
let dataset: Stored;
let taxonomy: TaxonomyFile;
let table: Omit<ProteinPage, 'formatVersion'>;
let out: string;

beforeAll(async () => {
  // The shared build of the bundled sample, as npm start builds it (its views are files of their own).
  out = await bundledDataset();
  manifest = readManifest(out);
  dataset = readShards(out, manifest.compression);
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
    // The nodes of a set of accessions, worked out once per set (most peptides share theirs with others).
    const nodesOf = new Map<string, { nodes: number[]; common: number[] }>();
    for (const ranks of dataset.peptides.values()) {
      const set = ranks.length === 1 ? String(ranks[0]) : ranks.join(' ');
      let found = nodesOf.get(set);
      if (!found) {
        const accessions = Array.from(ranks, (rank) => dataset.names[rank]);
        const paths = accessions.map((a) => lineageOf(taxIdOf.get(a)!)).filter((path) => path.length > 0);
        found = {
          nodes: [...new Set(paths.flat())],
          common: (paths[0] ?? []).filter((node) => paths.every((path) => path.includes(node))),
        };
        nodesOf.set(set, found);
      }
      for (const node of found.nodes) counts[node]++;
      for (const node of found.common) specific[node]++;
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
    for (const ranks of dataset.peptides.values())
      for (const rank of ranks) {
        const accession = dataset.names[rank];
        expected.set(accession, (expected.get(accession) ?? 0) + 1);
      }
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
    // The accessions whose flag is wrong, worked out once per column (shards read with one table share theirs).
    const wrongOf = new Map<Uint8Array, string[]>();
    for (const { entry, shard } of dataset.shards) {
      // A plain loop: a deep equality over every shard's whole column is slow and says no more.
      expect(shard.reviewed!.length).toBe(shard.accessionEnds.length);
      let wrongHere = wrongOf.get(shard.reviewed!);
      if (!wrongHere) {
        const found: string[] = [];
        shard.accessionEnds.forEach((end, a) => {
          const accession = shard.accessions.slice(a === 0 ? 0 : shard.accessionEnds[a - 1], end);
          if (shard.reviewed![a] !== reviewed.get(accession)) found.push(accession);
        });
        wrongOf.set(shard.reviewed!, (wrongHere = found));
      }
      for (const accession of wrongHere) wrong.push(`${entry.file}: ${accession}`);
      checked += shard.accessionEnds.length;
    }
    expect(wrong.slice(0, 5)).toEqual([]);
    expect(checked).toBeGreaterThan(17_602);
  });
});

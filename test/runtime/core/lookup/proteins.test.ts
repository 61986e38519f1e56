// The protein table look-up (runtime/core/proteins.ts) over the bundled dataset: every field of random accessions
// (first and last of pages included) equals the table read straight from its files; an accession the table lacks
// keeps what the shard said; pages are read once and then answered from the cache, and a small cache evicts them.
// The sequence table look-up: each accession's residues equal its first record's in the FASTA (read here), through a
// tree of inner pages; none for an accession the table lacks, or for a dataset built without sequences.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Dataset } from '../../../../runtime/core/storage/dataset.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { proteinsOf, sequencesOf } from '../../../../runtime/core/lookup/proteins.js';
import { FileSource } from '../../../../runtime/entries/node/fileSource.js';
import { CountingSource } from '../../../helpers/countingSource.js';
import {
  build,
  bundledDataset,
  noTaxonomyDataset,
  readManifest,
  readProteinTable,
  removeTempDirs,
  sampleSubset,
  tempDir,
} from '../../../helpers/datasets.js';
import { referenceFasta } from '../../../helpers/reference.js';
import { prng } from '../../../helpers/prng.js';

let dir: string;
let table: ReturnType<typeof readProteinTable>;

beforeAll(async () => {
  dir = await bundledDataset();
  table = readProteinTable(dir);
}, 180_000);
afterAll(removeTempDirs);

const expected = (i: number) => ({
  acc: table.accessions[i],
  taxId: table.taxIds[i],
  reviewed: table.reviewed[i] === 1,
  protein: table.proteins[i] || null,
  organism: table.organisms[i] || null,
});

describe('proteinsOf', () => {
  it("answers each accession's row of the protein table, in the order asked", async () => {
    const dataset = await Dataset.open(new FileSource(dir));
    const random = prng(11);
    const pageEdges = readManifest(dir).proteins!.pages.flatMap((p) => [p.firstAccession, p.lastAccession]);
    const picks = [
      ...pageEdges.map((acc) => table.accessions.indexOf(acc)),
      ...Array.from({ length: 500 }, () => Math.floor(random() * table.accessions.length)),
    ];
    const known = picks.map((i) => ({ acc: table.accessions[i], taxId: -7, reviewed: false }));
    expect(await proteinsOf(dataset, known)).toEqual(picks.map(expected));
    expect(table.reviewed.filter((r) => r === 1).length).toBe(readManifest(dir).totals.reviewedAccessions);
  });

  it('keeps what the shard said for an accession the table lacks (names null)', async () => {
    const dataset = await Dataset.open(new FileSource(dir));
    const absent = [
      { acc: '0NOTHERE', taxId: 9606, reviewed: true },
      { acc: 'ZZZZZZZZ', taxId: -1, reviewed: false },
    ];
    expect(await proteinsOf(dataset, absent)).toEqual(absent.map((a) => ({ ...a, protein: null, organism: null })));
  });

  it('reads a page once, then answers from the cache; a cache too small for two pages reads it again', async () => {
    const source = new CountingSource(new FileSource(dir));
    const dataset = await Dataset.open(source);
    const ask = [{ acc: table.accessions[5], taxId: 0, reviewed: false }];
    await Promise.all([proteinsOf(dataset, ask), proteinsOf(dataset, ask)]);
    await proteinsOf(dataset, ask);
    expect(source.reads.filter((f) => f.startsWith('proteins-'))).toHaveLength(1);
    const tiny = new CountingSource(new FileSource(dir));
    const small = await Dataset.open(tiny, { cacheBytes: 1000 }); // holds the last file read, nothing more
    const other = [{ acc: table.accessions[table.accessions.length - 1], taxId: 0, reviewed: false }];
    for (const a of [ask, other, ask]) await proteinsOf(small, a);
    const pages = readManifest(dir).proteins!.pages;
    expect(tiny.reads.filter((f) => f === pages[0].file)).toHaveLength(2);
    expect(tiny.reads.filter((f) => f === pages[pages.length - 1].file)).toHaveLength(1);
  });
});

describe('sequencesOf', () => {
  it("answers each accession's first record's residues, read through inner pages; none for one the table lacks", async () => {
    const fasta = sampleSubset(400);
    const out = join(tempDir('sequences-tree'), 'dataset');
    // Pages of two accessions: 200 leaves, past the root's 100, so an inner level.
    await build([fasta], out, { sequences: true, sequencePageAccessions: 2 });
    expect(readManifest(out).sequences?.levels).toBe(2);
    const want = new Map<string, string>();
    for (const { accession, sequence } of referenceFasta(readFileSync(fasta)))
      if (!want.has(accession)) want.set(accession, sequence);
    const dataset = await Dataset.open(new FileSource(out));
    const got = await sequencesOf(dataset, [...want.keys(), '0NOTHERE', 'ZZZZZZZZ']);
    expect(new Map([...got].sort())).toEqual(new Map([...want].sort()));
  });

  it('answers none for a dataset built without sequences', async () => {
    const dataset = await Dataset.open(new FileSource(await noTaxonomyDataset()));
    expect(dataset.manifest.sequences).toBeUndefined();
    expect(await sequencesOf(dataset, [table.accessions[0]])).toEqual(new Map());
  });
});

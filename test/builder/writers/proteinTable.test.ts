// Tests builder/writers/proteinTable.ts: writeProteinPages cuts the accession-ordered columns into pages of the given
// size (2,048 by default; the last may hold fewer), each a gzip-compressed JSON ProteinPage named by the first 20 hex
// digits of its stored bytes' sha256, whose manifest entry describes the file and its first and last accession; the
// pages concatenate back to the columns; past the root limit, inner pages (proteins-index-) span their pages and
// proteinPageFiles/datasetFiles list them. writeAccessionPages' pages, read with an independent msgpack decoder and
// LEB128 reader, hold the same columns in pages of the size given, under inner pages past the root limit;
// AccessionTableWriter, fed in byte order, writes the table in the (random) rank order it is given across its runs of
// 65,536 accessions and its buckets of ranks, any UTF-8 text byte for byte, and leaves no file of its own behind.
import { decode } from '@msgpack/msgpack';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import {
  accessionPageFiles,
  AccessionTableWriter,
  proteinPageFiles,
  writeAccessionPages,
  writeProteinPages,
} from '../../../builder/writers/proteinTable.js';
import { datasetFiles } from '../../../builder/writers/publish.js';
import type { AccessionPageEntry, Manifest, ProteinPage, ProteinPageEntry } from '../../../runtime/model/format.js';
import { accessionColumns } from '../../helpers/accessionColumns.js';
import { removeTempDirs, tempDir } from '../../helpers/datasets.js';
import { prng } from '../../helpers/prng.js';

afterAll(removeTempDirs);

/** n accessions, ascending, with varied columns (names with quotes, non-ASCII, empty). */
function columns(n: number) {
  const sorted = Array.from({ length: n }, (_, i) => `A${String(i).padStart(6, '0')}`);
  return {
    sorted,
    taxIds: Int32Array.from(sorted, (_, i) => (i % 7 === 0 ? -1 : 1000 + (i % 13))),
    reviewed: Uint8Array.from(sorted, (_, i) => (i % 3 === 0 ? 1 : 0)),
    proteins: sorted.map((_, i) => (i % 5 === 0 ? '' : `Protein "${i}" β`)),
    organisms: sorted.map((_, i) => (i % 4 === 0 ? '' : `Organism ${i % 9} (strain \\${i})`)),
  };
}

function pagesOf(dir: string, files: string[]): ProteinPage[] {
  return files.map((file) => JSON.parse(gunzipSync(readFileSync(join(dir, file))).toString('utf8')) as ProteinPage);
}

describe('writeProteinPages', () => {
  it('writes pages of 2,048 accessions (the last fewer) that concatenate back to the columns', () => {
    const dir = tempDir('protein-pages');
    const table = columns(2048 * 2 + 5);
    const { pages: entries, levels } = writeProteinPages(dir, accessionColumns(table), 'gzip');
    expect(levels).toBeUndefined();
    expect(entries.map((e) => e.accessions)).toEqual([2048, 2048, 5]);
    expect(readdirSync(dir).sort()).toEqual(entries.map((e) => e.file).sort());
    const pages = pagesOf(
      dir,
      entries.map((e) => e.file),
    );
    expect(pages.every((p) => p.formatVersion === 3)).toBe(true);
    expect(pages.flatMap((p) => p.accessions)).toEqual(table.sorted);
    expect(pages.flatMap((p) => p.taxIds)).toEqual(Array.from(table.taxIds));
    expect(pages.flatMap((p) => p.reviewed)).toEqual(Array.from(table.reviewed));
    expect(pages.flatMap((p) => p.proteins)).toEqual(table.proteins);
    expect(pages.flatMap((p) => p.organisms)).toEqual(table.organisms);
    for (const page of pages)
      expect(Object.keys(page).sort()).toEqual([
        'accessions',
        'formatVersion',
        'organisms',
        'proteins',
        'reviewed',
        'taxIds',
      ]);
  });

  it('names each page by its sha256; its entry gives bytes and first and last accession', () => {
    const dir = tempDir('protein-entries');
    const table = columns(25);
    const entries = writeProteinPages(dir, accessionColumns(table), 'gzip', 10).pages;
    expect(entries).toHaveLength(3);
    entries.forEach((entry, i) => {
      const bytes = readFileSync(join(dir, entry.file));
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      const page = JSON.parse(gunzipSync(bytes).toString('utf8')) as ProteinPage;
      expect(entry).toEqual({
        file: `proteins-${sha256.slice(0, 20)}.json.gz`,
        sha256,
        bytes: bytes.length,
        firstAccession: table.sorted[i * 10],
        lastAccession: table.sorted[Math.min(i * 10 + 9, 24)],
        accessions: page.accessions.length,
      });
      expect(page.accessions[0]).toBe(entry.firstAccession);
      expect(page.accessions.at(-1)).toBe(entry.lastAccession);
    });
    // UTF-8 JSON: the non-ASCII names come back as they were.
    expect(pagesOf(dir, [entries[0].file])[0].proteins[1]).toBe('Protein "1" β');
  });

  it('writes one page for a table that fits, none for an empty one', () => {
    const one = tempDir('protein-one');
    expect(writeProteinPages(one, accessionColumns(columns(2048)), 'gzip').pages.map((e) => e.accessions)).toEqual([
      2048,
    ]);
    const none = tempDir('protein-none');
    expect(writeProteinPages(none, accessionColumns(columns(0)), 'gzip')).toEqual({ pages: [] });
    expect(readdirSync(none)).toEqual([]);
  });
});

describe('writeProteinPages, a tree of pages', () => {
  it.each(['gzip', 'br'] as const)(
    'past rootLimit pages adds inner pages (proteins-index-) whose entries span their pages (%s)',
    (compression) => {
      const dir = tempDir('protein-tree');
      const table = columns(95);
      // 10 leaf pages of 10 (the last of 5) under inner pages of 4: 3, a root of 3 (at most 3).
      const proteins = writeProteinPages(dir, accessionColumns(table), compression, 10, {
        rootLimit: 3,
        innerPages: 4,
      });
      expect(proteins.levels).toBe(2);
      const decompress = compression === 'gzip' ? gunzipSync : brotliDecompressSync;
      const read = <T>(entry: { file: string; sha256: string; bytes: number }): T => {
        const bytes = readFileSync(join(dir, entry.file));
        expect([createHash('sha256').update(bytes).digest('hex'), bytes.length]).toEqual([entry.sha256, entry.bytes]);
        return JSON.parse(decompress(bytes).toString('utf8')) as T;
      };
      const leaves = proteins.pages.flatMap((entry) => {
        expect(entry.file).toBe(
          `proteins-index-${entry.sha256.slice(0, 20)}.json${compression === 'gzip' ? '.gz' : '.br'}`,
        );
        const inner = read<{ formatVersion: number; pages: ProteinPageEntry[] }>(entry);
        expect(Object.keys(inner)).toEqual(['formatVersion', 'pages']);
        expect(inner.pages.length).toBeLessThanOrEqual(4);
        expect(entry).toEqual({
          file: entry.file,
          sha256: entry.sha256,
          bytes: entry.bytes,
          firstAccession: inner.pages[0].firstAccession,
          lastAccession: inner.pages.at(-1)!.lastAccession,
          accessions: inner.pages.reduce((s, p) => s + p.accessions, 0),
        });
        return inner.pages;
      });
      expect(proteins.pages.map((p) => p.accessions)).toEqual([40, 40, 15]);
      expect(leaves.map((p) => p.accessions)).toEqual([...Array(9).fill(10), 5]);
      const pages = leaves.map((entry) => read<ProteinPage>(entry));
      expect(pages.flatMap((p) => p.accessions)).toEqual(table.sorted);
      expect(pages.flatMap((p) => p.organisms)).toEqual(table.organisms);
      leaves.forEach((entry, i) =>
        expect([entry.firstAccession, entry.lastAccession]).toEqual([
          pages[i].accessions[0],
          pages[i].accessions.at(-1),
        ]),
      );
      // Every page of the table: inner pages, then leaves; datasetFiles lists them after the accession table.
      const files = [...proteins.pages, ...leaves].map((p) => p.file);
      expect(readdirSync(dir).sort()).toEqual([...files].sort());
      const manifest = {
        format: 'digested-peptides',
        formatVersion: 3,
        compression,
        shards: [],
        proteins,
      } as unknown as Manifest;
      expect(proteinPageFiles(manifest, dir)).toEqual(files);
      expect(datasetFiles(manifest, dir)).toEqual(files);
    },
  );

  it('keeps one level, with no `levels`, while the pages fit in the root', () => {
    const proteins = writeProteinPages(tempDir('protein-root'), accessionColumns(columns(30)), 'gzip', 10, {
      rootLimit: 3,
      innerPages: 4,
    });
    expect(Object.keys(proteins)).toEqual(['pages']);
    expect(proteins.pages.map((p) => p.file.startsWith('proteins-') && !p.file.startsWith('proteins-index-'))).toEqual([
      true,
      true,
      true,
    ]);
  });
});

/** Unsigned LEB128 values (docs/format.md), read byte by byte. */
function leb128(bytes: Uint8Array): number[] {
  const values: number[] = [];
  for (let i = 0, value = 0, shift = 0; i < bytes.length; i++) {
    value += (bytes[i] & 127) * 2 ** shift;
    shift += 7;
    if (bytes[i] < 128) [values[values.length], value, shift] = [value, 0, 0];
  }
  return values;
}

/** The accession pages of a (gzip) table, in rank order, read with an independent msgpack decoder and LEB128 reader. */
function readPages(dir: string, root: Manifest['accessions'], decompress: (bytes: Buffer) => Buffer = gunzipSync) {
  let entries = root.pages;
  for (let level = root.levels ?? 1; level > 1; level--)
    entries = entries.flatMap(
      (e) =>
        (JSON.parse(decompress(readFileSync(join(dir, e.file))).toString('utf8')) as { pages: AccessionPageEntry[] })
          .pages,
    );
  return entries.map((entry) => {
    const raw = decode(decompress(readFileSync(join(dir, entry.file)))) as {
      formatVersion: number;
      accessions: string;
      taxIds: Uint8Array;
      reviewed: Uint8Array;
    };
    expect(Object.keys(raw).sort()).toEqual(['accessions', 'formatVersion', 'reviewed', 'taxIds']);
    expect(raw.formatVersion).toBe(3);
    const accessions = raw.accessions.split('\n');
    expect(accessions).toHaveLength(entry.accessions);
    return { entry, accessions, taxIds: leb128(raw.taxIds).map((t) => t - 1), reviewed: Array.from(raw.reviewed) };
  });
}

describe('writeAccessionPages', () => {
  it.each([
    ['gzip', '.gz', gunzipSync],
    ['br', '.br', brotliDecompressSync],
  ] as const)(
    'writes every accession with its taxId (+1 as varint) and reviewed flag, one page named by its stored bytes (%s)',
    (compression, suffix, decompress) => {
      const dir = tempDir('accession-table');
      const table = columns(3000);
      const root = writeAccessionPages(dir, accessionColumns(table), compression);
      expect([root.count, root.pages.length, root.levels]).toEqual([3000, 1, undefined]);
      const bytes = readFileSync(join(dir, root.pages[0].file));
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      expect(root.pages[0]).toEqual({
        file: `accessions-${sha256.slice(0, 20)}.msgpack${suffix}`,
        sha256,
        bytes: bytes.length,
        accessions: 3000,
      });
      const [page] = readPages(dir, root, decompress);
      expect(page.accessions).toEqual(table.sorted);
      expect(page.taxIds).toEqual(Array.from(table.taxIds));
      expect(page.reviewed).toEqual(Array.from(table.reviewed));
    },
  );

  it('writes pages of the size given (the last fewer) under inner pages past the root limit, which concatenate back to the columns', () => {
    const dir = tempDir('accession-pages');
    const table = columns(1000);
    const root = writeAccessionPages(dir, accessionColumns(table), 'gzip', 64, { rootLimit: 3, innerPages: 4 });
    // 16 pages (15 of 64, one of 40) under 4 inner pages of 4, under a root of... 4 > 3: one more level of 1.
    expect([root.count, root.levels, root.pages.length]).toEqual([1000, 3, 1]);
    const pages = readPages(dir, root);
    expect(pages.map((p) => p.entry.accessions)).toEqual([...Array(15).fill(64), 40]);
    expect(pages.flatMap((p) => p.accessions)).toEqual(table.sorted);
    expect(pages.flatMap((p) => p.taxIds)).toEqual(Array.from(table.taxIds));
    expect(pages.flatMap((p) => p.reviewed)).toEqual(Array.from(table.reviewed));
    const files = accessionPageFiles({ accessions: root, compression: 'gzip' } as Manifest, dir);
    expect(files.sort()).toEqual(readdirSync(dir).sort());
    expect(files).toHaveLength(16 + 4 + 1);
  });

  it('writes no page for no accessions', () => {
    expect(writeAccessionPages(tempDir('accession-none'), accessionColumns(columns(0)), 'gzip')).toEqual({
      count: 0,
      pages: [],
    });
  });
});

describe('AccessionTableWriter', () => {
  /** A seeded random rank order: rankOf[i] is the rank of the i-th accession handed on. */
  function permutation(n: number, seed: number): Uint32Array {
    const next = prng(seed);
    const order = Uint32Array.from({ length: n }, (_, i) => i);
    for (let i = n - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    return order;
  }

  /** The first index where two lists differ (a length of one is where the shorter ends), or -1. */
  const firstDifference = <T>(a: T[], b: T[]) =>
    a.length !== b.length ? Math.min(a.length, b.length) : a.findIndex((x, i) => x !== b[i]);

  /** Writes `accessions` (handed on in their order) with `rankOf` and returns the pages read back and the folders. */
  function written(
    label: string,
    accessions: string[],
    rankOf: Uint32Array,
    pageAccessions: number,
    bucketRanks?: number,
  ) {
    const [dir, work] = [tempDir(label), join(tempDir(`${label}-work`), 'text')];
    const writer = new AccessionTableWriter(dir, 'gzip', work, bucketRanks);
    for (const accession of accessions) writer.add(accession);
    // By rank: the i-th accession's taxId is i, its reviewed flag i % 2 (so each column says whose it is).
    const taxIds = new Int32Array(accessions.length);
    const reviewed = new Uint8Array(accessions.length);
    rankOf.forEach((rank, i) => ([taxIds[rank], reviewed[rank]] = [i, i % 2]));
    const root = writer.finish(rankOf, { taxIds, reviewed }, pageAccessions);
    return { root, dir, work, pages: readPages(dir, root), taxIds, reviewed };
  }

  it('writes accessions handed on one by one, across runs of 65,536 and buckets of ranks, in the rank order given', () => {
    const table = columns(140_000);
    const rankOf = permutation(140_000, 5);
    const byRank: string[] = [];
    rankOf.forEach((rank, i) => (byRank[rank] = table.sorted[i]));
    for (const bucketRanks of [undefined, 7_000, 50_000]) {
      const { root, dir, work, pages, taxIds, reviewed } = written(
        `accession-writer-${bucketRanks}`,
        table.sorted,
        rankOf,
        50_000,
        bucketRanks,
      );
      expect(root.count).toBe(140_000);
      expect(pages.map((p) => p.accessions.length)).toEqual([50_000, 50_000, 40_000]);
      // Where each column first differs (-1: nowhere), not a diff of 140,000 values.
      expect(
        firstDifference(
          pages.flatMap((p) => p.accessions),
          byRank,
        ),
      ).toBe(-1);
      expect(
        firstDifference(
          pages.flatMap((p) => p.taxIds),
          Array.from(taxIds),
        ),
      ).toBe(-1);
      expect(
        firstDifference(
          pages.flatMap((p) => p.reviewed),
          Array.from(reviewed),
        ),
      ).toBe(-1);
      expect(readdirSync(dir).sort()).toEqual(
        accessionPageFiles({ accessions: root, compression: 'gzip' } as Manifest, dir).sort(),
      );
      expect(existsSync(work)).toBe(false);
    }
  });

  it('keeps any UTF-8 text byte for byte, whatever bucket it lands in', () => {
    const accessions = ['P1', 'Q\u00e9', 'R\u{1F9EA}', 'S\tT', 'U"V', '\u00ff'.repeat(40), 'W'.repeat(70_000)];
    const rankOf = permutation(accessions.length, 9);
    const byRank: string[] = [];
    rankOf.forEach((rank, i) => (byRank[rank] = accessions[i]));
    for (const bucketRanks of [1, 2, 3])
      expect(
        written(`accession-utf8-${bucketRanks}`, accessions, rankOf, 3, bucketRanks).pages.flatMap((p) => p.accessions),
      ).toEqual(byRank);
  });

  it('refuses columns of another length than the accessions', () => {
    const writer = new AccessionTableWriter(
      tempDir('accession-columns'),
      'gzip',
      join(tempDir('accession-columns-work'), 'text'),
    );
    writer.add('P12345');
    expect(() => writer.finish(Uint32Array.of(0), columns(2))).toThrow(/columns of another length/);
  });
});

// Tests test/bench/capacity.ts: docs/SCALE.md's generated tables are those of the committed BENCHMARKS.json, the
// index levels equal a brute-force count of pages, and the model's arithmetic equals a hand calculation.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { capacity, indexLevels, withTables, type Measured } from './capacity.js';
import type { BenchResults } from './run.js';

describe('docs/SCALE.md', () => {
  it('holds the tables of the committed BENCHMARKS.json (run npx tsx test/bench/capacity.ts after a bench run)', () => {
    const doc = readFileSync('docs/SCALE.md', 'utf8');
    expect(withTables(doc, JSON.parse(readFileSync('BENCHMARKS.json', 'utf8')) as BenchResults)).toBe(doc);
  });
});

describe('indexLevels', () => {
  it('counts the levels a tree of 256-shard leaves, 1,024-page inner pages and a ≤ 256 root has', () => {
    /** Brute force: group level by level until the root lists at most 256 pages. */
    const brute = (n: number) => {
      if (n <= 128) return 0;
      let levels = 1;
      for (let pages = Math.ceil(n / 256); pages > 256; levels++) pages = Math.ceil(pages / 1024);
      return levels;
    };
    for (const n of [0, 128, 129, 38_000, 65_536, 65_537, 10_000_000, 67_108_864, 67_108_865, 1e11])
      expect(indexLevels(n), String(n)).toBe(brute(n));
    expect([
      indexLevels(128),
      indexLevels(65_536),
      indexLevels(65_537),
      indexLevels(10_000_000),
      indexLevels(67_108_865),
    ]).toEqual([0, 1, 2, 2, 3]);
  });
});

describe('capacity', () => {
  it('equals a hand calculation', () => {
    const m: Measured = {
      residuesPerCpuSecond: 1e6,
      repeatedShare: 0.5,
      rssMb: 1000,
      rssSlopeMbPer570k: 100,
      bytesPerPeptide: 10,
      peptidesPerShard: 1000,
      tempBytesPerResidue: 8,
      accessionTableBytesPerAccession: 5,
      proteinPagesBytesPerAccession: 20,
      leafPageBytes: 10_240,
      innerPageBytes: 61_440,
      rootEntryBytes: 300,
      shardBytes: 20_480,
      viewShare: 0.25,
      viewCpuFactor: 1.5,
      viewTempFactor: 1.25,
    };
    const c = capacity(
      m,
      { name: 'x', proteins: 5_700_000, residues: 3.6e9, peptides: 2.56e9, accessionLength: 10, source: 'hand' },
      [1, 4],
    );
    // 2.56e9 peptides / 1,000 = 2,560,000 shards; 10,000 leaf pages > 256: 2 levels, 10 inner pages.
    expect(c.shards).toBe(2_560_000);
    expect(c.indexLevels).toBe(2);
    // 5.7 M proteins / 2,048 = 2,784 protein pages (+ 3 inner); files = 2,560,000 + 10,000 + 10 + 2,784 + 3 + 3.
    // (A third level: test 'a 3-level tree' below.)
    expect(c.files).toBe(2_572_800);
    expect(c.folderDigits).toBe(2); // 2,572,800 / 256 = 10,050 ≤ 20,000; / 16 = 160,800 > 20,000
    // Root: 10 inner shard pages + 3 inner protein pages = 13 entries × 300 B + 3,000 B.
    expect(c.manifestKb).toBeCloseTo((3000 + 13 * 300) / 1024, 9);
    expect(c.storageGb).toBeCloseTo((2.56e9 * 10 * 1.15) / 1e9, 9);
    expect(c.storageWithViewGb).toBeCloseTo((2.56e9 * 10 * 1.15 * 1.25) / 1e9, 9);
    expect(c.cpuHours).toBeCloseTo(1, 9); // 3.6e9 / 1e6 s
    expect(c.cpuWithViewHours).toBeCloseTo(1.5, 9);
    // With the view: one 4-core runner: 5,400 s / 4; four runners: (0.5 + 0.5 / 4) × 5,400 / 4 s.
    expect(c.matrix.map((x) => x.hours)).toEqual([0.375, (0.625 * 1.5) / 4].map((h) => expect.closeTo(h, 9)));
    expect(c.matrix[1].tempGbPerPart).toBeCloseTo((3.6e9 * 8 * 1.25) / 4 / 1e9, 9);
    expect(c.rssGb).toBeCloseTo((1000 + 100 * 9) / 1024, 9);
    expect(c.accessionTableMb).toBeCloseTo(28.5, 9);
    // 5.7 M accessions of 10 characters, newline-separated.
    expect(c.accessionText).toBe(5_700_000 * 11 - 1);
    expect(c.coldLocateKb).toBeCloseTo((3000 + 13 * 300 + 61_440 + 10_240) / 1024, 9);
    expect(c.coldShardKb).toBeCloseTo((3000 + 13 * 300 + 61_440 + 10_240 + 20_480) / 1024, 9);
  });

  it('counts a second level up to 256 × 1,024 leaves: 40 M shards (156,250 leaves, a root of 153 inner pages)', () => {
    const m = { peptidesPerShard: 1, leafPageBytes: 1000, innerPageBytes: 5000, rootEntryBytes: 300 } as Measured;
    const c = capacity(
      m,
      { name: 'y', proteins: 1, residues: 1, peptides: 40e6, accessionLength: 6, source: 'hand' },
      [],
    );
    expect(c.indexLevels).toBe(2);
    // Files: 40 M shards + 156,250 leaves + 153 inner pages + 1 protein page + 3.
    expect(c.files).toBe(40_000_000 + 156_250 + 153 + 1 + 3);
    // Root: 153 shard entries + 1 protein page entry; a cold lookup reads an inner page and a leaf after the manifest.
    expect(c.manifestKb).toBeCloseTo((3000 + 154 * 300) / 1024, 9);
    expect(c.coldLocateKb).toBeCloseTo((3000 + 154 * 300 + 5000 + 1000) / 1024, 9);
  });

  it('counts a third level: 100 M shards (390,625 leaves, 382 + 1 inner pages, 1 root entry)', () => {
    const m = { peptidesPerShard: 1, leafPageBytes: 1000, innerPageBytes: 5000, rootEntryBytes: 300 } as Measured;
    const c = capacity(
      m,
      { name: 'y', proteins: 1, residues: 1, peptides: 100e6, accessionLength: 6, source: 'hand' },
      [],
    );
    expect(c.indexLevels).toBe(3);
    // Files: 100 M shards + 390,625 leaves + 382 + 1 inner pages + 1 protein page + 3.
    expect(c.files).toBe(100_000_000 + 390_625 + 382 + 1 + 1 + 3);
    // Root: 1 shard entry + 1 protein page entry; a cold lookup reads 2 inner pages and a leaf after the manifest.
    expect(c.manifestKb).toBeCloseTo((3000 + 2 * 300) / 1024, 9);
    expect(c.coldLocateKb).toBeCloseTo((3000 + 2 * 300 + 2 * 5000 + 1000) / 1024, 9);
  });
});

// Tests build/slices.ts: the mass slices of a partitioned build tile the key line at partition boundaries, are
// balanced on the sample, the sample is what an independent digest of every 64th protein gives, and --part parses.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { PARTITION_KEYS } from '../../build/partitions.js';
import { keySliceOf, parsePart, sampleMassBuckets, SAMPLE_EVERY, sliceStarts } from '../../build/slices.js';
import { removeTempDirs, sampleRecords, tempDir, writeFixture } from '../helpers/datasets.js';
import { REFERENCE_ENZYMES, referenceDigest, referenceFasta, referencePeptideKey } from '../helpers/reference.js';

afterAll(removeTempDirs);

/** Sampled peptides in each slice, by brute force over the partitions. */
function sliceCounts(counts: Map<number, number>, starts: number[]): number[] {
  const sums = starts.map(() => 0);
  for (const [partition, n] of counts) {
    let slice = 0;
    while (slice + 1 < starts.length && starts[slice + 1] <= partition) slice++;
    sums[slice] += n;
  }
  return sums;
}

describe('sliceStarts', () => {
  it('cuts where the sample reaches each share (worked example)', () => {
    const counts = new Map([[10, 5], [11, 5], [12, 5], [13, 5]]);
    expect(sliceStarts(counts, 1)).toEqual([0]);
    expect(sliceStarts(counts, 2)).toEqual([0, 12]);
    expect(sliceStarts(counts, 4)).toEqual([0, 11, 12, 13]);
    // More parts than sampled partitions: the last ones are empty (they start past every sampled partition).
    expect(sliceStarts(counts, 6)).toEqual([0, 11, 12, 12, 13, 14]);
    expect(sliceStarts(new Map(), 3)).toEqual([0, 1, 1]);
  });

  it('gives N non-decreasing starts from 0, each slice within one partition of an equal share', () => {
    const sample = fc.dictionary(fc.integer({ min: 0, max: 400 }).map(String), fc.integer({ min: 1, max: 1000 }), { minKeys: 1 });
    fc.assert(
      fc.property(sample, fc.integer({ min: 1, max: 12 }), (dict, parts) => {
        const counts = new Map(Object.entries(dict).map(([p, n]) => [Number(p), n]));
        const starts = sliceStarts(counts, parts);
        expect(starts).toHaveLength(parts);
        expect(starts[0]).toBe(0);
        for (let i = 1; i < parts; i++) expect(starts[i]).toBeGreaterThanOrEqual(starts[i - 1]);
        const total = [...counts.values()].reduce((a, b) => a + b, 0);
        const largest = Math.max(...counts.values());
        const sums = sliceCounts(counts, starts);
        expect(sums.reduce((a, b) => a + b, 0)).toBe(total);
        for (const sum of sums) expect(sum).toBeLessThanOrEqual(total / parts + largest);
      }),
    );
  });
});

describe('keySliceOf', () => {
  it('tiles the key line from 0 to +inf at partition boundaries', () => {
    const starts = [0, 3, 3, 40];
    const slices = starts.map((_, i) => keySliceOf(starts, i + 1));
    expect(slices[0].lowKey).toBe(0);
    expect(slices[slices.length - 1].highKey).toBe(Infinity);
    for (let i = 1; i < slices.length; i++) expect(slices[i].lowKey).toBe(slices[i - 1].highKey);
    for (const s of slices.slice(1)) expect(s.lowKey % PARTITION_KEYS).toBe(0);
    expect(slices[1]).toEqual({ lowKey: 3 * PARTITION_KEYS, highKey: 3 * PARTITION_KEYS });
  });
});

describe('sampleMassBuckets', () => {
  it('counts the peptides of every 64th protein by 20 Da bucket, as an independent digest does', async () => {
    const fasta = writeFixture(tempDir('slices'), 'sample.fasta', sampleRecords(300));
    const options = { enzyme: 'trypsin', missedCleavages: 2, minLength: 6, maxLength: 50 };
    const expected = new Map<number, number>();
    referenceFasta(readFileSync(fasta)).forEach((protein, ordinal) => {
      if (ordinal % SAMPLE_EVERY !== 0) return;
      for (const peptide of referenceDigest(protein.sequence, REFERENCE_ENZYMES.trypsin, 2, 6, 50)) {
        const key = referencePeptideKey(peptide);
        if (key === null) continue;
        const partition = Math.floor(key / PARTITION_KEYS);
        expected.set(partition, (expected.get(partition) ?? 0) + 1);
      }
    });
    expect(expected.size).toBeGreaterThan(10);
    expect(await sampleMassBuckets([fasta], options)).toEqual(expected);
  });
});

describe('parsePart', () => {
  it('reads i/N', () => {
    expect(parsePart('1/1')).toEqual({ index: 1, count: 1 });
    expect(parsePart('3/16')).toEqual({ index: 3, count: 16 });
  });

  it.each(['0/4', '5/4', '1/0', '2', '2/4/1', 'a/b', '-1/4', '1/1001', ' 1/4'])('refuses %j naming --part', (text) => {
    expect(() => parsePart(text)).toThrow(/--part must be i\/N/);
  });
});

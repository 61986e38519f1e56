// Tests builder/phases/slices.ts: cut keys every CUT_RECORDS estimated records at bucket starts; the mass slices of a
// partitioned build start at cut keys, tile the key line and are balanced on the sample; the sample is what an
// independent digest of every 64th protein gives, by mass key and by a view's key; --part parses.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { PARTITION_KEYS } from '../../../builder/phases/partitions.js';
import {
  cutKeys,
  keySliceOf,
  parsePart,
  sampleMassBuckets,
  SAMPLE_EVERY,
  sliceStarts,
  unitCounts,
} from '../../../builder/phases/slices.js';
import { removeTempDirs, sampleRecords, tempDir, writeFixture } from '../../helpers/datasets.js';
import {
  REFERENCE_ENZYMES,
  referenceDigest,
  referenceFasta,
  referenceKey,
  referenceUnits,
} from '../../helpers/reference.js';
import { findUnimod, unimodUnits } from '../../helpers/referenceUnimod.js';
import { parseView, viewKeysOf } from '../../../builder/phases/views.js';

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
    const counts = new Map([
      [10, 5],
      [11, 5],
      [12, 5],
      [13, 5],
    ]);
    expect(sliceStarts(counts, 1)).toEqual([0]);
    expect(sliceStarts(counts, 2)).toEqual([0, 12]);
    expect(sliceStarts(counts, 4)).toEqual([0, 11, 12, 13]);
    // More parts than units: some are empty (they start where the next one does; the last unit goes to the last part).
    expect(sliceStarts(counts, 6)).toEqual([0, 11, 12, 12, 13, 13]);
    expect(sliceStarts(new Map(), 3)).toEqual([0, 0, 0]);
  });

  it('gives N non-decreasing starts from 0, each slice within one partition of an equal share', () => {
    const sample = fc.dictionary(fc.integer({ min: 0, max: 400 }).map(String), fc.integer({ min: 1, max: 1000 }), {
      minKeys: 1,
    });
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
  it('tiles the key line from 0 to +inf at the starts given', () => {
    const starts = [0, 600_000, 600_000, 8_000_000];
    const slices = starts.map((_, i) => keySliceOf(starts, i + 1));
    expect(slices[0].lowKey).toBe(0);
    expect(slices[slices.length - 1].highKey).toBe(Infinity);
    for (let i = 1; i < slices.length; i++) expect(slices[i].lowKey).toBe(slices[i - 1].highKey);
    expect(slices[1]).toEqual({ lowKey: 600_000, highKey: 600_000 });
    expect(slices[2]).toEqual({ lowKey: 600_000, highKey: 8_000_000 });
  });
});

describe('cutKeys and unitCounts', () => {
  it('cut at the first bucket after every cutRecords estimated records (worked example)', () => {
    // Estimated records: 64 × sampled. Buckets 3 (640), 4 (6,400), 5 (640), 9 (12,800), 10 (64).
    const sample = new Map([
      [4, 100],
      [3, 10],
      [5, 10],
      [9, 200],
      [10, 1],
    ]);
    expect(cutKeys(sample, 64, 7000)).toEqual([0, 5 * PARTITION_KEYS, 10 * PARTITION_KEYS]);
    expect(cutKeys(sample, 64, 1_000_000)).toEqual([0]);
    expect(unitCounts(sample, [0, 5 * PARTITION_KEYS, 10 * PARTITION_KEYS])).toEqual(
      new Map([
        [0, 110],
        [5 * PARTITION_KEYS, 210],
        [10 * PARTITION_KEYS, 1],
      ]),
    );
  });

  it('give units of at least cutRecords (but the last), under cutRecords plus one bucket, whose counts add up', () => {
    const sample = fc.dictionary(fc.integer({ min: 0, max: 400 }).map(String), fc.integer({ min: 1, max: 1000 }), {
      minKeys: 1,
    });
    fc.assert(
      fc.property(sample, fc.integer({ min: 1, max: 50_000 }), (dict, cutRecords) => {
        const counts = new Map(Object.entries(dict).map(([b, n]) => [Number(b), n]));
        const cuts = cutKeys(counts, 64, cutRecords);
        expect(cuts[0]).toBe(0);
        for (let i = 1; i < cuts.length; i++) {
          expect(cuts[i]).toBeGreaterThan(cuts[i - 1]);
          expect(cuts[i] % PARTITION_KEYS).toBe(0);
        }
        const units = unitCounts(counts, cuts);
        expect([...units.keys()]).toEqual(cuts);
        expect([...units.values()].reduce((a, b) => a + b, 0)).toBe([...counts.values()].reduce((a, b) => a + b, 0));
        const largest = Math.max(...counts.values());
        cuts.forEach((cut, i) => {
          if (i + 1 < cuts.length) expect(units.get(cut)! * 64).toBeGreaterThanOrEqual(cutRecords);
          expect(units.get(cut)! * 64).toBeLessThan(cutRecords + largest * 64 + 1);
        });
      }),
    );
  });
});

describe('sampleMassBuckets', () => {
  it('counts the peptides of every 64th protein by 20 Da bucket, and their bytes in partition files, as an independent digest does — by mass key, and by each view’s key', async () => {
    const fasta = writeFixture(tempDir('slices'), 'sample.fasta', sampleRecords(300));
    const options = { enzyme: 'trypsin', missedCleavages: 2, minLength: 6, maxLength: 50 };
    const empty = () => ({ records: new Map<number, number>(), bytes: new Map<number, number>() });
    const expected = { ...empty(), views: [empty()] };
    const count = (sample: ReturnType<typeof empty>, key: number, peptide: string) => {
      const partition = Math.floor(key / PARTITION_KEYS);
      sample.records.set(partition, (sample.records.get(partition) ?? 0) + 1);
      // A partition record: u32 key, u32 protein ordinal, u16 length, then the sequence's bytes.
      sample.bytes.set(partition, (sample.bytes.get(partition) ?? 0) + 4 + 4 + 2 + peptide.length);
    };
    const cam = Number(unimodUnits(findUnimod('Carbamidomethyl')!));
    referenceFasta(readFileSync(fasta)).forEach((protein, ordinal) => {
      if (ordinal % SAMPLE_EVERY !== 0) return;
      for (const peptide of referenceDigest(protein.sequence, REFERENCE_ENZYMES.trypsin, 2, 6, 50)) {
        const units = referenceUnits(peptide);
        if (units === null) continue;
        count(expected, referenceKey(units), peptide);
        const sites = [...peptide].filter((c) => c === 'C').length;
        if (sites > 0) count(expected.views[0], referenceKey(units + sites * cam), peptide);
      }
    });
    expect(expected.records.size).toBeGreaterThan(10);
    expect(expected.views[0].records.size).toBeGreaterThan(10);
    expect(await sampleMassBuckets([fasta], options, [viewKeysOf(parseView('Carbamidomethyl@C'))])).toEqual(expected);
    expect(await sampleMassBuckets([fasta], options)).toEqual({
      records: expected.records,
      bytes: expected.bytes,
      views: [],
    });
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

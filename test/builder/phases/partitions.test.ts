// Tests builder/phases/partitions.ts: PartitionWriter spills records (u32 key, u32 ordinal, u16 length, ASCII
// sequence, little-endian) to one file per writer in runs per mass partition, across buffer flushes (digesting into
// it: jobs.test.ts); mergePartition sorts by (key, sequence) and merges a sequence's proteins into ascending unique
// accession ranks — all checked against records parsed and results computed here.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  MAX_SPLIT_SHIFT,
  mergePartition,
  PARTITION_KEYS,
  PARTITION_BYTES,
  readSegments,
  PartitionPlan,
  PartitionWriter,
  planPartitions,
} from '../../../builder/phases/partitions.js';
import { removeTempDirs, tempDir } from '../../helpers/datasets.js';
import { prng } from '../../helpers/prng.js';
import { readPartitionRecords, type PartitionRecord } from '../../helpers/partitionRecords.js';

afterAll(removeTempDirs);

const letters = (random: () => number, n: number) =>
  Array.from({ length: n }, () => 'ACDEFGHIKLMNPQRSTVWY'[Math.floor(random() * 20)]).join('');

describe('PartitionWriter', () => {
  it('writes each record to its key’s 20 Da partition, in order, on flush, all in one file <writer>.bin', () => {
    const dir = tempDir('partitions-add');
    const writer = new PartitionWriter(dir, 'w0');
    const added: PartitionRecord[] = [
      { key: 0, ordinal: 0, sequence: 'A', places: 1 },
      { key: 199_999, ordinal: 1, sequence: 'PEPTIDE', places: 2 },
      { key: 200_000, ordinal: 2, sequence: 'KR', places: 3 },
      { key: 10_012_345, ordinal: 4_000_000_000, sequence: 'W'.repeat(1000), places: 3 },
      { key: 10_000_000, ordinal: 7, sequence: '', places: 2 },
      { key: 4_294_967_295, ordinal: 9, sequence: 'MMM', places: 1 },
    ];
    for (const r of added) writer.add(r.key, r.ordinal, r.sequence, r.places);
    expect(readdirSync(dir)).toEqual([]); // buffered until flush
    writer.flush();
    expect(writer.records).toBe(6);
    // Without a plan, a partition is a whole 20 Da bucket, named by its lowest key.
    const byPartition = new Map<number, PartitionRecord[]>();
    const low = (key: number) => Math.floor(key / 200_000) * 200_000;
    for (const r of added) byPartition.set(low(r.key), [...(byPartition.get(low(r.key)) ?? []), r]);
    expect([...writer.partitions].sort((a, b) => a - b)).toEqual([...byPartition.keys()].sort((a, b) => a - b));
    expect(readdirSync(dir)).toEqual(['w0.bin']);
    expect([...writer.segments.keys()].sort((a, b) => a - b)).toEqual([...byPartition.keys()].sort((a, b) => a - b));
    for (const [p, records] of byPartition)
      expect(readPartitionRecords(readSegments(writer.segments.get(p)!))).toEqual(records);
    // The segments tile the file: every byte belongs to exactly one partition's run.
    const runs = [...writer.segments.values()].flat().sort((a, b) => a.start - b.start);
    expect(
      runs.every(
        (s, i) => s.file === join(dir, 'w0.bin') && s.start === (i === 0 ? 0 : runs[i - 1].start + runs[i - 1].length),
      ),
    ).toBe(true);
    expect(runs.at(-1)!.start + runs.at(-1)!.length).toBe(statSync(join(dir, 'w0.bin')).size);
  });

  it('keeps every record, in order, when a partition’s buffer fills many times, and appends after a flush', () => {
    const dir = tempDir('partitions-many');
    const writer = new PartitionWriter(dir, 'big');
    const random = prng(3);
    const added: PartitionRecord[] = [];
    for (let i = 0; i < 8000; i++) {
      const r = {
        key: 3 * PARTITION_KEYS + Math.floor(random() * PARTITION_KEYS),
        ordinal: i,
        sequence: letters(random, 1 + Math.floor(random() * 40)),
        places: 1 + Math.floor(random() * 3),
      };
      added.push(r);
      writer.add(r.key, r.ordinal, r.sequence, r.places);
      if (i === 4000) writer.flush();
    }
    writer.flush();
    expect(added.reduce((s, r) => s + 10 + r.sequence.length, 0)).toBeGreaterThan(3 * 65536);
    expect(readPartitionRecords(readSegments(writer.segments.get(3 * PARTITION_KEYS)!))).toEqual(added);
    expect(writer.segments.get(3 * PARTITION_KEYS)!.length).toBeGreaterThan(3);
    expect(writer.records).toBe(8000);
    expect([...writer.partitions]).toEqual([3 * PARTITION_KEYS]);
  });
});

describe('mergePartition', () => {
  /** Writes `records` with `writers` writers (round robin) and merges partition `p`. */
  function merged(label: string, p: number, records: PartitionRecord[], rankOf: Uint32Array, writers = 2) {
    const dir = tempDir(label);
    const ws = Array.from({ length: writers }, (_, w) => new PartitionWriter(dir, `w${w}`));
    records.forEach((r, i) => ws[i % writers].add(r.key, r.ordinal, r.sequence, r.places));
    ws.forEach((w) => w.flush());
    const segments = ws.flatMap((w) => w.segments.get(p * PARTITION_KEYS) ?? []);
    return mergePartition(segments, p * PARTITION_KEYS, PARTITION_KEYS, rankOf);
  }

  /**
   * The merge computed here: distinct sequences by (key, sequence), each with its sorted unique ranks and, per rank,
   * the places of its records joined.
   */
  function expected(records: PartitionRecord[], rankOf: Uint32Array) {
    const bySequence = new Map<string, { key: number; ranks: Map<number, number> }>();
    for (const r of records) {
      const entry = bySequence.get(r.sequence) ?? { key: r.key, ranks: new Map<number, number>() };
      const rank = rankOf[r.ordinal];
      entry.ranks.set(rank, (entry.ranks.get(rank) ?? 0) | r.places);
      bySequence.set(r.sequence, entry);
    }
    return [...bySequence]
      .map(([sequence, { key, ranks }]) => {
        const sorted = [...ranks.keys()].sort((a, b) => a - b);
        return { key, sequence, ranks: sorted, places: sorted.map((rank) => ranks.get(rank)!) };
      })
      .sort((a, b) => a.key - b.key || (a.sequence < b.sequence ? -1 : a.sequence > b.sequence ? 1 : 0));
  }

  /** The merged columns back as rows. */
  function rows(part: ReturnType<typeof mergePartition>) {
    return Array.from(part.keys, (key, i) => ({
      key,
      sequence: part.sequences.slice(i === 0 ? 0 : part.sequenceEnds[i - 1], part.sequenceEnds[i]),
      ranks: Array.from(part.ranks.subarray(i === 0 ? 0 : part.rankEnds[i - 1], part.rankEnds[i])),
      places: Array.from(part.rankPlaces.subarray(i === 0 ? 0 : part.rankEnds[i - 1], part.rankEnds[i])),
    }));
  }

  it('sorts by (key, sequence) and merges a sequence’s proteins into ascending unique ranks', () => {
    const p = 50;
    const base = p * PARTITION_KEYS;
    const rankOf = Uint32Array.from([4, 2, 2, 0, 3, 1]); // ordinals 1 and 2 share an accession
    const records: PartitionRecord[] = [
      { key: base + 7, ordinal: 5, sequence: 'PEPTIDEK', places: 1 },
      { key: base + 7, ordinal: 0, sequence: 'PEPTIDEK', places: 2 },
      { key: base + 7, ordinal: 1, sequence: 'EPTIDEPK', places: 1 },
      { key: base + 199_999, ordinal: 3, sequence: 'WWWWK', places: 2 },
      { key: base, ordinal: 4, sequence: 'GGGGGGR', places: 3 },
      { key: base + 7, ordinal: 2, sequence: 'EPTIDEPK', places: 2 },
      { key: base + 7, ordinal: 3, sequence: 'PEPTIDEK', places: 2 },
      { key: base + 7, ordinal: 0, sequence: 'PEPTIDEK', places: 1 },
    ];
    const part = merged('merge-hand', p, records, rankOf);
    // Ordinals 1 and 2 (one accession, rank 2) join their places; ordinal 0 twice (rank 4) too.
    expect(rows(part)).toEqual([
      { key: base, sequence: 'GGGGGGR', ranks: [3], places: [3] },
      { key: base + 7, sequence: 'EPTIDEPK', ranks: [2], places: [3] },
      { key: base + 7, sequence: 'PEPTIDEK', ranks: [0, 1, 4], places: [2, 1, 3] },
      { key: base + 199_999, sequence: 'WWWWK', ranks: [0], places: [2] },
    ]);
    expect(part.sequences).toBe('GGGGGGREPTIDEPKPEPTIDEKWWWWK');
  });

  it('matches the merge computed here on random records from several writers', () => {
    const random = prng(11);
    const p = 61;
    const proteins = 300;
    const rankOf = Uint32Array.from({ length: proteins }, () => Math.floor(random() * 200));
    const keyOf = new Map<string, number>();
    const records: PartitionRecord[] = [];
    for (let i = 0; i < 4000; i++) {
      const sequence = letters(random, 1 + Math.floor(random() * 4)); // short: many repeats
      if (!keyOf.has(sequence)) keyOf.set(sequence, p * PARTITION_KEYS + Math.floor(random() * 60)); // many shared keys
      const places = 1 + Math.floor(random() * 3);
      records.push({ key: keyOf.get(sequence)!, ordinal: Math.floor(random() * proteins), sequence, places });
    }
    expect(rows(merged('merge-random', p, records, rankOf, 3))).toEqual(expected(records, rankOf));
  });

  it('is empty for no files', () => {
    const part = mergePartition([], 0, PARTITION_KEYS, new Uint32Array(0));
    expect([
      part.keys.length,
      part.sequences,
      part.sequenceEnds.length,
      part.rankEnds.length,
      part.ranks.length,
    ]).toEqual([0, '', 0, 0, 0]);
  });
});

describe('PartitionPlan', () => {
  it('splits each bucket in halves until its estimate fits, at most 2^17 ways', () => {
    const plan = planPartitions(
      new Map([
        [3, 10],
        [4, 156_250],
        [5, 156_251],
        [6, 312_500],
        [7, 312_501],
        [9, 20_000_000],
        [10, 5e12],
      ]),
      64,
    );
    // Sampled bytes × 64 against 10,000,000: 156,250 × 64 is exactly the plan, 156,251 × 64 needs halves, 312,500
    // × 64 / 2 fits in halves, 312,501 needs quarters; 1.28e9 bytes: 128 ways; 3.2e14: as many as the limit allows.
    expect(Array.from(plan.shifts)).toEqual([0, 0, 0, 0, 0, 1, 1, 2, 0, 7, MAX_SPLIT_SHIFT]);
    expect(MAX_SPLIT_SHIFT).toBe(17); // 2^17 parts of 20 Da: each holds at least one key
    expect(planPartitions(new Map([[2, 100]]), 64, 1000).shifts[2]).toBe(3); // 6,400 / 8 = 800 ≤ 1,000
    expect(PARTITION_BYTES).toBe(10_000_000);
  });

  it('names the partition of every key by its lowest key, partitions tiling each bucket in near-equal parts', () => {
    const plan = new PartitionPlan(Uint8Array.from([0, 2, 6, 7, 10, MAX_SPLIT_SHIFT]));
    // Brute force over buckets 0..6 (6 is past the plan: whole): walk every key, collect the partitions met.
    const seen = new Map<number, number[]>();
    const outside: number[] = [];
    for (let key = 0; key < 7 * PARTITION_KEYS; key += 1) {
      const p = plan.partitionOf(key);
      if (p > key || key >= p + plan.widthOf(p)) outside.push(key);
      const bucket = Math.floor(key / PARTITION_KEYS);
      if (!seen.has(bucket)) seen.set(bucket, []);
      const list = seen.get(bucket)!;
      if (list[list.length - 1] !== p) list.push(p);
    }
    /** The partitions of bucket b cut into n parts, from the definition: part k starts at ⌈k · 200,000 / n⌉. */
    const starts = (b: number, n: number) =>
      Array.from({ length: n }, (_, k) => b * 200_000 + Math.ceil((k * 200_000) / n));
    expect(outside).toEqual([]);
    expect(seen.get(0)).toEqual([0]);
    expect(seen.get(1)).toEqual([200_000, 250_000, 300_000, 350_000]);
    expect(seen.get(2)).toEqual(Array.from({ length: 64 }, (_, i) => 400_000 + i * 3_125));
    for (const [b, n] of [
      [3, 128],
      [4, 1024],
      [5, 2 ** 17],
      [6, 1],
    ])
      expect(seen.get(b)).toEqual(starts(b, n));
    // Past 64 parts, widths differ by at most one key, and each partition's width reaches the next one.
    for (const [b, n] of [
      [3, 128],
      [5, 2 ** 17],
    ]) {
      const first = starts(b, n);
      const widths = first.map((p) => plan.widthOf(p));
      expect(widths).toEqual(first.map((p, k) => (first[k + 1] ?? (b + 1) * 200_000) - p));
      const [least, most] = widths.reduce(([l, m], w) => [Math.min(l, w), Math.max(m, w)], [Infinity, 0]);
      expect(most - least).toBeLessThanOrEqual(1);
      expect(least).toBeGreaterThanOrEqual(1);
    }
    expect(plan.partitions).toBe(1 + 4 + 64 + 128 + 1024 + 2 ** 17);
  });

  it('merges a split partition like the same records in a whole one, keeping only its keys', () => {
    const dir = tempDir('partitions-split');
    const plan = new PartitionPlan(Uint8Array.from([0, 0, 3]));
    const writer = new PartitionWriter(dir, 'w0', plan);
    const random = prng(5);
    const records: PartitionRecord[] = [];
    for (let i = 0; i < 3000; i++) {
      const r = {
        key: 2 * PARTITION_KEYS + Math.floor(random() * PARTITION_KEYS),
        ordinal: i % 50,
        sequence: letters(random, 2 + Math.floor(random() * 3)),
        places: 2,
      };
      records.push(r);
      writer.add(r.key, r.ordinal, r.sequence, r.places);
    }
    writer.flush();
    expect([...writer.partitions].sort((a, b) => a - b)).toEqual(
      Array.from({ length: 8 }, (_, i) => 400_000 + i * 25_000),
    );
    const rankOf = Uint32Array.from({ length: 50 }, (_, i) => 49 - i);
    for (const p of writer.partitions) {
      const part = mergePartition(writer.segments.get(p)!, p, plan.widthOf(p), rankOf);
      const inside = records.filter((r) => r.key >= p && r.key < p + 25_000);
      expect(part.keys.length).toBeGreaterThan(0);
      expect(new Set(part.keys).size).toBeLessThanOrEqual(inside.length);
      for (const key of part.keys) expect(key >= p && key < p + 25_000).toBe(true);
      expect([...new Set(inside.map((r) => `${r.key} ${r.sequence}`))].length).toBe(part.keys.length);
    }
  });
});

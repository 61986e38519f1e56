// Tests builder/phases/jobs.ts, the runner of the build's parallel work: a digest job writes every peptide of the
// reference digest into the dataset's partition files by its mass key, and each peptide holding a C into a view's
// partition files (`<runner>v0-…`) by its view key — the reference's own residue and Unimod tables, the modification on
// every C — with its protein's ordinal; a part's slices keep exactly their keys, on each line; flush names each line's
// partitions; a merge job merges one line's partition with the ranks it was given.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createJobRunner, lineWriterName, type RunnerConfig } from '../../../builder/phases/jobs.js';
import {
  PARTITION_KEYS,
  readSegments,
  type PartitionPeptides,
  type Segment,
} from '../../../builder/phases/partitions.js';
import { parseView } from '../../../builder/phases/views.js';
import {
  REFERENCE_ENZYMES,
  referenceBoundaries,
  referenceDigest,
  referenceKey,
  referenceUnits,
} from '../../helpers/reference.js';
import { findUnimod, unimodUnits } from '../../helpers/referenceUnimod.js';
import { removeTempDirs, tempDir } from '../../helpers/datasets.js';
import { readPartitionRecords, type PartitionRecord } from '../../helpers/partitionRecords.js';

afterAll(removeTempDirs);

const OPTIONS = { enzyme: 'trypsin', missedCleavages: 2, minLength: 6, maxLength: 50 };
const PROTEINS = [
  'MKWVTFISLLLLFSSAYSRGVFRRDTHKSEIAHRFKDLGEEHFKGLVLIAFSQYLQQCPFDEHVK',
  'AAAAAAKPAAAAAARGGGGGGGKCCAGTCLLR',
  'MKRPEPTIDEKXXXXXXXKCCCCCCCR',
  'KKKK',
  'MCDEFGHIKLMNPQRSTVWYCCK',
];
const FIRST_ORDINAL = 100;
const CAM = Number(unimodUnits(findUnimod('Carbamidomethyl')!));

/**
 * Where a digested peptide lies in its protein: 1 at its start, 2 between two other cleavage sites, 3 both (the
 * same sequence cut out twice).
 */
function placesOf(protein: string, sequence: string): number {
  const boundaries = new Set(referenceBoundaries(protein, REFERENCE_ENZYMES.trypsin));
  let places = protein.startsWith(sequence) ? 1 : 0;
  for (let at = protein.indexOf(sequence, 1); at > 0; at = protein.indexOf(sequence, at + 1))
    if (boundaries.has(at) && boundaries.has(at + sequence.length)) places |= 2;
  return places;
}

/** The reference's records of PROTEINS: the dataset's by mass key, the view's (peptides with a C) by view key. */
function referenceRecords(): { main: PartitionRecord[]; view: PartitionRecord[] } {
  const main: PartitionRecord[] = [];
  const view: PartitionRecord[] = [];
  PROTEINS.forEach((protein, i) => {
    for (const sequence of referenceDigest(protein, REFERENCE_ENZYMES.trypsin, 2, 6, 50)) {
      const units = referenceUnits(sequence);
      if (units === null) continue;
      const ordinal = FIRST_ORDINAL + i;
      const places = placesOf(protein, sequence);
      main.push({ key: referenceKey(units), ordinal, sequence, places });
      const sites = [...sequence].filter((c) => c === 'C').length;
      if (sites > 0) view.push({ key: referenceKey(units + sites * CAM), ordinal, sequence, places });
    }
  });
  return { main, view };
}

const order = (a: PartitionRecord, b: PartitionRecord) =>
  a.ordinal - b.ordinal || a.key - b.key || (a.sequence < b.sequence ? -1 : a.sequence > b.sequence ? 1 : 0);

/** A runner named `r` with the Carbamidomethyl@C view, digests PROTEINS and flushes; what each line's files hold. */
function digestAll(label: string, config: Partial<RunnerConfig> = {}, viewKeys?: RunnerConfig['keys']) {
  const dir = tempDir(label);
  const run = createJobRunner({
    dir,
    name: 'r',
    options: OPTIONS,
    views: [{ view: parseView('Carbamidomethyl@C'), ...(viewKeys ? { keys: viewKeys } : {}) }],
    ...config,
  });
  expect(run({ type: 'digest', firstOrdinal: FIRST_ORDINAL, proteins: PROTEINS })).toBeNull();
  const lines = run({ type: 'flush' }) as [number, Segment[]][][];
  // One file per key line of the runner, named after its writer.
  for (const [line, partitions] of lines.entries())
    for (const [, segments] of partitions)
      for (const s of segments) expect(s.file).toBe(join(dir, `${lineWriterName('r', line)}.bin`));
  const read = (line: number) =>
    lines[line].flatMap(([p, segments]) =>
      readPartitionRecords(readSegments(segments)).map((r) => ({ ...r, partition: p })),
    );
  return { dir, run, lines, main: read(0), view: read(1) };
}

describe('a digest job', () => {
  it('writes the reference’s peptides by mass key, and those with a C again by their view key, with ordinals from firstOrdinal', () => {
    const expected = referenceRecords();
    const { lines, main, view } = digestAll('jobs-digest');
    expect(lines).toHaveLength(2);
    expect(expected.view.length).toBeGreaterThan(10);
    expect(expected.view.length).toBeLessThan(expected.main.length);
    const bucket = (key: number) => Math.floor(key / PARTITION_KEYS) * PARTITION_KEYS; // no plan: whole buckets
    expect(main.sort(order)).toEqual(expected.main.map((r) => ({ ...r, partition: bucket(r.key) })).sort(order));
    expect(view.sort(order)).toEqual(expected.view.map((r) => ({ ...r, partition: bucket(r.key) })).sort(order));
  });

  it('keeps on each line only the keys of its slice (a part’s)', () => {
    const expected = referenceRecords();
    const cut = (records: PartitionRecord[]) => {
      const keys = records.map((r) => r.key).sort((a, b) => a - b);
      return { lowKey: keys[Math.floor(keys.length / 3)], highKey: keys[Math.floor((2 * keys.length) / 3)] };
    };
    const [mainSlice, viewSlice] = [cut(expected.main), cut(expected.view)];
    const { main, view } = digestAll('jobs-slices', { keys: mainSlice }, viewSlice);
    const inside = (records: PartitionRecord[], { lowKey, highKey }: { lowKey: number; highKey: number }) =>
      records.filter((r) => r.key >= lowKey && r.key < highKey);
    const strip = (records: (PartitionRecord & { partition?: number })[]) =>
      records.map(({ key, ordinal, sequence, places }) => ({ key, ordinal, sequence, places })).sort(order);
    expect(inside(expected.view, viewSlice).length).toBeGreaterThan(3);
    expect(strip(main)).toEqual(inside(expected.main, mainSlice).sort(order));
    expect(strip(view)).toEqual(inside(expected.view, viewSlice).sort(order));
  });
});

describe('a merge job', () => {
  it('merges a view partition into distinct peptides with the ranks of their proteins', () => {
    const expected = referenceRecords();
    const { run, lines } = digestAll('jobs-merge');
    // Ranks in reverse input order, so that a rank is not its ordinal.
    const rankOf = new Uint32Array(FIRST_ORDINAL + PROTEINS.length);
    PROTEINS.forEach((_, i) => (rankOf[FIRST_ORDINAL + i] = PROTEINS.length - 1 - i));
    run({ type: 'ranks', rankOf });
    const [p, segments] = lines[1][0];
    const merged = run({
      type: 'merge',
      line: 1,
      partition: p,
      segments,
    }) as PartitionPeptides;
    const bySequence = new Map<string, { key: number; ranks: Set<number> }>();
    for (const r of expected.view) {
      if (Math.floor(r.key / PARTITION_KEYS) * PARTITION_KEYS !== p) continue;
      const entry = bySequence.get(r.sequence) ?? { key: r.key, ranks: new Set<number>() };
      entry.ranks.add(rankOf[r.ordinal]);
      bySequence.set(r.sequence, entry);
    }
    const want = [...bySequence].map(([sequence, { key, ranks }]) => ({
      key,
      sequence,
      ranks: [...ranks].sort((a, b) => a - b),
    }));
    want.sort((a, b) => a.key - b.key || (a.sequence < b.sequence ? -1 : 1));
    const got = Array.from(merged.keys, (key, i) => ({
      key,
      sequence: merged.sequences.slice(i === 0 ? 0 : merged.sequenceEnds[i - 1], merged.sequenceEnds[i]),
      ranks: Array.from(merged.ranks.subarray(i === 0 ? 0 : merged.rankEnds[i - 1], merged.rankEnds[i])),
    }));
    expect(want.length).toBeGreaterThan(0);
    expect(got).toEqual(want);
  });
});

// Tests the partitioned build (builder/phases/pipeline.ts buildPart, builder/writers/part.ts, builder/phases/merge.ts,
// builder/commands/mergeCli.ts): N parts merged in any order are the single build's files byte for byte, its view's
// (--view) among them, and its sequence table (--sequences); each part keeps exactly the single build's peptides of its
// slice, and of its slice of the view's keys; a merge refuses incomplete, mixed or damaged parts (a part without the
// sequence table among them) and leaves the published dataset untouched; the command lines.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BuildError } from '../../../builder/errors.js';
import { mergeParts } from '../../../builder/phases/merge.js';
import { PART_FILE, readPart, type PartManifest } from '../../../builder/writers/part.js';
import { PARTITION_KEYS } from '../../../builder/phases/partitions.js';
import { buildPart, type BuildOptions } from '../../../builder/phases/pipeline.js';
import {
  decodeTabled,
  build,
  DEFAULT_SHARD_BYTES,
  readAccessionTable,
  readDataset,
  readManifest,
  readStored,
  removeTempDirs,
  SAMPLE_TAXDUMP,
  sampleSubset,
  shardEntries,
  shardPeptides,
  snapshot,
  tempDir,
  type StoredPeptide,
} from '../../helpers/datasets.js';
import { runTsx } from '../../helpers/process.js';
import { runEntryInProcess } from '../../helpers/builderTestEntry.js';
import { expectSameFolder, folderDifferences } from '../../helpers/folders.js';

afterAll(removeTempDirs);

const OPTIONS = { enzyme: 'trypsin', missedCleavages: 2, minLength: 6, maxLength: 50, threads: 0 };

/** Builds the N parts of `inputs` into folders of `root`; returns the folders (part 1 first). */
async function buildParts(
  root: string,
  inputs: string[],
  count: number,
  overrides: Partial<BuildOptions> = {},
): Promise<string[]> {
  const dirs: string[] = [];
  for (let index = 1; index <= count; index++) {
    const out = join(root, `part-${index}`);
    await buildPart({ ...OPTIONS, inputs, out, shardBytes: DEFAULT_SHARD_BYTES, ...overrides }, { index, count });
    dirs.push(out);
  }
  return dirs;
}

describe('a partitioned build merged', () => {
  let input: string;
  let root: string;
  let single: string;
  let parts: string[];
  beforeAll(async () => {
    input = sampleSubset(400);
    root = tempDir('partitioned');
    single = join(root, 'single');
    // Small shards: the dataset and its view have index pages (more than 128 shards), as large datasets do.
    // 2,500 records between cut keys: this small input gets units to slice (a real one ~1 M records each), its
    // view (the peptides with a C) fewer.
    const options = { shardBytes: 2048, taxdump: SAMPLE_TAXDUMP, cutRecords: 2500, views: ['Carbamidomethyl@C'] };
    await build([input], single, options);
    parts = await buildParts(root, [input], 4, options);
  }, 120_000);

  it('equals the single build byte for byte (4 parts, given in any order), its view among them', () => {
    const merged = join(root, 'merged');
    mergeParts([parts[2], parts[0], parts[3], parts[1]], merged);
    expect(readdirSync(single).length).toBeGreaterThan(150);
    expect(shardEntries(single, 0).length).toBeGreaterThan(128);
    expectSameFolder(merged, single);
  });

  it('keeps in each part exactly the single build’s view peptides of its slice of the view’s keys, in shards inside it', () => {
    const table = readAccessionTable(parts[0], readPart(parts[0]).head);
    const all = shardEntries(single, 0).flatMap((s) => [
      ...shardPeptides(decodeTabled(readStored(single, s.file, 'gzip'), table)),
    ]);
    let kept = 0;
    const lows = new Set<number>();
    for (const dir of parts) {
      const [view] = readPart(dir).views!;
      const high = view.highKey ?? Infinity;
      lows.add(view.lowKey);
      const got = view.shards.flatMap((s) => {
        expect([s.firstKey >= view.lowKey, s.lastKey < high]).toEqual([true, true]);
        return [...shardPeptides(decodeTabled(readStored(dir, s.file, 'gzip'), table))];
      });
      expect(got).toEqual(all.filter((p) => p.key >= view.lowKey && p.key < high));
      expect(view.peptides).toBe(got.length);
      kept += got.length;
    }
    expect(lows.size).toBe(4); // four slices of the view's keys, none empty here
    expect(kept).toBe(all.length);
  });

  it('refuses parts whose view slices do not join', () => {
    const moved = join(root, 'moved-view');
    const dir = parts[2];
    const original = readFileSync(join(dir, PART_FILE), 'utf8');
    const part = JSON.parse(original) as PartManifest;
    part.views![0].lowKey += 1;
    writeFileSync(join(dir, PART_FILE), JSON.stringify(part));
    try {
      expect(() => mergeParts(parts, moved)).toThrow(
        /part 3\/4 .* does not start where part 2\/4 ends on view Carbamidomethyl@C/,
      );
      expect(existsSync(join(moved, 'manifest.json'))).toBe(false);
    } finally {
      writeFileSync(join(dir, PART_FILE), original);
    }
  });

  it('keeps in each part exactly the single build peptides of its slice (with their accessions), in shards inside the slice', () => {
    const all = [...readDataset(single).peptides];
    let kept = 0;
    for (const dir of parts) {
      const { part, shards, head } = readPart(dir);
      const high = part.highKey ?? Infinity;
      expect(part.lowKey % PARTITION_KEYS).toBe(0);
      const table = readAccessionTable(dir, head);
      const got = new Map<string, StoredPeptide>();
      for (const s of shards) {
        expect(s.firstKey).toBeGreaterThanOrEqual(part.lowKey);
        expect(s.lastKey).toBeLessThan(high);
        for (const { sequence, ...peptide } of shardPeptides(
          decodeTabled(readStored(dir, s.file, head.compression), table),
        ))
          got.set(sequence, peptide);
      }
      expect(got).toEqual(new Map(all.filter(([, p]) => p.key >= part.lowKey && p.key < high)));
      kept += got.size;
    }
    expect(kept).toBe(all.length);
  });

  it('balances the parts: none holds more than twice an equal share of the peptides', () => {
    const peptides = parts.map((dir) => readPart(dir).peptides);
    const total = peptides.reduce((a, b) => a + b, 0);
    for (const n of peptides) expect(n).toBeLessThan((2 * total) / parts.length);
  });

  it('never lets a single build shard span a part boundary', () => {
    const boundaries = parts.slice(1).map((dir) => readPart(dir).part.lowKey);
    expect(new Set(boundaries).size).toBe(3);
    for (const s of shardEntries(single))
      for (const b of boundaries) expect(s.firstKey < b && b <= s.lastKey).toBe(false);
  });

  it('refuses a missing, a repeated or a foreign part, and leaves the published dataset as it was', async () => {
    const out = join(root, 'published');
    mergeParts(parts, out);
    const before = snapshot(out);
    expect(() => mergeParts(parts.slice(0, 3), out)).toThrow(/missing part 4\/4/);
    expect(() => mergeParts([...parts, parts[1]], out)).toThrow(/part 2\/4 is given twice/);
    // Foreign parts need only their part.json: a small input builds them.
    const small = sampleSubset(200);
    const three = await buildParts(join(root, 'three'), [small], 3, { cutRecords: 2000 });
    expect(() => mergeParts([...parts.slice(0, 3), three[2]], out)).toThrow(/part 3\/3, but .* is part 1\/4/);
    const other = await buildParts(join(root, 'other'), [small], 4, { cutRecords: 2000 });
    expect(() => mergeParts([...parts.slice(0, 3), other[3]], out)).toThrow(/built from other inputs or options/);
    expect(() => mergeParts([join(root, 'nowhere')], out)).toThrow(BuildError);
    expect(() => mergeParts(parts, out, { indexOnly: true })).toThrow(/must be an empty folder with --index-only/);
    expect(folderDifferences(snapshot(out), before)).toEqual([]);
  }, 120_000);

  it('refuses a damaged shard file of a part, naming it, and publishes nothing', () => {
    const damaged = join(root, 'damaged-out');
    const part: PartManifest = readPart(parts[1]);
    const victim = join(parts[1], part.shards[0].file);
    const original = readFileSync(victim);
    const bytes = Buffer.from(original);
    bytes[bytes.length >> 1] ^= 0xff;
    writeFileSync(victim, bytes);
    try {
      expect(() => mergeParts(parts, damaged)).toThrow(
        new RegExp(`${part.shards[0].file} does not match its part.json entry`),
      );
      expect(existsSync(join(damaged, 'manifest.json'))).toBe(false);
      expect(readdirSync(damaged).filter((f) => !f.startsWith('.'))).toEqual([]);
    } finally {
      writeFileSync(victim, original);
    }
  });
});

describe('partitioned builds of other shapes', () => {
  it('one part, and three parts stored with brotli and no taxonomy, equal their single builds', async () => {
    const input = sampleSubset(200);
    const root = tempDir('shapes');
    for (const [count, overrides] of [
      [1, {}],
      [3, { compression: 'br' as const, shardBytes: 1024, cutRecords: 2000 }],
    ] as const) {
      const single = join(root, `single-${count}`);
      await build([input], single, overrides);
      const merged = join(root, `merged-${count}`);
      mergeParts(await buildParts(join(root, `parts-${count}`), [input], count, overrides), merged);
      expectSameFolder(merged, single);
    }
  }, 120_000);

  it('with partitions split where the input is dense: the same files as unsplit, and parts merged equal the single build', async () => {
    const input = sampleSubset(400);
    const root = tempDir('split');
    const whole = join(root, 'whole');
    await build([input], whole, { cutRecords: 10_000 });
    // 2,000 bytes of records (~100 records) a partition: the buckets of the sample split into up to 64 parts, which the shards do not show: they are cut at the same keys. 80 bytes (~4 records): past
    // 64 parts (near-equal, not equal).
    const split = join(root, 'split');
    await build([input], split, { partitionBytes: 2_000, cutRecords: 10_000 });
    expectSameFolder(split, whole);
    const finer = join(root, 'finer');
    await build([input], finer, { partitionBytes: 80, cutRecords: 10_000 });
    expectSameFolder(finer, whole);
    const merged = join(root, 'merged');
    mergeParts(
      await buildParts(join(root, 'parts'), [input], 3, { partitionBytes: 2_000, cutRecords: 10_000 }),
      merged,
    );
    expectSameFolder(merged, split);
  }, 120_000);

  it('rebuilding a part into its folder replaces the previous part files; a dataset folder is refused', async () => {
    const input = sampleSubset(200);
    const root = tempDir('rebuild');
    const [dir] = await buildParts(root, [input], 2, { cutRecords: 2000 });
    const first = readPart(dir);
    await buildPart(
      { ...OPTIONS, inputs: [input], out: dir, shardBytes: 512, cutRecords: 2000 },
      { index: 1, count: 2 },
    );
    const second = readPart(dir);
    expect(second.shards.length).toBeGreaterThan(first.shards.length);
    const stale = first.shards.filter((s) => !second.shards.some((t) => t.file === s.file));
    expect(stale.length).toBeGreaterThan(0);
    for (const s of stale) expect(existsSync(join(dir, s.file))).toBe(false);
    for (const s of second.shards) expect(existsSync(join(dir, s.file))).toBe(true);
    const dataset = join(root, 'dataset');
    await build([input], dataset);
    await expect(
      buildPart({ ...OPTIONS, inputs: [input], out: dataset, shardBytes: 512 }, { index: 1, count: 2 }),
    ).rejects.toThrow(/holds a dataset/);
    expect(existsSync(join(dataset, PART_FILE))).toBe(false);
  }, 120_000);
});

describe('a partitioned build with --sequences', () => {
  it('merged, equals the single build, its sequence table among the files; refuses a part without it or a damaged page', async () => {
    const input = sampleSubset(200);
    const root = tempDir('sequences');
    // Pages of 3 accessions: some 70 pages, each listed by the manifest (and so checked as the merge copies it).
    const options = { sequences: true, sequencePageAccessions: 3, cutRecords: 2000 };
    const single = join(root, 'single');
    await build([input], single, options);
    const parts = await buildParts(join(root, 'parts'), [input], 3, options);
    const merged = join(root, 'merged');
    mergeParts([parts[1], parts[2], parts[0]], merged);
    expectSameFolder(merged, single);
    const { sequences } = readManifest(merged);
    expect(sequences?.pages.length).toBeGreaterThan(60);
    expect(sequences).toEqual(readManifest(single).sequences);
    for (const dir of parts) {
      expect(readPart(dir).head.sequences).toEqual(sequences);
      for (const page of sequences!.pages) expect(existsSync(join(dir, page.file)), page.file).toBe(true);
    }
    // A part built without --sequences is a part of another build.
    const [, , plain] = await buildParts(join(root, 'plain'), [input], 3, { cutRecords: 2000 });
    expect(() => mergeParts([parts[0], parts[1], plain], join(root, 'mixed'))).toThrow(
      /built from other inputs or options/,
    );
    // A sequence page of the part the shared files come from, damaged.
    const victim = join(parts[0], sequences!.pages[5].file);
    const original = readFileSync(victim);
    writeFileSync(victim, Buffer.concat([original, Buffer.from([0])]));
    try {
      expect(() => mergeParts(parts, join(root, 'damaged'))).toThrow(
        new RegExp(`${sequences!.pages[5].file} does not match its part.json entry`),
      );
      expect(existsSync(join(root, 'damaged', 'manifest.json'))).toBe(false);
    } finally {
      writeFileSync(victim, original);
    }
  }, 120_000);
});

describe('the command lines', () => {
  it('build:shards --part and build:merge build the single build dataset', async () => {
    const input = sampleSubset(200);
    const root = tempDir('cli');
    const single = join(root, 'single');
    // The two parts' processes and the single build are independent: they run side by side.
    const dirs = [1, 2].map((i) => join(root, `p${i}`));
    const [, ...runs] = await Promise.all([
      build([input], single),
      ...dirs.map((dir, i) =>
        runTsx(['builder/commands/cli.ts', '--input', input, '--out', dir, '--part', `${i + 1}/2`]),
      ),
    ]);
    runs.forEach((run, i) => {
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toMatch(new RegExp(`part ${i + 1}/2: keeping masses in \\[`));
    });
    const merge = await runTsx(['builder/commands/mergeCli.ts', '--out', join(root, 'merged'), ...dirs]);
    expect(merge.code, merge.stderr).toBe(0);
    expect(merge.stderr).toMatch(/merged 2 parts: \d+ peptides/);
    expectSameFolder(join(root, 'merged'), single);
  }, 120_000);

  it('names the bad flag or the missing part, with exit status 1', async () => {
    const root = tempDir('cli-errors');
    // The commands' entries in this process (the test above runs both in child processes).
    const buildCommand = () => import('../../../builder/commands/cli.js');
    const mergeCommand = () => import('../../../builder/commands/mergeCli.js');
    const bad = await runEntryInProcess(buildCommand, [
      '--input',
      sampleSubset(200),
      '--out',
      join(root, 'x'),
      '--part',
      '5/4',
    ]);
    const none = await runEntryInProcess(mergeCommand, ['--out', join(root, 'y')]);
    const notPart = await runEntryInProcess(mergeCommand, ['--out', join(root, 'y'), root]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^build:shards: error: --part must be i\/N with 1 <= i <= N <= 1000, got "5\/4"\n$/);
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/--out and at least one part folder are required/);
    expect(notPart.code).toBe(1);
    expect(notPart.stderr).toMatch(/is not a part folder of build:shards --part \(no part\.json\)/);
  }, 60_000);
});

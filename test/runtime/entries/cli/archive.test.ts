// `query archive` (runtime/entries/cli/archive.ts, slices.ts): balanced contiguous slices, archives that extract back
// into exactly the dataset, the same bytes on every run, a base plus slices that mirror completes, failures, usage.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { extract, list } from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ARCHIVE_TEMP_PREFIX,
  ARCHIVES_FILE,
  main,
  type ArchivesIndex,
} from '../../../../runtime/entries/cli/archive.js';
import { main as mirror } from '../../../../runtime/entries/cli/mirror.js';
import { planSlices, SlicePlanner } from '../../../../runtime/entries/cli/slices.js';
import { nodeSha256 } from '../../../../runtime/entries/node/platform.js';
import { expectSameFolder } from '../../../helpers/folders.js';
import { removeTempDirs, shardEntries, tempDir } from '../../../helpers/datasets.js';
import { fannedDataset, folderFiles } from '../../../helpers/fannedDataset.js';
import { fewFilesPagedDataset } from '../../../helpers/indexTrees.js';
import { prng } from '../../../helpers/prng.js';
import { Collector, type Run } from '../../../helpers/process.js';

let paged: string;
let deep: string;

beforeAll(async () => {
  // Archiving's work grows with the files: small datasets (a couple of hundred files) that still have what the cases
  // walk, the paged one 3 leaf index pages, the fanned-out one 14 leaf pages under 5 inner pages under a root of 2.
  paged = await fewFilesPagedDataset();
  deep = fannedDataset(paged, 'deep', { pageShards: 10, fanOut: 3, indexLevels: 3, proteinLevels: 2, folderDigits: 2 });
}, 300_000);

afterAll(removeTempDirs);

async function archive(...argv: string[]): Promise<Run> {
  const stdout = new Collector();
  const stderr = new Collector();
  const code = await main(argv, { stdout, stderr });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

/** Archives `dir` into a fresh folder with `slices` slices; the folder and its archives.json. */
async function archived(dir: string, slices: number): Promise<{ out: string; index: ArchivesIndex }> {
  const out = join(tempDir('archives'), 'out');
  const run = await archive('--shards', dir, '--slices', String(slices), '--out', out);
  expect(run.code, run.stderr).toBe(0);
  expect(run.stderr).toMatch(
    new RegExp(
      `^archive: ${slices} slice archives? \\(\\d+ shards, [\\d.]+ MB\\) and a base archive \\(\\d+ files, [\\d.]+ MB\\) in .*, archives\\.json written; [\\d.]+ s\\n$`,
    ),
  );
  return { out, index: JSON.parse(readFileSync(join(out, ARCHIVES_FILE), 'utf8')) as ArchivesIndex };
}

/** The paths an archive holds, in order. */
function members(file: string): string[] {
  const paths: string[] = [];
  list({ file, sync: true, onReadEntry: (entry) => paths.push(entry.path) });
  return paths;
}

describe('slice plan', () => {
  it('is contiguous, leaves no slice empty and keeps each slice within one shard of an equal share of bytes', () => {
    const random = prng(15);
    // Every broken rule of every trial is listed (one assertion at the end, not one per shard).
    const broken: string[] = [];
    for (let trial = 0; trial < 200; trial++) {
      const count = 1 + Math.floor(random() * 300);
      const bytes = Array.from({ length: count }, () => 1000 + Math.floor(random() * (trial % 2 ? 40_000 : 3000)));
      const slices = 1 + Math.floor(random() * Math.min(count, 20));
      const plan = planSlices(bytes, slices);
      const wrong = (rule: string) => broken.push(`trial ${trial} (${count} shards, ${slices} slices): ${rule}`);
      if (plan.length !== count) wrong(`${plan.length} slice numbers`);
      if (plan[0] !== 0) wrong(`the first shard in slice ${plan[0]}`);
      if (plan.at(-1) !== slices - 1) wrong(`the last shard in slice ${plan.at(-1)}`);
      for (let i = 1; i < count; i++)
        if (!(plan[i] - plan[i - 1] >= 0 && plan[i] - plan[i - 1] <= 1)) wrong(`shard ${i} in slice ${plan[i]}`);
      const total = bytes.reduce((a, b) => a + b, 0);
      const max = Math.max(...bytes);
      const sums = Array.from({ length: slices }, (_, k) => bytes.reduce((s, b, i) => s + (plan[i] === k ? b : 0), 0));
      for (const [k, sum] of sums.entries()) {
        if (!(sum > 0)) wrong(`slice ${k} empty`);
        if (!(Math.abs(sum - total / slices) <= max)) wrong(`slice ${k} of ${sum} bytes, ${total / slices} a share`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('puts one shard in each slice when there are as many slices as shards, all in one for one slice, even with uneven sizes', () => {
    expect(planSlices([5, 1_000_000, 5, 5], 4)).toEqual([0, 1, 2, 3]);
    expect(planSlices([1_000_000, 5, 5, 5], 2)).toEqual([0, 1, 1, 1]);
    expect(planSlices([5, 5, 5, 1_000_000], 3)).toEqual([0, 0, 1, 2]);
    expect(planSlices([7, 7, 7], 1)).toEqual([0, 0, 0]);
    expect(planSlices([0, 0, 0, 0], 2)).toEqual([0, 0, 0, 1]);
    expect(() => new SlicePlanner(10, 2, 3)).toThrow('cannot cut 2 shards into 3 slices');
    const planner = new SlicePlanner(10, 1, 1);
    planner.next(10);
    expect(() => planner.next(1)).toThrow(/more than the 1 shards planned/);
  });
});

describe('archive', () => {
  it('writes a base archive and N slices that extract back into exactly the dataset; archives.json describes them', async () => {
    const shards = shardEntries(paged);
    const { out, index } = await archived(paged, 4);
    expect(index.format).toBe('digested-peptides-archives');
    expect(index.datasetVersion).toBe(JSON.parse(readFileSync(join(paged, 'manifest.json'), 'utf8')).datasetVersion);
    expect(readdirSync(out).sort()).toEqual(
      [ARCHIVES_FILE, index.base.file, ...index.slices.map((s) => s.file)].sort(),
    );
    for (const entry of [index.base, ...index.slices]) {
      const bytes = readFileSync(join(out, entry.file));
      expect([bytes.length, nodeSha256(bytes)]).toEqual([entry.bytes, entry.sha256]);
      expect(entry.file).toMatch(new RegExp(`^(base|slice-\\d)-${entry.sha256.slice(0, 20)}\\.tar$`));
      expect(members(join(out, entry.file))).toHaveLength(entry.files);
    }
    // The slices hold the shards in mass order, each a run of consecutive shards, with its keys and counts.
    const inSlices = index.slices.flatMap((s) => members(join(out, s.file)));
    expect(inSlices).toEqual(shards.map((s) => s.file));
    let first = 0;
    for (const [k, slice] of index.slices.entries()) {
      const mine = shards.slice(first, first + slice.shards);
      expect(slice).toMatchObject({
        slice: k + 1,
        firstKey: mine[0].firstKey,
        lastKey: mine.at(-1)!.lastKey,
        files: slice.shards,
        shardBytes: mine.reduce((s, e) => s + e.bytes, 0),
      });
      first += slice.shards;
    }
    const total = shards.reduce((s, e) => s + e.bytes, 0);
    const max = Math.max(...shards.map((s) => s.bytes));
    for (const slice of index.slices) expect(Math.abs(slice.shardBytes - total / 4)).toBeLessThanOrEqual(max);
    const base = members(join(out, index.base.file));
    expect(base[0]).toBe('manifest.json');
    expect([...base].sort()).toEqual(
      ['manifest.json', ...folderFiles(paged).filter((f) => !shards.some((s) => s.file === f))].sort(),
    );

    const whole = join(tempDir('extracted'), 'dataset');
    mkdirSync(whole);
    for (const entry of [index.base, ...index.slices]) await extract({ file: join(out, entry.file), cwd: whole });
    expectSameFolder(whole, paged);
  });

  it('archives a fanned-out dataset with a 3-level index, its folders kept', async () => {
    const { out, index } = await archived(deep, 3);
    expect(index.slices.map((s) => s.slice)).toEqual([1, 2, 3]);
    expect(
      members(join(out, index.slices[0].file)).every((p) => /^[0-9a-f]{2}\/[0-9a-f]{20}\.msgpack\.gz$/.test(p)),
    ).toBe(true);
    const whole = join(tempDir('extracted'), 'dataset');
    mkdirSync(whole);
    for (const entry of [index.base, ...index.slices]) await extract({ file: join(out, entry.file), cwd: whole });
    expectSameFolder(whole, deep);
  });

  it('gives the same bytes, names and archives.json on a second run, and on a copy of the dataset', async () => {
    const copy = join(tempDir('copy'), 'dataset');
    cpSync(paged, copy, { recursive: true });
    const [a, b] = [await archived(paged, 3), await archived(copy, 3)];
    expect(b.index).toEqual(a.index);
    expectSameFolder(b.out, a.out);
  });

  it('the base archive and some slices make a folder that mirror completes, fetching only the other slices', async () => {
    const { out, index } = await archived(paged, 4);
    const partial = join(tempDir('partial'), 'dataset');
    mkdirSync(partial);
    for (const entry of [index.base, index.slices[0], index.slices[2]])
      await extract({ file: join(out, entry.file), cwd: partial });
    const stdout = new Collector();
    const stderr = new Collector();
    expect(await mirror([paged, partial], { stdout, stderr })).toBe(0);
    const present = index.base.files - 1 + index.slices[0].shards + index.slices[2].shards;
    expect(stderr.text).toMatch(
      new RegExp(
        `^mirror: ${index.slices[1].shards + index.slices[3].shards} files fetched \\([\\d.]+ MB\\), ${present} skipped as present`,
      ),
    );
    expectSameFolder(partial, paged);
  });

  it('fails on a damaged dataset, naming the file, without archives.json or temporary files (exit 1)', async () => {
    const damaged = join(tempDir('damaged'), 'dataset');
    cpSync(paged, damaged, { recursive: true });
    const shard = shardEntries(paged)[100].file;
    const bytes = readFileSync(join(damaged, shard));
    bytes[3] ^= 1;
    writeFileSync(join(damaged, shard), bytes);
    const out = join(tempDir('archives'), 'out');
    const run = await archive('--shards', damaged, '--slices', '2', '--out', out);
    expect([run.code, run.stderr]).toEqual([1, `archive: error: ${shard} failed its sha256 check\n`]);
    expect(readdirSync(out).filter((n) => n === ARCHIVES_FILE || n.startsWith(ARCHIVE_TEMP_PREFIX))).toEqual([]);
    rmSync(join(damaged, shard));
    const missing = await archive('--shards', damaged, '--slices', '2', '--out', out);
    expect(missing.stderr).toBe(`archive: error: ${shard} is missing\n`);
    expect(existsSync(join(out, ARCHIVES_FILE))).toBe(false);
  });

  it('refuses bad usage with exit 2, and more slices than shards with exit 1', async () => {
    const out = tempDir('usage');
    const cases: [string[], RegExp][] = [
      [['--shards', paged, '--out', out], /--slices is required/],
      [['--shards', paged, '--out', out, '--slices', '0'], /--slices must be a whole number from 1 to 10000, got "0"/],
      [['--shards', paged, '--out', out, '--slices', 'four'], /--slices must be a whole number/],
      [['--shards', paged, '--slices', '2'], /--out is required/],
      [
        ['--shards', 'https://example.org/shards/', '--out', out, '--slices', '2'],
        /--shards must be a dataset folder, not a URL/,
      ],
      [['--shards', paged, '--out', out, '--slices', '2', 'extra'], /unexpected argument extra$/],
    ];
    for (const [argv, message] of cases) {
      const run = await archive(...argv);
      expect(run.code, argv.join(' ')).toBe(2);
      const [first, usage] = run.stderr.split('\n');
      expect(first).toMatch(/^archive: error: /);
      expect(first).toMatch(message);
      expect(usage).toBe('usage: npm run query -- archive --slices N --out <dir> [--shards <dir>]');
    }
    const tooMany = await archive('--shards', paged, '--out', out, '--slices', '5000');
    expect([tooMany.code, tooMany.stderr]).toEqual([
      1,
      `archive: error: --slices 5000 is more than the dataset's ${shardEntries(paged).length} shards\n`,
    ]);
    expect(readdirSync(out)).toEqual([]);
  });
});

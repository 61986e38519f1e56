// Build robustness (builder/phases/pipeline.ts through builder/commands/cli.ts): a corpus of malformed inputs (a clear
// one-line error and a non-zero exit, or a counted skip; a failed build leaves the published dataset byte-identical),
// a binary file and a truncated gzip through the CLI in a child process (with its worker threads), the others through
// the CLI's entry in this process (in one thread); and SIGKILL of the CLI at random points of a build: the previous
// dataset (manifest.json and every file it lists) stays intact and byte-identical and keeps being served right, during
// and after; the next build (the entry in this process) succeeds and removes the killed build's temporary folder.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Handler } from '../../../runtime/api/handler.js';
import { folderHandler } from '../../helpers/api.js';
import {
  readManifest,
  removeTempDirs,
  runBuildCli,
  sampleSubset,
  shardEntries,
  tempDir,
} from '../../helpers/datasets.js';
import { REPO } from '../../helpers/process.js';
import { runEntryInProcess } from '../../helpers/builderTestEntry.js';
import { difference, queryArbitrary } from '../../helpers/queryFuzz.js';
import { loadReference, type RefQuery, type ReferenceData } from '../../helpers/shardReference.js';
import { referenceDigest, REFERENCE_ENZYMES } from '../../helpers/reference.js';

const work = tempDir('hard-build');
afterAll(removeTempDirs);

/** Every file of a dataset folder except temporary folders, with its bytes. */
function files(dir: string): Map<string, Buffer> {
  return new Map(
    readdirSync(dir)
      .filter((f) => !f.startsWith('.build-'))
      .sort()
      .map((f) => [f, readFileSync(join(dir, f))]),
  );
}

/** manifest.json and every file it lists (index pages included), with their bytes. */
function datasetFiles(dir: string): Map<string, Buffer> {
  const manifest = readManifest(dir);
  const names = [
    'manifest.json',
    ...(manifest.shardIndex?.pages.map((p) => p.file) ?? []),
    ...shardEntries(dir).map((s) => s.file),
  ];
  return new Map(names.map((f) => [f, readFileSync(join(dir, f))]));
}

function expectSameFiles(actual: Map<string, Buffer>, expected: Map<string, Buffer>, label: string): void {
  expect([...actual.keys()], label).toEqual([...expected.keys()]);
  for (const [name, bytes] of expected) expect(actual.get(name)!.equals(bytes), `${label}: ${name}`).toBe(true);
}

/** `build:shards <args>` through its entry (builder/commands/cli.ts) in this process. */
const buildEntry = (args: string[]) => runEntryInProcess(() => import('../../../builder/commands/cli.js'), args);

function oneLineError(stderr: string, pattern: RegExp): void {
  const lines = stderr
    .trimEnd()
    .split('\n')
    .filter((l) => !l.startsWith('digest:') && !l.startsWith('shards:'));
  expect(lines.length, stderr).toBe(1);
  expect(lines[0]).toMatch(/^build:shards: error: /);
  expect(lines[0]).toMatch(pattern);
  expect(stderr).not.toMatch(/\n\s+at /);
}

describe('malformed input through the CLI', () => {
  let published: string;
  let before: Map<string, Buffer>;
  const corpus = join(work, 'corpus');

  beforeAll(async () => {
    mkdirSync(corpus);
    // A previous dataset in the output folder: a failed build must leave it as it was.
    published = join(work, 'published');
    const run = await buildEntry(['--input', sampleSubset(200), '--out', published, '--threads', '0']);
    expect(run.code, run.stderr).toBe(0);
    before = files(published);
  });

  const write = (name: string, content: string | Buffer) => {
    const path = join(corpus, name);
    writeFileSync(path, content);
    return path;
  };
  const good = '>sp|P00001|ONE OX=9606\nMKWVTFISLLLLFSSAYSRGVFRRDTHKSEIAHRFK\n';

  // `cli`: through the real command line (a kind of each of the stages that read the bytes: sniffing, decompressing).
  it.each([
    ['a binary file', () => write('random.bin', randomBytes(64 * 1024)), /random\.bin: not a FASTA file/, true],
    [
      'a FASTA header, then binary',
      () =>
        write('header-binary.fasta', Buffer.concat([Buffer.from('>sp|P1|X\n'), Buffer.from([0, 1, 2, 0, 255, 10, 0])])),
      /not a FASTA file \(binary content\)/,
      false,
    ],
    [
      'a truncated gzip',
      () =>
        write(
          'cut.fasta.gz',
          ((gz: Buffer) => gz.subarray(0, gz.length >> 1))(gzipSync(readFileSync(sampleSubset(200)))),
        ),
      /cut\.fasta\.gz: truncated or corrupt gzip/,
      true,
    ],
    [
      'a gzip of binary data',
      () => write('binary.fasta.gz', gzipSync(randomBytes(10_000))),
      /binary\.fasta\.gz: not a FASTA file/,
      false,
    ],
    ['an empty file', () => write('empty.fasta', ''), /empty\.fasta: not a FASTA file \(no '>' header line\)/, false],
    ['blank lines only', () => write('blank.fasta', '\n\n  \n'), /not a FASTA file \(no '>' header line\)/, false],
    [
      'a header without sequence, alone',
      () => write('header-only.fasta', '>sp|P00002|LONELY OX=1\n'),
      /no usable protein record in the input \(skipped: noSequence 1\)/,
      false,
    ],
    [
      'only unusable records',
      () => write('unusable.fasta', '>\nMKWVTF\n>sp|P3|X OX=1\nMK1AAK\n'),
      /no usable protein record .*noAccession 1, invalidCharacters 1/,
      false,
    ],
    ['a file that does not exist', () => join(corpus, 'nothing-here.fasta'), /matches no file/, false],
  ])('%s: one-line error, exit 1, the published dataset untouched', async (_name, make, pattern, cli) => {
    const run = cli
      ? await runBuildCli(['--input', make(), '--out', published])
      : await buildEntry(['--input', make(), '--out', published, '--threads', '0']);
    expect(run.code).toBe(1);
    oneLineError(run.stderr, pattern);
    expectSameFiles(files(published), before, 'after a failed build');
    expect(readdirSync(published).filter((f) => f.startsWith('.build-'))).toEqual([]);
  });

  it('a header without sequence among good records: skipped and counted', async () => {
    const out = join(work, 'skip');
    const run = await buildEntry([
      '--input',
      write('among.fasta', `${good}>sp|P00002|EMPTY OX=1\n\n${good.replace('P00001', 'P00003')}`),
      '--out',
      out,
      '--threads',
      '0',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const manifest = readManifest(out);
    expect(manifest.totals).toMatchObject({
      proteins: 2,
      accessions: 2,
      skippedRecords: { noAccession: 0, noSequence: 1, invalidCharacters: 0 },
    });
  });

  it('duplicate accessions: merged, counted, warned about once', async () => {
    const out = join(work, 'dup');
    const run = await buildEntry([
      '--input',
      write('dup.fasta', `${good}${good.replace('MKWV', 'MAAAKPEPTIDEKR')}`),
      '--out',
      out,
      '--threads',
      '0',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/warning: 1 accessions appear more than once, merged \(e\.g\. P00001\)/);
    const manifest = readManifest(out);
    expect(manifest.totals).toMatchObject({ proteins: 2, accessions: 1, duplicateAccessions: 1 });
    const ref = loadReference(out);
    expect(ref.problems).toEqual([]);
    // Peptides of both records, each listing the one accession once.
    expect(ref.sequences).toContain('DTHKSEIAHR');
    expect(ref.sequences).toContain('MAAAKPEPTIDEK');
    expect(ref.accessionNames).toEqual(['P00001']);
    expect(ref.accessionIds.length).toBe(ref.sequences.length);
  });

  it('a 4 MB single-line sequence (dozens of read chunks): built, and exactly its reference digestion', async () => {
    const residues = 'ACDEFGHIKLMNPQRSTVWY';
    const block = Buffer.from(Array.from(randomBytes(997), (b) => residues.charCodeAt(b % 20)));
    const line = Buffer.alloc(4 * 2 ** 20);
    for (let at = 0; at < line.length; at += block.length) block.copy(line, at);
    const path = write(
      'long.fasta',
      Buffer.concat([Buffer.from('>sp|LONG1|LONG_LINE OX=9606\n'), line, Buffer.from('\n')]),
    );
    const out = join(work, 'long');
    const run = await buildEntry(['--input', path, '--out', out, '--threads', '0']);
    expect(run.code, run.stderr).toBe(0);
    const ref = loadReference(out);
    expect(ref.problems).toEqual([]);
    const expected = referenceDigest(line.toString('latin1'), REFERENCE_ENZYMES.trypsin, 2, 6, 50);
    expect(ref.sequences.length).toBe(expected.size);
    expect(ref.sequences.every((s) => expected.has(s))).toBe(true);
  }, 180_000);
});

describe('SIGKILL at random points of a build', () => {
  const RUNS = 2;
  let out: string;
  let cleanA: string;
  let cleanB: string;
  let filesA: Map<string, Buffer>;
  let filesB: Map<string, Buffer>;
  let refA: ReferenceData;
  let refB: ReferenceData;
  let queriesA: RefQuery[];
  let queriesB: RefQuery[];
  let buildSeconds: number;
  const inputA = () => sampleSubset(300);
  const inputB = () => sampleSubset(1000);

  beforeAll(async () => {
    cleanA = join(work, 'clean-a');
    cleanB = join(work, 'clean-b');
    const a = await buildEntry(['--input', inputA(), '--out', cleanA, '--threads', '0']);
    // In a child process, as the killed builds run: how long one takes.
    const b = await runBuildCli(['--input', inputB(), '--out', cleanB]);
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    buildSeconds = b.seconds;
    filesA = datasetFiles(cleanA);
    filesB = datasetFiles(cleanB);
    refA = loadReference(cleanA);
    refB = loadReference(cleanB);
    queriesA = fc.sample(queryArbitrary(refA), { numRuns: 40, seed: 1 });
    queriesB = fc.sample(queryArbitrary(refB), { numRuns: 40, seed: 2 });
    out = join(work, 'served');
    cpSync(cleanA, out, { recursive: true });
  }, 300_000);

  async function expectServes(handler: Handler, ref: ReferenceData, queries: RefQuery[], label: string): Promise<void> {
    for (const q of queries) expect(await difference(handler, ref, q), label).toBeNull();
  }

  it('never leaves a half-written dataset; the next build succeeds and cleans up', async () => {
    const outcomes: string[] = [];
    let staleSeen = 0;
    for (let run = 0; run < RUNS; run++) {
      // Stratified random delays from 0.2 s to the build's full duration; the first run is killed once the build's
      // temporary folder exists, whatever the machine's load, so that the clean-up is always exercised.
      const delay = 0.2 + ((buildSeconds - 0.2) * (run + Math.random())) / RUNS;
      const writing = () => run === 0 && readdirSync(out).some((f) => f.startsWith('.build-'));
      expectSameFiles(datasetFiles(out), filesA, `run ${run}: before`);
      // A reader that opened the dataset before the build keeps being answered right all along.
      const reader = folderHandler(out);
      await expectServes(reader, refA, queriesA.slice(0, 5), `run ${run}: reader before`);
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', 'builder/commands/cli.ts', '--input', inputB(), '--out', out],
        {
          cwd: REPO,
          stdio: 'ignore',
        },
      );
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      let reads = 0;
      const killAt = Date.now() + delay * 1000;
      while ((run === 0 || Date.now() < killAt) && !writing() && child.exitCode === null) {
        await expectServes(reader, refA, [queriesA[reads++ % queriesA.length]], `run ${run}: reader during the build`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      child.kill('SIGKILL');
      const code = await exited;
      const current = readFileSync(join(out, 'manifest.json'));
      const isB = current.equals(filesB.get('manifest.json')!);
      const stale = readdirSync(out).filter((f) => f.startsWith('.build-'));
      if (stale.length > 0) staleSeen++;
      outcomes.push(
        `${delay.toFixed(2)} s: ${code === 0 ? 'finished' : 'killed'}, serving ${isB ? 'B' : 'A'}, ${stale.length} temporary folder(s) left`,
      );
      // The manifest names exactly one complete dataset, byte-identical to its clean build.
      expectSameFiles(datasetFiles(out), isB ? filesB : filesA, `run ${run} after kill at ${delay.toFixed(2)} s`);
      await expectServes(reader, refA, queriesA.slice(5, 15), `run ${run}: reader after`);
      await expectServes(
        folderHandler(out),
        isB ? refB : refA,
        (isB ? queriesB : queriesA).slice(0, 15),
        `run ${run}: new reader`,
      );
      // The next build succeeds and removes the killed build's temporary folder; back to A for the next run.
      const next = await buildEntry(['--input', inputA(), '--out', out, '--threads', '0']);
      expect(next.code, next.stderr).toBe(0);
      expect(readdirSync(out).filter((f) => f.startsWith('.build-'))).toEqual([]);
      expectSameFiles(datasetFiles(out), filesA, `run ${run}: rebuilt A`);
    }
    // A final uninterrupted build of B publishes B completely.
    const last = await buildEntry(['--input', inputB(), '--out', out, '--threads', '0']);
    expect(last.code, last.stderr).toBe(0);
    expectSameFiles(datasetFiles(out), filesB, 'final build');
    expect(readdirSync(out).filter((f) => f.startsWith('.build-'))).toEqual([]);
    await expectServes(folderHandler(out), refB, queriesB, 'final');
    console.log(`kill runs (build of B takes ${buildSeconds.toFixed(1)} s):\n  ${outcomes.join('\n  ')}`);
    expect(staleSeen, 'some kills left a temporary folder for the next build to remove').toBeGreaterThan(0);
  }, 600_000);
});

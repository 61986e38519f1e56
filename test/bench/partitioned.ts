// The partitioned build measured: a single build and an N-part build (`--part i/N`, run
// one after the other here, as N runners of a CI matrix would run them side by side) of the same Swiss-Prot-sized
// input with the Carbamidomethyl@C view, merged with build:merge, then every file of both datasets compared byte
// for byte. The smoke test runs the builds and the merge in its own process (`inProcess`), and compares against a
// single build it already made: it checks the datasets.
// `npx tsx test/bench/partitioned.ts <input.fasta> <work-dir> [parts]` runs it alone; run.ts renders the section.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { PartManifest } from '../../builder/writers/part.js';
import { peakRssMb } from './http.js';
import { buildInProcess } from './measuredBuild.js';

export interface MeasuredRun {
  seconds: number;
  peakRssMb: number;
}

/** A build's view: its peptides and shards (when built with one). */
interface ViewCounts {
  view?: { peptides: number; shards: number };
}

export interface PartitionedRun {
  parts: number;
  /** The view both builds make (`--view`), when they make one. */
  fixed?: string;
  single: MeasuredRun & { peptides: number; shards: number } & ViewCounts;
  partRuns: (MeasuredRun & {
    index: number;
    peptides: number;
    shards: number;
    lowKey: number;
    highKey: number | null;
  } & ViewCounts)[];
  merge: MeasuredRun;
  /** Files of the single build, and those whose bytes (or presence) differ in the merged dataset. */
  files: number;
  bytes: number;
  differing: string[];
}

/** Runs a build command (`builder/commands/cli.ts` or `builder/commands/mergeCli.ts` with `args`) as a child process, sampling its peak RSS. */
export async function measuredCommand(script: string, args: string[]): Promise<MeasuredRun> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr.on('data', (c: Buffer) => (log += c.toString()));
  let peak = 0;
  const poll = setInterval(() => (peak = Math.max(peak, peakRssMb(child.pid!))), 200);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearInterval(poll);
  if (code !== 0) throw new Error(`${script} ${args.join(' ')} failed (${code}): ${log.slice(-2000)}`);
  return { seconds: (performance.now() - started) / 1000, peakRssMb: peak };
}

const BUILD = 'builder/commands/cli.ts';
const MERGE = 'builder/commands/mergeCli.ts';

/** `measuredCommand`'s command (BUILD or MERGE) run by the builder's code in this process: peak RSS not measured. */
async function inProcessCommand(script: string, args: string[]): Promise<MeasuredRun> {
  const started = performance.now();
  if (script === MERGE) {
    // The merge's flags are the ones benchPartitioned gives: `--out <dir>` then the part folders.
    const { mergeParts } = await import('../../builder/phases/merge.js');
    mergeParts(args.slice(2), args[1]);
  } else await buildInProcess(args);
  return { seconds: (performance.now() - started) / 1000, peakRssMb: NaN };
}

/** sha256 of every file below `dir`, by relative path. */
function fileHashes(dir: string): Map<string, string> {
  const hashes = new Map<string, string>();
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    hashes.set(relative(dir, path), createHash('sha256').update(readFileSync(path)).digest('hex'));
  }
  return hashes;
}

/**
 * Builds `input` once whole and once in `parts` parts merged, in `work`; compares the two datasets file by file.
 * The builds and the merge are child processes, measured, or with `inProcess` run in this process; `single` is
 * a folder already holding the single build of `input` with `extra` (not measured then).
 */
export async function benchPartitioned(
  input: string,
  work: string,
  parts = 4,
  fixed = 'Carbamidomethyl@C',
  extra: string[] = ['--threads', '2', '--view', fixed],
  { inProcess = false, single: built }: { inProcess?: boolean; single?: string } = {},
): Promise<PartitionedRun> {
  const command = inProcess ? inProcessCommand : measuredCommand;
  rmSync(work, { recursive: true, force: true });
  const singleDir = built ?? join(work, 'single');
  const single = built
    ? { seconds: NaN, peakRssMb: NaN }
    : await command(BUILD, ['--input', input, '--out', singleDir, ...extra]);
  const manifest = JSON.parse(readFileSync(join(singleDir, 'manifest.json'), 'utf8'));
  const partRuns: PartitionedRun['partRuns'] = [];
  const partDirs: string[] = [];
  for (let index = 1; index <= parts; index++) {
    const out = join(work, `part-${index}`);
    const run = await command(BUILD, ['--input', input, '--out', out, '--part', `${index}/${parts}`, ...extra]);
    const part = JSON.parse(readFileSync(join(out, 'part.json'), 'utf8')) as PartManifest;
    const [view] = part.views ?? [];
    partRuns.push({
      ...run,
      index,
      peptides: part.peptides,
      shards: part.shards.length,
      lowKey: part.part.lowKey,
      highKey: part.part.highKey,
      ...(view ? { view: { peptides: view.peptides, shards: view.shards.length } } : {}),
    });
    partDirs.push(out);
  }
  const mergedDir = join(work, 'merged');
  const merge = await command(MERGE, ['--out', mergedDir, ...partDirs]);
  const expected = fileHashes(singleDir);
  const got = fileHashes(mergedDir);
  const differing = [...new Set([...expected.keys(), ...got.keys()])].filter(
    (file) => expected.get(file) !== got.get(file),
  );
  const bytes = [...expected.keys()].reduce((sum, file) => sum + readFileSync(join(singleDir, file)).length, 0);
  rmSync(work, { recursive: true, force: true });
  const [view] = manifest.views ?? [];
  return {
    parts,
    fixed,
    single: {
      ...single,
      peptides: manifest.totals.peptides,
      shards: manifest.totals.shards,
      ...(view ? { view: { peptides: view.totals.peptides, shards: view.totals.shards } } : {}),
    },
    partRuns,
    merge,
    files: expected.size,
    bytes,
    differing,
  };
}

const da = (key: number | null) => (key === null ? '+∞' : (key / 10000).toFixed(0));
const viewText = ({ view }: ViewCounts) =>
  view ? `${view.peptides.toLocaleString('en')} / ${view.shards.toLocaleString('en')}` : '–';

/** The BENCHMARKS.md section of a partitioned run. */
export function partitionedSection(run: PartitionedRun): string[] {
  const slowest = Math.max(...run.partRuns.map((p) => p.seconds));
  const mean = run.single.peptides / run.parts;
  return [
    `## Partitioned build: ${run.parts} parts merged vs one build`,
    '',
    `The same input built once, and as ${run.parts} parts (\`build:shards --part i/${run.parts}\`, run one after the other here; a CI matrix runs them side by side) joined by \`build:merge\`${run.fixed ? `, both with \`--view ${run.fixed}\`` : ''}. ` +
      `**${run.differing.length === 0 ? `Identical: all ${run.files.toLocaleString('en')} files (${(run.bytes / 1e6).toFixed(0)} MB) byte for byte` : `NOT identical: ${run.differing.length} of ${run.files} files differ (e.g. ${run.differing.slice(0, 3).join(', ')})`}.**`,
    '',
    '| build | masses (Da) | peptides | share of an equal split | shards | view peptides / shards | time (s) | peak RSS (MB) |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
    `| single | all | ${run.single.peptides.toLocaleString('en')} | | ${run.single.shards.toLocaleString('en')} | ${viewText(run.single)} | ${run.single.seconds.toFixed(0)} | ${run.single.peakRssMb.toFixed(0)} |`,
    ...run.partRuns.map(
      (p) =>
        `| part ${p.index}/${run.parts} | [${da(p.lowKey)}, ${da(p.highKey)}) | ${p.peptides.toLocaleString('en')} | ${(p.peptides / mean).toFixed(2)} | ${p.shards.toLocaleString('en')} | ${viewText(p)} | ${p.seconds.toFixed(0)} | ${p.peakRssMb.toFixed(0)} |`,
    ),
    `| merge | | | | | | ${run.merge.seconds.toFixed(0)} | ${run.merge.peakRssMb.toFixed(0)} |`,
    '',
    `On a matrix of ${run.parts} runners the build takes the slowest part plus the merge: ${slowest.toFixed(0)} + ${run.merge.seconds.toFixed(0)} s against ${run.single.seconds.toFixed(0)} s for one build ` +
      `(every part reads and digests all input and keeps its slice: digestion does not shrink with N, sorting, compression and disk do).`,
    '',
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [input, work, parts] = process.argv.slice(2);
  const run = await benchPartitioned(input, work, parts ? Number(parts) : 4);
  console.log(JSON.stringify(run));
  console.log(partitionedSection(run).join('\n'));
}

// The build CLI run as a child process and measured from /proc: wall time, CPU time and peak RSS (worker threads
// are threads of that process, so both include them), the temporary partition bytes it reports, the dataset's
// files, and optionally the largest size of its output folder while it runs. Used by run.ts and scale.ts.
// The same builds can run in this process instead (`inProcessBuild`, the smoke test's): the dataset and its files
// alike, no figure of a process.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { datasetFiles } from '../../builder/writers/publish.js';
import { MANIFEST_FILE, type Manifest } from '../../runtime/model/format.js';
import { peakRssMb } from './http.js';
import { kindOf, type FileKind } from './reads.js';

export interface BuildRun {
  seconds: number;
  /** User + system CPU seconds of the build process, all threads (optional in BENCHMARKS.json). */
  cpuSeconds?: number;
  peakRssMb: number;
  tempMb: number;
  manifest: Manifest;
  /** The shards' stored bytes (manifest totals.bytes). */
  bytes: number;
  /** Every file of the dataset folder, manifest included, and their number. */
  allFilesBytes: number;
  files: number;
  /** Stored bytes by kind of file. */
  bytesByKind: Partial<Record<FileKind, number>>;
  /** With `sampleDisk`: the largest size of the output folder (staging folder included) seen while the build ran. */
  sampledDiskBytes?: number;
}

/** Every file below `dir` (sizes summed), by kind; with `only`, just those files (paths relative to `dir`). */
export function folderBytes(
  dir: string,
  only?: ReadonlySet<string>,
): { total: number; files: number; byKind: Partial<Record<FileKind, number>> } {
  let total = 0;
  let files = 0;
  const byKind: Partial<Record<FileKind, number>> = {};
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || (only && !only.has(relative(dir, join(entry.parentPath, entry.name))))) continue;
    const size = statSync(join(entry.parentPath, entry.name)).size;
    const kind = entry.parentPath === dir ? kindOf(entry.name) : 'other';
    total += size;
    files++;
    byKind[kind] = (byKind[kind] ?? 0) + size;
  }
  return { total, files, byKind };
}

/**
 * The files of the dataset in `dir` (its manifest and every file it reaches), by kind: a build into a folder that
 * held a dataset keeps the files of the previous manifest too (publication leaves them for readers still on it).
 */
export const datasetBytes = (dir: string, manifest: Manifest) =>
  folderBytes(dir, new Set([MANIFEST_FILE, ...datasetFiles(manifest, dir)]));

/** Bytes below `dir` while a build writes, renames and removes in it: 0 when the walk trips over a change. */
function liveFolderBytes(dir: string): number {
  try {
    return folderBytes(dir).total;
  } catch {
    return 0;
  }
}

/** User + system CPU seconds of a process, all its threads (0 when it cannot be read). */
export function cpuSeconds(pid: number): number {
  try {
    // Fields after the command name (which may hold spaces): state is the 3rd field, utime the 14th, stime the 15th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // USER_HZ is 100 on Linux
  } catch {
    return 0;
  }
}

/** How a benchmark builds `input` into `out` with the build CLI's `extra` flags. */
export type Build = (input: string, out: string, extra?: string[]) => Promise<BuildRun>;

/** The dataset's figures once built (its manifest and files), and the seconds since `started`, its files read. */
function builtRun(out: string, started: number, log: string): Omit<BuildRun, 'cpuSeconds' | 'peakRssMb'> {
  const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as Manifest;
  const folder = datasetBytes(out, manifest);
  return {
    seconds: (performance.now() - started) / 1000,
    tempMb: Number(/temporary disk (\d+) MB/.exec(log)?.[1] ?? NaN),
    manifest,
    bytes: manifest.totals.bytes,
    allFilesBytes: folder.total,
    files: folder.files,
    bytesByKind: folder.byKind,
  };
}

/** `builder/commands/cli.ts` with `args` (a `--part` build too), by the builder's code in this process. */
export async function buildInProcess(args: string[], log: (line: string) => void = () => {}): Promise<void> {
  const { buildShards } = await import('../../builder/commands/buildShards.js');
  await buildShards(args, log);
}

/**
 * `measuredBuild`'s build in this process, for the smoke test's builds whose process it checks nothing of: a child
 * would start and load the builder again each time. Peak RSS and CPU are not measured (NaN, undefined).
 */
export const inProcessBuild: Build = async (input, out, extra = []) => {
  const started = performance.now();
  let log = '';
  await buildInProcess(['--input', input, '--out', out, ...extra], (line) => (log += line + '\n'));
  return { ...builtRun(out, started, log), peakRssMb: NaN };
};

/**
 * Runs the build CLI as a child process, sampling its peak RSS and CPU time every 200 ms. With `sampleDisk` it
 * also walks the output folder, at most 4% of one core (every 25 walks' time, at least 1 s apart).
 */
export async function measuredBuild(
  input: string,
  out: string,
  extra: string[] = [],
  sampleDisk = false,
): Promise<BuildRun> {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'builder/commands/cli.ts', '--input', input, '--out', out, ...extra],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let log = '';
  child.stderr.on('data', (c: Buffer) => (log += c.toString()));
  let peak = 0;
  let cpu = 0;
  let disk = 0;
  let nextWalk = 0;
  const poll = setInterval(() => {
    peak = Math.max(peak, peakRssMb(child.pid!));
    cpu = Math.max(cpu, cpuSeconds(child.pid!));
    if (!sampleDisk || performance.now() < nextWalk) return;
    const walkStarted = performance.now();
    disk = Math.max(disk, liveFolderBytes(out));
    nextWalk = performance.now() + Math.max(1000, 25 * (performance.now() - walkStarted));
  }, 200);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearInterval(poll);
  if (code !== 0) throw new Error(`build failed: ${log}`);
  return {
    ...builtRun(out, started, log),
    cpuSeconds: cpu,
    peakRssMb: peak,
    ...(sampleDisk ? { sampledDiskBytes: disk } : {}),
  };
}

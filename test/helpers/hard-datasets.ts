// Datasets for the hard-edge tests and reliability scripts, built once through the build CLI (a child
// process, as `npm run build:shards` runs it) and cached under the OS temp dir. The cache key hashes the
// input bytes, the build options and every source file of build/ and runtime/ the build uses, so a change
// to the builder or to the format rebuilds. A build goes to a fresh folder renamed into place at the end:
// concurrent test files never see a half-built cache entry.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

export const REPO = fileURLToPath(new URL('../..', import.meta.url));
export const BUNDLED_FASTA = join(REPO, 'data/uniprot-sample.fasta.gz');
export const CACHE_ROOT = join(tmpdir(), 'dp-hard-cache');

/** Runs `node --import tsx build/cli.ts ...args` in the repository; rejects with its stderr on failure. */
export function runBuildCli(args: string[]): Promise<{ code: number | null; stderr: string; seconds: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'build/cli.ts', ...args], { cwd: REPO, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr, seconds: (performance.now() - started) / 1000 }));
  });
}

/** Hash of the code that decides a dataset's bytes: build/ and the model it imports. */
function builderHash(): string {
  const hash = createHash('sha256');
  const files = [
    ...readdirSync(join(REPO, 'build')).filter((n) => /\.(ts|mjs)$/.test(n)).sort().map((n) => join('build', n)),
    ...readdirSync(join(REPO, 'runtime/model')).sort().map((n) => join('runtime/model', n)),
  ];
  for (const file of files) hash.update(file).update(readFileSync(join(REPO, file)));
  return hash.digest('hex');
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes cached builds of `label` other than `keep` not touched for an hour (older builder versions). */
function pruneStale(label: string, keep: string): void {
  for (const name of readdirSync(CACHE_ROOT)) {
    const path = join(CACHE_ROOT, name);
    if (!name.startsWith(`${label}-`) || path === keep) continue;
    if (Date.now() - statSync(path).mtimeMs > 3_600_000) rmSync(path, { recursive: true, force: true });
  }
}

/** A dataset built from `input` with `args`, cached by content; returns its folder. */
export async function cachedBuild(label: string, input: string, args: string[] = []): Promise<string> {
  const key = createHash('sha256').update(readFileSync(input)).update(JSON.stringify(args)).update(builderHash()).digest('hex').slice(0, 16);
  const dir = join(CACHE_ROOT, `${label}-${key}`);
  if (existsSync(join(dir, 'manifest.json'))) return dir;
  mkdirSync(CACHE_ROOT, { recursive: true });
  // One builder at a time per entry (test files run in parallel): a lock folder holding the builder's pid.
  const lock = join(CACHE_ROOT, `.lock-${label}-${key}`);
  for (;;) {
    if (existsSync(join(dir, 'manifest.json'))) return dir;
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      break;
    } catch {
      const pid = Number(existsSync(join(lock, 'pid')) ? readFileSync(join(lock, 'pid'), 'utf8') : 0);
      const stale = (pid > 0 && !isAlive(pid)) || Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now()) > 600_000;
      if (stale) rmSync(lock, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  try {
    if (existsSync(join(dir, 'manifest.json'))) return dir;
    const staging = join(CACHE_ROOT, `.staging-${label}-${key}-${process.pid}`);
    rmSync(staging, { recursive: true, force: true });
    const run = await runBuildCli(['--input', input, '--out', staging, ...args]);
    if (run.code !== 0) throw new Error(`build of ${label} failed: ${run.stderr}`);
    renameSync(staging, dir);
    pruneStale(label, dir);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
  if (!existsSync(join(dir, 'manifest.json'))) throw new Error(`cached build ${dir} has no manifest`);
  return dir;
}

/** The bundled sample with the default build options (flat index, ~270 shards). */
export const bundledDataset = () => cachedBuild('bundled', BUNDLED_FASTA);

/** The first `records` FASTA records of the bundled sample, as a plain FASTA file in the cache (stable path). */
export function subsetFasta(records: number): string {
  const path = join(CACHE_ROOT, `subset-${records}.fasta`);
  if (existsSync(path)) return path;
  mkdirSync(CACHE_ROOT, { recursive: true });
  const text = gunzipSync(readFileSync(BUNDLED_FASTA)).toString('latin1');
  let count = 0;
  let end = text.length;
  for (let at = text.indexOf('>'); at >= 0; at = text.indexOf('\n>', at + 1)) {
    if (count++ === records) {
      end = at;
      break;
    }
  }
  const staged = `${path}.${process.pid}.tmp`;
  writeFileSync(staged, text.slice(0, end).replace(/\n?$/, '\n'), 'latin1');
  renameSync(staged, path);
  return path;
}

/** Many small shards: the first 3,000 records with 2 KB shards, past 2,048 shards, so a two-level index. */
export const smallShardsDataset = () => cachedBuild('small-shards', subsetFasta(3000), ['--shard-bytes', '2048']);

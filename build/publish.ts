// Atomic publication of a dataset folder: its files (shards, index pages, accession and protein tables, taxonomy) move in under
// new (content-hashed) names, the manifest replaces the old one in a single rename, and only then are files that
// no manifest needs removed.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MANIFEST_FILE, type Manifest } from '../runtime/model/format.js';
import { readShardIndex } from './indexPages.js';
import { proteinPageFiles } from './proteinTable.js';

/** Prefix of the build's temporary folder inside the output folder (same file system, so renames are atomic). */
const TEMP_PREFIX = '.build-';

/**
 * Every file of a dataset other than manifest.json: index pages (every level, from the root down), shards, the
 * accession table, protein pages (inner ones first), taxonomy.
 */
export function datasetFiles(manifest: Manifest, dir: string): string[] {
  const index = readShardIndex(manifest, dir);
  return [
    ...index.pages.map((p) => p.file),
    ...index.shards.map((s) => s.file),
    ...(manifest.accessions ? [manifest.accessions.file] : []),
    ...proteinPageFiles(manifest, dir),
    ...(manifest.taxonomy ? [manifest.taxonomy.file] : []),
  ];
}

/** Names of the kinds of file a build writes (format 1's too): those no kept manifest lists are removed after publishing. */
const DATASET_FILE = /\.msgpack(\.gz|\.br)?$|^(index|proteins-index|proteins|taxonomy|accessions)-.*\.(json|msgpack)(\.gz|\.br)?$/;

/** Files of the dataset currently published in `out` (none when there is none, or it is unreadable). */
function publishedFiles(out: string): string[] {
  try {
    return datasetFiles(JSON.parse(readFileSync(join(out, MANIFEST_FILE), 'utf8')) as Manifest, out);
  } catch {
    return [];
  }
}

/**
 * Publishes `manifest` and its shards from `tmp` into `out`. Until the manifest rename, readers keep the
 * previous dataset; the previous generation's shards are kept too, for readers still holding its manifest.
 */
export function publish(tmp: string, out: string, manifest: Manifest): void {
  const files = datasetFiles(manifest, tmp);
  const keep = new Set([...files, ...publishedFiles(out)]);
  for (const file of files) renameSync(join(tmp, file), join(out, file));
  const manifestPath = join(out, MANIFEST_FILE);
  const staged = join(tmp, MANIFEST_FILE);
  writeFileSync(staged, JSON.stringify(manifest, null, 1) + '\n');
  renameSync(staged, manifestPath);
  for (const file of readdirSync(out)) {
    if (DATASET_FILE.test(file) && !keep.has(file)) rmSync(join(out, file), { force: true });
  }
}

/** A new temporary folder in `out` (created if missing) to stage a build in, after removing dead builds' ones. */
export function openStaging(out: string): string {
  mkdirSync(out, { recursive: true });
  removeStaleTemps(out);
  return mkdtempSync(join(out, `${TEMP_PREFIX}${process.pid}-`));
}

/** Removes temporary folders left by builds that were killed (their process is gone). */
function removeStaleTemps(out: string): void {
  if (!existsSync(out)) return;
  for (const name of readdirSync(out)) {
    if (!name.startsWith(TEMP_PREFIX)) continue;
    const pid = Number(name.slice(TEMP_PREFIX.length).split('-')[0]);
    if (Number.isInteger(pid) && isAlive(pid)) continue;
    rmSync(join(out, name), { recursive: true, force: true });
  }
}

/** Whether a process with this pid still runs (a stale build's temporary folder is one whose process is gone). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

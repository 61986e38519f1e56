// Atomic publication of a dataset folder: its files (shards, index pages, accession, protein and sequence tables,
// taxonomy, peptide counts) move in under new (content-hashed) names, the manifest replaces the old one in a single
// rename, and only then are files that no manifest needs removed.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { MANIFEST_FILE, type Manifest } from '../../runtime/model/format.js';
import { readShardIndex } from './indexPages.js';
import { accessionPageFiles, proteinPageFiles } from './proteinTable.js';
import { sequencePageFiles } from './sequenceTable.js';

/** Prefix of the build's temporary folder inside the output folder (same file system, so renames are atomic). */
const TEMP_PREFIX = '.build-';

/**
 * Every file of a dataset other than manifest.json: index pages (every level, from the root down) and shards of
 * the dataset, then of each view, accession, protein and sequence pages (inner ones first), taxonomy, peptide counts.
 */
export function datasetFiles(manifest: Manifest, dir: string): string[] {
  const files = [
    ...[manifest, ...(manifest.views ?? [])].flatMap((root) => {
      const index = readShardIndex(manifest, dir, root);
      return [...index.pages.map((p) => p.file), ...index.shards.map((s) => s.file)];
    }),
    ...accessionPageFiles(manifest, dir),
    ...proteinPageFiles(manifest, dir),
    ...sequencePageFiles(manifest, dir),
    ...(manifest.taxonomy ? [manifest.taxonomy.file] : []),
    ...(manifest.peptideCounts?.pages.map((page) => page.file) ?? []),
  ];
  return [...new Set(files)]; // a file is named by its content: two indexes may list the same one
}

/**
 * Names of the kinds of file a build writes (format 1's too): those no kept manifest lists are removed after
 * publishing.
 */
const DATASET_FILE =
  /\.msgpack(\.gz|\.br)?$|^(index|proteins-index|proteins|sequences-index|sequences|taxonomy|accessions|peptide-counts)-.*\.(json|msgpack)(\.gz|\.br)?$/;

/** Files of the dataset currently published in `out` (none when there is none, or it is unreadable). */
function publishedFiles(out: string): string[] {
  try {
    return datasetFiles(JSON.parse(readFileSync(join(out, MANIFEST_FILE), 'utf8')) as Manifest, out);
  } catch {
    return [];
  }
}

/**
 * Publishes `manifest` and its shards from `tmp` into `out`; returns the files it moved in (the dataset's, as
 * datasetFiles lists them). Until the manifest rename, readers keep the previous dataset; the previous
 * generation's shards are kept too, for readers still holding its manifest.
 */
export function publish(tmp: string, out: string, manifest: Manifest): string[] {
  const files = datasetFiles(manifest, tmp);
  const keep = new Set([...files, ...publishedFiles(out)]);
  for (const file of files) {
    if (file.includes('/')) mkdirSync(dirname(join(out, file)), { recursive: true });
    renameSync(join(tmp, file), join(out, file));
  }
  const manifestPath = join(out, MANIFEST_FILE);
  const staged = join(tmp, MANIFEST_FILE);
  writeFileSync(staged, JSON.stringify(manifest, null, 1) + '\n');
  renameSync(staged, manifestPath);
  // Stale files: at the top and in hash folders (`--folder-digits`); a hash folder left empty goes too.
  for (const entry of readdirSync(out, { withFileTypes: true })) {
    if (entry.isFile() && DATASET_FILE.test(entry.name) && !keep.has(entry.name))
      rmSync(join(out, entry.name), { force: true });
    if (!entry.isDirectory() || !HASH_FOLDER.test(entry.name)) continue;
    const names = readdirSync(join(out, entry.name));
    for (const name of names)
      if (DATASET_FILE.test(name) && !keep.has(`${entry.name}/${name}`))
        rmSync(join(out, entry.name, name), { force: true });
    if (readdirSync(join(out, entry.name)).length === 0)
      rmSync(join(out, entry.name), { recursive: true, force: true });
  }
  return files;
}

/** A folder of files placed by the first hex digits of their hash (placedFile). */
const HASH_FOLDER = /^[0-9a-f]{1,4}$/;

/** Hosts cap the files of one folder (Netlify a little above this); the build warns past this many. */
export const FOLDER_FILE_LIMIT = 50_000;

/**
 * A warning when a folder of `files` (a dataset built with `folderDigits`) holds more than hosts allow, else undefined.
 */
export function crowdingWarning(files: readonly string[], folderDigits: number): string | undefined {
  const fullest = fullestFolder(files);
  if (fullest.files <= FOLDER_FILE_LIMIT) return undefined;
  return `warning: ${fullest.folder ? `folder ${fullest.folder}` : 'the dataset folder'} holds ${fullest.files} files, more than hosts such as Netlify allow in one folder: build with --folder-digits ${folderDigits + 1}`;
}

/** The folder of `files` (dataset paths) holding the most files, and how many ('' is the dataset's own folder). */
export function fullestFolder(files: readonly string[]): { folder: string; files: number } {
  const counts = new Map<string, number>();
  for (const file of files) {
    const folder = file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '';
    counts.set(folder, (counts.get(folder) ?? 0) + 1);
  }
  let fullest = { folder: '', files: 0 };
  for (const [folder, n] of counts) if (n > fullest.files) fullest = { folder, files: n };
  return fullest;
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

// The local side of the bulk commands (mirror, archive): where a dataset file lands in a folder (never outside
// it), whether a file present there is the one a manifest names (size, then sha256), and temporary folders
// inside a target that files are written into before a rename puts them in place — removed when the command
// ends, fails or is interrupted, and when a later run finds one whose process is gone.
import { createHash } from 'node:crypto';
import {
  createReadStream,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { checkDatasetPath } from '../../core/storage/datasetFiles.js';
import { DatasetError } from '../../core/errors.js';
import type { FileEntry } from '../../model/format.js';
import { nodeSha256 } from '../node/platform.js';

/** The path of dataset file `file` inside `dir`: refused (a corrupt DatasetError) when its name could leave the folder. */
export function pathIn(dir: string, file: string): string {
  checkDatasetPath(file);
  const root = resolve(dir);
  const path = resolve(root, file);
  if (!path.startsWith(root + sep))
    throw new DatasetError(`the dataset names a file "${file}" outside the folder`, 'corrupt');
  return path;
}

/** Lower-case hex sha256 of a file, read as a stream (a file may be larger than is wise to hold). */
export async function fileSha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Whether `path` is a file of the entry's size whose sha256 is the entry's. */
export async function holds(path: string, entry: FileEntry): Promise<boolean> {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat?.isFile() || stat.size !== entry.bytes) return false;
  return (await fileSha256(path)) === entry.sha256;
}

/** Throws a corrupt DatasetError naming the file unless `path` is a file of the entry's size and sha256. */
export async function checkHolds(path: string, entry: FileEntry): Promise<void> {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat?.isFile()) throw new DatasetError(`${entry.file} is missing`, 'corrupt');
  if (stat.size !== entry.bytes)
    throw new DatasetError(`${entry.file} has ${stat.size} bytes where the manifest says ${entry.bytes}`, 'corrupt');
  if ((await fileSha256(path)) !== entry.sha256)
    throw new DatasetError(`${entry.file} failed its sha256 check`, 'corrupt');
}

/** The file's bytes when it holds exactly the entry's (size, sha256), else undefined. */
export function readIfHolds(path: string, entry: FileEntry): Uint8Array | undefined {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat?.isFile() || stat.size !== entry.bytes) return undefined;
  const bytes = readFileSync(path);
  return nodeSha256(bytes) === entry.sha256 ? bytes : undefined;
}

/** Temporary folders open in this process, removed on exit and on SIGINT/SIGTERM. */
const open = new Set<TempFolder>();

/** Whether a process with this pid still runs. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A folder `<parent>/<prefix><pid>-XXXXXX` for files on their way in; renames from it stay on one file system. */
export class TempFolder {
  readonly path: string;
  private count = 0;

  private constructor(path: string) {
    this.path = path;
  }

  /** Creates `parent` if needed, removes the temporary folders of `prefix` whose process is gone, opens a new one. */
  static open(parent: string, prefix: string): TempFolder {
    mkdirSync(parent, { recursive: true });
    for (const name of readdirSync(parent)) {
      const pid = name.startsWith(prefix) ? Number(name.slice(prefix.length).split('-')[0]) : NaN;
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && !isAlive(pid))
        rmSync(join(parent, name), { recursive: true, force: true });
    }
    const folder = new TempFolder(mkdtempSync(join(parent, `${prefix}${process.pid}-`)));
    open.add(folder);
    return folder;
  }

  /** A fresh file name inside the folder. */
  file(suffix = ''): string {
    return join(this.path, `${++this.count}${suffix}`);
  }

  /** Moves a file of the folder to `target` (its parent folder created), replacing what is there. */
  static moveTo(temp: string, target: string): void {
    mkdirSync(dirname(target), { recursive: true });
    renameSync(temp, target);
  }

  remove(): void {
    // On a signal, downloads may still be writing into the folder while it is removed (ENOTEMPTY): retried.
    rmSync(this.path, { recursive: true, force: true, maxRetries: 3 });
    open.delete(this);
  }
}

const removeAll = () => {
  for (const folder of [...open]) folder.remove();
};

/**
 * Removes the open temporary folders when the process exits or is interrupted (SIGINT: exit status 130,
 * SIGTERM: 143); returns the function that stops doing so.
 */
export function removeTempFoldersOnExit(): () => void {
  const onSignal = (signal: NodeJS.Signals) => {
    removeAll();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.on('exit', removeAll).on('SIGINT', onSignal).on('SIGTERM', onSignal);
  return () => {
    process.off('exit', removeAll).off('SIGINT', onSignal).off('SIGTERM', onSignal);
  };
}

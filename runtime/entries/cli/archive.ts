// `npm run query -- archive --slices N --out <dir> [--shards <dir>]`: a dataset folder as tar archives, one per
// contiguous mass slice of its shards plus a base archive of everything else, and archives.json listing them.
// Archives are byte-identical for the same dataset (portable headers, a fixed mtime, walk order), named by content.
import { createHash } from 'node:crypto';
import { createWriteStream, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Pack } from 'tar';
import { datasetFiles, type DatasetFile } from '../../core/storage/datasetFiles.js';
import { DatasetError } from '../../core/errors.js';
import { MANIFEST_FILE, type FileEntry } from '../../model/format.js';
import { defaultShards, nodeDecompress, nodeSha256 } from '../node/platform.js';
import { parseCommand, runCommand, UsageError, wholeNumber } from './command.js';
import { datasetSource, isUrl, readManifestBytes } from './datasetSource.js';
import { checkHolds, pathIn, removeTempFoldersOnExit, TempFolder } from './localFiles.js';
import { write, type QueryIo } from './output.js';
import { SlicePlanner } from './slices.js';
import { megabytes } from './transferBar.js';
import { ARCHIVE_USAGE } from './usage.js';

export const ARCHIVES_FILE = 'archives.json';
export const ARCHIVE_TEMP_PREFIX = '.archive-';
/** Every entry's mtime: archives depend on the files' bytes and names only. */
const EPOCH = new Date(0);
/** Hex digits of an archive's sha256 in its name. */
const NAME_DIGITS = 20;
const READ_TIMEOUT_MS = 60_000;

/** One archive as archives.json lists it. */
export interface ArchiveEntry extends FileEntry {
  /** Files in the archive. */
  files: number;
}

export interface SliceArchive extends ArchiveEntry {
  /** 1-based, in mass order. */
  slice: number;
  firstKey: number;
  lastKey: number;
  shards: number;
  /** Stored bytes of its shards. */
  shardBytes: number;
}

/** archives.json. */
export interface ArchivesIndex {
  format: 'digested-peptides-archives';
  formatVersion: 1;
  datasetVersion: string;
  base: ArchiveEntry;
  slices: SliceArchive[];
}

/** A tar archive written into a temporary file, hashed as it is written. */
class TarWriter {
  private pack: Pack;
  private hash = createHash('sha256');
  private bytes = 0;
  private files = 0;
  private done: Promise<void>;

  constructor(
    private dir: string,
    readonly staged: string,
  ) {
    this.pack = new Pack({ cwd: dir, portable: true, mtime: EPOCH, noDirRecurse: true });
    const counted = new Transform({
      transform: (chunk: Buffer, _encoding, next) => {
        this.hash.update(chunk);
        this.bytes += chunk.length;
        next(null, chunk);
      },
    });
    this.done = pipeline(this.pack, counted, createWriteStream(staged));
    this.done.catch(() => {}); // reported by finish()
  }

  /** Adds a dataset file of the folder once it is checked to hold its entry's bytes. */
  async add(entry: FileEntry): Promise<void> {
    await checkHolds(pathIn(this.dir, entry.file), entry);
    this.addUnchecked(entry.file);
  }

  addUnchecked(file: string): void {
    this.pack.add(file);
    this.files++;
  }

  /** Ends the archive; its sha256, size and file count. */
  async finish(): Promise<ArchiveEntry> {
    this.pack.end();
    await this.done;
    return { file: '', sha256: this.hash.digest('hex'), bytes: this.bytes, files: this.files };
  }

  abort(): void {
    this.pack.destroy(new Error('aborted'));
  }
}

/** The archive's final name (`<prefix>-<first 20 hex digits of its sha256>.tar`), moved there from its temporary file. */
function place(writer: TarWriter, entry: ArchiveEntry, out: string, prefix: string): ArchiveEntry {
  const file = `${prefix}-${entry.sha256.slice(0, NAME_DIGITS)}.tar`;
  TempFolder.moveTo(writer.staged, join(out, file));
  return { ...entry, file };
}

/** Writes the archives of the dataset folder `dir` into `out`; returns what archives.json lists. */
export async function archiveDataset(dir: string, out: string, slices: number): Promise<ArchivesIndex> {
  const source = datasetSource(dir, READ_TIMEOUT_MS);
  const { bytes: manifestBytes, manifest } = await readManifestBytes(source, READ_TIMEOUT_MS);
  const walk = () =>
    datasetFiles(source, manifest, { sha256: nodeSha256, decompress: nodeDecompress, timeoutMs: READ_TIMEOUT_MS });
  const others: DatasetFile[] = [];
  let shards = 0;
  let shardBytes = 0;
  for await (const file of walk()) {
    if (file.kind !== 'shard') others.push(file);
    else {
      shards++;
      shardBytes += file.bytes;
    }
  }
  if (slices > shards)
    throw new DatasetError(`--slices ${slices} is more than the dataset's ${shards} shards`, 'corrupt');
  const temp = TempFolder.open(out, ARCHIVE_TEMP_PREFIX);
  let writer: TarWriter | undefined;
  try {
    writer = new TarWriter(dir, temp.file('.tar'));
    writer.addUnchecked(MANIFEST_FILE);
    for (const file of others) await writer.add(file);
    const base = place(writer, await writer.finish(), out, 'base');
    const planner = new SlicePlanner(shardBytes, shards, slices);
    const written: SliceArchive[] = [];
    const width = String(slices).length;
    let slice: SliceArchive | undefined;
    const close = async () => {
      if (slice)
        written.push({
          ...slice,
          ...place(writer!, await writer!.finish(), out, `slice-${String(slice.slice).padStart(width, '0')}`),
        });
    };
    for await (const file of walk()) {
      if (file.kind !== 'shard') continue;
      let k: number;
      try {
        k = planner.next(file.bytes) + 1;
      } catch {
        throw new DatasetError(`the dataset in ${dir} changed while it was archived`, 'corrupt');
      }
      if (k !== slice?.slice) {
        await close();
        writer = new TarWriter(dir, temp.file('.tar'));
        slice = {
          file: '',
          sha256: '',
          bytes: 0,
          files: 0,
          slice: k,
          firstKey: file.firstKey!,
          lastKey: file.lastKey!,
          shards: 0,
          shardBytes: 0,
        };
      }
      await writer.add(file);
      slice.lastKey = file.lastKey!;
      slice.shards++;
      slice.shardBytes += file.bytes;
    }
    await close();
    writer = undefined;
    if (!Buffer.from(manifestBytes).equals(readFileSync(join(dir, MANIFEST_FILE))) || written.length !== slices) {
      throw new DatasetError(`the dataset in ${dir} changed while it was archived`, 'corrupt');
    }
    const index: ArchivesIndex = {
      format: 'digested-peptides-archives',
      formatVersion: 1,
      datasetVersion: manifest.datasetVersion,
      base,
      slices: written,
    };
    const staged = temp.file('.json');
    await writeFile(staged, JSON.stringify(index, null, 1) + '\n');
    TempFolder.moveTo(staged, join(out, ARCHIVES_FILE));
    return index;
  } finally {
    writer?.abort();
    temp.remove();
  }
}

/** The command: exit 0 with a summary on stderr, 1 when archiving failed, 2 on a usage error. */
export function main(argv: string[], io: QueryIo): Promise<number> {
  return runCommand('archive', ARCHIVE_USAGE, io, async () => {
    const { values } = parseCommand(argv, ['shards', 'slices', 'out'], false);
    if (values.help) return 'help';
    const slices = wholeNumber(values, 'slices', undefined, 10_000);
    if (typeof values.out !== 'string' || values.out === '')
      throw new UsageError('--out is required (the folder the archives are written into)');
    const dir = typeof values.shards === 'string' ? values.shards : defaultShards();
    if (isUrl(dir))
      throw new UsageError(`--shards must be a dataset folder, not a URL (mirror it first), got "${dir}"`);
    const started = performance.now();
    const index = await archiveDataset(dir, values.out, slices);
    const sum = (field: 'bytes' | 'shards') => index.slices.reduce((total, s) => total + s[field], 0);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    await write(
      io.stderr,
      `archive: ${slices} slice archive${slices === 1 ? '' : 's'} (${sum('shards')} shards, ${megabytes(sum('bytes'))} MB) and a base archive (${index.base.files} files, ${megabytes(index.base.bytes)} MB) in ${values.out}, ${ARCHIVES_FILE} written; ${seconds} s\n`,
    );
  });
}

/** Runs the command line of this process (`query archive ...`), removing its temporary files if interrupted. */
export async function run(): Promise<void> {
  const stop = removeTempFoldersOnExit();
  process.exitCode = await main(process.argv.slice(3), { stdout: process.stdout, stderr: process.stderr });
  stop();
}

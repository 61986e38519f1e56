// `npm run query -- mirror <dir|url> <out-dir> [--concurrency N] [--mass low-high]`: copies a dataset into a folder,
// each file checked before a rename puts it in place; verified files are kept (an interrupted mirror resumes) and
// manifest.json is written last, so the folder holds the complete dataset or keeps its previous manifest.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import pLimit from 'p-limit';
import { checkSize, decodePage, walkDatasetFiles, type PageReader } from '../../core/storage/datasetFiles.js';
import { DatasetError } from '../../core/errors.js';
import { fetchChecked } from '../../core/storage/fetchFile.js';
import type { ShardSource } from '../../core/storage/source.js';
import {
  accessionPageSize,
  FLAT_INDEX_LIMIT,
  INDEX_PAGE_SHARDS,
  MANIFEST_FILE,
  PROTEIN_PAGE_ACCESSIONS,
  SEQUENCE_PAGE_ACCESSIONS,
  type FileEntry,
  type Manifest,
  type ShardEntry,
} from '../../model/format.js';
import { formatMassKey, parseMass } from '../../model/massKey.js';
import { nodeDecompress, nodeSha256 } from '../node/platform.js';
import { parseCommand, runCommand, UsageError, wholeNumber } from './command.js';
import { datasetSource, readManifestBytes } from './datasetSource.js';
import { holds, pathIn, readIfHolds, removeTempFoldersOnExit, TempFolder } from './localFiles.js';
import { write, type QueryIo } from './output.js';
import { megabytes, transferBar, type CopyProgress } from './transferBar.js';
import { MIRROR_USAGE } from './usage.js';

/** An inclusive range of mass keys. */
export interface KeyRange {
  low: number;
  high: number;
}

export interface MirrorOptions {
  /** Files fetched or verified at once. */
  concurrency: number;
  /** Only the shards whose keys meet this range (every other file always). */
  keys?: KeyRange;
  /** Tries of one file when its failure may pass (a time-out, HTTP 5xx or 429); default 4. */
  attempts?: number;
  /** Wait before the second try, doubled before each further one; default 500 ms. */
  backoffMs?: number;
  /** Milliseconds one try of one file may take; default 15 minutes. */
  timeoutMs?: number;
  progress?: CopyProgress;
}

export interface MirrorSummary {
  fetched: number;
  fetchedBytes: number;
  present: number;
  presentBytes: number;
  milliseconds: number;
}

/** Prefix of the temporary folder a mirror writes into inside its target. */
export const MIRROR_TEMP_PREFIX = '.mirror-';
const DEFAULT_TIMEOUT_MS = 15 * 60_000;

/** Whether a shard's keys meet the range. */
export const meets = (keys: KeyRange | undefined) => (shard: Pick<ShardEntry, 'firstKey' | 'lastKey'>) =>
  !keys || (shard.firstKey <= keys.high && shard.lastKey >= keys.low);

/** The files a mirror expects, from the manifest alone (exact for a flat index, an estimate for pages): for the progress bar. */
export function expectedFiles(manifest: Manifest, keys?: KeyRange): number {
  const shards = manifest.shards
    ? manifest.shards.filter(meets(keys)).length
    : (manifest.shardIndex?.pages ?? []).filter(meets(keys)).reduce((sum, p) => sum + p.shards, 0);
  const all = manifest.totals?.shards ?? shards;
  const indexPages = all > FLAT_INDEX_LIMIT ? Math.ceil(all / INDEX_PAGE_SHARDS) : 0;
  const accessions = manifest.accessions?.count ?? 0;
  const tablePages =
    Math.ceil(accessions / PROTEIN_PAGE_ACCESSIONS) +
    Math.ceil(accessions / accessionPageSize(accessions)) +
    (manifest.sequences ? Math.ceil(accessions / SEQUENCE_PAGE_ACCESSIONS) : 0);
  return shards + indexPages + tablePages + (manifest.taxonomy ? 1 : 0) + (manifest.peptideCounts?.pages.length ?? 0);
}

/** One file from the source, checked (sha256 by fetchChecked, size), tried again while its failure may pass. */
async function fetchFile(source: ShardSource, entry: FileEntry, options: MirrorOptions): Promise<Uint8Array> {
  const attempts = options.attempts ?? 4;
  for (let attempt = 1; ; attempt++) {
    try {
      const bytes = await fetchChecked(
        source,
        entry.file,
        entry.sha256,
        options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        undefined,
        nodeSha256,
      );
      checkSize(entry, bytes);
      return bytes;
    } catch (e) {
      const error = e instanceof DatasetError ? e : new DatasetError(String(e), 'corrupt');
      if (error.kind === 'unavailable' && attempt < attempts) {
        await new Promise((resolve) => setTimeout(resolve, (options.backoffMs ?? 500) * 2 ** (attempt - 1)));
        continue;
      }
      const tries = attempt > 1 ? `, ${attempt} tries` : '';
      throw new DatasetError(`${error.message} (from ${source.description}${tries})`, error.kind);
    }
  }
}

/**
 * Copies the dataset of `source` into `target` (created if needed). Throws on the first file that cannot be
 * had (after its retries), a name that would leave the folder or a manifest that is not a dataset's; the
 * target then keeps its previous manifest, and no temporary file.
 */
export async function mirrorDataset(
  source: ShardSource,
  target: string,
  options: MirrorOptions,
): Promise<MirrorSummary> {
  const started = performance.now();
  const { bytes: manifestBytes, manifest } = await readManifestBytes(source, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const summary: MirrorSummary = { fetched: 0, fetchedBytes: 0, present: 0, presentBytes: 0, milliseconds: 0 };
  const progress = options.progress ?? { expected: () => {}, file: () => {} };
  const temp = TempFolder.open(target, MIRROR_TEMP_PREFIX);
  const limit = pLimit(options.concurrency);
  let failure: { error: unknown } | undefined;

  /** The file in place in the target, verified: kept when it is there already, else fetched; its bytes when asked. */
  const obtain = async (file: FileEntry, wantBytes: boolean): Promise<Uint8Array | undefined> => {
    const path = pathIn(target, file.file);
    const present = wantBytes ? readIfHolds(path, file) : (await holds(path, file)) || undefined;
    if (present) {
      summary.present++;
      summary.presentBytes += file.bytes;
      progress.file(file.bytes, false);
      return present === true ? undefined : present;
    }
    const bytes = await fetchFile(source, file, options);
    const staged = temp.file();
    await writeFile(staged, bytes);
    TempFolder.moveTo(staged, path);
    summary.fetched++;
    summary.fetchedBytes += bytes.length;
    progress.file(bytes.length, true);
    return bytes;
  };
  const readPage: PageReader = async (entry, kind) =>
    decodePage((await limit(() => obtain(entry, true)))!, entry, kind, manifest.compression, nodeDecompress);

  const running = new Set<Promise<void>>();
  let known = 0;
  let expected = expectedFiles(manifest, options.keys);
  progress.expected(expected);
  try {
    for await (const file of walkDatasetFiles(manifest, readPage, { keepShard: meets(options.keys) })) {
      if (failure) break;
      if (++known > expected) progress.expected((expected = known));
      if (file.read) continue; // a page the walk read: obtained already
      const task = limit(() => (failure ? undefined : obtain(file, false))).then(
        () => {},
        (error: unknown) => void (failure ??= { error }),
      );
      running.add(task);
      void task.finally(() => running.delete(task));
      while (limit.pendingCount >= options.concurrency && !failure) await Promise.race(running);
    }
  } catch (error) {
    failure ??= { error };
  } finally {
    await Promise.allSettled(running);
  }
  try {
    if (failure) throw failure.error;
    progress.expected(known);
    const staged = temp.file();
    await writeFile(staged, manifestBytes);
    TempFolder.moveTo(staged, join(target, MANIFEST_FILE));
  } finally {
    temp.remove();
  }
  summary.milliseconds = performance.now() - started;
  return summary;
}

/** The summary line: files fetched and kept, their bytes, the time. */
export function summaryLine(s: MirrorSummary, keys?: KeyRange): string {
  const only = keys ? ` (shards of ${formatMassKey(keys.low)}-${formatMassKey(keys.high)} Da only)` : '';
  return `${s.fetched} files fetched (${megabytes(s.fetchedBytes)} MB), ${s.present} skipped as present and verified (${megabytes(s.presentBytes)} MB), manifest.json written${only}; ${(s.milliseconds / 1000).toFixed(1)} s`;
}

/** `--mass low-high` (Da, decimals) as the inclusive key range it covers. */
export function massRange(text: string): KeyRange {
  const match = /^\s*(\d+(?:\.\d*)?|\.\d+)\s*-\s*(\d+(?:\.\d*)?|\.\d+)\s*$/.exec(text);
  if (!match) throw new UsageError(`--mass must be <low>-<high> in Da (e.g. 1000-1100.5), got "${text}"`);
  const [low, high] = [parseMass(match[1])!, parseMass(match[2])!];
  if (low.value > high.value) throw new UsageError(`--mass: its low end ${match[1]} is above its high end ${match[2]}`);
  return { low: low.ceilKey, high: high.floorKey };
}

/** The command: exit 0 with a summary on stderr, 1 when the mirror failed, 2 on a usage error. */
export function main(argv: string[], io: QueryIo): Promise<number> {
  return runCommand('mirror', MIRROR_USAGE, io, async () => {
    const { values, positionals } = parseCommand(argv, ['concurrency', 'mass'], true);
    if (values.help) return 'help';
    if (positionals.length !== 2)
      throw new UsageError(
        `mirror takes a dataset (folder or URL) and a target folder, got ${positionals.length} argument${positionals.length === 1 ? '' : 's'}`,
      );
    const concurrency = wholeNumber(values, 'concurrency', 8, 64);
    const keys = typeof values.mass === 'string' ? massRange(values.mass) : undefined;
    const [from, to] = positionals;
    const bar = transferBar(io, 'mirror');
    let summary: MirrorSummary;
    try {
      summary = await mirrorDataset(datasetSource(from, DEFAULT_TIMEOUT_MS), to, { concurrency, keys, progress: bar });
    } finally {
      bar.stop();
    }
    await write(io.stderr, `mirror: ${summaryLine(summary, keys)}\n`);
  });
}

/** Runs the command line of this process (`query mirror ...`), removing its temporary files if interrupted. */
export async function run(): Promise<void> {
  const stop = removeTempFoldersOnExit();
  process.exitCode = await main(process.argv.slice(3), { stdout: process.stdout, stderr: process.stderr });
  stop();
}

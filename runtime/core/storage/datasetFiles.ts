// Every file a dataset's manifest reaches, walked from the manifest: the accession table's pages, the taxonomy, the
// protein table's pages, the sequence table's, the shard index's pages and shards, and each view's. Index trees may be
// of any depth: a page holding `pages` is an inner page, one holding `shards` a leaf of the shard index; accession,
// protein and sequence pages are inner pages down to `levels - 1`. Each name is checked to stay inside the dataset's
// folder (one folder level at most), and each page read is verified (size, sha256) before its entries are believed.
import {
  MANIFEST_FILE,
  type Compression,
  type FileEntry,
  type Manifest,
  type ShardEntry,
  type ShardIndexRoot,
} from '../../model/format.js';
import { streamDecompress, type Decompress } from './decompress.js';
import { DatasetError } from '../errors.js';
import { DEFAULT_FETCH_TIMEOUT_MS, fetchChecked, type Sha256 } from './fetchFile.js';
import type { ShardSource } from './source.js';

export type DatasetFileKind =
  | 'accession page'
  | 'accession index page'
  | 'taxonomy'
  | 'peptide counts page'
  | 'protein page'
  | 'protein index page'
  | 'sequence page'
  | 'sequence index page'
  | 'index page'
  | 'shard';

/** One file of a dataset: its manifest entry's name, sha256 and size, what it is, and a shard's key range. */
export interface DatasetFile extends FileEntry {
  kind: DatasetFileKind;
  /** True when the walk read the file's content through its page reader (inner pages, index pages). */
  read: boolean;
  /** A shard's first and last mass key. */
  firstKey?: number;
  lastKey?: number;
}

/** The decoded JSON content of a page the walk must read (verified against its entry first). */
export type PageReader = (entry: FileEntry, kind: DatasetFileKind) => Promise<unknown>;

export interface WalkOptions {
  /** Which shards to list (default all); every other file is always listed. */
  keepShard?: (shard: ShardEntry) => boolean;
}

/**
 * A tree of pages as the manifest roots it (`shardIndex`, `accessions`, `proteins`, `sequences`); `levels` ≥ 2: the
 * root lists inner pages.
 */
interface PageTree {
  pages: FileEntry[];
  levels?: number;
}

/** Deepest index tree walked: a page deeper than this is refused (a format this reader does not know). */
export const MAX_INDEX_DEPTH = 8;

/**
 * Why `file` may not be a dataset file's name, or null when it is a safe name (a plain name, or one folder and a plain
 * name).
 */
export function unsafePathReason(file: unknown): string | null {
  if (typeof file !== 'string' || file === '') return 'it is not a name';
  if (file.startsWith('/') || /^[A-Za-z]:/.test(file)) return 'it is an absolute path';
  if (file.includes('\\')) return 'it holds a backslash';
  const parts = file.split('/');
  if (parts.some((part) => part === '..' || part === '.')) return 'it holds a "." or ".." part';
  if (parts.length > 2) return 'it has more than one folder level';
  if (parts.some((part) => part.startsWith('.'))) return 'a part of it starts with "."';
  if (!parts.every((part) => /^[A-Za-z0-9._-]+$/.test(part)))
    return 'it holds a character other than letters, digits, ".", "_" and "-"';
  if (file === MANIFEST_FILE) return 'it is the manifest’s own name';
  return null;
}

/** Throws DatasetError (corrupt) unless `file` is a safe dataset file name (unsafePathReason). */
export function checkDatasetPath(file: unknown): string {
  const reason = unsafePathReason(file);
  if (reason)
    throw new DatasetError(`the dataset names a file ${JSON.stringify(file)} that is refused: ${reason}`, 'corrupt');
  return file as string;
}

/** The entry as a DatasetFile, after checking its name, sha256 and size. */
function fileOf(entry: FileEntry, kind: DatasetFileKind, read: boolean): DatasetFile {
  checkDatasetPath(entry?.file);
  if (typeof entry.sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(entry.sha256))
    throw new DatasetError(`${kind} ${entry.file} has no valid sha256 (64 lower-case hex digits)`, 'corrupt');
  if (!Number.isSafeInteger(entry.bytes) || entry.bytes < 0)
    throw new DatasetError(`${kind} ${entry.file} has no valid size in bytes`, 'corrupt');
  return { kind, file: entry.file, sha256: entry.sha256, bytes: entry.bytes, read };
}

const shardFile = (shard: ShardEntry): DatasetFile => ({
  ...fileOf(shard, 'shard', false),
  firstKey: shard.firstKey,
  lastKey: shard.lastKey,
});

/** A page's `field` array, or undefined when it holds none. */
function listOf(content: unknown, field: 'pages' | 'shards'): unknown[] | undefined {
  const list = (content as Record<string, unknown> | null)?.[field];
  return Array.isArray(list) ? list : undefined;
}

/**
 * Every file of the dataset but manifest.json, each once, pages before what they list: the accession pages,
 * the taxonomy, the peptide counts, the protein pages, the sequence pages, then index pages and their shards in mass
 * order. `readPage` reads the
 * pages the walk must open (index pages, inner pages); it is called once per such page, in walk order.
 */
export async function* walkDatasetFiles(
  manifest: Manifest,
  readPage: PageReader,
  options: WalkOptions = {},
): AsyncGenerator<DatasetFile> {
  const keep = options.keepShard ?? (() => true);
  const accessions = manifest.accessions as PageTree | undefined;
  if (!accessions) throw new DatasetError('manifest lists no accession table', 'corrupt');
  yield* tablePages(rootPages(accessions, 'accessions'), levelsOf(accessions, 'accessions') - 1, readPage, 'accession');
  if (manifest.taxonomy) yield fileOf(manifest.taxonomy, 'taxonomy', false);
  for (const page of manifest.peptideCounts?.pages ?? []) yield fileOf(page, 'peptide counts page', false);
  const proteins = manifest.proteins as PageTree | undefined;
  if (proteins)
    yield* tablePages(rootPages(proteins, 'proteins'), levelsOf(proteins, 'proteins') - 1, readPage, 'protein');
  const sequences = manifest.sequences as PageTree | undefined;
  if (sequences)
    yield* tablePages(rootPages(sequences, 'sequences'), levelsOf(sequences, 'sequences') - 1, readPage, 'sequence');
  yield* shardFiles(manifest, 'manifest', readPage, keep);
  if (manifest.views !== undefined && !Array.isArray(manifest.views))
    throw new DatasetError('manifest views is not a list', 'corrupt');
  for (const [i, view] of (manifest.views ?? []).entries())
    yield* shardFiles(view, `manifest view ${i}`, readPage, keep);
}

/** The index pages and shards of the dataset's shard index or of a view's (`where` names it in errors). */
async function* shardFiles(
  root: ShardIndexRoot,
  where: string,
  readPage: PageReader,
  keep: (shard: ShardEntry) => boolean,
): AsyncGenerator<DatasetFile> {
  if (root?.shards) {
    if (!Array.isArray(root.shards)) throw new DatasetError(`${where} shards is not a list`, 'corrupt');
    for (const shard of root.shards) if (keep(shard)) yield shardFile(shard);
  } else if (root?.shardIndex) {
    const index = root.shardIndex as PageTree;
    yield* indexPages(rootPages(index, `${where} shardIndex`), 0, index.levels, readPage, keep);
  } else throw new DatasetError(`${where} lists no shards`, 'corrupt');
}

function rootPages(tree: PageTree, field: string): FileEntry[] {
  if (!Array.isArray(tree?.pages)) throw new DatasetError(`manifest ${field} lists no pages`, 'corrupt');
  return tree.pages;
}

function levelsOf(tree: PageTree, field: string): number {
  const levels = tree.levels ?? 1;
  if (!Number.isInteger(levels) || levels < 1 || levels > MAX_INDEX_DEPTH)
    throw new DatasetError(
      `manifest ${field}.levels must be a whole number from 1 to ${MAX_INDEX_DEPTH}, got ${JSON.stringify(tree.levels)}`,
      'corrupt',
    );
  return levels;
}

/**
 * Accession, protein or sequence pages: entries `inner` levels above the leaves are inner pages (read, listing
 * `pages`), the rest leaves.
 */
async function* tablePages(
  entries: unknown[],
  inner: number,
  readPage: PageReader,
  table: 'accession' | 'protein' | 'sequence',
): AsyncGenerator<DatasetFile> {
  for (const entry of entries) {
    if (inner === 0) {
      yield fileOf(entry as FileEntry, `${table} page`, false);
      continue;
    }
    const page = fileOf(entry as FileEntry, `${table} index page`, true);
    const pages = listOf(await readPage(page, page.kind), 'pages');
    if (!pages) throw new DatasetError(`${page.kind} ${page.file} lists no pages`, 'corrupt');
    yield page;
    yield* tablePages(pages, inner - 1, readPage, table);
  }
}

/**
 * Index pages at `depth` (0: listed by the manifest) and what they list, recursively; checked against `levels` when
 * given.
 */
async function* indexPages(
  entries: unknown[],
  depth: number,
  levels: number | undefined,
  readPage: PageReader,
  keep: (shard: ShardEntry) => boolean,
): AsyncGenerator<DatasetFile> {
  for (const entry of entries) {
    const page = fileOf(entry as FileEntry, 'index page', true);
    const content = await readPage(page, page.kind);
    const shards = listOf(content, 'shards');
    const pages = shards ? undefined : listOf(content, 'pages');
    if (!shards && !pages) throw new DatasetError(`index page ${page.file} lists neither shards nor pages`, 'corrupt');
    const leafDepth = levels === undefined ? undefined : levels - 1;
    if (leafDepth !== undefined && (shards ? depth !== leafDepth : depth >= leafDepth)) {
      throw new DatasetError(
        `index page ${page.file} lists ${shards ? 'shards' : 'pages'} at depth ${depth + 1} of an index of ${levels} levels`,
        'corrupt',
      );
    }
    if (pages && depth + 1 >= MAX_INDEX_DEPTH)
      throw new DatasetError(`index page ${page.file} is deeper than ${MAX_INDEX_DEPTH} levels`, 'corrupt');
    yield page;
    if (shards) {
      for (const shard of shards as ShardEntry[]) if (keep(shard)) yield shardFile(shard);
    } else yield* indexPages(pages!, depth + 1, levels, readPage, keep);
  }
}

/** A page's stored bytes decompressed and parsed; DatasetError (corrupt) naming the page when they are not JSON. */
export async function decodePage(
  stored: Uint8Array,
  page: DatasetFile | FileEntry,
  kind: DatasetFileKind,
  compression: Compression,
  decompress: Decompress = streamDecompress,
): Promise<unknown> {
  try {
    return JSON.parse(new TextDecoder().decode(await decompress(stored, compression))) as unknown;
  } catch (e) {
    throw new DatasetError(`${kind} ${page.file} is not readable: ${(e as Error).message}`, 'corrupt');
  }
}

/** DatasetError (corrupt) unless `bytes` has the size the manifest gives `entry`. */
export function checkSize(entry: FileEntry, bytes: Uint8Array): void {
  if (bytes.length !== entry.bytes)
    throw new DatasetError(`${entry.file} has ${bytes.length} bytes where the manifest says ${entry.bytes}`, 'corrupt');
}

export interface PageReadOptions {
  sha256?: Sha256;
  decompress?: Decompress;
  timeoutMs?: number;
}

/** A PageReader over a ShardSource: each page fetched, its size and sha256 checked, decompressed, parsed. */
export function sourcePageReader(
  source: ShardSource,
  compression: Compression,
  options: PageReadOptions = {},
): PageReader {
  return async (entry, kind) => {
    const stored = await fetchChecked(
      source,
      entry.file,
      entry.sha256,
      options.timeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS,
      undefined,
      options.sha256,
    );
    checkSize(entry, stored);
    return decodePage(stored, entry, kind, compression, options.decompress);
  };
}

/** walkDatasetFiles over a ShardSource: every file of the dataset but manifest.json, pages read from the source. */
export function datasetFiles(
  source: ShardSource,
  manifest: Manifest,
  options: WalkOptions & PageReadOptions = {},
): AsyncGenerator<DatasetFile> {
  return walkDatasetFiles(manifest, sourcePageReader(source, manifest.compression, options), options);
}

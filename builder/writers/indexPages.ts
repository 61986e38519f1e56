// The manifest's shard index: the shard list itself when short, else a tree of index pages written as compressed
// JSON files — leaf pages of shards, inner pages of pages when there are many (see docs/format.md) — so that
// the manifest, which every query reads first, stays small at any scale.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  combinedResidueMax,
  FLAT_INDEX_LIMIT,
  FORMAT_VERSION,
  INDEX_INNER_PAGES,
  INDEX_PAGE_SHARDS,
  indexPageFileName,
  SHARD_INDEX_ROOT_LIMIT,
  type Compression,
  type FileEntry,
  type IndexPage,
  type IndexPageEntry,
  type InnerIndexPage,
  type Manifest,
  type ShardEntry,
  type ShardIndexRoot,
  tilingViolation,
} from '../../runtime/model/format.js';
import { decompress, writeDatasetFile, type Storage } from './datasetFile.js';
import { pageTree, treePages, type TreeShape } from './pageTree.js';

/** The shape of a shard index: the flat list up to `flatLimit` shards, else leaf pages of `pageShards` under a tree. */
export interface IndexShape extends TreeShape {
  pageShards: number;
  flatLimit: number;
}

/**
 * The shard index's root is wider than the tables' (format.ts, SHARD_INDEX_ROOT_LIMIT): one index read per cold query
 * up to 65,536 shards.
 */
export const INDEX_SHAPE: IndexShape = {
  rootLimit: SHARD_INDEX_ROOT_LIMIT,
  innerPages: INDEX_INNER_PAGES,
  pageShards: INDEX_PAGE_SHARDS,
  flatLimit: FLAT_INDEX_LIMIT,
};

/** Writes one index page and returns its file's entry (the build's: compressed into the dataset folder). */
export type WriteIndexPage = (page: IndexPage | InnerIndexPage) => FileEntry;

/** The entry of a page of `members` (shards, or pages of the level below) starting at shard `firstShard`, in `file`. */
function entryOf(
  file: FileEntry,
  firstShard: number,
  shards: number,
  members: readonly Pick<ShardEntry, 'firstKey' | 'lastKey' | 'massGroups' | 'peptides' | 'residueMax'>[],
): IndexPageEntry {
  const sum = (field: 'massGroups' | 'peptides') => members.reduce((total, s) => total + s[field], 0);
  const residueMax = combinedResidueMax(members);
  return {
    ...file,
    firstShard,
    shards,
    firstKey: members[0].firstKey,
    lastKey: members[members.length - 1].lastKey,
    massGroups: sum('massGroups'),
    peptides: sum('peptides'),
    ...(residueMax === undefined ? {} : { residueMax }),
  };
}

/** Writes the leaf index page of `shards` (global index of the first: `firstShard`); returns its entry. */
export function writeLeafPage(shards: ShardEntry[], firstShard: number, write: WriteIndexPage): IndexPageEntry {
  return entryOf(write({ formatVersion: FORMAT_VERSION, firstShard, shards }), firstShard, shards.length, shards);
}

/**
 * The manifest's `shardIndex` over the entries of the leaf pages, writing the inner pages a root of `shape.rootLimit`
 * needs.
 */
export function shardIndexTree(
  leaves: IndexPageEntry[],
  write: WriteIndexPage,
  shape: TreeShape = INDEX_SHAPE,
): NonNullable<Manifest['shardIndex']> {
  return pageTree(
    leaves,
    (pages) => {
      const firstShard = pages[0].firstShard;
      const shards = pages.reduce((total, p) => total + p.shards, 0);
      return entryOf(write({ formatVersion: FORMAT_VERSION, firstShard, pages }), firstShard, shards, pages);
    },
    shape,
  );
}

/**
 * The shard index written while the shards are: entries come in mass order (checked: they must tile the mass
 * line), wait until they fill a leaf page (all of them while the index may still be the manifest's flat list),
 * and only one entry per leaf page stays, so the build holds a page of entries, not one per shard (too many at
 * TrEMBL's scale). The pages are the same as chunking the whole list would make.
 */
export class ShardIndexWriter {
  shards = 0;
  massGroups = 0;
  peptides = 0;
  /** Stored bytes of the shards. */
  bytes = 0;
  private pending: ShardEntry[] = [];
  private leaves: IndexPageEntry[] = [];
  private last: ShardEntry | undefined;
  private readonly shape: IndexShape;

  /** `refuse` makes the error thrown when an entry does not follow the one before it on the mass line. */
  constructor(
    private write: WriteIndexPage,
    shape: Partial<IndexShape> = {},
    private refuse: (violation: string) => Error = (violation) =>
      new Error(`internal error: shards do not tile the mass line: ${violation}`),
  ) {
    this.shape = { ...INDEX_SHAPE, ...shape };
  }

  add(entry: ShardEntry): void {
    const violation = this.last ? tilingViolation([this.last, entry], this.shards - 1) : tilingViolation([entry]);
    if (violation) throw this.refuse(violation);
    this.last = entry;
    this.pending.push(entry);
    this.shards++;
    this.massGroups += entry.massGroups;
    this.peptides += entry.peptides;
    this.bytes += entry.bytes;
    if (this.shards > this.shape.flatLimit) this.writeLeaves(false);
  }

  /**
   * The manifest fields that index the shards added: the flat list up to `flatLimit`, else the tree over the leaf
   * pages.
   */
  finish(): Pick<Manifest, 'shards' | 'shardIndex'> {
    if (this.shards <= this.shape.flatLimit) return { shards: this.pending };
    this.writeLeaves(true);
    const { rootLimit, innerPages } = this.shape;
    return { shardIndex: shardIndexTree(this.leaves, this.write, { rootLimit, innerPages }) };
  }

  /** Writes the full leaf pages of the pending entries, and the last partial one too when `all`. */
  private writeLeaves(all: boolean): void {
    const size = this.shape.pageShards;
    let first = 0;
    while (this.pending.length - first >= size || (all && first < this.pending.length)) {
      const page = this.pending.slice(first, first + size);
      this.leaves.push(writeLeafPage(page, this.shards - this.pending.length + first, this.write));
      first += page.length;
    }
    if (first > 0) this.pending = this.pending.slice(first);
  }
}

/** Writes index pages into `dir` as the build does. */
export const indexPageWriter =
  (dir: string, storage: Storage): WriteIndexPage =>
  (page) =>
    writeDatasetFile(dir, page, indexPageFileName, storage);

/** The manifest fields that index `shards`, writing index pages into `dir` when there are many. */
export function writeShardIndex(
  dir: string,
  shards: readonly ShardEntry[],
  storage: Storage,
  shape: Partial<IndexShape> = {},
): Pick<Manifest, 'shards' | 'shardIndex'> {
  const index = new ShardIndexWriter(indexPageWriter(dir, storage), shape);
  for (const shard of shards) index.add(shard);
  return index.finish();
}

/** A compressed JSON file of the dataset in `dir`. */
export const readJson = <T>(dir: string, file: string, compression: Compression): T =>
  JSON.parse(Buffer.from(decompress(readFileSync(join(dir, file)), compression)).toString('utf8')) as T;

/**
 * Every shard entry of a manifest (or of one of its views: `root`), and every index page, reading its index pages
 * from `dir` when it has them.
 */
export function readShardIndex(
  manifest: Manifest,
  dir: string,
  root: ShardIndexRoot = manifest,
): { pages: IndexPageEntry[]; shards: ShardEntry[] } {
  if (root.shards || !root.shardIndex) return { pages: [], shards: root.shards ?? [] };
  const { pages, leaves } = treePages(
    root.shardIndex,
    (file) => readJson<InnerIndexPage>(dir, file, manifest.compression).pages,
  );
  return { pages, shards: leaves.flatMap((p) => readJson<IndexPage>(dir, p.file, manifest.compression).shards) };
}

/** Every shard entry of a manifest, reading its index pages from `dir` when it has them. */
export function allShards(manifest: Manifest, dir: string): ShardEntry[] {
  return readShardIndex(manifest, dir).shards;
}

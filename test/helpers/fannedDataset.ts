// A dataset in the layout of large datasets, for the bulk commands' tests (mirror, archive, the file walk): files
// fanned out into folders by their sha256 and index and protein table under inner pages, `levels` deep — written
// here from docs/format.md, independently of the build's writers. Every file of the folder is a dataset file.
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import {
  FORMAT_VERSION,
  type Compression,
  type FileEntry,
  type IndexPageEntry,
  type Manifest,
  type ProteinPageEntry,
  type ShardEntry,
} from '../../runtime/model/format.js';
import { build, readManifest, SAMPLE_TAXDUMP, sampleSubset, shardEntries, tempDir } from './datasets.js';

export interface FannedShape {
  /** Shards per leaf index page. */
  pageShards: number;
  /** Pages per inner page. */
  fanOut: number;
  /** Levels of pages below the manifest: of the shard index, of the protein table (1: no inner pages). */
  indexLevels: number;
  proteinLevels: number;
  /** Hex digits naming a file's folder; 0 keeps every file in the dataset's folder. */
  folderDigits: number;
}

/**
 * A dataset whose manifest lists its shards itself (a flat index of 2 KB shards): the sample's first 300
 * records with its taxonomy, peptides of 6 to 8 residues only; built into a fresh folder of this test file.
 */
export async function flatDataset(): Promise<string> {
  const out = join(tempDir('flat'), 'shards');
  await build([sampleSubset(300)], out, { maxLength: 8, shardBytes: 2048, taxdump: SAMPLE_TAXDUMP });
  return out;
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const chunks = <T>(list: readonly T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, (i + 1) * size));
const sum = <T>(list: readonly T[], field: (item: T) => number) => list.reduce((total, item) => total + field(item), 0);

/** A copy of the dataset in `dir` (flat or one level of index pages) in the given shape, in a fresh folder of this test file. */
export function fannedDataset(dir: string, label: string, shape: FannedShape): string {
  const manifest = readManifest(dir);
  const out = join(tempDir(label), 'shards');
  mkdirSync(out);
  const placed = (file: FileEntry) =>
    shape.folderDigits ? `${file.sha256.slice(0, shape.folderDigits)}/${file.file}` : file.file;
  const copy = <E extends FileEntry>(entry: E): E => {
    const file = placed(entry);
    mkdirSync(dirname(join(out, file)), { recursive: true });
    copyFileSync(join(dir, entry.file), join(out, file));
    return { ...entry, file };
  };
  const writeJson = (prefix: string, content: object): FileEntry => {
    const bytes = compress(Buffer.from(JSON.stringify(content)), manifest.compression);
    const hash = sha256(bytes);
    const entry = {
      file: `${prefix}${hash.slice(0, 20)}.json${manifest.compression === 'gzip' ? '.gz' : '.br'}`,
      sha256: hash,
      bytes: bytes.length,
    };
    const file = placed(entry);
    mkdirSync(dirname(join(out, file)), { recursive: true });
    writeFileSync(join(out, file), bytes);
    return { ...entry, file };
  };

  const shards: ShardEntry[] = shardEntries(dir).map(copy);
  let index: IndexPageEntry[] = chunks(shards, shape.pageShards).map((list, k) => {
    const firstShard = k * shape.pageShards;
    return {
      ...writeJson('index-', { formatVersion: FORMAT_VERSION, firstShard, shards: list }),
      ...indexTotals(list, firstShard, list.length),
    };
  });
  for (let level = 1; level < shape.indexLevels; level++) {
    index = chunks(index, shape.fanOut).map((pages) => ({
      ...writeJson('index-', { formatVersion: FORMAT_VERSION, firstShard: pages[0].firstShard, pages }),
      ...indexTotals(
        pages,
        pages[0].firstShard,
        sum(pages, (p) => p.shards),
      ),
    }));
  }

  let proteins: ProteinPageEntry[] = (manifest.proteins?.pages ?? []).map(copy);
  for (let level = 1; level < shape.proteinLevels; level++) {
    proteins = chunks(proteins, shape.fanOut).map((pages) => ({
      ...writeJson('proteins-index-', { formatVersion: FORMAT_VERSION, pages }),
      firstAccession: pages[0].firstAccession,
      lastAccession: pages[pages.length - 1].lastAccession,
      accessions: sum(pages, (p) => p.accessions),
    }));
  }

  const {
    shards: _flat,
    shardIndex: _index,
    proteins: _proteins,
    accessions,
    taxonomy,
    peptideCounts,
    ...head
  } = manifest;
  const fanned: Manifest = {
    ...head,
    shardIndex: { pages: index, levels: shape.indexLevels },
    accessions: { ...accessions, pages: accessions.pages.map(copy) },
    proteins: { pages: proteins, levels: shape.proteinLevels },
    ...(taxonomy ? { taxonomy: copy(taxonomy) } : {}),
    ...(peptideCounts ? { peptideCounts: { ...peptideCounts, pages: peptideCounts.pages.map(copy) } } : {}),
  } as Manifest;
  writeFileSync(join(out, 'manifest.json'), JSON.stringify(fanned, null, 1) + '\n');
  return out;
}

function compress(bytes: Uint8Array, compression: Compression): Uint8Array {
  return compression === 'gzip' ? gzipSync(bytes) : brotliCompressSync(bytes);
}

/** The fields an index page's entry gives of what it lists (shard entries or page entries). */
function indexTotals(
  list: readonly (ShardEntry | IndexPageEntry)[],
  firstShard: number,
  shards: number,
): Omit<IndexPageEntry, keyof FileEntry> {
  return {
    firstShard,
    shards,
    firstKey: list[0].firstKey,
    lastKey: list[list.length - 1].lastKey,
    massGroups: sum(list, (e) => e.massGroups),
    peptides: sum(list, (e) => e.peptides),
  };
}

/** Every file under `dir` but manifest.json, as relative paths (`folder/name`), sorted: an independent listing of a dataset folder. */
export function folderFiles(dir: string, rel = ''): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(join(dir, rel), { withFileTypes: true })) {
    const path = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) files.push(...folderFiles(dir, path));
    else if (path !== 'manifest.json') files.push(path);
  }
  return files.sort();
}

/** The stored bytes of a dataset file, by its name in the manifest. */
export const storedBytes = (dir: string, file: string): Buffer => readFileSync(join(dir, file));

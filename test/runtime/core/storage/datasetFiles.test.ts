// The walk over a dataset's files (runtime/core/datasetFiles.ts): on a flat dataset, one with index pages, and
// fanned-out datasets with index trees of 2 and 3 levels, one with a view, and one with a sequence table of 2 levels
// (--sequences), it lists exactly the files of the folder (an independent listing) and what the build's own list names, each with its size and sha256, pages before
// what they list and shards in mass order, reading each page once and nothing else; it keeps the shards asked for,
// refuses names that could leave the folder, and pages that fail their check or hold neither shards nor pages.
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  datasetFiles,
  sourcePageReader,
  unsafePathReason,
  walkDatasetFiles,
  type DatasetFile,
  type PageReader,
} from '../../../../runtime/core/storage/datasetFiles.js';
import { DatasetError } from '../../../../runtime/core/errors.js';
import type { FileEntry, Manifest, ShardEntry } from '../../../../runtime/model/format.js';
import { datasetSource } from '../../../../runtime/entries/cli/datasetSource.js';
import { nodeDecompress, nodeSha256 } from '../../../../runtime/entries/node/platform.js';
import { datasetFiles as buildDatasetFiles } from '../../../../builder/writers/publish.js';
import {
  build,
  readManifest,
  removeTempDirs,
  SAMPLE_TAXDUMP,
  sampleSubset,
  shardEntries,
  subsetDataset,
  tempDir,
} from '../../../helpers/datasets.js';
import { fannedDataset, flatDataset, folderFiles } from '../../../helpers/fannedDataset.js';

let flat: string;
let paged: string;
/** Index tree of 3 levels, protein table of 2, files in folders of 2 hex digits. */
let deep: string;
/** Index tree of 2 levels and protein table of 3, every file in the dataset's folder. */
let plainTree: string;
/** With a Carbamidomethyl@C view: its index pages and shards too. */
let viewed: string;
/** With a sequence table of pages of 4 accessions: its inner pages and leaves. */
let sequenced: string;

beforeAll(async () => {
  sequenced = join(tempDir('sequenced'), 'shards');
  [flat, paged, viewed] = await Promise.all([
    flatDataset(),
    subsetDataset(600, 2048),
    subsetDataset(600, 2048, ['Carbamidomethyl@C']),
    build([sampleSubset(600)], sequenced, {
      shardBytes: 2048,
      taxdump: SAMPLE_TAXDUMP,
      sequences: true,
      sequencePageAccessions: 4,
    }),
  ]);
  deep = fannedDataset(paged, 'deep', { pageShards: 40, fanOut: 3, indexLevels: 3, proteinLevels: 2, folderDigits: 2 });
  plainTree = fannedDataset(paged, 'tree', {
    pageShards: 100,
    fanOut: 2,
    indexLevels: 2,
    proteinLevels: 3,
    folderDigits: 0,
  });
}, 300_000);

afterAll(removeTempDirs);

/** Every file the walk yields over the folder, and the pages it read, in order. */
async function walk(
  dir: string,
  keepShard?: (s: ShardEntry) => boolean,
): Promise<{ files: DatasetFile[]; reads: string[] }> {
  const manifest = readManifest(dir);
  const reader = sourcePageReader(datasetSource(dir, 10_000), manifest.compression, {
    sha256: nodeSha256,
    decompress: nodeDecompress,
  });
  const reads: string[] = [];
  const files: DatasetFile[] = [];
  for await (const file of walkDatasetFiles(manifest, (entry, kind) => (reads.push(entry.file), reader(entry, kind)), {
    keepShard,
  }))
    files.push(file);
  return { files, reads };
}

/** The rejection of a walk (fails the test when it completes). */
async function walkFailure(manifest: Manifest, reader: PageReader): Promise<DatasetError> {
  const error = await (async () => {
    for await (const _ of walkDatasetFiles(manifest, reader));
  })().then(
    () => new Error('the walk completed'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DatasetError);
  return error as DatasetError;
}

const json = (dir: string, file: string) =>
  JSON.parse(gunzipSync(readFileSync(join(dir, file))).toString('utf8')) as Record<string, unknown>;
const names = (files: readonly { file: string }[]) => files.map((f) => f.file);

describe('datasetFiles: which files', () => {
  it('lists every file of the folder but manifest.json, each once (flat, index pages, trees of 2 and 3 levels, folders)', async () => {
    expect(readManifest(flat).shards).toBeDefined();
    expect(readManifest(paged).shardIndex?.pages.length).toBeGreaterThan(1);
    expect(readManifest(viewed).views?.[0].shardIndex).toBeDefined();
    expect(readManifest(sequenced).sequences?.levels).toBe(2);
    for (const dir of [flat, paged, deep, plainTree, viewed, sequenced]) {
      const { files } = await walk(dir);
      expect(names(files).sort(), dir).toEqual(folderFiles(dir));
      expect(new Set(names(files)).size).toBe(files.length);
    }
    expect(folderFiles(deep).every((f) => /^[0-9a-f]{2}\/[^/]+$/.test(f))).toBe(true);
  });

  it('names what the build’s own list names (builder/writers/publish.ts) for the datasets the build writes', async () => {
    for (const dir of [flat, paged, viewed, sequenced]) {
      const { files } = await walk(dir);
      expect(names(files).sort()).toEqual(buildDatasetFiles(readManifest(dir), dir).sort());
    }
  });

  it('gives each file its size and sha256 on disk and its kind; shards with their keys, in mass order, as the index lists them', async () => {
    for (const dir of [paged, deep]) {
      const { files } = await walk(dir);
      for (const file of files) {
        const bytes = readFileSync(join(dir, file.file));
        expect(bytes.length, file.file).toBe(file.bytes);
        expect(nodeSha256(bytes), file.file).toBe(file.sha256);
      }
      const manifest = readManifest(dir);
      const count = (kind: string) => files.filter((f) => f.kind === kind).length;
      expect(count('accession page')).toBe(1);
      expect(count('taxonomy')).toBe(1);
      expect(count('peptide counts page')).toBe(1);
      expect(count('shard')).toBe(manifest.totals.shards);
      expect(count('protein page')).toBe(Math.ceil(manifest.totals.accessions / 2048));
      const shards = files.filter((f) => f.kind === 'shard');
      expect(shards.map((s) => [s.file, s.firstKey, s.lastKey])).toEqual(
        shardEntries(paged).map((s) => [expect.stringContaining(s.file), s.firstKey, s.lastKey]),
      );
      expect(count('sequence page') + count('sequence index page')).toBe(0);
    }
    // The sequence table's pages: 150 leaves of 4 accessions under one inner page, after the protein pages.
    const { files } = await walk(sequenced);
    const kinds = files.map((f) => f.kind);
    expect(kinds.filter((k) => k === 'sequence page')).toHaveLength(150);
    expect(kinds.filter((k) => k === 'sequence index page')).toHaveLength(1);
    expect(kinds.indexOf('sequence index page')).toBeGreaterThan(kinds.lastIndexOf('protein page'));
    expect(files.filter((f) => f.kind.startsWith('sequence')).every((f) => f.file.startsWith('sequences-'))).toBe(true);
  });

  it('yields a page before the pages and shards it lists, and reads each page once: index pages and inner pages, never a shard or a leaf protein page', async () => {
    for (const dir of [paged, deep, plainTree, sequenced]) {
      const { files, reads } = await walk(dir);
      const position = new Map(files.map((f, i) => [f.file, i]));
      const readable = files.filter((f) =>
        ['index page', 'protein index page', 'sequence index page'].includes(f.kind),
      );
      expect(reads).toEqual(names(readable));
      expect(files.filter((f) => f.read)).toEqual(readable);
      for (const page of readable) {
        const content = json(dir, page.file);
        const listed = ((content.shards ?? content.pages) as FileEntry[]).map((e) => e.file);
        for (const child of listed)
          expect(position.get(child)!, `${child} after ${page.file}`).toBeGreaterThan(position.get(page.file)!);
      }
    }
  });

  it('keeps only the shards asked for, and every other file', async () => {
    const all = shardEntries(paged);
    const [low, high] = [all[100].firstKey + 3, all[140].lastKey - 3];
    const meets = (s: ShardEntry) => s.firstKey <= high && s.lastKey >= low;
    for (const dir of [paged, deep]) {
      const { files } = await walk(dir, meets);
      const shards = files.filter((f) => f.kind === 'shard');
      expect(shards.map((s) => s.file.split('/').pop())).toEqual(all.filter(meets).map((s) => s.file));
      expect(shards).toHaveLength(41);
      expect(files.filter((f) => f.kind !== 'shard')).toEqual(
        (await walk(dir)).files.filter((f) => f.kind !== 'shard'),
      );
    }
  });

  it('datasetFiles walks a ShardSource the same way', async () => {
    const listed: string[] = [];
    for await (const file of datasetFiles(datasetSource(deep, 10_000), readManifest(deep))) listed.push(file.file);
    expect(listed).toEqual(names((await walk(deep)).files));
  });
});

describe('datasetFiles: what it refuses', () => {
  const HOSTILE: [string, RegExp][] = [
    ['../evil.msgpack.gz', /"\." or "\.\." part/],
    ['ab/../../evil.msgpack.gz', /"\." or "\.\." part/],
    ['/etc/passwd', /absolute path/],
    ['C:evil.gz', /absolute path/],
    ['ab\\evil.msgpack.gz', /backslash/],
    ['ab/cd/evil.msgpack.gz', /more than one folder level/],
    ['.hidden.msgpack.gz', /starts with "\."/],
    ['ab/.hidden', /starts with "\."/],
    ['ab/', /character|not a name/],
    ['ev il.gz', /character/],
    ['', /not a name/],
    ['manifest.json', /the manifest’s own name/],
  ];

  it('says why a name could leave the folder, and accepts plain names with at most one folder', () => {
    for (const [name, reason] of HOSTILE) expect(unsafePathReason(name), name).toMatch(reason);
    for (const name of [
      '0123abcd.msgpack.gz',
      'abc/0123abcd.msgpack.gz',
      'index-00ff.json.br',
      'a..b.gz',
      'ab/manifest.json',
    ])
      expect(unsafePathReason(name), name).toBeNull();
    expect(unsafePathReason(42)).toMatch(/not a name/);
  });

  it('refuses a hostile name in the manifest or in a page before reading it, naming it', async () => {
    const manifest = readManifest(paged);
    const reader = sourcePageReader(datasetSource(paged, 10_000), manifest.compression);
    for (const [name] of HOSTILE) {
      const inManifest = structuredClone(manifest);
      inManifest.shardIndex!.pages[1].file = name;
      const read: string[] = [];
      const error = await walkFailure(inManifest, (entry, kind) => (read.push(entry.file), reader(entry, kind)));
      expect(error.message).toContain(JSON.stringify(name));
      expect(read).toEqual([manifest.shardIndex!.pages[0].file]);
      // The same name inside an index page the walk reads.
      const page = json(paged, manifest.shardIndex!.pages[0].file) as { shards: ShardEntry[] };
      page.shards[7].file = name;
      expect((await walkFailure(manifest, async () => page)).message).toContain(JSON.stringify(name));
    }
  });

  it('refuses a page that fails its sha256 check, a page of neither shards nor pages, and leaves at the wrong depth', async () => {
    const dir = join(tempDir('corrupt'), 'shards');
    cpSync(paged, dir, { recursive: true });
    const manifest = readManifest(dir);
    const page = manifest.shardIndex!.pages[2].file;
    const bytes = readFileSync(join(dir, page));
    bytes[bytes.length >> 1] ^= 0x40;
    writeFileSync(join(dir, page), bytes);
    const corrupt = await walkFailure(manifest, sourcePageReader(datasetSource(dir, 10_000), manifest.compression));
    expect(corrupt.kind).toBe('corrupt');
    expect(corrupt.message).toBe(`${page} failed its sha256 check`);

    expect((await walkFailure(manifest, async () => ({ formatVersion: 2 }))).message).toMatch(
      /lists neither shards nor pages/,
    );
    const reader = sourcePageReader(datasetSource(paged, 10_000), manifest.compression);
    const deeper = { ...manifest, shardIndex: { ...manifest.shardIndex!, levels: 2 } } as Manifest;
    expect((await walkFailure(deeper, reader)).message).toMatch(/lists shards at depth 1 of an index of 2 levels/);
    const proteins = { ...manifest, proteins: { ...manifest.proteins!, levels: 2 } } as Manifest;
    expect((await walkFailure(proteins, reader)).message).toMatch(/protein index page .* lists no pages/);
    const withSequences = readManifest(sequenced);
    const sequences = { ...withSequences, sequences: { ...withSequences.sequences!, levels: 3 } } as Manifest;
    const sequencedReader = sourcePageReader(datasetSource(sequenced, 10_000), manifest.compression);
    expect((await walkFailure(sequences, sequencedReader)).message).toMatch(/sequence index page .* lists no pages/);
    const badSha = structuredClone(manifest);
    badSha.accessions.pages[0].sha256 = 'F'.repeat(64);
    expect((await walkFailure(badSha, reader)).message).toMatch(/accession page .* has no valid sha256/);
    const accessions = { ...manifest, accessions: { ...manifest.accessions, levels: 2 } } as Manifest;
    expect((await walkFailure(accessions, reader)).message).toMatch(
      /accession index page .* is not readable|lists no pages/,
    );
  });

  it('refuses a page whose size is not its entry’s, even with the right sha256', async () => {
    const manifest = readManifest(paged);
    const wrong = structuredClone(manifest);
    wrong.shardIndex!.pages[0].bytes += 1;
    expect(
      (await walkFailure(wrong, sourcePageReader(datasetSource(paged, 10_000), manifest.compression))).message,
    ).toMatch(/has \d+ bytes where the manifest says \d+/);
  });
});

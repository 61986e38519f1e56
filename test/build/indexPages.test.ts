// Tests build/indexPages.ts: writeShardIndex returns the flat list up to the limit and writes no file; past it,
// writes compressed index pages named by the sha256 of their stored bytes (node:crypto) whose root entries sum
// their shards; allShards reads the list back either way; datasetFiles (build/publish.ts) lists index pages,
// shards, the accession table, protein pages, the taxonomy file.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { allShards, writeShardIndex } from '../../build/indexPages.js';
import { datasetFiles } from '../../build/publish.js';
import type { Manifest, ShardEntry } from '../../runtime/model/format.js';
import { removeTempDirs, tempDir } from '../helpers/datasets.js';

afterAll(removeTempDirs);

const shards = (n: number): ShardEntry[] =>
  Array.from({ length: n }, (_, i) => ({ file: `${String(i).padStart(20, '0')}.msgpack`, firstKey: 100 * i, lastKey: 100 * i + 50, massGroups: 1 + (i % 4), peptides: 2 + (i % 7), bytes: 1000 + i, sha256: `${i}`.repeat(3) }));

const manifestWith = (index: Pick<Manifest, 'shards' | 'shardIndex'>, compression = 'gzip') => ({ format: 'digested-peptides', formatVersion: 2, compression, ...index }) as Manifest;

describe('writeShardIndex', () => {
  it('returns the shards themselves up to the flat limit, writing nothing', () => {
    const dir = tempDir('index-flat');
    const list = shards(4);
    expect(writeShardIndex(dir, list, 'gzip', 2, 4)).toEqual({ shards: list });
    expect(writeShardIndex(dir, [], 'gzip', 2, 4)).toEqual({ shards: [] });
    expect(writeShardIndex(dir, shards(128), 'gzip')).toEqual({ shards: shards(128) }); // the format's default limit
    expect(readdirSync(dir)).toEqual([]);
  });

  it.each([
    ['gzip', '.gz', gunzipSync],
    ['br', '.br', brotliDecompressSync],
  ] as const)('past the limit writes pages of `pageShards` shards (%s), named and described by their stored bytes', (compression, suffix, decompress) => {
    const dir = tempDir('index-pages');
    const list = shards(11);
    const { shards: flat, shardIndex } = writeShardIndex(dir, list, compression, 3, 4);
    expect(flat).toBeUndefined();
    const pages = shardIndex!.pages;
    expect(pages.map((p) => [p.firstShard, p.shards])).toEqual([[0, 3], [3, 3], [6, 3], [9, 2]]);
    expect(readdirSync(dir).sort()).toEqual(pages.map((p) => p.file).sort());
    for (const page of pages) {
      const bytes = readFileSync(join(dir, page.file));
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      const members = list.slice(page.firstShard, page.firstShard + page.shards);
      expect(page).toEqual({
        file: `index-${sha256.slice(0, 20)}.json${suffix}`, sha256, bytes: bytes.length, firstShard: page.firstShard, shards: members.length,
        firstKey: members[0].firstKey, lastKey: members[members.length - 1].lastKey,
        massGroups: members.reduce((s, e) => s + e.massGroups, 0), peptides: members.reduce((s, e) => s + e.peptides, 0),
      });
      expect(JSON.parse(decompress(bytes).toString('utf8'))).toEqual({ formatVersion: 2, firstShard: page.firstShard, shards: members });
    }
    for (const [codec, read] of [['gzip', gunzipSync], ['br', brotliDecompressSync]] as const) {
      if (codec !== compression) expect(() => read(readFileSync(join(dir, pages[0].file)))).toThrow(); // really that compression
    }
  });

  it('switches to pages one shard past the limit, with default page size 256 past 128', () => {
    expect(writeShardIndex(tempDir('index-edge'), shards(5), 'gzip', 2, 4).shardIndex!.pages).toHaveLength(3);
    expect(writeShardIndex(tempDir('index-default'), shards(129), 'gzip').shardIndex!.pages.map((p) => p.shards)).toEqual([129]);
    const { shardIndex } = writeShardIndex(tempDir('index-default'), shards(2049), 'gzip');
    expect(shardIndex!.pages.map((p) => p.shards)).toEqual([...Array(8).fill(256), 1]);
  });
});

describe('allShards and datasetFiles', () => {
  it('read a flat manifest’s list as it is', () => {
    const list = shards(3);
    expect(allShards(manifestWith({ shards: list }), '/nonexistent')).toEqual(list);
    expect(datasetFiles(manifestWith({ shards: list }), '/nonexistent')).toEqual(list.map((s) => s.file));
  });

  it.each(['gzip', 'br'] as const)('read a two-level manifest’s pages back into the full list (%s); files are pages then shards', (compression) => {
    const dir = tempDir('index-read');
    const list = shards(10);
    const index = writeShardIndex(dir, list, compression, 4, 3);
    expect(allShards(manifestWith(index, compression), dir)).toEqual(list);
    expect(datasetFiles(manifestWith(index, compression), dir)).toEqual([...index.shardIndex!.pages.map((p) => p.file), ...list.map((s) => s.file)]);
  });

  it('list the accession table, protein pages and the taxonomy file after the shards', () => {
    const list = shards(2);
    const manifest = { ...manifestWith({ shards: list }), accessions: { file: 'accessions-d.msgpack.gz' }, proteins: { pages: [{ file: 'proteins-a.json.gz' }, { file: 'proteins-b.json.gz' }] }, taxonomy: { file: 'taxonomy-c.json.gz' } } as Manifest;
    expect(datasetFiles(manifest, '/nonexistent')).toEqual([...list.map((s) => s.file), 'accessions-d.msgpack.gz', 'proteins-a.json.gz', 'proteins-b.json.gz', 'taxonomy-c.json.gz']);
  });

  it('find nothing in a manifest without a list', () => {
    expect(allShards(manifestWith({}), '/nonexistent')).toEqual([]);
    expect(datasetFiles(manifestWith({}), '/nonexistent')).toEqual([]);
  });
});

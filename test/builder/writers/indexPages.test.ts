// Tests builder/writers/indexPages.ts: writeShardIndex returns the flat list up to the limit and writes no file; past
// it, writes compressed index pages named by the sha256 of their stored bytes (node:crypto) whose root entries sum
// their shards; past the root limit, a tree of inner pages (levels, every entry summing its subtree, checked by walking
// down from the root; each entry's residueMax the letter-wise maximum of its shards'), `levels` written only from 2 on,
// no more than 4; allShards reads the list back either way; datasetFiles (builder/writers/publish.ts) lists index pages
// (every level), shards, the accession table, protein pages, the taxonomy file.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import {
  allShards,
  indexPageWriter,
  readShardIndex,
  ShardIndexWriter,
  writeShardIndex,
} from '../../../builder/writers/indexPages.js';
import { datasetFiles } from '../../../builder/writers/publish.js';
import {
  FORMAT_VERSION,
  type IndexPage,
  type IndexPageEntry,
  type InnerIndexPage,
  type Manifest,
  type ShardEntry,
} from '../../../runtime/model/format.js';
import { removeTempDirs, tempDir } from '../../helpers/datasets.js';

afterAll(removeTempDirs);

const shards = (n: number): ShardEntry[] =>
  Array.from({ length: n }, (_, i) => ({
    file: `${String(i).padStart(20, '0')}.msgpack`,
    firstKey: 100 * i,
    lastKey: 100 * i + 50,
    massGroups: 1 + (i % 4),
    peptides: 1 + (i % 4) + (i % 7),
    bytes: 1000 + i,
    sha256: `${i}`.repeat(3),
  }));

const manifestWith = (index: Pick<Manifest, 'shards' | 'shardIndex'>, compression = 'gzip') =>
  ({ format: 'digested-peptides', formatVersion: FORMAT_VERSION, compression, ...index }) as Manifest;

describe('writeShardIndex', () => {
  it('returns the shards themselves up to the flat limit, writing nothing', () => {
    const dir = tempDir('index-flat');
    const list = shards(4);
    expect(writeShardIndex(dir, list, 'gzip', { pageShards: 2, flatLimit: 4 })).toEqual({ shards: list });
    expect(writeShardIndex(dir, [], 'gzip', { pageShards: 2, flatLimit: 4 })).toEqual({ shards: [] });
    expect(writeShardIndex(dir, shards(128), 'gzip')).toEqual({ shards: shards(128) }); // the format's default limit
    expect(readdirSync(dir)).toEqual([]);
  });

  it.each([
    ['gzip', '.gz', gunzipSync],
    ['br', '.br', brotliDecompressSync],
  ] as const)(
    'past the limit writes pages of `pageShards` shards (%s), named and described by their stored bytes',
    (compression, suffix, decompress) => {
      const dir = tempDir('index-pages');
      const list = shards(11);
      const { shards: flat, shardIndex } = writeShardIndex(dir, list, compression, { pageShards: 3, flatLimit: 4 });
      expect(flat).toBeUndefined();
      const pages = shardIndex!.pages;
      expect(pages.map((p) => [p.firstShard, p.shards])).toEqual([
        [0, 3],
        [3, 3],
        [6, 3],
        [9, 2],
      ]);
      expect(readdirSync(dir).sort()).toEqual(pages.map((p) => p.file).sort());
      for (const page of pages) {
        const bytes = readFileSync(join(dir, page.file));
        const sha256 = createHash('sha256').update(bytes).digest('hex');
        const members = list.slice(page.firstShard, page.firstShard + page.shards);
        expect(page).toEqual({
          file: `index-${sha256.slice(0, 20)}.json${suffix}`,
          sha256,
          bytes: bytes.length,
          firstShard: page.firstShard,
          shards: members.length,
          firstKey: members[0].firstKey,
          lastKey: members[members.length - 1].lastKey,
          massGroups: members.reduce((s, e) => s + e.massGroups, 0),
          peptides: members.reduce((s, e) => s + e.peptides, 0),
        });
        expect(JSON.parse(decompress(bytes).toString('utf8'))).toEqual({
          formatVersion: 3,
          firstShard: page.firstShard,
          shards: members,
        });
      }
      for (const [codec, read] of [
        ['gzip', gunzipSync],
        ['br', brotliDecompressSync],
      ] as const) {
        if (codec !== compression) expect(() => read(readFileSync(join(dir, pages[0].file)))).toThrow(); // really that compression
      }
    },
  );

  it('switches to pages one shard past the limit, with default page size 256 past 128', () => {
    expect(
      writeShardIndex(tempDir('index-edge'), shards(5), 'gzip', { pageShards: 2, flatLimit: 4 }).shardIndex!.pages,
    ).toHaveLength(3);
    expect(
      writeShardIndex(tempDir('index-default'), shards(129), 'gzip').shardIndex!.pages.map((p) => p.shards),
    ).toEqual([129]);
    const { shardIndex } = writeShardIndex(tempDir('index-default'), shards(2049), 'gzip');
    expect(shardIndex!.pages.map((p) => p.shards)).toEqual([...Array(8).fill(256), 1]);
  });
});

describe('ShardIndexWriter', () => {
  it('writes each leaf page as soon as it fills once the list is past the flat limit, and ends with the pages of the whole list', () => {
    const dir = tempDir('index-stream');
    const list = shards(11);
    const index = new ShardIndexWriter(indexPageWriter(dir, 'gzip'), { pageShards: 3, flatLimit: 4 });
    const written = list.map((entry) => {
      index.add(entry);
      return readdirSync(dir).length;
    });
    // Nothing while the list may stay flat (4); the 5th entry writes the page of 0–2, then a page every 3 entries.
    expect(written).toEqual([0, 0, 0, 0, 1, 2, 2, 2, 3, 3, 3]);
    expect([index.shards, index.massGroups, index.peptides, index.bytes]).toEqual([
      11,
      ...(['massGroups', 'peptides', 'bytes'] as const).map((f) => list.reduce((s, e) => s + e[f], 0)),
    ]);
    const streamed = index.finish();
    expect(readdirSync(dir)).toHaveLength(4);
    expect(streamed).toEqual(writeShardIndex(tempDir('index-whole'), list, 'gzip', { pageShards: 3, flatLimit: 4 }));
    expect(streamed.shardIndex!.pages.map((p) => [p.firstShard, p.shards])).toEqual([
      [0, 3],
      [3, 3],
      [6, 3],
      [9, 2],
    ]);
  });

  it('refuses an entry that does not follow the one before on the mass line, numbering shards in the whole list', () => {
    const list = shards(8);
    const index = new ShardIndexWriter(
      indexPageWriter(tempDir('index-refuse'), 'gzip'),
      { pageShards: 3, flatLimit: 4 },
      (violation) => new RangeError(violation),
    );
    for (const entry of list.slice(0, 6)) index.add(entry);
    const overlapping = { ...list[6], firstKey: list[5].lastKey };
    expect(() => index.add(overlapping)).toThrow(
      new RangeError(`shard 6 starts at ${list[5].lastKey}, not above shard 5's last key ${list[5].lastKey}`),
    );
    const fresh = new ShardIndexWriter(indexPageWriter(tempDir('index-refuse'), 'gzip'));
    expect(() => fresh.add({ ...list[0], massGroups: 0 })).toThrow(
      'internal error: shards do not tile the mass line: shard 0 has 0 groups and 1 peptides',
    );
  });
});

describe('allShards and datasetFiles', () => {
  it('read a flat manifest’s list as it is', () => {
    const list = shards(3);
    expect(allShards(manifestWith({ shards: list }), '/nonexistent')).toEqual(list);
    expect(datasetFiles(manifestWith({ shards: list }), '/nonexistent')).toEqual(list.map((s) => s.file));
  });

  it.each(['gzip', 'br'] as const)(
    'read a two-level manifest’s pages back into the full list (%s); files are pages then shards',
    (compression) => {
      const dir = tempDir('index-read');
      const list = shards(10);
      const index = writeShardIndex(dir, list, compression, { pageShards: 4, flatLimit: 3 });
      expect(allShards(manifestWith(index, compression), dir)).toEqual(list);
      expect(datasetFiles(manifestWith(index, compression), dir)).toEqual([
        ...index.shardIndex!.pages.map((p) => p.file),
        ...list.map((s) => s.file),
      ]);
    },
  );

  it('list the accession pages, protein pages, sequence pages and the taxonomy file after the shards', () => {
    const list = shards(2);
    const manifest = {
      ...manifestWith({ shards: list }),
      accessions: { pages: [{ file: 'accessions-d.msgpack.gz' }, { file: 'accessions-e.msgpack.gz' }] },
      proteins: { pages: [{ file: 'proteins-a.json.gz' }, { file: 'proteins-b.json.gz' }] },
      sequences: { pages: [{ file: 'sequences-f.json.gz' }] },
      taxonomy: { file: 'taxonomy-c.json.gz' },
    } as unknown as Manifest;
    expect(datasetFiles(manifest, '/nonexistent')).toEqual([
      ...list.map((s) => s.file),
      'accessions-d.msgpack.gz',
      'accessions-e.msgpack.gz',
      'proteins-a.json.gz',
      'proteins-b.json.gz',
      'sequences-f.json.gz',
      'taxonomy-c.json.gz',
    ]);
  });

  it('find nothing in a manifest without a list', () => {
    expect(allShards(manifestWith({}), '/nonexistent')).toEqual([]);
    expect(datasetFiles(manifestWith({}), '/nonexistent')).toEqual([]);
  });
});

/** A compressed JSON page of `dir`, checked against its entry's sha256 and size (node:crypto). */
function readPage<T>(
  dir: string,
  entry: { file: string; sha256: string; bytes: number },
  compression: 'gzip' | 'br' = 'gzip',
): T {
  const bytes = readFileSync(join(dir, entry.file));
  expect([createHash('sha256').update(bytes).digest('hex'), bytes.length]).toEqual([entry.sha256, entry.bytes]);
  return JSON.parse((compression === 'gzip' ? gunzipSync(bytes) : brotliDecompressSync(bytes)).toString('utf8')) as T;
}

/** The sums an entry gives of `members` (shards or pages) starting at shard `firstShard`. */
const summary = (members: (ShardEntry | IndexPageEntry)[], firstShard: number, shardCount: number) => ({
  firstShard,
  shards: shardCount,
  firstKey: members[0].firstKey,
  lastKey: members[members.length - 1].lastKey,
  massGroups: members.reduce((s, e) => s + e.massGroups, 0),
  peptides: members.reduce((s, e) => s + e.peptides, 0),
});

describe('writeShardIndex, a tree of index pages', () => {
  it.each(['gzip', 'br'] as const)(
    'past rootLimit leaf pages adds levels of inner pages of innerPages, each entry summing its subtree (%s)',
    (compression) => {
      const dir = tempDir('index-tree');
      const list = shards(23);
      // 12 leaf pages of 2 shards (the last of 1), 6 inner pages of 2, 3 of 2 (the last of 1)... a root of 3 at most.
      const { shardIndex } = writeShardIndex(dir, list, compression, {
        pageShards: 2,
        flatLimit: 4,
        rootLimit: 3,
        innerPages: 2,
      });
      expect(shardIndex!.levels).toBe(3);
      expect(shardIndex!.pages.map((p) => [p.firstShard, p.shards])).toEqual([
        [0, 8],
        [8, 8],
        [16, 7],
      ]);
      // Walk down from the root, checking each page against its entry, level by level.
      let level: IndexPageEntry[] = shardIndex!.pages;
      const files = [...level.map((p) => p.file)];
      for (let depth = 1; depth < 3; depth++) {
        level = level.flatMap((entry) => {
          const page = readPage<InnerIndexPage>(dir, entry, compression);
          expect(Object.keys(page)).toEqual(['formatVersion', 'firstShard', 'pages']);
          expect([page.formatVersion, page.firstShard]).toEqual([3, entry.firstShard]);
          expect(page.pages.length).toBeLessThanOrEqual(2);
          expect(entry).toEqual({
            file: entry.file,
            sha256: entry.sha256,
            bytes: entry.bytes,
            ...summary(
              page.pages,
              entry.firstShard,
              page.pages.reduce((s, p) => s + p.shards, 0),
            ),
          });
          return page.pages;
        });
        files.push(...level.map((p) => p.file));
      }
      expect(level.map((p) => [p.firstShard, p.shards])).toEqual([
        ...Array.from({ length: 11 }, (_, k) => [2 * k, 2]),
        [22, 1],
      ]);
      for (const entry of level) {
        const page = readPage<IndexPage>(dir, entry, compression);
        expect(page).toEqual({
          formatVersion: 3,
          firstShard: entry.firstShard,
          shards: list.slice(entry.firstShard, entry.firstShard + entry.shards),
        });
        expect(entry).toMatchObject(summary(page.shards, entry.firstShard, page.shards.length));
      }
      expect(
        files.every((f) => f.startsWith('index-') && f.endsWith(compression === 'gzip' ? '.json.gz' : '.json.br')),
      ).toBe(true);
      expect(readdirSync(dir).sort()).toEqual([...new Set(files)].sort());
      expect(files).toHaveLength(3 + 6 + 12);
      // Read back by allShards; datasetFiles lists every page, from the root down, then the shards.
      const manifest = manifestWith({ shardIndex }, compression);
      expect(allShards(manifest, dir)).toEqual(list);
      expect(readShardIndex(manifest, dir).pages.map((p) => p.file)).toEqual(files);
      expect(datasetFiles(manifest, dir)).toEqual([...files, ...list.map((s) => s.file)]);
    },
  );

  it('writes `levels` only for 2 levels or more: a dataset whose leaves fit in the root is indexed as before trees', () => {
    // The root holds up to 256 pages of 256 shards.
    const exactly = writeShardIndex(tempDir('index-256'), shards(256 * 256), 'gzip');
    expect(Object.keys(exactly.shardIndex!)).toEqual(['pages']);
    expect(exactly.shardIndex!.pages).toHaveLength(256);
    const over = writeShardIndex(tempDir('index-257'), shards(256 * 256 + 1), 'gzip');
    expect(over.shardIndex!.levels).toBe(2);
    expect(over.shardIndex!.pages.map((p) => p.shards)).toEqual([256 * 256 + 1]); // one inner page of all 257 leaves
    const small = writeShardIndex(tempDir('index-small'), shards(9), 'gzip', {
      pageShards: 2,
      flatLimit: 4,
      rootLimit: 5,
      innerPages: 2,
    });
    expect(Object.keys(small.shardIndex!)).toEqual(['pages']);
  });

  it('gives every index entry the residueMax of the shards below it, letter by letter; none when a shard below has none', () => {
    // Shard i holds up to (i * 7 + l * 3) % 36 residues of letter l: every letter's maximum sits in a different shard.
    const letters = 'ACDEFGHIJKLMNOPQRSTUVWY';
    const list = shards(23).map((s, i) => ({
      ...s,
      residueMax: Array.from(letters, (_, l) => ((i * 7 + l * 3) % 36).toString(36)).join(''),
    }));
    const expected = (below: ShardEntry[]) =>
      Array.from(letters, (_, l) => Math.max(...below.map((s) => parseInt(s.residueMax![l], 36))).toString(36)).join(
        '',
      );
    const shape = { pageShards: 2, flatLimit: 4, rootLimit: 3, innerPages: 2 };
    const dir = tempDir('index-residues');
    const { shardIndex } = writeShardIndex(dir, list, 'gzip', shape);
    const entries = [...shardIndex!.pages, ...readShardIndex(manifestWith({ shardIndex }), dir).pages];
    expect(entries.length).toBeGreaterThan(3 + 6);
    for (const e of entries)
      expect(e.residueMax, `${e.firstShard}+${e.shards}`).toBe(
        expected(list.slice(e.firstShard, e.firstShard + e.shards)),
      );
    expect(new Set(entries.map((e) => e.residueMax)).size).toBeGreaterThan(5); // not one value everywhere
    // Shard 5 without residueMax: the leaf above it and every page above that have none; the others keep theirs.
    const holed = list.map((s, i) => (i === 5 ? { ...s, residueMax: undefined } : s));
    const hdir = tempDir('index-residues-hole');
    const tree = writeShardIndex(hdir, holed, 'gzip', shape).shardIndex!;
    for (const e of [...tree.pages, ...readShardIndex(manifestWith({ shardIndex: tree }), hdir).pages]) {
      const covers = e.firstShard <= 5 && 5 < e.firstShard + e.shards;
      expect(e.residueMax, `${e.firstShard}+${e.shards}`).toBe(
        covers ? undefined : expected(list.slice(e.firstShard, e.firstShard + e.shards)),
      );
    }
  });

  it('refuses a shape that needs more than 4 levels, or cannot narrow', () => {
    expect(
      writeShardIndex(tempDir('index-4'), shards(16), 'gzip', {
        pageShards: 1,
        flatLimit: 0,
        rootLimit: 2,
        innerPages: 2,
      }).shardIndex!.levels,
    ).toBe(4);
    expect(() =>
      writeShardIndex(tempDir('index-5'), shards(17), 'gzip', {
        pageShards: 1,
        flatLimit: 0,
        rootLimit: 2,
        innerPages: 2,
      }),
    ).toThrow('17 pages need 5 levels of index pages; readers accept 4 at most');
    expect(() =>
      writeShardIndex(tempDir('index-1'), shards(17), 'gzip', {
        pageShards: 1,
        flatLimit: 0,
        rootLimit: 2,
        innerPages: 1,
      }),
    ).toThrow(/inner pages of 2 or more/);
  });
});

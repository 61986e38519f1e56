// Index trees on real data (runtime/core/shardIndex.ts, proteins.ts, dataset.ts): the many-small-shards dataset
// (~4,000 shards, ~3,000 accessions) with its shard index and protein table written again by the build with small
// pages (test/helpers/indexTrees.ts), as trees of 2 and 3 levels (protein tables of 2 and 4). Through Dataset
// over the files: every ShardIndex lookup equals brute force over the flat shard list, a lookup on a fresh
// dataset reads one index page per level, every accession's protein equals the table read straight from its
// pages, 150 random queries answer as the brute-force reference (which checks every page against its entry at
// every level), and an inner page that is corrupt or disagrees with its entry is refused with a 502.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeDatasetFile } from '../../../../builder/writers/datasetFile.js';
import { createHandler, datasetOnce } from '../../../../runtime/api/handler.js';
import { Dataset, DatasetError } from '../../../../runtime/core/storage/dataset.js';
import { proteinsOf } from '../../../../runtime/core/lookup/proteins.js';
import type { LocatedShard } from '../../../../runtime/core/storage/shardIndex.js';
import type { ShardSource } from '../../../../runtime/core/storage/source.js';
import { FileSource } from '../../../../runtime/entries/node/fileSource.js';
import {
  indexPageFileName,
  proteinIndexPageFileName,
  type InnerIndexPage,
  type Manifest,
  type ProteinIndexPage,
  type ShardEntry,
} from '../../../../runtime/model/format.js';
import { call, folderHandler } from '../../../helpers/api.js';
import { CountingSource } from '../../../helpers/countingSource.js';
import {
  readJsonFile,
  readManifest,
  readProteinTable,
  removeTempDirs,
  shardEntries,
  smallShardsDataset,
  tempDir,
} from '../../../helpers/datasets.js';
import { retreedDataset } from '../../../helpers/indexTrees.js';
import { prng } from '../../../helpers/prng.js';
import { difference, queryArbitrary } from '../../../helpers/queryFuzz.js';
import { referenceKeyText } from '../../../helpers/reference.js';
import { loadReference, type ReferenceData } from '../../../helpers/shardReference.js';

let base: string;
const dirs: Record<string, string> = {};
// Each reference decodes every shard of its dataset; tests only read it, so one per dataset serves them all.
const refs: Record<string, ReferenceData> = {};
const referenceOf = (name: string) => (refs[name] ??= loadReference(dirs[name]));

beforeAll(async () => {
  base = await smallShardsDataset();
  // ~62 leaf pages of 64 shards under 4 inner pages of 16; ~94 protein pages of 32 under 12 of 8.
  dirs.two = retreedDataset(base, 'tree2', {
    index: { pageShards: 64, rootLimit: 16, innerPages: 16 },
    proteinPage: 32,
    proteins: { rootLimit: 12, innerPages: 8 },
  });
  // ~247 leaf pages of 16 shards, 31 inner pages of 8, then 4; ~94 protein pages of 32 under 24, 6, then 2 inner pages
  // of 4.
  dirs.three = retreedDataset(base, 'tree3', {
    index: { pageShards: 16, rootLimit: 8, innerPages: 8 },
    proteinPage: 32,
    proteins: { rootLimit: 4, innerPages: 4 },
    accessionPage: 100,
    accessions: { rootLimit: 4, innerPages: 4 },
  });
}, 300_000);
afterAll(removeTempDirs);

/**
 * The dataset in `base` as a test alters it: a file the folder `over` holds (manifest.json, a page written again) is
 * read from there, every other file from `base` — so a test changes a page or two of a dataset of thousands of files
 * without copying it.
 */
class AlteredSource implements ShardSource {
  readonly description: string;
  private readonly altered: FileSource;
  private readonly original: FileSource;

  constructor(
    private readonly over: string,
    base: string,
  ) {
    this.description = `folder ${over} over ${base}`;
    this.altered = new FileSource(over);
    this.original = new FileSource(base);
  }

  get(file: string): Promise<Uint8Array> {
    return (existsSync(join(this.over, file)) ? this.altered : this.original).get(file);
  }
}

/** Brute force over the flat shard list. */
function bruteForce(shards: ShardEntry[]) {
  const before = [0];
  for (const s of shards) before.push(before[before.length - 1] + s.massGroups);
  const at = (i: number): LocatedShard | undefined =>
    i < 0 || i >= shards.length ? undefined : { index: i, entry: shards[i], groupsBefore: before[i] };
  return {
    firstEndingAtOrAbove: (key: number) => at(shards.findIndex((s) => s.lastKey >= key)),
    lastStartingAtOrBelow: (key: number) => at(shards.filter((s) => s.firstKey <= key).length - 1),
    shardOfGroup: (ordinal: number) => at(before.findIndex((b) => b > ordinal) - 1),
    groups: before[before.length - 1],
  };
}

/**
 * What brute force finds for every key (both ends of every shard and the keys just outside them) and every 7th group
 * ordinal: both trees index the same flat shard list, so the answers are found once for the two.
 */
let probed:
  | {
      shards: ShardEntry[];
      brute: ReturnType<typeof bruteForce>;
      keys: number[];
      first: (LocatedShard | undefined)[];
      last: (LocatedShard | undefined)[];
      ordinals: number[];
      ofGroup: (LocatedShard | undefined)[];
    }
  | undefined;
function bruteProbes(): NonNullable<typeof probed> {
  if (probed) return probed;
  const shards = shardEntries(base);
  const brute = bruteForce(shards);
  const keys = [0, ...shards.flatMap((s) => [s.firstKey - 1, s.firstKey, s.lastKey, s.lastKey + 1]), 2 ** 32];
  const ordinals: number[] = [];
  for (let ordinal = 0; ordinal < brute.groups; ordinal += 7) ordinals.push(ordinal);
  probed = {
    shards,
    brute,
    keys,
    first: keys.map(brute.firstEndingAtOrAbove),
    last: keys.map(brute.lastStartingAtOrBelow),
    ordinals,
    ofGroup: ordinals.map(brute.shardOfGroup),
  };
  return probed;
}

for (const [name, indexLevels, proteinLevels] of [
  ['two', 2, 2],
  ['three', 3, 4],
] as const) {
  describe(`a ${indexLevels}-level index tree and a ${proteinLevels}-level protein table`, () => {
    let dir: string;
    let ref: ReferenceData;
    beforeAll(() => {
      dir = dirs[name];
      ref = referenceOf(name);
    });

    it('is the dataset the case is named for, consistent at every level of its trees', () => {
      const manifest = readManifest(dir);
      expect([manifest.shardIndex!.levels, manifest.proteins!.levels]).toEqual([indexLevels, proteinLevels]);
      expect(ref.problems).toEqual([]);
      expect(ref.shardEntries).toEqual(shardEntries(base));
      expect(ref.shardEntries.length).toBeGreaterThan(2048);
    });

    it('finds every shard as brute force does, by key and by group ordinal', async () => {
      const { shards, brute, keys, first, last, ordinals, ofGroup } = bruteProbes();
      const { index } = await Dataset.open(new FileSource(dir));
      expect([index.shardCount, index.groupCount, index.levels]).toEqual([shards.length, brute.groups, indexLevels]);
      for (const [k, key] of keys.entries()) {
        const [found, foundLast] = [await index.firstEndingAtOrAbove(key), await index.lastStartingAtOrBelow(key)];
        // Compared by node first (many thousands of keys), by vitest (and its diff) when they differ.
        if (!isDeepStrictEqual(found, first[k])) expect(found, `firstEndingAtOrAbove(${key})`).toEqual(first[k]);
        if (!isDeepStrictEqual(foundLast, last[k])) expect(foundLast, `lastStartingAtOrBelow(${key})`).toEqual(last[k]);
      }
      for (const [k, ordinal] of ordinals.entries()) {
        const got = await index.shardOfGroup(ordinal);
        if (!isDeepStrictEqual(got, ofGroup[k])) expect(got).toEqual(ofGroup[k]);
      }
      expect(await index.shardOfGroup(brute.groups - 1)).toEqual(brute.shardOfGroup(brute.groups - 1));
    });

    it('reads one index page per level to locate a shard on a fresh dataset', async () => {
      const shards = shardEntries(base);
      const random = prng(7);
      for (let n = 0; n < 40; n++) {
        const i = Math.floor(random() * shards.length);
        const source = new CountingSource(new FileSource(dir));
        const dataset = await Dataset.open(source);
        expect((await dataset.index.firstEndingAtOrAbove(shards[i].lastKey))!.index).toBe(i);
        expect(source.indexReads).toHaveLength(indexLevels);
        expect(source.reads).toHaveLength(1 + indexLevels); // the manifest, then the pages on the path
      }
    });

    it("gives every accession's protein as the table's pages hold it, reading one page per level", async () => {
      const table = readProteinTable(base);
      const dataset = await Dataset.open(new FileSource(dir));
      const known = table.accessions.map((acc) => ({ acc, taxId: -7, reviewed: false }));
      const expected = table.accessions.map((acc, i) => ({
        acc,
        taxId: table.taxIds[i],
        reviewed: table.reviewed[i] === 1,
        protein: table.proteins[i] || null,
        organism: table.organisms[i] || null,
      }));
      expect(await proteinsOf(dataset, known)).toEqual(expected);
      const absent = [
        { acc: '0', taxId: 1, reviewed: true },
        { acc: `${table.accessions[5]}0`, taxId: 2, reviewed: false },
        { acc: 'zzz', taxId: 3, reviewed: false },
      ];
      expect(await proteinsOf(dataset, absent)).toEqual(absent.map((a) => ({ ...a, protein: null, organism: null })));
      for (const i of [0, 1000, table.accessions.length - 1]) {
        const source = new CountingSource(new FileSource(dir));
        const fresh = await Dataset.open(source);
        expect(await proteinsOf(fresh, [known[i]])).toEqual([expected[i]]);
        expect(source.reads.filter((f) => f.startsWith('proteins-'))).toHaveLength(proteinLevels);
      }
    });

    it('answers 150 random queries exactly as the brute-force reference', async () => {
      const handler = folderHandler(dir, { cacheBytes: 2 ** 20 });
      await fc.assert(
        fc.asyncProperty(queryArbitrary(ref), async (q) => {
          const problem = await difference(handler, ref, q);
          if (problem) throw new Error(problem);
        }),
        { numRuns: 150, seed: 1515 },
      );
    });
  });
}

describe('an inner page that does not agree with its entry', () => {
  /**
   * The 3-level dataset with its root entry `r` pointing at a rewritten inner page (`change` applied to it), named and
   * hashed rightly: the page and the manifest written into a folder of their own, read over the dataset's.
   */
  function tampered(
    label: string,
    r: number,
    change: (page: InnerIndexPage) => void,
  ): { source: AlteredSource; manifest: Manifest } {
    const over = tempDir(label);
    const manifest = readManifest(dirs.three);
    const entry = manifest.shardIndex!.pages[r];
    const page = readJsonFile<InnerIndexPage>(dirs.three, entry.file);
    change(page);
    Object.assign(entry, writeDatasetFile(over, page, indexPageFileName, manifest.compression));
    writeFileSync(join(over, 'manifest.json'), JSON.stringify(manifest));
    return { source: new AlteredSource(over, dirs.three), manifest };
  }

  /** The JSON API over a dataset read from `source`. */
  const handlerOver = (source: ShardSource) => createHandler(datasetOnce(() => source));

  /** A query for mass group `g` exactly, as the JSON API answers it. */
  const groupPath = (ref: ReferenceData, g: number) =>
    `/search.php?mass1=${referenceKeyText(ref.keys[g])}&mass2=${referenceKeyText(ref.keys[g])}`;

  it.each([
    [
      'its sums differ',
      (page: InnerIndexPage) => (page.pages[1].peptides += 1),
      /^index page index-[0-9a-f]{20}\.json\.gz is not readable: mass groups or peptides differ from its entry$/,
    ],
    [
      'it lists a page too few',
      (page: InnerIndexPage) => page.pages.pop(),
      /^index page index-[0-9a-f]{20}\.json\.gz is not readable: wrong shard count: \d+, not \d+$/,
    ],
    [
      'it is a leaf page',
      (page: InnerIndexPage) => Object.assign(page, { shards: page.pages, pages: undefined }),
      /is not readable: no pages listed$/,
    ],
  ] as const)('%s: 502 naming the page, never an answer; other subtrees still answer', async (_, change, error) => {
    const ref = referenceOf('three');
    const { source, manifest } = tampered('tampered', 2, change);
    const handler = handlerOver(source);
    const inside = manifest.shardIndex!.pages[2];
    const g =
      inside.firstShard === 0 ? 0 : ref.shardEntries.slice(0, inside.firstShard).reduce((s, e) => s + e.massGroups, 0);
    const got = await call(handler, groupPath(ref, g + 1));
    expect(got.status).toBe(502);
    expect(Object.keys(got.body as object)).toEqual(['error']);
    expect((got.body as { error: string }).error).toMatch(error);
    expect((await call(handler, groupPath(ref, 0))).status).toBe(200); // root entry 0's subtree is untouched
  });

  it('a corrupt inner page (bytes that fail its sha256): 502, then answered once the file is right again', async () => {
    const ref = referenceOf('three');
    const over = tempDir('corrupt');
    const entry = readManifest(dirs.three).shardIndex!.pages[1];
    const good = readFileSync(join(dirs.three, entry.file));
    writeFileSync(join(over, entry.file), Buffer.concat([good.subarray(0, 10), Buffer.from('x'), good.subarray(11)]));
    const handler = handlerOver(new AlteredSource(over, dirs.three));
    const g = ref.shardEntries.slice(0, entry.firstShard).reduce((s, e) => s + e.massGroups, 0);
    const got = await call(handler, groupPath(ref, g));
    expect(got.status).toBe(502);
    expect((got.body as { error: string }).error).toMatch(/index-[0-9a-f]{20}\.json\.gz failed its sha256 check/);
    writeFileSync(join(over, entry.file), good);
    expect(
      await difference(handler, ref, {
        endpoint: '/search.php',
        mass1: referenceKeyText(ref.keys[g]),
        mass2: referenceKeyText(ref.keys[g]),
      }),
    ).toBeNull();
  });

  it('an inner protein page whose count differs from its entry: a corrupt DatasetError naming it', async () => {
    const over = tempDir('tampered-proteins');
    const manifest = readManifest(dirs.two);
    const entry = manifest.proteins!.pages[0];
    const page = readJsonFile<ProteinIndexPage>(dirs.two, entry.file);
    page.pages[0].accessions += 1;
    Object.assign(entry, writeDatasetFile(over, page, proteinIndexPageFileName, manifest.compression));
    writeFileSync(join(over, 'manifest.json'), JSON.stringify(manifest));
    const dataset = await Dataset.open(new AlteredSource(over, dirs.two));
    const error = await proteinsOf(dataset, [{ acc: entry.firstAccession, taxId: 0, reviewed: false }]).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DatasetError);
    expect([(error as DatasetError).kind, (error as DatasetError).message]).toEqual([
      'corrupt',
      `protein index page ${entry.file} is not readable: accession count differs from its entry`,
    ]);
    const last = manifest.proteins!.pages.at(-1)!; // another subtree still answers
    expect((await proteinsOf(dataset, [{ acc: last.lastAccession, taxId: 0, reviewed: false }]))[0].acc).toBe(
      last.lastAccession,
    );
  });
});

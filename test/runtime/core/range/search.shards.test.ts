// Search (runtime/core/search.ts, shardIndex.ts): shard layout does not change answers, and queries read few
// shards:
// - the first records of the sample built with tiny shards (thousands of shards, a two-level index) answer
//   exactly like the same records built as one large shard, including pages that straddle shard boundaries;
// - totalResult comes from the manifest's per-shard counts for shards wholly inside the range, and a page
//   reads only the shards it shows (the 3-shard bound on the default build is in
//   test/runtime/api/handler.differential.test.ts).
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShardEntry } from '../../../../runtime/model/format.js';
import type { Handler } from '../../../../runtime/api/handler.js';
import { prng } from '../../../bench/synthetic.js';
import { call, countedCall, folderHandler, stable } from '../../../helpers/api.js';
import { BruteForce } from '../../../helpers/bruteforce.js';
import {
  readManifest,
  removeTempDirs,
  sampleSubset,
  shardEntries,
  subsetDataset,
  tempDir,
} from '../../../helpers/datasets.js';
import { referenceKeyText } from '../../../helpers/reference.js';

const RECORDS = 1200;
const TINY = 1536;
const LARGE = 1 << 30;

let tiny: string;
let large: string;
let tinyShards: ShardEntry[];
let tinyHandler: Handler;
let largeHandler: Handler;
let brute: BruteForce;

beforeAll(async () => {
  [tiny, large] = await Promise.all([subsetDataset(RECORDS, TINY), subsetDataset(RECORDS, LARGE)]);
  tinyShards = shardEntries(tiny);
  tinyHandler = folderHandler(tiny);
  largeHandler = folderHandler(large);
  brute = new BruteForce(readFileSync(sampleSubset(RECORDS)));
});

afterAll(removeTempDirs);

/** Ordinal (over the whole dataset) of each tiny shard's first group. */
const boundaries = () => {
  const starts: number[] = [];
  let sum = 0;
  for (const s of tinyShards) {
    starts.push(sum);
    sum += s.massGroups;
  }
  return starts;
};

/** Mass text half a key step below `key` (0.00005 Da under it): the range starts at `key`. */
const justBelow = (key: number) => `${Math.floor((key - 1) / 10_000)}.${String((key - 1) % 10_000).padStart(4, '0')}5`;

/** Paths whose answers differ between the tiny-shard and the one-shard dataset (or from the reference). */
async function differences(paths: string[]): Promise<unknown[]> {
  const wrong: unknown[] = [];
  for (const path of paths) {
    const [a, b] = await Promise.all([call(tinyHandler, path), call(largeHandler, path)]);
    if (a.status !== 200 || b.status !== 200)
      wrong.push({ path, tiny: a.status, large: b.status, body: a.body ?? b.body });
    else if (JSON.stringify(stable(a.body)) !== JSON.stringify(stable(b.body)))
      wrong.push({ path, tiny: stable(a.body), large: stable(b.body) });
  }
  return wrong;
}

describe('the two layouts', () => {
  it('tiny shards: thousands of them behind a two-level index; large: one shard; same groups', () => {
    const t = readManifest(tiny);
    const l = readManifest(large);
    expect(t.totals.shards).toBeGreaterThan(2048);
    expect(t.shardIndex?.pages.length).toBeGreaterThan(1);
    expect(t.shards).toBeUndefined();
    expect(l.totals.shards).toBe(1);
    expect(t.totals.massGroups).toBe(l.totals.massGroups);
    expect(t.totals.peptides).toBe(l.totals.peptides);
    expect(t.totals.massGroups).toBe(brute.keys.length);
    expect(tinyShards.length).toBe(t.totals.shards);
  });
});

describe('tiny shards answer like one large shard', () => {
  it('pages of the whole range that straddle shard boundaries', async () => {
    const random = prng(5);
    const starts = boundaries().slice(1);
    const paths: string[] = [];
    for (let i = 0; i < 120; i++) {
      const b = starts[Math.floor(random() * starts.length)];
      const pageSize = [2, 3, 10, 97, 1000][i % 5];
      const page = Math.floor((b - 1) / pageSize) + 1; // holds groups b-1 (last of a shard) and, unless b % pageSize == 0, b
      paths.push(`/search.php?mass1=0&mass2=100000&page=${page}&pageSize=${pageSize}`);
    }
    expect(await differences(paths)).toEqual([]);
    // And against the reference, for a few of them.
    for (const path of paths.slice(0, 20)) {
      const url = new URL(path, 'http://x');
      const page = Number(url.searchParams.get('page'));
      const pageSize = Number(url.searchParams.get('pageSize'));
      expect(stable((await call(tinyHandler, path)).body)).toEqual(brute.answer(0, 2 ** 31, page, pageSize, 'acc'));
    }
  });

  it('ranges that start and end inside shards, with pages that cross several shards', async () => {
    const random = prng(6);
    const paths: string[] = [];
    for (let i = 0; i < 150; i++) {
      const first = Math.floor(random() * (brute.keys.length - 3000));
      const last = first + Math.floor(random() * 3000);
      const endpoint = ['/search.php', '/search-taxonomy.php', '/search.php'][i % 3];
      const pageSize = [1, 7, 50, 333, 1000][Math.floor(random() * 5)];
      const groups = last - first + 1;
      const page = 1 + Math.floor(random() * Math.ceil(groups / pageSize + 1));
      // Bounds between keys half the time (mass1 just above the previous key), else exactly on keys.
      const low = random() < 0.5 ? referenceKeyText(brute.keys[first]) : justBelow(brute.keys[first]);
      paths.push(
        `${endpoint}?mass1=${low}&mass2=${referenceKeyText(brute.keys[last])}&page=${page}&pageSize=${pageSize}`,
      );
    }
    expect(await differences(paths)).toEqual([]);
  });

  it('pages of the whole range at pageSize 1000 (first, last, past the end, 20 others), and default sizes', async () => {
    const random = prng(7);
    const pages = Math.ceil(brute.keys.length / 1000);
    const picked = [1, 2, pages, pages + 1, ...Array.from({ length: 20 }, () => 1 + Math.floor(random() * pages))];
    const paths = picked.map((page) => `/search-taxonomy.php?mass1=0&mass2=100000&page=${page}`);
    paths.push(
      '/search.php?mass1=0&mass2=100000',
      '/search-taxonomy.php?mass1=0&mass2=100000',
      '/search-peptide.php?peptide=PEPTIDEK',
    );
    expect(await differences(paths)).toEqual([]);
  });

  it('peptides, including the first and last group of shards', async () => {
    const random = prng(8);
    const sequences = brute.sequences();
    const paths = Array.from(
      { length: 100 },
      () => `/search-peptide.php?peptide=${sequences[Math.floor(random() * sequences.length)]}`,
    );
    for (const s of tinyShards.slice(0, 40)) {
      paths.push(
        `/search-peptide.php?peptide=${brute.sequencesAt(s.firstKey)[0]}`,
        `/search.php?peptide=${brute.sequencesAt(s.lastKey)[0]}`,
      );
    }
    expect(await differences(paths)).toEqual([]);
  });
});

describe('totalResult from the manifest for shards wholly inside the range', () => {
  it('a range from one shard start to another shard end reads no shard to count (page past the end)', async () => {
    const random = prng(9);
    for (let i = 0; i < 20; i++) {
      const a = Math.floor(random() * (tinyShards.length - 200));
      const b = a + Math.floor(random() * 200);
      const expectedTotal = tinyShards.slice(a, b + 1).reduce((sum, s) => sum + s.massGroups, 0);
      // On the keys, and on bounds in the gaps between shards.
      const low =
        random() < 0.5 || a === 0
          ? referenceKeyText(tinyShards[a].firstKey)
          : referenceKeyText(tinyShards[a - 1].lastKey + 1);
      const high =
        random() < 0.5 || b === tinyShards.length - 1
          ? referenceKeyText(tinyShards[b].lastKey)
          : referenceKeyText(tinyShards[b + 1].firstKey - 1);
      const { got, source } = await countedCall(tiny, `/search.php?mass1=${low}&mass2=${high}&page=1000000`);
      expect(got.status).toBe(200);
      expect(got.body.totalResult).toBe(expectedTotal);
      expect(got.body.result).toEqual([]);
      expect(source.shardReads).toEqual([]);
    }
  });

  it('a range cutting two shards reads just those two to count', async () => {
    const [a, b] = [100, 900];
    const low = referenceKeyText(tinyShards[a].firstKey + 1);
    const high = referenceKeyText(tinyShards[b].lastKey - 1);
    const { got, source } = await countedCall(tiny, `/search.php?mass1=${low}&mass2=${high}&page=1000000`);
    expect(got.body.totalResult).toBe(brute.keysIn(tinyShards[a].firstKey + 1, tinyShards[b].lastKey - 1).length);
    expect(new Set(source.shardReads)).toEqual(new Set([tinyShards[a].file, tinyShards[b].file]));
  });
});

describe('mass1=0&mass2=100000 over tiny shards', () => {
  it('tiny shards: the count reads no shard; the page reads only the shards it shows', async () => {
    const starts = boundaries();
    const total = readManifest(tiny).totals.massGroups;
    for (const [page, pageSize] of [
      [1, 1],
      [1, 10],
      [3, 1000],
      [Math.ceil(total / 1000), 1000],
      [Math.ceil(total / 1000) + 1, 1000],
      [4321, 7],
    ]) {
      const { got, source } = await countedCall(
        tiny,
        `/search.php?mass1=0&mass2=100000&page=${page}&pageSize=${pageSize}`,
      );
      expect(got.body.totalResult).toBe(total);
      const from = (page - 1) * pageSize;
      const to = Math.min(total, from + pageSize);
      const shown = tinyShards.filter((s, i) => starts[i] < to && starts[i] + s.massGroups > from).map((s) => s.file);
      expect(new Set(source.shardReads)).toEqual(new Set(shown));
      expect(source.indexReads.length).toBeLessThanOrEqual(4);
    }
  });
});

describe('a corrupted index page of the two-level index', () => {
  it('queries that need it: 502; queries on other pages still answer correctly', async () => {
    const copy = join(tempDir('shards-index'), 'shards');
    cpSync(tiny, copy, { recursive: true });
    const pages = readManifest(copy).shardIndex!.pages;
    const bad = pages[1];
    writeFileSync(
      join(copy, bad.file),
      readFileSync(join(copy, bad.file), 'utf8').replace(/"massGroups":(\d)/, '"massGroups":9$1'),
    );
    const handler = folderHandler(copy);
    const inBad = `/search.php?mass1=${referenceKeyText(bad.firstKey + 1)}&mass2=${referenceKeyText(bad.lastKey)}`;
    for (let i = 0; i < 2; i++) {
      const got = await call(handler, inBad);
      expect(got.status).toBe(502);
      expect(Object.keys(got.body)).toEqual(['error']);
    }
    const other = pages[pages.length - 1];
    const fine = `/search-taxonomy.php?mass1=${referenceKeyText(other.firstKey)}&mass2=${referenceKeyText(other.lastKey)}&pageSize=50&page=2`;
    const got = await call(handler, fine);
    expect(got.status).toBe(200);
    expect(stable(got.body)).toEqual(brute.answer(other.firstKey, other.lastKey, 2, 50, 'accsTax'));
    // A page of the whole range that lies in the bad index page needs it: 502, not a partial page.
    const page = Math.floor((pages[0].massGroups + 5) / 10) + 1;
    expect((await call(handler, `/search.php?mass1=0&mass2=100000&page=${page}`)).status).toBe(502);
  });
});

// Tests runtime/core/search.ts: runQuery (counts and pages), walkRange (runs shard by shard), firstGroupAtOrAbove and
// firstGroupAbove, against a brute-force list of every (key, group) pair decoded from the shards, on the same
// multi-shard dataset served with its own two-level index and with one of small pages.
import { NO_ACCESSIONS } from '../../../../runtime/model/accessionSet.js';
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Dataset } from '../../../../runtime/core/storage/dataset.js';
import { firstGroupAbove, firstGroupAtOrAbove, runQuery, walkRange } from '../../../../runtime/core/range/search.js';
import type { ShardSource } from '../../../../runtime/core/storage/source.js';
import { FileSource } from '../../../../runtime/entries/node/fileSource.js';
import type { Shard, ShardEntry } from '../../../../runtime/model/format.js';
import { CountingSource } from '../../../helpers/api.js';
import { readDataset, readManifest, removeTempDirs, shardEntries, subsetDataset } from '../../../helpers/datasets.js';
import { prng } from '../../../helpers/prng.js';

/** One mass group as the brute force sees it: its key, its shard's position and its index in that shard. */
interface Pair {
  key: number;
  shard: number;
  group: number;
}

const MAX_KEY = 2 ** 32 - 1;
const PAGE_SHARDS = 7;

let dir: string;
let entries: ShardEntry[];
let decoded: Shard[];
let pairs: Pair[];

/** Serves the dataset folder with a two-level index of small pages (PAGE_SHARDS shards each) instead of its own. */
class PagedSource implements ShardSource {
  readonly description = 'paged test source';
  private files = new Map<string, Uint8Array>();
  private inner: FileSource;

  constructor(folder: string) {
    this.inner = new FileSource(folder);
    const { shards: _, shardIndex: __, ...manifest } = readManifest(folder);
    const shards = shardEntries(folder);
    const pages = [];
    for (let first = 0; first < shards.length; first += PAGE_SHARDS) {
      const list = shards.slice(first, first + PAGE_SHARDS);
      const bytes = gzipSync(JSON.stringify({ formatVersion: 2, firstShard: first, shards: list }));
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      const file = `index-${sha256.slice(0, 20)}.json.gz`;
      this.files.set(file, bytes);
      const sum = (f: 'massGroups' | 'peptides') => list.reduce((s, e) => s + e[f], 0);
      pages.push({
        file,
        sha256,
        bytes: bytes.length,
        firstShard: first,
        shards: list.length,
        firstKey: list[0].firstKey,
        lastKey: list[list.length - 1].lastKey,
        massGroups: sum('massGroups'),
        peptides: sum('peptides'),
      });
    }
    this.files.set('manifest.json', Buffer.from(JSON.stringify({ ...manifest, shardIndex: { pages } })));
  }

  get(file: string): Promise<Uint8Array> {
    return this.files.has(file) ? Promise.resolve(this.files.get(file)!) : this.inner.get(file);
  }
}

/** A source answering each file after 20 ms, recording when each read started and ended. */
class TimedSource implements ShardSource {
  readonly description = 'timed';
  readonly events: { file: string; start: number; end: number }[] = [];
  constructor(private inner: ShardSource) {}
  async get(file: string): Promise<Uint8Array> {
    const event = { file, start: performance.now(), end: Infinity };
    this.events.push(event);
    const bytes = await this.inner.get(file);
    await new Promise((resolve) => setTimeout(resolve, 20));
    event.end = performance.now();
    return bytes;
  }
}

beforeAll(async () => {
  dir = await subsetDataset(200, 2048);
  entries = shardEntries(dir);
  decoded = readDataset(dir, { peptides: false }).shards.map((s) => s.shard);
  pairs = decoded.flatMap((shard, s) => Array.from(shard.massKeys, (key, group) => ({ key, shard: s, group })));
});

afterAll(removeTempDirs);

/** The brute-force answer: every pair with lo <= key <= hi, in dataset order. */
const inRange = (lo: number, hi: number) => pairs.filter((p) => p.key >= lo && p.key <= hi);

/** A group as search returns it, by key and in-shard index (keys are unique over the dataset). */
const asPair = (shard: Shard, group: number) => ({ key: shard.massKeys[group], group });

/** Ranges that start and end inside shards, on shard edges, between groups, in gaps and outside the data. */
function ranges(): [number, number][] {
  const out: [number, number][] = [];
  const mid = (s: number) => decoded[s].massKeys[decoded[s].massKeys.length >> 1];
  const last = entries.length - 1;
  for (const [i, j] of [
    [0, 0],
    [3, 3],
    [3, 4],
    [10, 60],
    [0, last],
    [last - 2, last],
  ]) {
    out.push([mid(i), mid(j)], [mid(i) + 1, mid(j) - 1], [entries[i].firstKey, entries[j].lastKey]);
    out.push([entries[i].lastKey, entries[j].firstKey], [entries[i].lastKey + 1, entries[j].lastKey + 1]);
  }
  out.push([0, MAX_KEY], [0, entries[0].firstKey], [entries[last].lastKey, MAX_KEY]);
  const random = prng(7);
  for (let n = 0; n < 40; n++) {
    const a = pairs[Math.floor(random() * pairs.length)].key + Math.floor(random() * 5) - 2;
    const width = Math.floor(random() ** 3 * 2_000_000);
    out.push([a, a + width]);
  }
  return out;
}

/** Ranges holding no group: below and above the data, inside a gap between groups, and reversed. */
function emptyRanges(): [number, number][] {
  const gap = pairs.findIndex((p, i) => i > 0 && p.key - pairs[i - 1].key >= 3);
  const shardGap = entries.findIndex((e, i) => i > 0 && e.firstKey - entries[i - 1].lastKey >= 2);
  return [
    [0, entries[0].firstKey - 1],
    [entries[entries.length - 1].lastKey + 1, MAX_KEY],
    [pairs[gap - 1].key + 1, pairs[gap].key - 1],
    [entries[shardGap - 1].lastKey + 1, entries[shardGap].firstKey - 1],
    [pairs[100].key, pairs[100].key - 1],
    [MAX_KEY, 0],
  ];
}

describe.each([
  ['built index', (): ShardSource => new FileSource(dir), () => readManifest(dir).shardIndex!.pages.length],
  ['two-level index', (): ShardSource => new PagedSource(dir), () => Math.ceil(entries.length / PAGE_SHARDS)],
])('on a %s', (_, makeSource, expectedPages) => {
  let dataset: Dataset;
  beforeAll(async () => {
    dataset = await Dataset.open(makeSource());
    expect(dataset.index.shardCount).toBe(entries.length);
  });

  it('the test dataset spans many shards and, paged, many index pages', () => {
    expect(entries.length).toBeGreaterThan(100);
    expect(dataset.index.pageCount).toBe(expectedPages());
  });

  it('runQuery counts every range exactly and its first page is the brute force page', async () => {
    for (const [lo, hi] of ranges()) {
      const expected = inRange(lo, hi);
      const result = await runQuery(dataset, { lowKey: lo, highKey: hi, page: 1, pageSize: 50 });
      expect(result.totalResult, `${lo}..${hi}`).toBe(expected.length);
      expect(
        result.groups.map((g) => asPair(g.shard, g.group)),
        `${lo}..${hi}`,
      ).toEqual(expected.slice(0, 50).map(({ key, group }) => ({ key, group })));
    }
  });

  it('pages tile the range, straddle shard boundaries, and a page past the end is empty with the full count', async () => {
    const [lo, hi] = [entries[5].firstKey + 1, entries[40].lastKey - 1];
    const expected = inRange(lo, hi).map(({ key, group }) => ({ key, group }));
    expect(expected.length).toBeGreaterThan(1000);
    for (const pageSize of [1, 7, 64, 1000]) {
      const pages = Math.ceil(expected.length / pageSize);
      const seen: unknown[] = [];
      const step = pageSize === 1 ? 97 : 1; // every page for large sizes, a sample of single-group pages
      for (let page = 1; page <= pages + 1; page += page > pages - 2 ? 1 : step) {
        const result = await runQuery(dataset, { lowKey: lo, highKey: hi, page, pageSize });
        expect(result).toMatchObject({ totalResult: expected.length, page, pageSize });
        const got = result.groups.map((g) => asPair(g.shard, g.group));
        expect(got, `page ${page} of ${pageSize}`).toEqual(expected.slice((page - 1) * pageSize, page * pageSize));
        if (step === 1) seen.push(...got);
      }
      if (step === 1) expect(seen).toEqual(expected);
    }
    const far = await runQuery(dataset, { lowKey: lo, highKey: hi, page: 2 ** 31 - 1, pageSize: 1000 });
    expect(far).toEqual({
      totalResult: expected.length,
      page: 2 ** 31 - 1,
      pageSize: 1000,
      groups: [],
      accessions: NO_ACCESSIONS,
    });
  });

  it('runQuery answers zero for ranges holding no group', async () => {
    for (const [lo, hi] of emptyRanges()) {
      expect(inRange(lo, hi)).toEqual([]);
      const result = await runQuery(dataset, { lowKey: lo, highKey: hi, page: 1, pageSize: 10 });
      expect(result, `${lo}..${hi}`).toEqual({
        totalResult: 0,
        page: 1,
        pageSize: 10,
        groups: [],
        accessions: NO_ACCESSIONS,
      });
    }
  });

  it('walkRange yields every group of the range in order, one shard run at a time', async () => {
    for (const [lo, hi] of [...ranges(), ...emptyRanges()]) {
      const got: { key: number; group: number }[] = [];
      let previous: Shard | undefined;
      const runs: { shard: Shard; from: number; to: number }[] = [];
      for await (const run of walkRange(dataset, lo, hi)) {
        expect(run.from).toBeLessThan(run.to);
        expect(run.shard).not.toBe(previous);
        previous = run.shard;
        runs.push(run);
        for (let g = run.from; g < run.to; g++) got.push(asPair(run.shard, g));
      }
      runs.forEach((run, r) => {
        if (r > 0) expect(run.from).toBe(0);
        if (r < runs.length - 1) expect(run.to).toBe(run.shard.massKeys.length);
      });
      expect(got, `${lo}..${hi}`).toEqual(inRange(lo, hi).map(({ key, group }) => ({ key, group })));
    }
  });

  it('walkRange reads the next shard only when the consumer asks for it', async () => {
    const counting = new CountingSource(makeSource());
    const fresh = await Dataset.open(counting);
    const walk = walkRange(fresh, 0, MAX_KEY);
    expect((await walk.next()).done).toBe(false);
    expect(counting.shardReads).toEqual([entries[0].file]);
    await walk.next();
    expect(counting.shardReads).toEqual([entries[0].file, entries[1].file]);
    await walk.return(undefined);
  });

  it('a first page reads its shards in one round trip: all started before any arrives, none it does not need (ranges from a shard’s last groups)', async () => {
    const random = prng(11);
    for (let trial = 0; trial < 30; trial++) {
      const i = 1 + Math.floor(random() * (entries.length - 4));
      const span = Math.floor(random() * 3); // the range cuts shards i .. i + span
      const [lowKey, highKey] =
        span === 0
          ? [entries[i].firstKey + 1, entries[i].lastKey - 1]
          : [entries[i].lastKey - 1, entries[i + span].firstKey + 1];
      const pageSize = [1, 10, 1000][trial % 3];
      const timeline = new TimedSource(makeSource());
      const fresh = await Dataset.open(timeline);
      await fresh.index.loadRange(lowKey, highKey); // index pages first: only shard reads are timed below
      timeline.events.length = 0;
      const result = await runQuery(fresh, { lowKey, highKey, page: 1, pageSize });
      // The accession table is read beside the first shard, in the same round trip.
      const firstArrival = Math.min(Infinity, ...timeline.events.map((e) => e.end));
      expect(
        timeline.events.every((e) => e.start < firstArrival),
        `trial ${trial}`,
      ).toBe(true);
      const shardEvents = timeline.events.filter((e) => /^[0-9a-f]{20}\.msgpack\.gz$/.test(e.file));
      // Needed: the shards of the page's groups, and the last shard (its count reads it: the range cuts it).
      const needed = new Set([
        ...result.groups.map((g) => entries.find((e) => e.firstKey === g.shard.massKeys[0])!.file),
        ...(lowKey <= highKey ? [entries[i + span].file] : []),
      ]);
      expect(new Set(shardEvents.map((e) => e.file)), `trial ${trial}`).toEqual(needed);
    }
  });

  it('runQuery answers a query whose index pages, shards and accessions are in memory without awaiting a promise of its own', async () => {
    const counting = new CountingSource(makeSource());
    const fresh = await Dataset.open(counting);
    /** Whether the query's promise has settled after `ticks` microtasks. */
    const settledWithin = async (query: Parameters<typeof runQuery>[1], ticks: number) => {
      let settled = false;
      void runQuery(fresh, query).then(() => (settled = true));
      for (let t = 0; t < ticks; t++) await Promise.resolve();
      return settled;
    };
    const random = prng(5);
    for (let trial = 0; trial < 20; trial++) {
      const i = Math.floor(random() * (entries.length - 3));
      const query = {
        lowKey: entries[i].lastKey - 1,
        highKey: entries[i + 1 + (trial % 2)].firstKey + 1,
        page: 1 + (trial % 3),
        pageSize: [1, 3, 1000][trial % 3],
      };
      const cold = await runQuery(fresh, query);
      const reads = counting.shardReads.length;
      expect(await settledWithin(query, 1), `trial ${trial}`).toBe(true);
      expect(await runQuery(fresh, query), `trial ${trial}`).toEqual(cold);
      expect(counting.shardReads.length, `trial ${trial}: nothing read again`).toBe(reads);
    }
    // Cold, it waits for its reads.
    const coldDataset = await Dataset.open(makeSource());
    let settled = false;
    const query = runQuery(coldDataset, {
      lowKey: entries[3].lastKey - 1,
      highKey: entries[4].firstKey + 1,
      page: 1,
      pageSize: 10,
    }).then(() => (settled = true));
    for (let t = 0; t < 5; t++) await Promise.resolve();
    expect(settled).toBe(false);
    await query; // its reads end here, not after afterAll has removed the folder (an unhandled "not found")
  });

  it('runQuery reads no shard for a range on shard edges whose page is past the end', async () => {
    const counting = new CountingSource(makeSource());
    const fresh = await Dataset.open(counting);
    const result = await runQuery(fresh, {
      lowKey: entries[20].firstKey,
      highKey: entries[30].lastKey,
      page: 1000,
      pageSize: 1000,
    });
    expect(result.totalResult).toBe(entries.slice(20, 31).reduce((s, e) => s + e.massGroups, 0));
    expect(result.groups).toEqual([]);
    expect(counting.shardReads).toEqual([]);
  });
});

describe('firstGroupAtOrAbove and firstGroupAbove', () => {
  const linear = (keys: ArrayLike<number>, holds: (k: number) => boolean) => {
    for (let g = 0; g < keys.length; g++) if (holds(keys[g])) return g;
    return keys.length;
  };
  const shardOf = (keys: number[]) => ({ massKeys: Uint32Array.from(keys) }) as unknown as Shard;

  it('match a linear scan on hand-made key columns, empty included', () => {
    for (const keys of [[], [5], [5, 9, 20], [0, 1, 2, 3, 100, 4_000_000_000]]) {
      const shard = shardOf(keys);
      for (const key of [0, 1, 2, 4, 5, 6, 9, 10, 19, 20, 21, 99, 100, 101, 4_000_000_000, MAX_KEY]) {
        expect(firstGroupAtOrAbove(shard, key), `${keys} >= ${key}`).toBe(linear(keys, (k) => k >= key));
        expect(firstGroupAbove(shard, key), `${keys} > ${key}`).toBe(linear(keys, (k) => k > key));
      }
    }
  });

  it('match a linear scan on every shard of the dataset around each of its keys', () => {
    for (const shard of decoded.slice(0, 60)) {
      for (const k of shard.massKeys) {
        for (const key of [k - 1, k, k + 1]) {
          expect(firstGroupAtOrAbove(shard, key)).toBe(linear(shard.massKeys, (x) => x >= key));
          expect(firstGroupAbove(shard, key)).toBe(linear(shard.massKeys, (x) => x > key));
        }
      }
    }
  });
});

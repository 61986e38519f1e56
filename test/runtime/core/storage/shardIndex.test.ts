// Tests runtime/core/shardIndex.ts: partitionPoint against a linear scan (fast-check), and ShardIndex, flat,
// two-level and a tree of 2 to 7 levels, on synthetic manifests built in memory (the trees by a maker of this
// file, not the build's): firstEndingAtOrAbove, lastStartingAtOrBelow and shardOfGroup against brute force,
// counts, index pages loaded only when touched (one per level on a lookup's path, each once), loadRange then a
// walk along the range (search.ts's rangeEntriesNow) answering at once, a failed page load retried.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rangeEntriesNow } from '../../../../runtime/core/range/search.js';
import { partitionPoint, ShardIndex, type LocatedShard } from '../../../../runtime/core/storage/shardIndex.js';
import type { IndexPageEntry, Manifest, ShardEntry } from '../../../../runtime/model/format.js';

/** Shards with ascending, non-overlapping keys: each one's first key gap, key span and group count. */
function makeShards(specs: readonly { gap: number; span: number; groups: number }[]): ShardEntry[] {
  let key = 0;
  return specs.map(({ gap, span, groups }, i) => {
    const firstKey = key + gap;
    key = firstKey + span;
    return {
      file: `s${i}.msgpack`,
      firstKey,
      lastKey: firstKey + span,
      massGroups: groups,
      peptides: groups + i,
      bytes: 100 + i,
      sha256: `h${i}`,
    };
  });
}

const flatManifest = (shards: ShardEntry[]) =>
  ({ format: 'digested-peptides', formatVersion: 1, shards }) as unknown as Manifest;

/** A two-level manifest of `shards` in pages of `size`, and a loadPage that serves them and records each load. */
function pagedManifest(shards: ShardEntry[], size: number) {
  const pages: IndexPageEntry[] = [];
  const content = new Map<string, ShardEntry[]>();
  for (let first = 0; first < shards.length; first += size) {
    const list = shards.slice(first, first + size);
    const file = `index-p${pages.length}.json`;
    content.set(file, list);
    pages.push({
      file,
      sha256: '',
      bytes: 0,
      firstShard: first,
      shards: list.length,
      firstKey: list[0].firstKey,
      lastKey: list[list.length - 1].lastKey,
      massGroups: list.reduce((s, e) => s + e.massGroups, 0),
      peptides: list.reduce((s, e) => s + e.peptides, 0),
    });
  }
  const loads: string[] = [];
  const loadPage = async (entry: IndexPageEntry) => {
    loads.push(entry.file);
    return content.get(entry.file)!;
  };
  const manifest = { format: 'digested-peptides', formatVersion: 1, shardIndex: { pages } } as unknown as Manifest;
  return { manifest, loadPage, loads };
}

/** Brute force over the shard list. */
const groupsBefore = (shards: ShardEntry[], i: number) => shards.slice(0, i).reduce((s, e) => s + e.massGroups, 0);
const located = (shards: ShardEntry[], i: number): LocatedShard | undefined =>
  i < 0 || i >= shards.length ? undefined : { index: i, entry: shards[i], groupsBefore: groupsBefore(shards, i) };
const bruteFirstEnding = (shards: ShardEntry[], key: number) =>
  located(
    shards,
    shards.findIndex((s) => s.lastKey >= key),
  );
const bruteLastStarting = (shards: ShardEntry[], key: number) =>
  located(shards, shards.filter((s) => s.firstKey <= key).length - 1);
function bruteShardOfGroup(shards: ShardEntry[], ordinal: number) {
  let before = 0;
  for (let i = 0; i < shards.length; i++) {
    if (ordinal < before + shards[i].massGroups) return located(shards, i);
    before += shards[i].massGroups;
  }
  return undefined;
}

/** Keys worth probing: every shard edge, one either side of it, and beyond both ends. */
const probeKeys = (shards: ShardEntry[]) => [
  0,
  ...shards.flatMap((s) => [s.firstKey - 1, s.firstKey, s.firstKey + 1, s.lastKey - 1, s.lastKey, s.lastKey + 1]),
  2 ** 32,
];

async function expectMatchesBruteForce(index: ShardIndex, shards: ShardEntry[]) {
  expect(index.shardCount).toBe(shards.length);
  expect(index.groupCount).toBe(groupsBefore(shards, shards.length));
  for (const key of probeKeys(shards)) {
    expect(await index.firstEndingAtOrAbove(key), `firstEndingAtOrAbove(${key})`).toEqual(
      bruteFirstEnding(shards, key),
    );
    expect(await index.lastStartingAtOrBelow(key), `lastStartingAtOrBelow(${key})`).toEqual(
      bruteLastStarting(shards, key),
    );
  }
  for (let ordinal = 0; ordinal < index.groupCount; ordinal++) {
    expect(await index.shardOfGroup(ordinal), `shardOfGroup(${ordinal})`).toEqual(bruteShardOfGroup(shards, ordinal));
  }
}

const specArb = fc.array(
  fc.record({
    gap: fc.integer({ min: 1, max: 20 }),
    span: fc.integer({ min: 0, max: 10 }),
    groups: fc.integer({ min: 1, max: 4 }),
  }),
  { minLength: 1, maxLength: 30 },
);

describe('partitionPoint', () => {
  it('is the first index where a monotone predicate holds (n when never), like a linear scan', () => {
    fc.assert(
      fc.property(fc.nat(200), fc.nat(220), (n, threshold) => {
        const calls: number[] = [];
        const got = partitionPoint(n, (i) => (calls.push(i), i >= threshold));
        const linear = Array.from({ length: n }, (_, i) => i).find((i) => i >= threshold) ?? n;
        expect(got).toBe(linear);
        expect(calls.every((i) => i >= 0 && i < n)).toBe(true);
        expect(calls.length).toBeLessThanOrEqual(Math.ceil(Math.log2(n + 1)) + 1);
      }),
      { numRuns: 500 },
    );
  });

  it('finds lower and upper bounds in sorted arrays with duplicates', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -20, max: 20 })), fc.integer({ min: -25, max: 25 }), (values, key) => {
        const sorted = [...values].sort((a, b) => a - b);
        const lower = sorted.findIndex((v) => v >= key);
        const upper = sorted.findIndex((v) => v > key);
        expect(partitionPoint(sorted.length, (i) => sorted[i] >= key)).toBe(lower < 0 ? sorted.length : lower);
        expect(partitionPoint(sorted.length, (i) => sorted[i] > key)).toBe(upper < 0 ? sorted.length : upper);
      }),
      { numRuns: 500 },
    );
  });
});

describe('ShardIndex, flat', () => {
  it('matches brute force on random shard lists and never loads a page', async () => {
    await fc.assert(
      fc.asyncProperty(specArb, async (specs) => {
        const shards = makeShards(specs);
        const index = new ShardIndex(flatManifest(shards), () =>
          Promise.reject(new Error('a flat index loads no page')),
        );
        expect(index.pageCount).toBe(1);
        await expectMatchesBruteForce(index, shards);
      }),
      { numRuns: 60 },
    );
  });

  it('with no shards, finds nothing', async () => {
    const index = new ShardIndex(flatManifest([]), () => Promise.reject(new Error('no page')));
    expect([index.shardCount, index.groupCount, index.pageCount]).toEqual([0, 0, 0]);
    expect(await index.firstEndingAtOrAbove(0)).toBeUndefined();
    expect(await index.lastStartingAtOrBelow(2 ** 32)).toBeUndefined();
  });
});

describe('ShardIndex, two-level', () => {
  it('matches brute force on random shard lists and page sizes', async () => {
    await fc.assert(
      fc.asyncProperty(specArb, fc.integer({ min: 1, max: 8 }), async (specs, size) => {
        const shards = makeShards(specs);
        const { manifest, loadPage } = pagedManifest(shards, size);
        const index = new ShardIndex(manifest, loadPage);
        expect(index.pageCount).toBe(Math.ceil(shards.length / size));
        await expectMatchesBruteForce(index, shards);
      }),
      { numRuns: 60 },
    );
  });

  it('loads a page only when a lookup touches it, and once', async () => {
    const shards = makeShards(Array.from({ length: 20 }, (_, i) => ({ gap: 10, span: 5, groups: 1 + (i % 3) })));
    const { manifest, loadPage, loads } = pagedManifest(shards, 4); // pages p0..p4 of 4 shards
    const index = new ShardIndex(manifest, loadPage);
    expect(index.shardCount).toBe(20);
    expect(loads).toEqual([]);

    expect((await index.firstEndingAtOrAbove(shards[9].lastKey))!.index).toBe(9);
    expect(loads).toEqual(['index-p2.json']);
    expect((await index.lastStartingAtOrBelow(shards[10].firstKey))!.index).toBe(10);
    expect(loads).toEqual(['index-p2.json']);
    expect(await index.firstEndingAtOrAbove(shards[19].lastKey + 1)).toBeUndefined(); // decided by the root alone
    expect(await index.lastStartingAtOrBelow(shards[0].firstKey - 1)).toBeUndefined();
    expect(loads).toEqual(['index-p2.json']);
    const lastGroup = index.groupCount - 1;
    expect((await index.shardOfGroup(lastGroup)).index).toBe(19);
    expect(loads).toEqual(['index-p2.json', 'index-p4.json']);
    await Promise.all([index.shardOfGroup(0), index.shardOfGroup(1), index.firstEndingAtOrAbove(0)]);
    expect(loads).toEqual(['index-p2.json', 'index-p4.json', 'index-p0.json']);
  });

  it('answers at once (...Now) only from pages in memory: null before, the async answer after; loadRange reads just the pages of a range', async () => {
    const shards = makeShards(Array.from({ length: 20 }, (_, i) => ({ gap: 10, span: 5, groups: 1 + (i % 3) })));
    const { manifest, loadPage, loads } = pagedManifest(shards, 4); // pages p0..p4 of 4 shards
    const index = new ShardIndex(manifest, loadPage);
    expect(index.firstEndingAtOrAboveNow(shards[9].lastKey)).toBeNull();
    expect(index.shardOfGroupNow(0)).toBeNull();
    expect(index.firstEndingAtOrAboveNow(shards[19].lastKey + 1)).toBeUndefined(); // decided by the root alone
    await index.loadRange(shards[5].firstKey, shards[9].lastKey); // shards 5..9: pages p1 and p2
    expect([...loads].sort()).toEqual(['index-p1.json', 'index-p2.json']);
    for (const key of probeKeys(shards.slice(4, 12))) {
      const now = index.firstEndingAtOrAboveNow(key);
      if (now !== null) expect(now).toEqual(bruteFirstEnding(shards, key));
      const lastNow = index.lastStartingAtOrBelowNow(key);
      if (lastNow !== null) expect(lastNow).toEqual(bruteLastStarting(shards, key));
    }
    expect(index.lastStartingAtOrBelowNow(shards[9].lastKey)).toEqual(bruteLastStarting(shards, shards[9].lastKey));
    expect(index.lastStartingAtOrBelowNow(shards[1].firstKey)).toBeNull(); // p0 was not read
    expect(index.lastStartingAtOrBelowNow(shards[0].firstKey - 1)).toBeUndefined(); // decided by the root alone
    expect(index.firstEndingAtOrAboveNow(shards[6].firstKey)).toEqual(bruteFirstEnding(shards, shards[6].firstKey));
    expect(index.shardOfGroupNow(groupsBefore(shards, 8))).toEqual(located(shards, 8));
    expect(index.shardOfGroupNow(0)).toBeNull(); // p0 was not read
    // A range in the gap between two pages' shards reads the page after the gap (to know it holds none there).
    await index.loadRange(shards[15].lastKey + 1, shards[16].firstKey - 1);
    expect(loads).toContain('index-p4.json');
    expect(loads).toHaveLength(3);
  });

  it('retries a page whose load failed, on the next lookup', async () => {
    const shards = makeShards(Array.from({ length: 6 }, () => ({ gap: 3, span: 2, groups: 2 })));
    const { manifest, loadPage } = pagedManifest(shards, 2);
    let failures = 1;
    const attempts: string[] = [];
    const index = new ShardIndex(manifest, (entry) => {
      attempts.push(entry.file);
      return failures-- > 0 ? Promise.reject(new Error('storage down')) : loadPage(entry);
    });
    await expect(index.shardOfGroup(5)).rejects.toThrow('storage down');
    expect(await index.shardOfGroup(5)).toEqual({ index: 2, entry: shards[2], groupsBefore: 4 });
    expect(await index.firstEndingAtOrAbove(shards[3].firstKey)).toEqual({
      index: 3,
      entry: shards[3],
      groupsBefore: 6,
    });
    expect(attempts).toEqual(['index-p1.json', 'index-p1.json']);
  });
});

/**
 * A tree of index pages over `shards`, made here (not by the build): leaf pages of `pageShards`, inner pages of
 * `innerPages`, levels added until the root holds at most `rootLimit`; a loadPage that serves each page's list,
 * refuses a page asked for as the wrong kind (leaf or inner), and records each load.
 */
function treeManifest(shards: ShardEntry[], pageShards: number, innerPages: number, rootLimit: number) {
  const content = new Map<string, { leaf: boolean; list: ShardEntry[] | IndexPageEntry[] }>();
  const leafRange = new Map<string, { firstShard: number; shards: number }>();
  const entryOf = (
    list: (ShardEntry | IndexPageEntry)[],
    firstShard: number,
    shardsIn: number,
    leaf: boolean,
  ): IndexPageEntry => {
    const file = `index-${content.size}.json`;
    content.set(file, { leaf, list: list as ShardEntry[] | IndexPageEntry[] });
    if (leaf) leafRange.set(file, { firstShard, shards: shardsIn });
    return {
      file,
      sha256: '',
      bytes: 0,
      firstShard,
      shards: shardsIn,
      firstKey: list[0].firstKey,
      lastKey: list[list.length - 1].lastKey,
      massGroups: list.reduce((s, e) => s + e.massGroups, 0),
      peptides: list.reduce((s, e) => s + e.peptides, 0),
    };
  };
  let level: IndexPageEntry[] = [];
  for (let first = 0; first < shards.length; first += pageShards)
    level.push(
      entryOf(shards.slice(first, first + pageShards), first, Math.min(pageShards, shards.length - first), true),
    );
  let levels = 1;
  for (; level.length > rootLimit; levels++) {
    const above: IndexPageEntry[] = [];
    for (let k = 0; k < level.length; k += innerPages) {
      const run = level.slice(k, k + innerPages);
      above.push(
        entryOf(
          run,
          run[0].firstShard,
          run.reduce((s, p) => s + p.shards, 0),
          false,
        ),
      );
    }
    level = above;
  }
  const loads: string[] = [];
  const loadPage = async (entry: IndexPageEntry, leaf: boolean) => {
    loads.push(entry.file);
    const page = content.get(entry.file)!;
    if (page.leaf !== leaf) throw new Error(`${entry.file} asked for as a ${leaf ? 'leaf' : 'inner'} page`);
    return page.list;
  };
  const manifest = {
    format: 'digested-peptides',
    formatVersion: 2,
    shardIndex: { pages: level, ...(levels > 1 ? { levels } : {}) },
  } as unknown as Manifest;
  return { manifest, loadPage, loads, levels, leafRange };
}

/** What search.ts's rangeEntriesNow finds with only the index in memory. */
const rangeNow = (index: ShardIndex, low: number, high: number) => rangeEntriesNow(index, low, high);

const treeArb = fc.record({
  pageShards: fc.integer({ min: 1, max: 4 }),
  innerPages: fc.integer({ min: 2, max: 4 }),
  rootLimit: fc.integer({ min: 1, max: 3 }),
});
const manySpecs = fc.array(
  fc.record({
    gap: fc.integer({ min: 1, max: 20 }),
    span: fc.integer({ min: 0, max: 10 }),
    groups: fc.integer({ min: 1, max: 4 }),
  }),
  { minLength: 1, maxLength: 70 },
);

describe('ShardIndex, a tree of index pages', () => {
  it('matches brute force on random shard lists and tree shapes (2 to 7 levels)', async () => {
    let deepest = 0;
    await fc.assert(
      fc.asyncProperty(manySpecs, treeArb, async (specs, shape) => {
        const shards = makeShards(specs);
        const { manifest, loadPage, levels } = treeManifest(
          shards,
          shape.pageShards,
          shape.innerPages,
          shape.rootLimit,
        );
        deepest = Math.max(deepest, levels);
        const index = new ShardIndex(manifest, loadPage);
        expect([index.levels, index.pageCount]).toEqual([levels, manifest.shardIndex!.pages.length]);
        await expectMatchesBruteForce(index, shards);
      }),
      { numRuns: 80, seed: 43 }, // seeded: a random seed could draw no tree of 4 levels in 80 runs
    );
    expect(deepest).toBeGreaterThanOrEqual(4);
  });

  it('reads exactly the pages on the path of a lookup, one per level, each once', async () => {
    const shards = makeShards(Array.from({ length: 50 }, (_, i) => ({ gap: 10, span: 5, groups: 1 + (i % 3) })));
    const tree = treeManifest(shards, 2, 3, 2); // 25 leaves, 9, 3, then a root of 1: 4 levels
    expect(tree.levels).toBe(4);
    for (const [name, lookup] of [
      ['firstEndingAtOrAbove', (index: ShardIndex, i: number) => index.firstEndingAtOrAbove(shards[i].lastKey)],
      ['lastStartingAtOrBelow', (index: ShardIndex, i: number) => index.lastStartingAtOrBelow(shards[i].firstKey)],
      ['shardOfGroup', (index: ShardIndex, i: number) => index.shardOfGroup(groupsBefore(shards, i))],
    ] as const) {
      for (let i = 0; i < shards.length; i++) {
        tree.loads.length = 0;
        const index = new ShardIndex(tree.manifest, tree.loadPage);
        expect((await lookup(index, i))!.index, `${name} ${i}`).toBe(i);
        expect(tree.loads, `${name} ${i}`).toHaveLength(4);
        await Promise.all([lookup(index, i), lookup(index, i ^ 1)]); // the same path (and its sibling leaf): nothing read again but that leaf
        expect(new Set(tree.loads).size).toBe(tree.loads.length);
        expect(tree.loads.length).toBeLessThanOrEqual(5);
      }
    }
    tree.loads.length = 0;
    const index = new ShardIndex(tree.manifest, tree.loadPage);
    expect(await index.firstEndingAtOrAbove(shards[49].lastKey + 1)).toBeUndefined(); // decided by the root alone
    expect(await index.lastStartingAtOrBelow(shards[0].firstKey - 1)).toBeUndefined();
    expect(index.firstEndingAtOrAboveNow(shards[3].lastKey)).toBeNull();
    expect(() => index.shardOfGroupNow(index.groupCount)).toThrow(RangeError);
    expect(tree.loads).toEqual([]);
  });

  it('loadRange reads the pages of a range (and of the shard after it), so that a walk along it answers at once', async () => {
    await fc.assert(
      fc.asyncProperty(manySpecs, treeArb, fc.nat(), fc.nat(), fc.nat(30), async (specs, shape, a, b, width) => {
        const shards = makeShards(specs);
        const { manifest, loadPage, loads, leafRange } = treeManifest(
          shards,
          shape.pageShards,
          shape.innerPages,
          shape.rootLimit,
        );
        const keys = probeKeys(shards);
        const low = keys[a % keys.length];
        const high = Math.max(low, keys[b % keys.length]) + (width % 3 === 0 ? 0 : width);
        const index = new ShardIndex(manifest, loadPage);
        await index.loadRange(low, high);
        const expected = shards.flatMap((s, i) =>
          s.lastKey >= low && s.firstKey <= high ? [located(shards, i)!] : [],
        );
        expect(rangeNow(index, low, high)).toEqual(expected);
        // Nothing else: each leaf read holds a shard of the range, or the one after it (the first above `high`).
        const next = shards.findIndex((s) => s.firstKey > high);
        const wanted = [...expected.map((l) => l.index), ...(next >= 0 ? [next] : [])];
        for (const file of loads) {
          const page = leafRange.get(file);
          if (page)
            expect(
              wanted.some((i) => i >= page.firstShard && i < page.firstShard + page.shards),
              `${file} read for [${low}, ${high}]`,
            ).toBe(true);
        }
        expect(new Set(loads).size).toBe(loads.length);
      }),
      { numRuns: 150 },
    );
  });

  it('retries an inner page whose load failed, on the next lookup', async () => {
    const shards = makeShards(Array.from({ length: 12 }, () => ({ gap: 3, span: 2, groups: 2 })));
    const tree = treeManifest(shards, 2, 2, 1); // 6 leaves, 3, 2, 1: 3 levels below the root of 1
    let failures = 1;
    const index = new ShardIndex(tree.manifest, (entry, leaf) =>
      !leaf && failures-- > 0 ? Promise.reject(new Error('storage down')) : tree.loadPage(entry, leaf),
    );
    await expect(index.shardOfGroup(13)).rejects.toThrow('storage down');
    expect(await index.shardOfGroup(13)).toEqual({ index: 6, entry: shards[6], groupsBefore: 12 });
    expect(await index.lastStartingAtOrBelow(shards[7].firstKey)).toEqual({
      index: 7,
      entry: shards[7],
      groupsBefore: 14,
    });
  });
});

// Differential test of the handler (runtime/api/handler.ts) over the whole bundled sample: the API (default
// build, local folder) against the brute-force reference computed straight from the FASTA in this process
// (test/helpers/bruteforce.ts, which shares no code with builder/ or runtime/). Random ranges, pages and page
// sizes from a seeded PRNG, and random peptides of the data through search-peptide.php and
// search.php?peptide=. Also: on this default build, mass1=0&mass2=100000 reads at most 3 shards for any page.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Handler } from '../../../runtime/api/handler.js';
import { nodeCodecs } from '../../../runtime/entries/node/platform.js';
import { prng } from '../../bench/synthetic.js';
import { call, countedCall, expectEnvelope, folderHandler, stable } from '../../helpers/api.js';
import { BruteForce, type BruteAnswer } from '../../helpers/bruteforce.js';
import { bundledDataset, readManifest, removeTempDirs, shardEntries, SAMPLE_FASTA } from '../../helpers/datasets.js';
import { lowerBound, referenceKeyBounds, referencePeptideKey } from '../../helpers/reference.js';

let handler: Handler;
let brute: BruteForce;
let dir: string;

beforeAll(async () => {
  const building = bundledDataset();
  brute = new BruteForce(readFileSync(SAMPLE_FASTA));
  dir = await building;
  handler = folderHandler(dir, nodeCodecs); // Node's codecs, as the server reads a dataset
});

afterAll(removeTempDirs);

/** A mass text with `decimals` decimals for a mass given in 1e-6 Da (exact: built from integers). */
function massText(micro: number, decimals: number): string {
  const whole = Math.floor(micro / 1e6);
  const fraction = String(micro % 1e6)
    .padStart(6, '0')
    .slice(0, decimals);
  return decimals > 0 ? `${whole}.${fraction}` : String(whole);
}

interface Mismatch {
  path: string;
  status: number;
  got: unknown;
  expected: BruteAnswer;
}

/**
 * Calls every path and returns how many answers differ from the reference (compared whole, less memory and
 * duration), with the first few for the failure message.
 */
async function differences(
  cases: { path: string; expected: BruteAnswer }[],
): Promise<{ count: number; first: Mismatch[] }> {
  const wrong: Mismatch[] = [];
  for (const { path, expected } of cases) {
    const got = await call(handler, path);
    if (got.status !== 200) {
      wrong.push({ path, status: got.status, got: got.body, expected });
      continue;
    }
    expectEnvelope(got.body);
    if (JSON.stringify(stable(got.body)) !== JSON.stringify(expected))
      wrong.push({ path, status: got.status, got: stable(got.body), expected });
  }
  return { count: wrong.length, first: wrong.slice(0, 3) };
}

describe('the reference and the build agree on the dataset as a whole', () => {
  it('same number of peptides and mass groups', () => {
    const manifest = readManifest(dir);
    expect(manifest.totals.peptides).toBe(brute.peptideCount);
    expect(manifest.totals.massGroups).toBe(brute.keys.length);
    expect(brute.keys.length).toBe(778_739);
  });
});

describe('random mass ranges', () => {
  it('400 random ranges on search.php and search-taxonomy.php, random pages and page sizes', async () => {
    const random = prng(20240611);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
    const cases: { path: string; expected: BruteAnswer }[] = [];
    let withResults = 0;
    let pastEnd = 0;
    for (let i = 0; i < 400; i++) {
      const endpoint = pick(['/search.php', '/search-taxonomy.php'] as const);
      const shape = endpoint === '/search.php' ? 'acc' : 'accsTax';
      const defaultSize = endpoint === '/search.php' ? 10 : 1000;
      // Bounds: a random mass, or exactly a group key (inclusive ends), with 0..6 decimals typed.
      const kind = random();
      let low: string;
      let high: string;
      if (kind < 0.25) {
        // From a group key to another a few groups on, typed with trailing zeros or not.
        const at = Math.floor(random() * brute.keys.length);
        low = massText(brute.keys[at] * 100, 4);
        high = massText(
          brute.keys[Math.min(brute.keys.length - 1, at + Math.floor(random() * 50))] * 100,
          pick([4, 5, 6]),
        );
      } else if (kind < 0.35) {
        // Exactly one group key: mass1 = mass2 = key.
        low = high = massText(brute.keys[Math.floor(random() * brute.keys.length)] * 100, pick([4, 5, 6]));
      } else {
        const lowMicro = Math.floor((300 + random() * 6500) * 1e6);
        const width = Math.floor(Math.exp(random() * Math.log(2_000e6))); // 1e-6 Da .. 2000 Da, log-uniform
        low = massText(lowMicro, Math.floor(random() * 7));
        high = massText(lowMicro + width, Math.floor(random() * 7));
        if (Number(high) < Number(low)) [low, high] = [high, low]; // fewer decimals typed can reorder them
      }
      const { ceilKey } = referenceKeyBounds(low);
      const { floorKey } = referenceKeyBounds(high);
      // keysIn(ceilKey, floorKey).length, counted on the keys without copying them.
      const total = ceilKey > floorKey ? 0 : lowerBound(brute.keys, floorKey + 1) - lowerBound(brute.keys, ceilKey);
      const pageSize = pick([undefined, 1, 3, 10, 25, 100, 999, 1000]);
      const size = pageSize ?? defaultSize;
      const lastPage = Math.max(1, Math.ceil(total / size));
      const page = pick([undefined, 1, 2, lastPage, lastPage + 1, 1 + Math.floor(random() * lastPage)]);
      const params = new URLSearchParams({ mass1: low, mass2: high });
      if (page !== undefined) params.set('page', String(page));
      if (pageSize !== undefined) params.set('pageSize', String(pageSize));
      const expected = brute.answer(ceilKey, floorKey, page ?? 1, size, shape);
      if (expected.result.length > 0) withResults++;
      if (expected.result.length === 0 && total > 0) pastEnd++;
      cases.push({ path: `${endpoint}?${params}`, expected });
    }
    expect(withResults).toBeGreaterThan(200);
    expect(pastEnd).toBeGreaterThan(5);
    expect(await differences(cases)).toEqual({ count: 0, first: [] });
  });

  it('every page of a 1,500-group range, concatenated, is the whole range', async () => {
    const start = brute.keys.indexOf(12_000_000) >= 0 ? brute.keys.indexOf(12_000_000) : 100_000;
    const [lowKey, highKey] = [brute.keys[start], brute.keys[start + 1499]];
    const expected = brute.answer(lowKey, highKey, 1, 1e9, 'acc').result;
    expect(expected.length).toBe(1500);
    const seen: unknown[] = [];
    for (let page = 1; page < 100; page++) {
      const got = await call(
        handler,
        `/search.php?mass1=${lowKey / 10_000}&mass2=${highKey / 10_000}&page=${page}&pageSize=97`,
      );
      expect(got.body.totalResult).toBe(1500);
      if (got.body.result.length === 0) break;
      seen.push(...got.body.result);
    }
    expect(seen).toEqual(expected);
  });

  it('the whole mass line, on pages of 1000, across every shard boundary of the default build', async () => {
    const total = brute.keys.length;
    const random = prng(99);
    const pages = [
      1,
      2,
      Math.ceil(total / 1000),
      Math.ceil(total / 1000) + 1,
      ...Array.from({ length: 12 }, () => 1 + Math.floor(random() * Math.ceil(total / 1000))),
    ];
    const cases = pages.map((page) => ({
      path: `/search.php?mass1=0&mass2=100000&page=${page}&pageSize=1000`,
      expected: brute.answer(0, 2 ** 31, page, 1000, 'acc'),
    }));
    expect(await differences(cases)).toEqual({ count: 0, first: [] });
  });
});

describe('random peptides of the data', () => {
  it('300 peptides through search-peptide.php (any case, padded) and 100 through search.php?peptide=', async () => {
    const random = prng(4242);
    const sequences = brute.sequences();
    const cases: { path: string; expected: BruteAnswer }[] = [];
    for (let i = 0; i < 400; i++) {
      const sequence = sequences[Math.floor(random() * sequences.length)];
      const key = referencePeptideKey(sequence)!;
      const variant = random();
      const typed =
        variant < 0.6
          ? sequence
          : variant < 0.8
            ? sequence.toLowerCase()
            : `  ${sequence.slice(0, 3).toLowerCase()}${sequence.slice(3)}\t`;
      if (i < 300) {
        cases.push({
          path: `/search-peptide.php?${new URLSearchParams({ peptide: typed })}`,
          expected: brute.answer(key, key, 1, 1000, 'acc'),
        });
      } else {
        cases.push({
          path: `/search.php?${new URLSearchParams({ peptide: typed })}`,
          expected: brute.answer(key, key, 1, 10, 'acc'),
        });
      }
    }
    // Each peptide's group exists and lists the peptide with its accessions.
    for (const { path, expected } of cases) {
      expect(expected.totalResult, path).toBe(1);
    }
    expect(await differences(cases)).toEqual({ count: 0, first: [] });
  });

  it('the peptide endpoint finds exactly the group the peptide is stored in', async () => {
    const random = prng(77);
    const sequences = brute.sequences();
    for (let i = 0; i < 25; i++) {
      const sequence = sequences[Math.floor(random() * sequences.length)];
      const got = await call(handler, `/search-peptide.php?peptide=${sequence}`);
      const [group] = got.body.result;
      const entries = Object.values(group)[0] as { seq: string; acc: string[] }[];
      expect(entries.find((e) => e.seq === sequence)?.acc).toEqual(brute.accessionsOf(sequence));
    }
  });
});

describe('mass1=0&mass2=100000 reads exactly the shards holding its page (default build, counted through a wrapping ShardSource)', () => {
  it('the default build of the bundled sample: every page and page size tried reads only the shards its page’s groups are in', async () => {
    const manifest = readManifest(dir);
    const shards = shardEntries(dir);
    expect(shards.length).toBeGreaterThan(100);
    const total = manifest.totals.massGroups;
    // Pages straddling shard boundaries too.
    const starts = shards.map((_, i) => shards.slice(0, i).reduce((sum, s) => sum + s.massGroups, 0));
    const cases: [number | undefined, number | undefined][] = [
      [undefined, undefined],
      [1, 1],
      [1, 1000],
      [2, 1000],
      [100, 10],
      [Math.ceil(total / 1000), 1000],
      [Math.ceil(total / 1000) + 1, 1000],
      [Math.ceil(total / 10), undefined],
      [2 ** 31 - 1, 1000],
      // The page holding the first group of shard i (and, unless it starts a page, the last of shard i - 1).
      ...[1, 0.2, 0.5, 0.99].map((f): [number, number] => [
        Math.floor(starts[Math.max(1, Math.floor(f * (shards.length - 1)))] / 1000) + 1,
        1000,
      ]),
      ...[0.01, 0.4, 0.75].map((f): [number, number] => [
        Math.floor((starts[Math.floor(f * shards.length)] - 1) / 7) + 1,
        7,
      ]),
    ];
    for (const endpoint of ['/search.php', '/search-taxonomy.php']) {
      for (const [page, pageSize] of cases) {
        const query = `mass1=0&mass2=100000${page ? `&page=${page}` : ''}${pageSize ? `&pageSize=${pageSize}` : ''}`;
        const { got, source } = await countedCall(dir, `${endpoint}?${query}`);
        expect(got.status).toBe(200);
        expectEnvelope(got.body);
        expect(got.body.totalResult).toBe(total);
        // The range covers every shard whole, so counting reads none; the page's groups [from, to) are in the shards
        // whose group runs meet it.
        const from = ((page ?? 1) - 1) * (pageSize ?? (endpoint === '/search.php' ? 10 : 1000));
        const to = Math.min(total, from + (pageSize ?? (endpoint === '/search.php' ? 10 : 1000)));
        const holding = shards.filter((s, i) => starts[i] < to && starts[i] + s.massGroups > from).map((s) => s.file);
        expect([...new Set(source.shardReads)].sort(), `${endpoint}?${query}`).toEqual(holding.sort());
        expect(holding.length).toBeLessThanOrEqual(from < to ? 5 : 0); // 32 KB shards: a page of 1000 groups spans a few
        expect(source.reads.filter((f) => f === 'manifest.json')).toHaveLength(1);
      }
    }
  });
});

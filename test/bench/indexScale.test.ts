// The index-scale benchmark (test/bench/indexScale.ts) at its small size, 70,000 synthetic shards under 2 levels of
// index pages: the manifest and read bounds hold on every cold lookup over HTTP (counted reads, not times), the
// server saw exactly the reads the client logged, and every lookup — and the runtime's ShardIndex on many more keys,
// gaps and both ends included — finds the shard a plain scan of the generated entries finds.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Dataset } from '../../runtime/core/storage/dataset.js';
import { FileSource } from '../../runtime/entries/node/fileSource.js';
import { nodeCodecs } from '../../runtime/entries/node/platform.js';
import { removeTempDirs, tempDir } from '../helpers/datasets.js';
import { prng } from '../helpers/prng.js';
import {
  benchIndexScale,
  INDEX_READS_LIMIT,
  INDEX_SCALE_SMOKE,
  indexScaleSection,
  MANIFEST_LIMIT,
  ROUND_TRIPS_LIMIT,
  type IndexScaleRun,
} from './indexScale.js';
import { DATASET_FOLDER, syntheticKeys } from './indexScaleData.js';

describe(`a simulated ${INDEX_SCALE_SMOKE.shards.toLocaleString('en-US')}-shard index, cold over HTTP`, () => {
  const dir = tempDir('index-scale');
  afterAll(removeTempDirs);
  const keys = syntheticKeys(INDEX_SCALE_SMOKE.shards, INDEX_SCALE_SMOKE.seed);
  // Brute force by a scan, apart from any index: the last shard starting at or below a key, the first ending at or above it.
  const lastStartingAtOrBelow = (key: number) => {
    let i = keys.firstKeys.length - 1;
    while (i >= 0 && keys.firstKeys[i] > key) i--;
    return i;
  };
  const firstEndingAtOrAbove = (key: number) => keys.lastKeys.findIndex((k) => k >= key);
  let run: IndexScaleRun;

  it('writes a 2-level tree under a small manifest', async () => {
    run = await benchIndexScale({ dir, ...INDEX_SCALE_SMOKE });
    expect(run.manifestBytes).toBeLessThanOrEqual(MANIFEST_LIMIT);
    expect([run.levels, run.rootEntries]).toEqual([2, 1]);
    expect(run.levelRows.map((r) => [r.depth, r.leaf, r.pages])).toEqual([
      [1, false, 1],
      [2, true, 274],
    ]);
    expect(run.totals.shards).toBe(INDEX_SCALE_SMOKE.shards);
  }, 60_000);

  it('generates tiling, realistic entries', () => {
    const broken = keys.firstKeys.findIndex(
      (first, i) => !(first <= keys.lastKeys[i]) || (i > 0 && !(keys.lastKeys[i - 1] < first)),
    );
    expect(broken).toBe(-1);
    expect(keys.firstKeys[0]).toBeGreaterThanOrEqual(5_000_000);
    expect(keys.lastKeys[keys.lastKeys.length - 1]).toBeLessThanOrEqual(60_000_000);
    // Denser near 1,000–2,000 Da: about half the shards start there.
    const inDense = keys.firstKeys.filter((k) => k >= 10_000_000 && k < 20_000_000).length / keys.firstKeys.length;
    expect(inDense).toBeGreaterThan(0.45);
    expect(inDense).toBeLessThan(0.6);
  });

  it('locates every shard with the manifest and at most 2 index pages: 3 sequential round trips, +1 for the shard', () => {
    expect(run.lookups).toHaveLength(INDEX_SCALE_SMOKE.lookups);
    for (const l of [run.warmUp, ...run.lookups]) {
      expect(l.query.status).toBe(200);
      expect(l.indexPages).toBeLessThanOrEqual(INDEX_READS_LIMIT);
      expect([l.locate.requests, l.locate.roundTrips]).toEqual([3, 3]);
      expect(l.locate.roundTrips).toBeLessThanOrEqual(ROUND_TRIPS_LIMIT);
      // Then the shard and, beside it, the accession table (every lookup is its process's first): one round trip more.
      expect(l.query.kinds).toEqual({ manifest: 1, index: 2, shard: 1, accessions: 1 });
      expect(l.query.roundTrips).toBe(l.locate.roundTrips + 1);
      expect(l.tableBesideShard).toBe(true);
      expect(l.served).toBe(l.query.requests);
    }
  });

  it('finds the shard brute force finds on every lookup, and reads that one', () => {
    for (const l of run.lookups) {
      const expected = lastStartingAtOrBelow(l.key);
      expect(keys.lastKeys[expected]).toBeGreaterThanOrEqual(l.key);
      expect([l.located, l.expected, l.shardFile]).toEqual([expected, expected, run.bodies[expected]]);
    }
  });

  it('agrees with brute force on any key through the runtime ShardIndex: gaps, ends and outside the mass range', async () => {
    const dataset = await Dataset.open(new FileSource(join(dir, DATASET_FOLDER)), nodeCodecs);
    const random = prng(99);
    const last = keys.firstKeys.length - 1;
    const probes = [
      0,
      4_999_999,
      keys.firstKeys[0],
      keys.lastKeys[0],
      keys.lastKeys[0] + 1,
      keys.firstKeys[last],
      keys.lastKeys[last],
      keys.lastKeys[last] + 1,
      70_000_000,
    ];
    for (let k = 0; k < 200; k++) probes.push(4_990_000 + Math.floor(random() * 55_020_000));
    for (let k = 0; k < 100; k++) probes.push(keys.lastKeys[Math.floor(random() * last)] + 1); // just past a shard: in a gap or at the next start
    for (const key of probes) {
      expect((await dataset.index.lastStartingAtOrBelow(key))?.index ?? -1).toBe(lastStartingAtOrBelow(key));
      expect((await dataset.index.firstEndingAtOrAbove(key))?.index ?? -1).toBe(firstEndingAtOrAbove(key));
    }
  });

  it('renders the section with a verdict per bound', () => {
    const text = indexScaleSection(run).join('\n');
    expect(text).toContain('## 70,000-shard index (simulated)');
    for (const bound of [
      'manifest ≤ 64 KB',
      '≤ 2 index page reads after the manifest before the shard',
      '≤ 3 sequential round trips from a cold start to the shard located, counted',
      'every lookup located brute force',
    ]) {
      expect(text).toMatch(new RegExp(`\\| ${bound.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[^\n]*\\*\\*met\\*\\* \\|`));
    }
  });
});

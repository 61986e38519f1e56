// Differential fuzzing of the handler (runtime/api/handler.ts), the always-on part: 300 fixed-seed queries per
// dataset through the Fetch handler, compared with a brute-force reference that decodes every shard (see
// test/helpers/shardReference.ts). The 10,000-query run is `npm run fuzz` (test/reliability/fuzz.ts). The handler
// reads with Node's codecs, as the server does; the answers do not depend on them.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { nodeCodecs } from '../../../runtime/entries/node/platform.js';
import { folderHandler } from '../../helpers/api.js';
import { bundledDataset, smallShardsDataset } from '../../helpers/datasets.js';
import { difference, queryArbitrary } from '../../helpers/queryFuzz.js';
import { keyBounds, referenceDecimal, referencePeptideKey } from '../../helpers/reference.js';
import { keyMismatches, loadReference, referenceAnswer, type ReferenceData } from '../../helpers/shardReference.js';

const SEED = 4242;

describe('the reference itself', () => {
  it('weighs peptides and bounds masses as the format says', () => {
    // docs/format.md: PEPTIDE weighs 799.3599640337 Da, key 7993600.
    expect(referencePeptideKey('PEPTIDE')).toBe(7993600);
    expect(referencePeptideKey('PEPBIDE')).toBeNull();
    expect(keyBounds(referenceDecimal('1247.6087')!)).toEqual({ ceil: 12476087n, floor: 12476087n });
    expect(keyBounds(referenceDecimal(' 1.24760871e3 ')!)).toEqual({ ceil: 12476088n, floor: 12476087n });
    expect(keyBounds(referenceDecimal('12476087e-4')!)).toEqual({ ceil: 12476087n, floor: 12476087n });
    expect(referenceDecimal('abc')).toBeNull();
  });
});

for (const [name, dataset, cacheBytes] of [
  ['bundled sample (flat index)', bundledDataset, undefined],
  ['many small shards (two-level index, 1 MB cache)', smallShardsDataset, 2 ** 20],
] as const) {
  describe(name, () => {
    let ref: ReferenceData;
    let dir: string;
    beforeAll(async () => {
      dir = await dataset();
      ref = loadReference(dir);
    });

    it('is a consistent dataset whose stored keys match an independent chemistry', () => {
      expect(ref.problems).toEqual([]);
      expect(ref.keys.length).toBe(ref.manifest.totals.massGroups);
      expect(ref.sequences.length).toBe(ref.manifest.totals.peptides);
      expect(keyMismatches(ref, 5)).toEqual([]);
      if (cacheBytes !== undefined) {
        // The point of this build: more than 2,048 shards, so the manifest has a two-level index.
        expect(ref.manifest.shards).toBeUndefined();
        expect(ref.manifest.shardIndex!.pages.length).toBeGreaterThan(8);
        expect(ref.shardEntries.length).toBeGreaterThan(2048);
      }
    });

    it('answers 300 random queries exactly as the brute-force reference', async () => {
      const handler = folderHandler(dir, { cacheBytes, ...nodeCodecs });
      await fc.assert(
        fc.asyncProperty(queryArbitrary(ref), async (q) => {
          const problem = await difference(handler, ref, q);
          if (problem) throw new Error(problem);
        }),
        { numRuns: 300, seed: SEED },
      );
    });

    it('pages through a wide range without gap or overlap', async () => {
      const handler = folderHandler(dir, { cacheBytes, ...nodeCodecs });
      // From the 100th group to the 5,100th: 5,001 groups in pages of 997 (pages cross shard and index-page ends).
      const mass1 = String(ref.keys[100] / 10_000);
      const mass2 = String(ref.keys[5100] / 10_000);
      const seen: string[] = [];
      for (let page = 1; page <= 7; page++) {
        const q = { endpoint: '/search-taxonomy.php' as const, mass1, mass2, page: String(page), pageSize: '997' };
        const expected = referenceAnswer(ref, q);
        expect(await difference(handler, ref, q, expected)).toBeNull();
        const body = expected.body!;
        expect(body.totalResult).toBe(5001);
        seen.push(...body.result.map((g) => Object.keys(g)[0]));
      }
      expect(seen.length).toBe(5001);
      expect(new Set(seen).size).toBe(5001);
    });
  });
}

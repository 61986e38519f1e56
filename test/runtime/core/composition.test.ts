// Tests runtime/core/composition.ts: a shard's peptide masses, residue counts and lanes against plain string
// arithmetic over the same sequences (masses from the reference's own residue table); lanes made only when
// asked for again; compositionOf kept with a cached shard used again, fresh for one the cache does not hold.
import { describe, expect, it } from 'vitest';
import { Composition, compositionOf } from '../../../runtime/core/composition.js';
import type { Dataset } from '../../../runtime/core/dataset.js';
import { ShardCache } from '../../../runtime/core/shardCache.js';
import type { Shard } from '../../../runtime/model/format.js';
import { prng } from '../../helpers/prng.js';
import { referenceUnits } from '../../helpers/reference.js';

const LETTERS = 'ACDEFGHIKLMNPQRSTVWY';

/** A shard holding just these sequences (all Composition reads). */
function shardOf(sequences: string[]): Shard {
  const ends = new Uint32Array(sequences.length);
  sequences.reduce((end, s, p) => (ends[p] = end + s.length), 0);
  return { sequences: sequences.join(''), sequenceEnds: ends } as unknown as Shard;
}

function randomSequences(seed: number, count: number): string[] {
  const random = prng(seed);
  return Array.from({ length: count }, () => Array.from({ length: 1 + Math.floor(random() * 40) }, () => LETTERS[Math.floor(random() * (random() < 0.3 ? 3 : LETTERS.length))]).join(''));
}

const countIn = (letters: string, sequence: string) => [...sequence].filter((c) => letters.includes(c)).length;

describe('Composition', () => {
  const sequences = [...randomSequences(7, 400), 'C'.repeat(300) + 'K', 'M'];
  const composition = new Composition(shardOf(sequences));

  it('gives each peptide its exact mass with water, as the reference table sums it', () => {
    sequences.forEach((s, p) => expect(composition.mass(p)).toBe(referenceUnits(s)));
  });

  it('counts the residues of a letter set in each peptide, past 255 of one letter too', () => {
    for (const letters of ['C', 'M', 'KR', 'ACD', 'W']) sequences.forEach((s, p) => expect(composition.count(letters, p), `${letters} in ${s}`).toBe(countIn(letters, s)));
    expect(composition.count('C', sequences.length - 2)).toBe(300);
  });

  it('lanes: none the first time asked; then lane n lists exactly the peptides with n residues of the set, in index order', () => {
    for (const letters of ['C', 'ACD', 'W']) {
      expect(composition.lanes(letters)).toBeUndefined();
      const { order, starts } = composition.lanes(letters)!;
      const most = Math.max(...sequences.map((s) => countIn(letters, s)));
      expect(starts.length).toBe(most + 2);
      expect(starts[0]).toBe(0);
      for (let n = 0; n <= most; n++) {
        const expected = sequences.flatMap((s, p) => (countIn(letters, s) === n ? [p] : []));
        expect([...order.subarray(starts[n], starts[n + 1])], `${letters} ×${n}`).toEqual(expected);
      }
      expect(composition.lanes(letters)).toBe(composition.lanes(letters)); // made once
    }
  });

  it('a shard of one peptide, and of none', () => {
    const secondTime = (composition: Composition, letters: string) => (composition.lanes(letters), composition.lanes(letters));
    expect(secondTime(new Composition(shardOf(['PEPTIDE'])), 'E')).toEqual({ order: Uint32Array.of(0), starts: Uint32Array.of(0, 0, 0, 1) });
    expect(secondTime(new Composition(shardOf([])), 'C')).toEqual({ order: new Uint32Array(0), starts: Uint32Array.of(0, 0) });
  });
});

describe('compositionOf', () => {
  const datasetOver = (cache: ShardCache) => ({ derived: cache.derive.bind(cache) }) as unknown as Dataset;

  it('is kept with a cached shard once it is used again, even in a full cache: the same object later, charged 16 bytes a peptide', () => {
    const cache = new ShardCache(1100);
    const shard = shardOf(randomSequences(3, 50));
    cache.put('old', shardOf(['PEPTIDE']), 100);
    cache.put('a', shard, 1000); // full
    const first = compositionOf(datasetOver(cache), shard);
    expect(compositionOf(datasetOver(cache), shard)).not.toBe(first); // not yet asked for again: fresh each time
    cache.get('a');
    const kept = compositionOf(datasetOver(cache), shard);
    expect(compositionOf(datasetOver(cache), shard)).toBe(kept);
    expect(cache.stats).toEqual({ shards: 1, bytes: 1000 + 50 * 16, budget: 1100 }); // the older shard gave way
  });

  it('is fresh each time for a shard the cache does not hold (so its lanes are never made)', () => {
    const cache = new ShardCache(1 << 20);
    const shard = shardOf(randomSequences(4, 10));
    const fresh = compositionOf(datasetOver(cache), shard);
    expect(fresh.lanes('C')).toBeUndefined();
    expect(compositionOf(datasetOver(cache), shard)).not.toBe(fresh);
    expect(compositionOf(datasetOver(cache), shard).lanes('C')).toBeUndefined();
    expect(cache.stats.bytes).toBe(0);
  });
});

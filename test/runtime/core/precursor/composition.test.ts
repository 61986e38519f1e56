// Tests runtime/core/composition.ts: a shard's peptide masses and residue counts against plain string arithmetic
// over the same sequences (masses from the reference's own residue table), counts past 255 of one letter, the
// count index's runs against filtering every peptide by range and count, and
// compositionOf kept with a cached shard used again (charged to it), and otherwise one scratch composition moved
// from shard to shard and window to window, right in each (against the reference, stale values never read).
import { describe, expect, it } from 'vitest';
import { Composition, compositionOf } from '../../../../runtime/core/precursor/composition.js';
import type { Dataset } from '../../../../runtime/core/storage/dataset.js';
import { ShardCache } from '../../../../runtime/core/storage/shardCache.js';
import type { Shard } from '../../../../runtime/model/format.js';
import { prng } from '../../../helpers/prng.js';
import { referenceUnits } from '../../../helpers/reference.js';
import { letterBytes } from '../../../helpers/letters.js';

const LETTERS = 'ACDEFGHIKLMNPQRSTVWY';

/** A shard holding just these sequences (all Composition reads). */
function shardOf(sequences: string[]): Shard {
  const ends = new Uint32Array(sequences.length);
  sequences.reduce((end, s, p) => (ends[p] = end + s.length), 0);
  return { sequences: letterBytes(sequences.join('')), sequenceEnds: ends } as unknown as Shard;
}

function randomSequences(seed: number, count: number): string[] {
  const random = prng(seed);
  return Array.from({ length: count }, () =>
    Array.from(
      { length: 1 + Math.floor(random() * 40) },
      () => LETTERS[Math.floor(random() * (random() < 0.3 ? 3 : LETTERS.length))],
    ).join(''),
  );
}

const countIn = (letters: string, sequence: string) => [...sequence].filter((c) => letters.includes(c)).length;

describe('Composition', () => {
  const sequences = [...randomSequences(7, 400), 'C'.repeat(300) + 'K', 'M'];
  const composition = new Composition(shardOf(sequences));

  it('gives each peptide its exact mass with water, as the reference table sums it', () => {
    sequences.forEach((s, p) => expect(composition.mass(p)).toBe(referenceUnits(s)));
  });

  it('counts the residues of a letter set in each peptide, the same when asked again', () => {
    for (const letters of ['C', 'M', 'KR', 'ACD', 'W']) {
      for (let round = 0; round < 2; round++)
        sequences.forEach((s, p) =>
          expect(composition.count(letters, p), `${letters} in ${s}`).toBe(countIn(letters, s)),
        );
    }
  });

  it('runs of its count index are the peptides of a range with exactly a count, in stored order, for every range and count', () => {
    for (const letters of ['C', 'M', 'KR']) {
      const index = composition.byCount(letters);
      const most = Math.max(...sequences.map((s) => countIn(letters, s)));
      for (const [from, to] of [
        [0, sequences.length],
        [0, 0],
        [5, 6],
        [17, 233],
        [sequences.length - 3, sequences.length],
        [100, 90],
      ]) {
        for (let count = 0; count <= most + 2; count++) {
          const { low, high } = index.run(count, from, to);
          const expected = sequences
            .map((_s, p) => p)
            .filter((p) => p >= from && p < to && countIn(letters, sequences[p]) === count);
          expect([...index.ids.subarray(low, Math.max(low, high))], `${letters} ×${count} in [${from}, ${to})`).toEqual(
            expected,
          );
        }
      }
    }
  });

  it('counts past 255 of one letter (peptides reach 1,000 residues), and so the slots of a fixed modification there', () => {
    const long = sequences.length - 2;
    expect([composition.count('C', long), composition.count('C', long)]).toEqual([300, 300]);
    expect(composition.slots({ letters: 'C', termini: 0, terminal: [], proteinStart: false }, long)).toBe(300);
  });
});

describe('compositionOf', () => {
  const datasetOver = (cache: ShardCache) => ({ derived: cache.derive.bind(cache) }) as unknown as Dataset;

  it('is kept with a cached shard once it is used again: the same object later, charged 16 bytes a peptide', () => {
    const cache = new ShardCache(1 << 20);
    const shard = shardOf(randomSequences(3, 50));
    cache.put('a', shard, 1000);
    const before = compositionOf(datasetOver(cache), shard, 0, 50); // not used again yet: not kept, nothing charged
    expect([before.kept, cache.stats.bytes]).toEqual([false, 1000]);
    cache.get('a');
    const kept = compositionOf(datasetOver(cache), shard, 0, 50);
    expect(kept).not.toBe(before);
    expect(compositionOf(datasetOver(cache), shard, 3, 4)).toBe(kept);
    expect(kept.kept).toBe(true);
    expect(cache.stats.bytes).toBe(1000 + 50 * 16);
  });

  it('is one scratch composition for shards the cache does not hold, right in each window it is given', () => {
    const cache = new ShardCache(1 << 20);
    const random = prng(5);
    const shards = [10, 300, 40, 300, 1, 120].map((count, i) => randomSequences(20 + i, count));
    const scratch = compositionOf(datasetOver(cache), shardOf(shards[1]), 0, 0);
    for (let round = 0; round < 60; round++) {
      const sequences = shards[round % shards.length];
      const from = Math.floor(random() * sequences.length);
      const to = from + Math.floor(random() * (sequences.length - from + 1));
      const composition = compositionOf(datasetOver(cache), shardOf(sequences), from, to);
      expect(composition.kept).toBe(false); // so scans read their window, making no count index
      if (sequences.length <= 300) expect(composition).toBe(scratch); // the largest shard came first: no new columns
      for (let p = from; p < to; p++) {
        expect(composition.mass(p)).toBe(referenceUnits(sequences[p]));
        for (const letters of round % 5 === 4
          ? ['A', 'D', 'E', 'F', 'G', 'H', 'I', 'KR', 'M', 'C']
          : round % 2
            ? ['C', 'KR']
            : ['M', 'C'])
          expect(composition.count(letters, p)).toBe(countIn(letters, sequences[p]));
      }
    }
    expect(cache.stats.bytes).toBe(0);
  });
});

// Tests runtime/core/matchColumns.ts against plain arrays: Candidates keeps each peptide's sequence and the
// accessions a mask keeps, copied out of its shard, with its counts id, and groups candidates by search in order
// found; Tasks keeps every hypothesis whole (counts shared between equal ones) and lists them in ascending order
// of the masses they read.
import { describe, expect, it } from 'vitest';
import type { Hypothesis } from '../../../runtime/core/hypotheses.js';
import { Candidates, Tasks } from '../../../runtime/core/matchColumns.js';
import type { Shard } from '../../../runtime/model/format.js';
import { prng } from '../../helpers/prng.js';

/** A shard of these peptides with these accession ranks each (all Candidates reads). */
function shardOf(peptides: { sequence: string; refs: number[] }[]): Shard {
  const ends = (lengths: number[]) => Uint32Array.from(lengths.map((_, i) => lengths.slice(0, i + 1).reduce((a, b) => a + b, 0)));
  return {
    sequences: peptides.map((p) => p.sequence).join(''),
    sequenceEnds: ends(peptides.map((p) => p.sequence.length)),
    accessionRefs: Uint32Array.from(peptides.flatMap((p) => p.refs)),
    accessionRefEnds: ends(peptides.map((p) => p.refs.length)),
  } as unknown as Shard;
}

describe('Candidates', () => {
  it('copies sequences and the accessions a mask keeps, and groups by search in the order added, across column growth', () => {
    const random = prng(21);
    const peptides = Array.from({ length: 300 }, () => ({
      sequence: Array.from({ length: 6 + Math.floor(random() * 40) }, () => 'ACDEFGHIKLMNPQRSTVWY'[Math.floor(random() * 20)]).join(''),
      refs: Array.from({ length: Math.floor(random() * 4) }, () => Math.floor(random() * 50)).sort((a, b) => a - b),
    }));
    const shard = shardOf(peptides);
    const mask = Uint8Array.from({ length: 50 }, (_, a) => a % 3);
    const candidates = new Candidates();
    const added: { search: number; p: number; masked: boolean; units: number; countsId: number }[] = [];
    for (let i = 0; i < 3000; i++) {
      const entry = { search: Math.floor(random() * 7), p: Math.floor(random() * peptides.length), masked: random() < 0.5, units: random() * 1e13, countsId: i % 5 };
      candidates.add(entry.search, entry.units, entry.countsId, shard, entry.p, entry.masked ? mask : undefined);
      added.push(entry);
    }
    expect(candidates.length).toBe(3000);
    added.forEach((e, id) => {
      expect(candidates.sequence(id)).toBe(peptides[e.p].sequence);
      expect([...candidates.accessionsOf(id)]).toEqual(peptides[e.p].refs.filter((a) => !e.masked || mask[a] === 1));
      expect(candidates.units(id)).toBe(e.units);
      expect(candidates.countsId(id)).toBe(e.countsId);
    });
    const { order, starts } = candidates.bySearch(8);
    for (let s = 0; s < 8; s++) expect([...order.subarray(starts[s], starts[s + 1])]).toEqual(added.flatMap((e, id) => (e.search === s ? [id] : [])));
  });
});

describe('Tasks', () => {
  it('keeps every hypothesis whole, shares equal counts, and sorts tasks by the lowest mass they read', () => {
    const random = prng(22);
    const tasks = new Tasks();
    const given: { search: number; h: Hypothesis }[] = [];
    for (let i = 0; i < 5000; i++) {
      const low = Math.floor(random() * 1e8);
      const h: Hypothesis = { fixedCounts: [i % 4], variableCounts: [i % 3], shiftUnits: Math.floor(random() * 1e12), baseLowKey: low, baseHighKey: low + Math.floor(random() * 500) };
      tasks.add(i % 11, h);
      given.push({ search: i % 11, h });
    }
    given.forEach(({ search, h }, t) => {
      expect(tasks.hypothesis(t)).toEqual(h);
      expect(tasks.search.data[t]).toBe(search);
    });
    expect(tasks.counts).toHaveLength(12); // 4 × 3 distinct (fixed, variable) counts
    const order = [...tasks.inSweepOrder()];
    expect([...order].sort((a, b) => a - b)).toEqual(given.map((_, t) => t));
    expect(order.map((t) => given[t].h.baseLowKey)).toEqual(given.map((g) => g.h.baseLowKey).sort((a, b) => a - b));
  });
});

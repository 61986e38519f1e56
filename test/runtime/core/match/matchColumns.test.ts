// Tests runtime/core/matchColumns.ts against plain arrays: Candidates keeps each peptide's sequence and the accessions
// a mask keeps, copied out of its shard, with its counts id and its exact modified mass (the reference's own residue
// table), groups candidates by search in order found, and is as new after clear(); Tasks keeps every hypothesis whole
// (counts shared between equal ones) and lists them in ascending order of the masses they read.
import { describe, expect, it } from 'vitest';
import type { Hypothesis } from '../../../../runtime/core/precursor/hypotheses.js';
import { Candidates, Tasks } from '../../../../runtime/core/match/matchColumns.js';
import type { Shard } from '../../../../runtime/model/format.js';
import { prng } from '../../../helpers/prng.js';
import { referenceUnits } from '../../../helpers/reference.js';
import { letterBytes } from '../../../helpers/letters.js';

/** A shard of these peptides with these accession ranks each (all Candidates reads). */
function shardOf(peptides: { sequence: string; refs: number[] }[]): Shard {
  const ends = (lengths: number[]) =>
    Uint32Array.from(lengths.map((_, i) => lengths.slice(0, i + 1).reduce((a, b) => a + b, 0)));
  return {
    sequences: letterBytes(peptides.map((p) => p.sequence).join('')),
    sequenceEnds: ends(peptides.map((p) => p.sequence.length)),
    accessionRefs: Uint32Array.from(peptides.flatMap((p) => p.refs)),
    accessionRefEnds: ends(peptides.map((p) => p.refs.length)),
  } as unknown as Shard;
}

describe('Candidates', () => {
  it('copies sequences and the accessions a mask keeps, weighs each exactly, and groups by search in the order added, across blocks and runs', () => {
    const random = prng(21);
    const peptides = Array.from({ length: 300 }, () => ({
      sequence: Array.from(
        { length: 6 + Math.floor(random() * 40) },
        () => 'ACDEFGHIKLMNPQRSTVWY'[Math.floor(random() * 20)],
      ).join(''),
      refs: Array.from({ length: Math.floor(random() * 4) }, () => Math.floor(random() * 50)).sort((a, b) => a - b),
    }));
    const shard = shardOf(peptides);
    const mask = Uint8Array.from({ length: 50 }, (_, a) => a % 3);
    const filter = { keeps: (a: number) => mask[a] === 1, kept: mask.filter((m) => m === 1).length };
    const shifts = [0, 570_214_640_000, 159_949_146_200, -170_265_491_000, 2_294_932_600_000]; // counts id → the mass its modifications add
    const candidates = new Candidates();
    const added: { search: number; p: number; masked: boolean; countsId: number }[] = [];
    // Runs of one search and counts, as a hypothesis's scan adds them, some of the same search and counts again later.
    while (added.length < 150_000) {
      const [search, countsId, masked] = [Math.floor(random() * 7), Math.floor(random() * 5), random() < 0.5];
      for (let n = Math.floor(random() * 40); n > 0; n--) {
        const entry = { search, p: Math.floor(random() * peptides.length), masked, countsId };
        candidates.add(
          entry.search,
          entry.countsId,
          shifts[entry.countsId],
          shard,
          entry.p,
          entry.masked ? filter : undefined,
        );
        added.push(entry);
      }
    }
    expect(candidates.length).toBe(added.length);
    const wrong = added.findIndex((e, id) => {
      const expected = {
        sequence: peptides[e.p].sequence,
        accessions: peptides[e.p].refs.filter((a) => !e.masked || mask[a] === 1),
        units: referenceUnits(peptides[e.p].sequence)! + shifts[e.countsId],
        countsId: e.countsId,
      };
      const got = {
        sequence: candidates.sequence(id),
        accessions: [...candidates.accessionsOf(id)],
        units: candidates.units(id),
        countsId: candidates.countsId(id),
      };
      return JSON.stringify(got) !== JSON.stringify(expected);
    });
    expect(wrong).toBe(-1);
    // Read out of the order added (as a search's candidates are, sorted): each candidate's run found again.
    const shuffled = Array.from({ length: 20_000 }, () => Math.floor(random() * added.length));
    expect(
      shuffled.filter(
        (id) =>
          candidates.countsId(id) !== added[id].countsId ||
          candidates.units(id) !== referenceUnits(peptides[added[id].p].sequence)! + shifts[added[id].countsId],
      ),
    ).toEqual([]);
    const idsOf = candidates.bySearch(8);
    for (let s = 0; s < 8; s++) expect(idsOf(s)).toEqual(added.flatMap((e, id) => (e.search === s ? [id] : [])));
  });

  it('keeps a batch after clear() as if new', () => {
    const shard = shardOf([
      { sequence: 'PEPTIDEK', refs: [1, 2] },
      { sequence: 'CMK', refs: [0] },
    ]);
    const candidates = new Candidates();
    for (let i = 0; i < 100_000; i++) candidates.add(i % 3, 0, 0, shard, i % 2, undefined);
    candidates.clear();
    candidates.add(2, 1, 10, shard, 1, undefined);
    candidates.add(0, 1, 10, shard, 0, undefined);
    expect(candidates.length).toBe(2);
    expect([candidates.sequence(0), candidates.sequence(1)]).toEqual(['CMK', 'PEPTIDEK']);
    expect([candidates.units(0), candidates.units(1)]).toEqual([
      referenceUnits('CMK')! + 10,
      referenceUnits('PEPTIDEK')! + 10,
    ]);
    expect([[...candidates.accessionsOf(0)], [...candidates.accessionsOf(1)]]).toEqual([[0], [1, 2]]);
    const idsOf = candidates.bySearch(3);
    expect([idsOf(0), idsOf(1), idsOf(2)]).toEqual([[1], [], [0]]);
  });
});

describe('Tasks', () => {
  it('keeps every hypothesis whole, shares equal counts, and sorts tasks by the lowest mass they read', () => {
    const random = prng(22);
    const tasks = new Tasks();
    const given: { search: number; h: Hypothesis }[] = [];
    for (let i = 0; i < 5000; i++) {
      const low = Math.floor(random() * 1e8);
      const h: Hypothesis = {
        fixedCounts: [i % 4],
        variableCounts: [i % 3],
        shiftUnits: (i % 4) * 570_214_640_000 + (i % 3) * 159_949_146_200,
        baseLowKey: low,
        baseHighKey: low + Math.floor(random() * 500),
      };
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

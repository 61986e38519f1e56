// Tests runtime/model/accessionSet.ts against brute force over plain arrays: random accession tables held as runs of
// pages, looked up, filtered and listed by accession. Tables mix short accessions (written from fixed-width records)
// with long ones and ones needing escapes (written from their text), so both paths and comparisons across them count.
import { describe, expect, it } from 'vitest';
import {
  AccessionSet,
  addPeptideRanks,
  MAX_ACCESSION_BYTES,
  NO_ACCESSIONS,
  type AccessionRun,
} from '../../../runtime/model/accessionSet.js';
import type { Shard } from '../../../runtime/model/format.js';
import { prng } from '../../helpers/prng.js';

const below = (next: () => number, n: number) => Math.floor(next() * n);
const LETTERS = 'ABCOPQXYZ0123456789_-';

/**
 * A random table of `count` distinct accessions (short, sharing prefixes: comparisons reach past the first letters),
 * a fraction `long` of them 28 to 36 characters long (records hold at most 31).
 */
function randomTable(next: () => number, count: number, extra = '', long = 0) {
  const seen = new Set<string>();
  while (seen.size < count) {
    let a = 'P0';
    for (let n = next() < long ? 26 + below(next, 9) : 1 + below(next, 6); n > 0; n--)
      a += (LETTERS + extra)[below(next, LETTERS.length + extra.length)];
    seen.add(a);
  }
  const accessions = [...seen].sort(() => next() - 0.5); // ranks not in accession order
  return {
    accessions,
    taxIds: accessions.map(() => below(next, 10) - 1),
    reviewed: accessions.map(() => below(next, 2)),
  };
}

/** The table cut into pages of random sizes; each page kept with probability `keep`. */
function runsOf(
  next: () => number,
  table: ReturnType<typeof randomTable>,
  keep: number,
): { runs: AccessionRun[]; held: boolean[] } {
  const runs: AccessionRun[] = [];
  const held = table.accessions.map(() => false);
  for (let first = 0; first < table.accessions.length; ) {
    const n = Math.min(1 + below(next, 40), table.accessions.length - first);
    if (next() < keep) {
      const accessions = table.accessions.slice(first, first + n);
      let end = 0;
      runs.push({
        first,
        table: {
          accessions: accessions.join(''),
          accessionEnds: Uint32Array.from(accessions, (a) => (end += a.length)),
          taxIds: Int32Array.from(table.taxIds.slice(first, first + n)),
          reviewed: Uint8Array.from(table.reviewed.slice(first, first + n)),
        },
      });
      for (let a = first; a < first + n; a++) held[a] = true;
    }
    first += n;
  }
  return { runs, held };
}

const byBytes = (accessions: string[]) => (a: number, b: number) =>
  Buffer.compare(Buffer.from(accessions[a]), Buffer.from(accessions[b]));

describe('AccessionSet', () => {
  it('looks up every held rank as the table gives it, and refuses a rank not held', () => {
    const next = prng(11);
    for (const [count, keep, extra, long] of [
      [1, 1, '', 0],
      [5, 1, '', 0],
      [300, 0.5, '', 0],
      [2000, 0.2, '', 0.01],
      [2000, 1, '', 0],
      [2000, 1, '"é', 0.01],
    ] as const) {
      const table = randomTable(next, count, extra, long);
      const { runs, held } = runsOf(next, table, keep);
      const set = new AccessionSet(runs);
      for (let a = -1; a <= count; a++) {
        const has = a >= 0 && a < count && held[a];
        expect(set.has(a), `rank ${a}`).toBe(has);
        if (!has) {
          expect(() => set.accession(a)).toThrow(/not read/);
          continue;
        }
        expect([set.accession(a), set.taxId(a), set.reviewed(a)]).toEqual([
          table.accessions[a],
          table.taxIds[a],
          table.reviewed[a] === 1,
        ]);
        const written: string[] = [];
        set.writeAccession(
          {
            write: (text, from, to) => written.push(text.slice(from, to)),
            copy: (bytes, from, to) => written.push(Buffer.from(bytes.subarray(from, to)).toString('utf8')),
          },
          a,
        );
        expect(written).toEqual([table.accessions[a]]);
        if (set.recorded) {
          const bytes = new Uint8Array(8 + MAX_ACCESSION_BYTES).fill(42);
          const end = set.putAccession(new DataView(bytes.buffer), 3, a);
          expect(Buffer.from(bytes.subarray(3, end)).toString('latin1'), `rank ${a} put`).toBe(table.accessions[a]);
          expect(bytes.subarray(0, 3).every((b) => b === 42) && bytes.subarray(end).every((b) => b === 42)).toBe(true);
        }
      }
      // Recorded: every page read holds accessions of at most MAX_ACCESSION_BYTES printable ASCII characters, no quote or backslash.
      const recordable = (acc: string) =>
        acc.length <= MAX_ACCESSION_BYTES && /^[\x20\x21\x23-\x5b\x5d-\x7e]+$/.test(acc);
      expect(set.recorded, `${count} ${extra} ${long}`).toBe(
        runs.every((run) => table.accessions.slice(run.first, run.first + run.table.taxIds.length).every(recordable)),
      );
    }
    expect(NO_ACCESSIONS.has(0)).toBe(false);
  });

  it('gives the same text and taxIds whichever look-up comes to a rank first, in any order of ranks', () => {
    const next = prng(14);
    const table = randomTable(next, 3000, '', 0.005);
    const byText = (a: number) => {
      const written: string[] = [];
      set.writeAccession(
        {
          write: (text, from, to) => written.push(text.slice(from, to)),
          copy: (bytes, from, to) => written.push(Buffer.from(bytes.subarray(from, to)).toString('utf8')),
        },
        a,
      );
      return written.join('');
    };
    // Fresh pages (records are made per page): first touched by writeAccession, by taxId, or by a comparison.
    let set = new AccessionSet(runsOf(next, table, 1).runs);
    const ranks = table.accessions.map((_, a) => a).sort(() => next() - 0.5);
    for (const a of ranks) expect([byText(a), set.taxId(a)]).toEqual([table.accessions[a], table.taxIds[a]]);
    set = new AccessionSet(runsOf(next, table, 1).runs);
    for (const a of ranks) expect([set.taxId(a), byText(a)]).toEqual([table.taxIds[a], table.accessions[a]]);
    set = new AccessionSet(runsOf(next, table, 1).runs);
    const sorted = set.sort(Uint32Array.from(ranks.slice(0, 500)));
    expect(Array.from(sorted)).toEqual(ranks.slice(0, 500).sort(byBytes(table.accessions)));
    for (const a of ranks)
      expect([byText(a), set.accession(a), set.taxId(a)]).toEqual([
        table.accessions[a],
        table.accessions[a],
        table.taxIds[a],
      ]);
  });

  it('sorts ranks and lists peptides’ accessions by accession (byte order), filtered or not', () => {
    const next = prng(12);
    const table = randomTable(next, 1500, '', 0.02); // pages with records and pages without, compared with each other
    const { runs, held } = runsOf(next, table, 0.6);
    const set = new AccessionSet(runs);
    const heldRanks = held.flatMap((h, a) => (h ? [a] : []));
    // A shard of 300 peptides of 0 to 40 held ranks each, stored ascending.
    const peptides = Array.from({ length: 300 }, () =>
      [...new Set(Array.from({ length: below(next, 41) }, () => heldRanks[below(next, heldRanks.length)]))].sort(
        (a, b) => a - b,
      ),
    );
    let end = 0;
    const shard = {
      accessionRefEnds: Uint32Array.from(peptides, (p) => (end += p.length)),
      accessionRefs: Uint32Array.from(peptides.flat()),
    } as Shard;
    const keeps = (a: number) => table.taxIds[a] % 3 === 0;
    const filter = { keeps };
    peptides.forEach((ranks, p) => {
      expect(Array.from(set.listed(shard, p)), `peptide ${p}`).toEqual([...ranks].sort(byBytes(table.accessions)));
      expect(Array.from(set.listed(shard, p, filter)), `peptide ${p} filtered`).toEqual(
        ranks.filter(keeps).sort(byBytes(table.accessions)),
      );
      expect(Array.from(set.sort(Uint32Array.from(ranks).reverse()))).toEqual(
        [...ranks].sort(byBytes(table.accessions)),
      );
    });
    const added: number[] = [];
    addPeptideRanks(shard, 10, 20, (a) => added.push(a));
    expect(added).toEqual(peptides.slice(10, 20).flat());
    const kept: number[] = [];
    addPeptideRanks(shard, 0, 300, (a) => kept.push(a), filter);
    expect(kept).toEqual(peptides.flat().filter(keeps));
  });

  it('lists right across peptides of more accessions than its room held, then fewer again', () => {
    const next = prng(15);
    const table = randomTable(next, 400);
    const set = new AccessionSet(runsOf(next, table, 1).runs);
    const peptides = [3, 100, 1, 250, 64, 65, 0, 2].map((n) =>
      [...new Set(Array.from({ length: n }, () => below(next, 400)))].sort((a, b) => a - b),
    );
    let end = 0;
    const shard = {
      accessionRefEnds: Uint32Array.from(peptides, (p) => (end += p.length)),
      accessionRefs: Uint32Array.from(peptides.flat()),
    } as Shard;
    for (let round = 0; round < 2; round++) {
      peptides.forEach((ranks, p) =>
        expect(Array.from(set.listed(shard, p)), `peptide ${p}`).toEqual([...ranks].sort(byBytes(table.accessions))),
      );
    }
  });

  it('is plain when every held accession needs no JSON escape', () => {
    const next = prng(13);
    expect(new AccessionSet(runsOf(next, randomTable(next, 200), 1).runs).plain).toBe(true);
    const quoted = randomTable(next, 200, '"\\é');
    expect(new AccessionSet(runsOf(next, quoted, 1).runs).plain).toBe(false);
  });
});

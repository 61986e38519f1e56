// Tests build/shardWriter.ts: ShardWriter cuts the mass-ordered peptide stream into shards at mass-group boundaries,
// at the first boundary where the shard's column bytes reach the target, and writes each shard under the first 20
// hex digits of its sha256 (node:crypto); every peptide comes back from the decoded shards with its accessions and
// taxIds and reviewed flags, each shard's accession table holds exactly what its peptides use, and the entries
// describe the files.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { PartitionPeptides } from '../../build/partitions.js';
import { ShardWriter } from '../../build/shardWriter.js';
import type { Shard } from '../../runtime/model/format.js';
import { decodeShard } from '../../runtime/model/shardCodec.js';
import { removeTempDirs, tempDir } from '../helpers/datasets.js';
import { prng } from '../helpers/prng.js';

afterAll(removeTempDirs);

interface Row {
  key: number;
  sequence: string;
  ranks: number[];
}


/** Columns of a partition from rows (already in (key, sequence) order). */
function part(rows: Row[]): PartitionPeptides {
  let s = 0;
  let r = 0;
  return {
    keys: Uint32Array.from(rows, (row) => row.key),
    sequences: rows.map((row) => row.sequence).join(''),
    sequenceEnds: Uint32Array.from(rows, (row) => (s += row.sequence.length)),
    rankEnds: Uint32Array.from(rows, (row) => (r += row.ranks.length)),
    ranks: Uint32Array.from(rows.flatMap((row) => row.ranks)),
  };
}

const ACCESSIONS = Array.from({ length: 120 }, (_, i) => `P${String(i * 7919 % 100_000).padStart(5, '0')}${'X'.repeat(i % 4)}`).sort();
const TAX_IDS = Int32Array.from(ACCESSIONS, (_, i) => (i % 5 === 0 ? -1 : 9000 + i));
const REVIEWED = Uint8Array.from(ACCESSIONS, (_, i) => (i % 3 === 0 ? 1 : 0));

/** Random rows: ascending keys, 1..4 peptides a group, 0..3 ascending unique ranks a peptide. */
function randomRows(seed: number, groups: number): Row[] {
  const random = prng(seed);
  const rows: Row[] = [];
  let key = 5_000_000;
  for (let g = 0; g < groups; g++) {
    key += 1 + Math.floor(random() * 500);
    const sequences = new Set<string>();
    const n = 1 + Math.floor(random() * 4);
    while (sequences.size < n) sequences.add(Array.from({ length: 3 + Math.floor(random() * 28) }, () => 'ACDEGHKLMNPQRSTVWY'[Math.floor(random() * 18)]).join(''));
    for (const sequence of [...sequences].sort()) {
      const ranks = new Set(Array.from({ length: Math.floor(random() * 4) }, () => Math.floor(random() * ACCESSIONS.length)));
      rows.push({ key, sequence, ranks: [...ranks].sort((a, b) => a - b) });
    }
  }
  return rows;
}

/** Bytes of a decoded shard's columns (4 per integer, 1 per character or flag): what the target is measured in. */
const columnBytes = (s: Shard) =>
  4 * (s.massKeys.length + s.groupEnds.length + s.sequenceEnds.length + s.accessionRefEnds.length + s.accessionRefs.length + s.accessionEnds.length + s.taxIds.length) +
  s.sequences.length + s.accessions.length + s.reviewed!.length;

/** The same columns without the shard's last group (its peptides and the accessions only they use). */
function columnBytesWithoutLastGroup(s: Shard): number {
  const g = s.massKeys.length - 1;
  const first = g === 0 ? 0 : s.groupEnds[g - 1];
  let bytes = 8 * g;
  const used = new Set<number>();
  for (let p = 0; p < first; p++) {
    const refs = s.accessionRefs.subarray(p === 0 ? 0 : s.accessionRefEnds[p - 1], s.accessionRefEnds[p]);
    bytes += s.sequenceEnds[p] - (p === 0 ? 0 : s.sequenceEnds[p - 1]) + 8 + 4 * refs.length;
    refs.forEach((a) => used.add(a));
  }
  for (const a of used) bytes += s.accessionEnds[a] - (a === 0 ? 0 : s.accessionEnds[a - 1]) + 9;
  return bytes;
}

/** Writes `parts` with a target of `target` bytes; returns the writer, its folder and the decoded shards. */
function write(label: string, parts: Row[][], target: number) {
  const dir = tempDir(label);
  const writer = new ShardWriter(dir, target, { sorted: ACCESSIONS, taxIds: TAX_IDS, reviewed: REVIEWED });
  for (const rows of parts) writer.add(part(rows));
  writer.finish();
  const files = writer.shards.map((e) => readFileSync(join(dir, e.file)));
  return { dir, writer, files, decoded: files.map((bytes) => decodeShard(bytes)) };
}

/** Every peptide back from decoded shards, with its accessions' text, taxIds and reviewed flags. */
const readBack = (shards: Shard[]) =>
  shards.flatMap((s) =>
    Array.from(s.sequenceEnds, (end, p) => {
      const group = s.groupEnds.findIndex((e) => e > p);
      const refs = Array.from(s.accessionRefs.subarray(p === 0 ? 0 : s.accessionRefEnds[p - 1], s.accessionRefEnds[p]));
      const accession = (a: number) => s.accessions.slice(a === 0 ? 0 : s.accessionEnds[a - 1], s.accessionEnds[a]);
      return { key: s.massKeys[group], sequence: s.sequences.slice(p === 0 ? 0 : s.sequenceEnds[p - 1], end), accessions: refs.map(accession), taxIds: refs.map((a) => s.taxIds[a]), reviewed: refs.map((a) => s.reviewed![a]) };
    }),
  );
const expectedBack = (rows: Row[]) =>
  rows.map((r) => ({ key: r.key, sequence: r.sequence, accessions: r.ranks.map((k) => ACCESSIONS[k]), taxIds: r.ranks.map((k) => TAX_IDS[k]), reviewed: r.ranks.map((k) => REVIEWED[k]) }));

describe('ShardWriter', () => {
  const rows = randomRows(1, 1500);
  const TARGET = 2000;
  const run = write('shardwriter-main', [rows], TARGET);

  it('writes many shards, every peptide coming back with its accessions, taxIds and reviewed flags', () => {
    expect(run.writer.shards.length).toBeGreaterThan(20);
    expect(readBack(run.decoded)).toEqual(expectedBack(rows));
  });

  /** FORMAT.md's residueMax, counted here: per letter of ACDEFGHIJKLMNOPQRSTUVWY, the most in one peptide, base 36. */
  const mostOfEachLetter = (s: Shard) => {
    const letters = 'ACDEFGHIJKLMNOPQRSTUVWY';
    const most = new Array<number>(letters.length).fill(0);
    for (let p = 0; p < s.sequenceEnds.length; p++) {
      const peptide = s.sequences.slice(p === 0 ? 0 : s.sequenceEnds[p - 1], s.sequenceEnds[p]);
      [...letters].forEach((letter, l) => (most[l] = Math.max(most[l], peptide.split(letter).length - 1)));
    }
    return most.map((n) => Math.min(n, 35).toString(36)).join('');
  };

  it('names each file by the first 20 hex digits of its sha256, and its entry describes it', () => {
    expect(readdirSync(run.dir).sort()).toEqual(run.writer.shards.map((e) => e.file).sort());
    run.writer.shards.forEach((entry, i) => {
      const sha256 = createHash('sha256').update(run.files[i]).digest('hex');
      const s = run.decoded[i];
      expect(entry).toEqual({
        file: `${sha256.slice(0, 20)}.msgpack`, sha256, bytes: run.files[i].length,
        firstKey: s.massKeys[0], lastKey: s.massKeys[s.massKeys.length - 1], massGroups: s.massKeys.length, peptides: s.sequenceEnds.length,
        residueMax: mostOfEachLetter(s),
      });
    });
    expect(run.writer.bytes).toBe(run.files.reduce((sum, f) => sum + f.length, 0));
  });

  it('cuts only at mass-group boundaries: no key in two shards', () => {
    for (let i = 1; i < run.writer.shards.length; i++) expect(run.writer.shards[i - 1].lastKey).toBeLessThan(run.writer.shards[i].firstKey);
    for (const s of run.decoded) for (let g = 1; g < s.massKeys.length; g++) expect(s.massKeys[g - 1]).toBeLessThan(s.massKeys[g]);
  });

  it('cuts at the first group boundary where the shard reaches the target', () => {
    run.decoded.forEach((s, i) => {
      if (i < run.decoded.length - 1) {
        expect(columnBytes(s), `shard ${i}`).toBeGreaterThanOrEqual(TARGET);
        expect(run.files[i].length).toBeGreaterThanOrEqual(TARGET);
      }
      if (s.massKeys.length > 1) expect(columnBytesWithoutLastGroup(s), `shard ${i}`).toBeLessThan(TARGET);
    });
  });

  it('gives each shard an ascending accession table of exactly the accessions its peptides use', () => {
    for (const s of run.decoded) {
      const table = Array.from(s.accessionEnds, (end, a) => s.accessions.slice(a === 0 ? 0 : s.accessionEnds[a - 1], end));
      expect(table).toEqual([...table].sort());
      expect(new Set(table).size).toBe(table.length);
      expect(new Set(s.accessionRefs).size).toBe(table.length);
      expect(Array.from(s.taxIds)).toEqual(table.map((a) => TAX_IDS[ACCESSIONS.indexOf(a)]));
      // One byte per accession of the table, 0 or 1.
      expect(Array.from(s.reviewed!)).toEqual(table.map((a) => REVIEWED[ACCESSIONS.indexOf(a)]));
    }
  });

  it('writes the same shards whether the stream comes in one partition or several', () => {
    const cuts = [0];
    for (let i = 1; i < rows.length; i++) if (rows[i].key !== rows[i - 1].key && i % 97 < 3) cuts.push(i);
    const parts = [...cuts, rows.length].slice(1).map((end, i) => rows.slice(cuts[i], end));
    expect(parts.length).toBeGreaterThan(5);
    expect(write('shardwriter-parts', parts, TARGET).writer.shards).toEqual(run.writer.shards);
  });

  it('keeps a group larger than the target whole, in one shard', () => {
    const big: Row[] = Array.from({ length: 200 }, (_, i) => ({ key: 7_000_000, sequence: `PEPTIDE${String.fromCharCode(65 + (i % 26))}${'K'.repeat(1 + Math.floor(i / 26))}`, ranks: [i % 10] })).sort((a, b) => (a.sequence < b.sequence ? -1 : 1));
    const stream = [{ key: 6_999_999, sequence: 'AAAK', ranks: [1] }, ...big, { key: 7_000_001, sequence: 'CCCK', ranks: [] }];
    const { writer, decoded } = write('shardwriter-big', [stream], 500);
    expect(writer.shards.map((e) => [e.firstKey, e.lastKey, e.peptides])).toEqual([[6_999_999, 7_000_000, 201], [7_000_001, 7_000_001, 1]]);
    expect(readBack(decoded)).toEqual(expectedBack(stream));
  });

  it('with a huge target writes one shard; with nothing added writes none', () => {
    const one = write('shardwriter-one', [rows.slice(0, 300)], 1 << 30);
    expect(one.writer.shards).toHaveLength(1);
    expect(readBack(one.decoded)).toEqual(expectedBack(rows.slice(0, 300)));
    const none = write('shardwriter-none', [[]], 100);
    expect(none.writer.shards).toEqual([]);
    expect(none.writer.bytes).toBe(0);
    expect(readdirSync(none.dir)).toEqual([]);
  });
});

// Tests builder/writers/shardWriter.ts: ShardWriter cuts the mass-ordered peptide stream into shards at mass-group boundaries,
// at the first boundary where the shard's varint columns and sequences reach the target (counted here from
// docs/format.md's rules), compresses each and writes it under the first 20 hex digits of its stored bytes' sha256
// (node:crypto); every peptide comes back from the decoded shards with its accessions (ranks into the accession
// table), taxIds and reviewed flags, and the entries describe the files.
import { decode } from '@msgpack/msgpack';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import type { PartitionPeptides } from '../../../builder/phases/partitions.js';
import { ShardList, ShardWriter } from '../../../builder/writers/shardWriter.js';
import type { AccessionTable, Compression, Shard } from '../../../runtime/model/format.js';
import { decodeShard } from '../../../runtime/model/shardCodec.js';
import { decodeTabled, removeTempDirs, tempDir, type TabledShard } from '../../helpers/datasets.js';
import { prng } from '../../helpers/prng.js';
import { cutLetters } from '../../helpers/letters.js';

afterAll(removeTempDirs);

interface Row {
  key: number;
  sequence: string;
  ranks: number[];
  /** Per rank: 1 the peptide starts that protein, 2 it lies inside it, 3 both (2 when not given). */
  places?: number[];
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
    rankPlaces: Uint8Array.from(rows.flatMap((row) => row.places ?? row.ranks.map(() => 2))),
  };
}

const ACCESSIONS = Array.from(
  { length: 120 },
  (_, i) => `P${String((i * 7919) % 100_000).padStart(5, '0')}${'X'.repeat(i % 4)}`,
).sort();
const TAX_IDS = Int32Array.from(ACCESSIONS, (_, i) => (i % 5 === 0 ? -1 : 9000 + i));
const REVIEWED = Uint8Array.from(ACCESSIONS, (_, i) => (i % 3 === 0 ? 1 : 0));
let end = 0;
const TABLE: AccessionTable = {
  accessions: ACCESSIONS.join(''),
  accessionEnds: Uint32Array.from(ACCESSIONS, (a) => (end += a.length)),
  taxIds: TAX_IDS,
  reviewed: REVIEWED,
};

/** Random rows: ascending keys, 1..4 peptides a group, 1..3 ascending unique ranks a peptide. */
function randomRows(seed: number, groups: number): Row[] {
  const random = prng(seed);
  const rows: Row[] = [];
  let key = 5_000_000;
  for (let g = 0; g < groups; g++) {
    key += 1 + Math.floor(random() * 500);
    const sequences = new Set<string>();
    const n = 1 + Math.floor(random() * 4);
    while (sequences.size < n)
      sequences.add(
        Array.from(
          { length: 3 + Math.floor(random() * 28) },
          () => 'ACDEGHKLMNPQRSTVWY'[Math.floor(random() * 18)],
        ).join(''),
      );
    for (const sequence of [...sequences].sort()) {
      const ranks = new Set(
        Array.from({ length: 1 + Math.floor(random() * 3) }, () => Math.floor(random() * ACCESSIONS.length)),
      );
      rows.push({ key, sequence, ranks: [...ranks].sort((a, b) => a - b) });
    }
  }
  return rows;
}

/** Bytes of the LEB128 varint of `value` (docs/format.md): 7 bits a byte. */
const varintLength = (value: number) => Math.max(1, Math.ceil(Math.log2(value + 1) / 7));

/**
 * Bytes of a decoded shard's first `groups` groups as docs/format.md stores them before compression, without msgpack's
 * framing: each group's key difference and size, each peptide's residues, length and ref count, and its refs (first
 * rank, then gaps). What the target is measured in (sizes, lengths and counts here are all below 128: one byte).
 */
function payloadBytes(s: Shard, groups = s.massKeys.length): number {
  let bytes = 0;
  for (let g = 0; g < groups; g++) bytes += varintLength(s.massKeys[g] - (g === 0 ? 0 : s.massKeys[g - 1])) + 1;
  for (let p = 0; p < (groups === 0 ? 0 : s.groupEnds[groups - 1]); p++) {
    const refs = s.accessionRefs.subarray(p === 0 ? 0 : s.accessionRefEnds[p - 1], s.accessionRefEnds[p]);
    bytes += s.sequenceEnds[p] - (p === 0 ? 0 : s.sequenceEnds[p - 1]) + 2;
    refs.forEach((rank, r) => (bytes += varintLength(r === 0 ? rank : rank - refs[r - 1])));
  }
  return bytes;
}

const DECOMPRESS: Record<Compression, (bytes: Uint8Array) => Buffer> = { gzip: gunzipSync, br: brotliDecompressSync };

/**
 * Writes `parts` with a target of `target` bytes; returns the writer, the list its entries went to, its folder,
 * the stored, decompressed and decoded shards.
 */
function write(label: string, parts: Row[][], target: number, compression: Compression = 'gzip') {
  const dir = tempDir(label);
  const list = new ShardList();
  const writer = new ShardWriter(dir, target, compression, list);
  for (const rows of parts) writer.add(part(rows));
  writer.finish();
  const files = list.shards.map((e) => readFileSync(join(dir, e.file)));
  const payloads = files.map((bytes) => DECOMPRESS[compression](bytes));
  return { dir, writer, list, files, payloads, decoded: payloads.map((bytes) => decodeTabled(bytes, TABLE)) };
}

/** Every peptide back from decoded shards, with its accessions' text, taxIds and reviewed flags. */
const readBack = (shards: TabledShard[]) =>
  shards.flatMap((s) =>
    Array.from(s.sequenceEnds, (_end, p) => {
      const group = s.groupEnds.findIndex((e) => e > p);
      const refs = Array.from(s.accessionRefs.subarray(p === 0 ? 0 : s.accessionRefEnds[p - 1], s.accessionRefEnds[p]));
      const accession = (a: number) => s.accessions.slice(a === 0 ? 0 : s.accessionEnds[a - 1], s.accessionEnds[a]);
      return {
        key: s.massKeys[group],
        sequence: cutLetters(s.sequences, s.sequenceEnds, p),
        accessions: refs.map(accession),
        taxIds: refs.map((a) => s.taxIds[a]),
        reviewed: refs.map((a) => s.reviewed![a]),
      };
    }),
  );
const expectedBack = (rows: Row[]) =>
  rows.map((r) => ({
    key: r.key,
    sequence: r.sequence,
    accessions: r.ranks.map((k) => ACCESSIONS[k]),
    taxIds: r.ranks.map((k) => TAX_IDS[k]),
    reviewed: r.ranks.map((k) => REVIEWED[k]),
  }));

describe('ShardWriter', () => {
  const rows = randomRows(1, 1500);
  const TARGET = 2000;
  const run = write('shardwriter-main', [rows], TARGET);

  it('writes many shards, every peptide coming back with its accessions, taxIds and reviewed flags', () => {
    expect(run.list.shards.length).toBeGreaterThan(20);
    expect(run.writer.written).toBe(run.list.shards.length);
    expect(readBack(run.decoded)).toEqual(expectedBack(rows));
  });

  /** docs/format.md's residueMax, counted here: per letter of ACDEFGHIJKLMNOPQRSTUVWY, the most in one peptide, base 36. */
  const mostOfEachLetter = (s: Shard) => {
    const letters = 'ACDEFGHIJKLMNOPQRSTUVWY';
    const most = new Array<number>(letters.length).fill(0);
    for (let p = 0; p < s.sequenceEnds.length; p++) {
      const peptide = cutLetters(s.sequences, s.sequenceEnds, p);
      [...letters].forEach((letter, l) => (most[l] = Math.max(most[l], peptide.split(letter).length - 1)));
    }
    return most.map((n) => Math.min(n, 35).toString(36)).join('');
  };

  it('stores each shard as a compressed msgpack map of the eight columns of docs/format.md', () => {
    for (const payload of run.payloads)
      expect(Object.keys(decode(payload) as object).sort()).toEqual([
        'formatVersion',
        'groupSizes',
        'lengths',
        'massKeys',
        'proteinStarts',
        'refCounts',
        'refs',
        'sequences',
      ]);
    for (const file of run.files)
      expect(file.length).toBeLessThan(payloadBytes(decodeShard(gunzipSync(file), TABLE.taxIds.length)));
  });

  it.each(['gzip', 'br'] as const)(
    'writes the same data in either compression (%s), really compressed with it',
    (compression) => {
      const other = write(`shardwriter-${compression}`, [rows.slice(0, 400)], TARGET, compression);
      expect(readBack(other.decoded)).toEqual(expectedBack(rows.slice(0, 400)));
      expect(other.list.shards[0].file.endsWith(compression === 'gzip' ? '.msgpack.gz' : '.msgpack.br')).toBe(true);
      expect(() => DECOMPRESS[compression === 'gzip' ? 'br' : 'gzip'](other.files[0])).toThrow();
    },
  );

  it('names each file by the first 20 hex digits of its stored bytes’ sha256, and its entry describes it', () => {
    expect(readdirSync(run.dir).sort()).toEqual(run.list.shards.map((e) => e.file).sort());
    run.list.shards.forEach((entry, i) => {
      const sha256 = createHash('sha256').update(run.files[i]).digest('hex');
      const s = run.decoded[i];
      expect(entry).toEqual({
        file: `${sha256.slice(0, 20)}.msgpack.gz`,
        sha256,
        bytes: run.files[i].length,
        firstKey: s.massKeys[0],
        lastKey: s.massKeys[s.massKeys.length - 1],
        massGroups: s.massKeys.length,
        peptides: s.sequenceEnds.length,
        residueMax: mostOfEachLetter(s),
      });
    });
    expect(run.list.bytes).toBe(run.files.reduce((sum, f) => sum + f.length, 0));
  });

  it('cuts only at mass-group boundaries: no key in two shards', () => {
    for (let i = 1; i < run.list.shards.length; i++)
      expect(run.list.shards[i - 1].lastKey).toBeLessThan(run.list.shards[i].firstKey);
    for (const s of run.decoded)
      for (let g = 1; g < s.massKeys.length; g++) expect(s.massKeys[g - 1]).toBeLessThan(s.massKeys[g]);
  });

  it('cuts at the first group boundary where the shard reaches the target (before compression)', () => {
    run.decoded.forEach((s, i) => {
      if (i < run.decoded.length - 1) {
        expect(payloadBytes(s), `shard ${i}`).toBeGreaterThanOrEqual(TARGET);
        expect(run.payloads[i].length).toBeGreaterThanOrEqual(TARGET);
      }
      if (s.massKeys.length > 1) expect(payloadBytes(s, s.massKeys.length - 1), `shard ${i}`).toBeLessThan(TARGET);
    });
  });

  it('writes the same shards whether the stream comes in one partition or several', () => {
    const cuts = [0];
    for (let i = 1; i < rows.length; i++) if (rows[i].key !== rows[i - 1].key && i % 97 < 3) cuts.push(i);
    const parts = [...cuts, rows.length].slice(1).map((end, i) => rows.slice(cuts[i], end));
    expect(parts.length).toBeGreaterThan(5);
    expect(write('shardwriter-parts', parts, TARGET).list.shards).toEqual(run.list.shards);
  });

  it('keeps a group larger than the target whole, in one shard', () => {
    const big: Row[] = Array.from({ length: 200 }, (_, i) => ({
      key: 7_000_000,
      sequence: `PEPTIDE${String.fromCharCode(65 + (i % 26))}${'K'.repeat(1 + Math.floor(i / 26))}`,
      ranks: [i % 10],
    })).sort((a, b) => (a.sequence < b.sequence ? -1 : 1));
    const stream = [
      { key: 6_999_999, sequence: 'AAAK', ranks: [1] },
      ...big,
      { key: 7_000_001, sequence: 'CCCK', ranks: [3, 119] },
    ];
    const { list, decoded } = write('shardwriter-big', [stream], 500);
    expect(list.shards.map((e) => [e.firstKey, e.lastKey, e.peptides])).toEqual([
      [6_999_999, 7_000_000, 201],
      [7_000_001, 7_000_001, 1],
    ]);
    expect(readBack(decoded)).toEqual(expectedBack(stream));
  });

  it('with a huge target writes one shard; with nothing added writes none', () => {
    const one = write('shardwriter-one', [rows.slice(0, 300)], 1 << 30);
    expect(one.list.shards).toHaveLength(1);
    expect(readBack(one.decoded)).toEqual(expectedBack(rows.slice(0, 300)));
    const none = write('shardwriter-none', [[]], 100);
    expect(none.list.shards).toEqual([]);
    expect(none.list.bytes).toBe(0);
    expect(readdirSync(none.dir)).toEqual([]);
  });
});

describe('protein starts', () => {
  it('each reference whose protein the peptide starts comes back, with whether it also lies inside', () => {
    const random = prng(23);
    const rows = randomRows(24, 400).map((row) => ({
      ...row,
      places: row.ranks.map(() => 1 + Math.floor(random() * 3)),
    }));
    const { decoded } = write('starts', [rows], 2000);
    expect(decoded.length).toBeGreaterThan(3);
    const back = decoded.flatMap((s) =>
      Array.from(s.sequenceEnds, (_end, p) => {
        const [from, to] = [p === 0 ? 0 : s.accessionRefEnds[p - 1], s.accessionRefEnds[p]];
        return Array.from({ length: to - from }, (_, i) => {
          const at = s.startRefs!.indexOf(from + i);
          return at < 0 ? 2 : 1 + 2 * s.startRefsInside![at];
        });
      }),
    );
    expect(back).toEqual(rows.map((row) => row.places));
    expect(decoded.every((s) => s.startRefs!.every((ref, i) => i === 0 || ref > s.startRefs![i - 1]))).toBe(true);
  });
});

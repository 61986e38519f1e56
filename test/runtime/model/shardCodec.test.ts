// runtime/model/shardCodec.ts (decodeShard, decodeAccessionPage) against runtime/model/shardEncoder.ts: random
// columns round trip (a peptide's ranks come back ascending, as stored); and damaged files (maps written here with @msgpack/msgpack and a varint writer of this
// file, as docs/format.md describes them) are refused with an Error, never misread.
import { encode } from '@msgpack/msgpack';
import { describe, expect, it } from 'vitest';
import { prng } from '../../helpers/prng.js';
import { accessionOf, type AccessionTable, type Shard } from '../../../runtime/model/format.js';
import { decodeAccessionPage, decodeShard } from '../../../runtime/model/shardCodec.js';
import { encodeAccessionPage, encodeShard } from '../../../runtime/model/shardEncoder.js';
import { letterBytes } from '../../helpers/letters.js';

const below = (next: () => number, n: number) => Math.floor(next() * n);

/** Unsigned LEB128 varints (docs/format.md), written here rather than by runtime/model/varint.ts. */
const bin = (values: readonly number[]) =>
  Uint8Array.from(
    values.flatMap((value) => {
      const bytes: number[] = [];
      for (let v = value; ; v = Math.floor(v / 128)) {
        if (v < 128) return [...bytes, v];
        bytes.push((v % 128) | 0x80);
      }
    }),
  );

interface TableInput {
  accessions: string[];
  taxIds: Int32Array;
  reviewed: Uint8Array;
}

/** `count` unique accessions in no particular order (ranks are not byte order), with taxIds (some -1, some the largest) and flags. */
function randomTable(next: () => number, count: number): TableInput {
  const set = new Set<string>();
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-';
  while (set.size < count)
    set.add(Array.from({ length: 1 + below(next, 12) }, () => letters[below(next, letters.length)]).join(''));
  const accessions = [...set];
  const taxId = () => [-1, 0, 1, 9606, 2 ** 31 - 1][below(next, 5)] ?? 0;
  return {
    accessions,
    taxIds: Int32Array.from(accessions, () => (next() < 0.5 ? taxId() : below(next, 3_000_000))),
    reviewed: Uint8Array.from(accessions, () => (next() < 0.2 ? 1 : 0)),
  };
}

/** A shard of `groups` mass groups over a table of `accessions`: ascending keys, 1..n peptides a group, 1..8 ranks a peptide. */
function randomShard(next: () => number, groups: number, accessions: number, firstKey = below(next, 2 ** 31)): Shard {
  const keys: number[] = [];
  const groupEnds: number[] = [];
  const sequences: string[] = [];
  const sequenceEnds: number[] = [];
  const refs: number[] = [];
  const refEnds: number[] = [];
  let key = firstKey;
  let length = 0;
  for (let g = 0; g < groups; g++) {
    if (g > 0) key += 1 + below(next, 2 ** below(next, 21)); // gaps from 1 to 2^20
    keys.push(key);
    const size = next() < 0.05 ? 1 + below(next, 300) : 1 + below(next, 4);
    for (let p = 0; p < size; p++) {
      const sequence = Array.from({ length: 1 + below(next, 60) }, () =>
        String.fromCharCode(65 + below(next, 26)),
      ).join('');
      sequences.push(sequence);
      sequenceEnds.push((length += sequence.length));
      const ranks = new Set<number>();
      const count = Math.min(accessions, 1 + (next() < 0.1 ? below(next, 40) : below(next, 3)));
      while (ranks.size < count)
        ranks.add(next() < 0.3 ? accessions - 1 - below(next, Math.min(accessions, 3)) : below(next, accessions));
      refs.push(...[...ranks].sort((a, b) => a - b));
      refEnds.push(refs.length);
    }
    groupEnds.push(sequenceEnds.length);
  }
  return {
    massKeys: Uint32Array.from(keys),
    groupEnds: Uint32Array.from(groupEnds),
    sequences: letterBytes(sequences.join('')),
    sequenceEnds: Uint32Array.from(sequenceEnds),
    accessionRefEnds: Uint32Array.from(refEnds),
    accessionRefs: Uint32Array.from(refs),
  };
}

/** Ascending ends as a decoded shard holds them: 16-bit when the last one fits in 16 bits, else as they are. */
const narrowEnds = (ends: Uint32Array) =>
  ends.length > 0 && ends[ends.length - 1] > 0xffff ? ends : Uint16Array.from(ends);

/** A shard's columns as decodeShard gives them back: its three columns of ends narrowed. */
const decodedForm = (s: Shard): Shard => ({
  ...s,
  groupEnds: narrowEnds(s.groupEnds as Uint32Array),
  sequenceEnds: narrowEnds(s.sequenceEnds as Uint32Array),
  accessionRefEnds: narrowEnds(s.accessionRefEnds as Uint32Array),
});

/** The decoded form of a table input. */
function decodedTable({ accessions, taxIds, reviewed }: TableInput): AccessionTable {
  let end = 0;
  return {
    accessions: accessions.join(''),
    accessionEnds: Uint32Array.from(accessions, (a) => (end += a.length)),
    taxIds,
    reviewed,
  };
}

describe('round trip: encodeShard / encodeAccessionPage, then decode', () => {
  it('random tables of 0 to 70,000 accessions', () => {
    const next = prng(1);
    for (const count of [0, 1, 2, 3, 127, 128, 1000, 70_000]) {
      const input = randomTable(next, count);
      const table = decodeAccessionPage(encodeAccessionPage(input));
      expect(table).toEqual(decodedTable(input));
      expect(table.taxIds).toBeInstanceOf(Int32Array);
      expect(table.reviewed).toBeInstanceOf(Uint8Array);
    }
  });

  it('random shards over random tables (1, 5, 200 and 70,000 accessions: ranks of 1 to 3 bytes); ends 16-bit where they fit', () => {
    const next = prng(2);
    const kinds = new Set<string>();
    for (const accessions of [1, 5, 200, 70_000]) {
      const tableInput = randomTable(next, accessions);
      const table = decodeAccessionPage(encodeAccessionPage(tableInput));
      for (let run = 0; run < 25; run++) {
        const columns = randomShard(next, 1 + below(next, run < 5 ? 3 : 400), accessions);
        const shard = decodeShard(encodeShard(columns), table.taxIds.length);
        expect(shard).toEqual(decodedForm(columns)); // toEqual tells a Uint16Array from a Uint32Array of the same values
        for (const column of ['massKeys', 'accessionRefs'] as const) expect(shard[column]).toBeInstanceOf(Uint32Array);
        kinds.add(shard.sequenceEnds.constructor.name);
      }
    }
    expect([...kinds].sort()).toEqual(['Uint16Array', 'Uint32Array']); // shards of both kinds were decoded
  });

  it('keys up to 2^32 - 1, long sequences and peptides of many accessions', () => {
    const tableInput = randomTable(prng(3), 3000);
    const table = decodeAccessionPage(encodeAccessionPage(tableInput));
    const columns: Shard = {
      massKeys: Uint32Array.of(0, 1, 2 ** 31, 2 ** 32 - 2, 2 ** 32 - 1),
      groupEnds: Uint32Array.of(1, 2, 3, 4, 5),
      sequences: letterBytes('A'.repeat(1000) + 'C' + 'D'.repeat(200) + 'E' + 'W'.repeat(20_000)),
      sequenceEnds: Uint32Array.of(1000, 1001, 1201, 1202, 21_202),
      accessionRefEnds: Uint32Array.of(1, 2, 3002, 3003, 3004),
      accessionRefs: Uint32Array.of(0, 2999, ...Array.from({ length: 3000 }, (_, i) => i), 1234, 2999),
    };
    expect(decodeShard(encodeShard(columns), table.taxIds.length)).toEqual(decodedForm(columns));
    const long = {
      ...columns,
      sequences: letterBytes('A'.repeat(65_534) + 'CD' + 'E'.repeat(200) + 'F' + 'W'),
      sequenceEnds: Uint32Array.of(65_534, 65_535, 65_536, 65_736, 65_738),
    };
    const decoded = decodeShard(encodeShard(long), table.taxIds.length);
    expect(decoded.sequenceEnds).toEqual(long.sequenceEnds); // an end past 2^16 - 1: 32-bit
    expect(decoded.groupEnds).toEqual(Uint16Array.of(1, 2, 3, 4, 5));
  });
});

// ---------------------------------------------------------------------------------------------------------
// Damage

/** The accession table of the damage cases: six accessions. */
const TABLE_MAP = {
  formatVersion: 3,
  accessions: 'A0A001\nP12345\nP12346\nQ00001\nQ00002\nX1',
  taxIds: bin([9607, 0, 10091, 1, 2 ** 31, 562]),
  reviewed: Uint8Array.of(1, 0, 1, 0, 0, 1),
};
const TABLE = decodeAccessionPage(encode(TABLE_MAP));

/**
 * A valid shard of three groups (keys 1000, 1003, 2000) and five peptides, as a map to damage:
 * group 0: PEPTIDEK [0], AAAAAR [1, 2]; group 1: CCCK [5]; group 2: WWWWWWW [0, 3, 4], MK [2].
 */
const SHARD_MAP = {
  formatVersion: 3,
  massKeys: bin([1000, 3, 997]),
  groupSizes: bin([2, 1, 2]),
  lengths: bin([8, 6, 4, 7, 2]),
  sequences: 'PEPTIDEKAAAAARCCCKWWWWWWWMK',
  refCounts: bin([1, 2, 1, 3, 1]),
  refs: bin([0, 1, 1, 5, 0, 3, 1, 2]),
};

const shardWith = (changes: Record<string, unknown>, drop: string[] = []) => {
  const map: Record<string, unknown> = { ...SHARD_MAP, ...changes };
  for (const key of drop) delete map[key];
  return encode(map);
};
const tableWith = (changes: Record<string, unknown>, drop: string[] = []) => {
  const map: Record<string, unknown> = { ...TABLE_MAP, ...changes };
  for (const key of drop) delete map[key];
  return encode(map);
};

describe('the damage cases start from valid files', () => {
  it('the shard and table decode to what they say', () => {
    expect(TABLE).toEqual({
      accessions: 'A0A001P12345P12346Q00001Q00002X1',
      accessionEnds: Uint32Array.of(6, 12, 18, 24, 30, 32),
      taxIds: Int32Array.of(9606, -1, 10090, 0, 2 ** 31 - 1, 561),
      reviewed: Uint8Array.of(1, 0, 1, 0, 0, 1),
    });
    expect(decodeShard(shardWith({}), TABLE.taxIds.length)).toEqual({
      massKeys: Uint32Array.of(1000, 1003, 2000),
      groupEnds: Uint16Array.of(2, 3, 5),
      sequences: letterBytes('PEPTIDEKAAAAARCCCKWWWWWWWMK'),
      sequenceEnds: Uint16Array.of(8, 14, 18, 25, 27),
      accessionRefEnds: Uint16Array.of(1, 3, 4, 7, 8),
      accessionRefs: Uint32Array.of(0, 1, 2, 5, 0, 3, 4, 2),
    });
  });
});

describe('decodeShard refuses a damaged shard with an Error', () => {
  const refused: [string, Uint8Array | (() => Uint8Array)][] = [
    // The file as a whole
    ['no bytes', new Uint8Array(0)],
    ['bytes cut short', () => shardWith({}).subarray(0, 40)],
    ['bytes after the map', () => Uint8Array.from([...shardWith({}), 0x00])],
    ['a msgpack array, not a map', () => encode([2, 1, 2, 3])],
    ['a msgpack str, not a map', () => encode('formatVersion')],
    ['msgpack nil', () => encode(null)],
    // formatVersion
    ['formatVersion 1', () => shardWith({ formatVersion: 1 })],
    ['formatVersion 2', () => shardWith({ formatVersion: 2 })],
    ['formatVersion "3" (a str)', () => shardWith({ formatVersion: '3' })],
    ['no formatVersion', () => shardWith({}, ['formatVersion'])],
    // Missing or mistyped columns
    ...(['massKeys', 'groupSizes', 'lengths', 'sequences', 'refCounts', 'refs'] as const).map(
      (column): [string, () => Uint8Array] => [`no ${column}`, () => shardWith({}, [column])],
    ),
    ['massKeys as a msgpack array of ints', () => shardWith({ massKeys: [1000, 3, 997] })],
    ['refs as a str', () => shardWith({ refs: '\u0000\u0001\u0001\u0005\u0000\u0003\u0001\u0002' })],
    ['sequences as bin', () => shardWith({ sequences: new TextEncoder().encode(SHARD_MAP.sequences) })],
    ['a column cut inside a varint', () => shardWith({ lengths: Uint8Array.of(8, 6, 4, 7, 0x82) })],
    ['a varint of 2^32', () => shardWith({ massKeys: Uint8Array.of(0x80, 0x80, 0x80, 0x80, 0x10, 3, 97) })],
    // groupSizes and massKeys
    ['groupSizes adding up to fewer peptides', () => shardWith({ groupSizes: bin([2, 1, 1]) })],
    ['groupSizes adding up to more peptides', () => shardWith({ groupSizes: bin([2, 1, 3]) })],
    ['groupSizes shorter than massKeys', () => shardWith({ groupSizes: bin([3, 2]) })],
    ['groupSizes longer than massKeys', () => shardWith({ groupSizes: bin([2, 1, 1, 1]) })],
    ['no groups at all', () => shardWith({ massKeys: bin([]), groupSizes: bin([]) })],
    ['massKeys repeating a key (a difference of 0)', () => shardWith({ massKeys: bin([1000, 0, 997]) })],
    ['massKeys descending (wrapping past 2^32)', () => shardWith({ massKeys: bin([1000, 2 ** 32 - 1, 997]) })],
    // lengths and sequences
    ['lengths adding up to less than the sequences', () => shardWith({ lengths: bin([8, 6, 4, 7, 1]) })],
    ['lengths adding up to more than the sequences', () => shardWith({ lengths: bin([8, 6, 4, 7, 3]) })],
    ['one length fewer than peptides', () => shardWith({ lengths: bin([8, 6, 4, 9]) })],
    ['one length more than peptides', () => shardWith({ lengths: bin([8, 6, 4, 7, 1, 1]) })],
    ['lower-case sequences', () => shardWith({ sequences: SHARD_MAP.sequences.toLowerCase() })],
    ['one lower-case residue', () => shardWith({ sequences: SHARD_MAP.sequences.replace('K', 'k') })],
    ['a digit in the sequences', () => shardWith({ sequences: SHARD_MAP.sequences.replace('E', '1') })],
    ['a space in the sequences', () => shardWith({ sequences: SHARD_MAP.sequences.replace('E', ' ') })],
    ['a non-ASCII letter in the sequences', () => shardWith({ sequences: SHARD_MAP.sequences.replace('E', 'É') })],
    [
      'a letter whose low byte is a capital (Ł, U+0141: 0x41 is A)',
      () => shardWith({ sequences: SHARD_MAP.sequences.replace('E', 'Ł') }),
    ],
    // refCounts and refs
    ['a peptide without accessions (refCount 0)', () => shardWith({ refCounts: bin([1, 2, 0, 4, 1]) })],
    ['refCounts adding up to fewer refs', () => shardWith({ refCounts: bin([1, 2, 1, 2, 1]) })],
    ['refCounts adding up to more refs', () => shardWith({ refCounts: bin([1, 2, 1, 3, 2]) })],
    ['one refCount fewer than peptides', () => shardWith({ refCounts: bin([1, 2, 1, 4]) })],
    ['a repeated accession in a peptide (gap 0)', () => shardWith({ refs: bin([0, 1, 0, 5, 0, 3, 1, 2]) })],
    ['a peptide ending at rank 6 of a 6-accession table', () => shardWith({ refs: bin([0, 1, 1, 6, 0, 3, 1, 2]) })],
    ['a last peptide past the table', () => shardWith({ refs: bin([0, 1, 1, 5, 0, 3, 1, 99]) })],
    ['a gap past the table', () => shardWith({ refs: bin([0, 1, 1, 5, 0, 3, 3, 2]) })],
  ];
  for (const [name, bytes] of refused) {
    it(name, () => {
      expect(() => decodeShard(typeof bytes === 'function' ? bytes() : bytes, TABLE.taxIds.length)).toThrow(Error);
    });
  }

  it('a shard whose ranks are past a smaller table than its own', () => {
    expect(() => decodeShard(shardWith({}), 5)).toThrow(/past the accession table/);
  });
});

describe('decodeAccessionPage refuses a damaged page with an Error', () => {
  const refused: [string, () => Uint8Array][] = [
    ['bytes cut short', () => tableWith({}).subarray(0, 30)],
    ['a msgpack array, not a map', () => encode(['A0A001', 'P12345'])],
    ['formatVersion 1', () => tableWith({ formatVersion: 1 })],
    ['formatVersion 2', () => tableWith({ formatVersion: 2 })],
    ['no formatVersion', () => tableWith({}, ['formatVersion'])],
    ['no accessions', () => tableWith({}, ['accessions'])],
    ['accessions as an array of str', () => tableWith({ accessions: TABLE_MAP.accessions.split('\n') })],
    ['no taxIds', () => tableWith({}, ['taxIds'])],
    ['no reviewed', () => tableWith({}, ['reviewed'])],
    ['taxIds as a msgpack array', () => tableWith({ taxIds: [9607, 0, 10091, 1, 2 ** 31, 562] })],
    ['one taxId fewer than accessions', () => tableWith({ taxIds: bin([9607, 0, 10091, 1, 2 ** 31]) })],
    ['one taxId more than accessions', () => tableWith({ taxIds: bin([9607, 0, 10091, 1, 2 ** 31, 562, 1]) })],
    ['one reviewed byte fewer', () => tableWith({ reviewed: Uint8Array.of(1, 0, 1, 0, 0) })],
    ['one reviewed byte more', () => tableWith({ reviewed: Uint8Array.of(1, 0, 1, 0, 0, 1, 0) })],
    ['one accession more than the columns', () => tableWith({ accessions: `${TABLE_MAP.accessions}\nZ9` })],
    [
      'taxIds cut inside a varint',
      () => tableWith({ taxIds: Uint8Array.of(...bin([9607, 0, 10091, 1, 2 ** 31]), 0x80) }),
    ],
    ['an empty accession in the middle', () => tableWith({ accessions: 'A0A001\nP12345\n\nQ00001\nQ00002\nX1' })],
    ['an empty first accession', () => tableWith({ accessions: '\nP12345\nP12346\nQ00001\nQ00002\nX1' })],
    ['an empty last accession', () => tableWith({ accessions: 'A0A001\nP12345\nQ00001\nQ00002\nX1\n' })],
  ];
  for (const [name, bytes] of refused) {
    it(name, () => {
      expect(() => decodeAccessionPage(bytes())).toThrow(Error);
    });
  }

  it('accessions of any characters come back whole, their ends counted in characters (one flat string, built from bytes)', () => {
    const accessions = ['A0A001', 'P12345', 'Pé-1', 'Q00001', 'Qα2', 'X😀1', '\uFEFFZ1'].sort((a, b) =>
      a < b ? -1 : 1,
    );
    const table = decodeAccessionPage(
      tableWith({
        accessions: accessions.join('\n'),
        taxIds: bin(accessions.map(() => 1)),
        reviewed: new Uint8Array(accessions.length),
      }),
    );
    expect(table.accessions).toBe(accessions.join(''));
    expect([...table.accessionEnds]).toEqual(accessions.map((_, a) => accessions.slice(0, a + 1).join('').length));
    expect(accessions.map((_, a) => accessionOf(table, a))).toEqual(accessions);
    // A first accession starting with U+FEFF keeps it (not taken for a byte-order mark).
    const marked = decodeAccessionPage(
      tableWith({ accessions: '\uFEFFA\n\uFEFFB', taxIds: bin([1, 1]), reviewed: new Uint8Array(2) }),
    );
    expect([accessionOf(marked, 0), accessionOf(marked, 1)]).toEqual(['\uFEFFA', '\uFEFFB']);
  });

  it('a page lists accessions in rank order, whatever their byte order', () => {
    const reversed = TABLE_MAP.accessions.split('\n').reverse();
    const page = decodeAccessionPage(tableWith({ accessions: reversed.join('\n') }));
    expect(reversed.map((_, a) => accessionOf(page, a))).toEqual(reversed);
    expect(page.taxIds).toEqual(TABLE.taxIds);
  });

  it('an empty table is one (no accessions, empty columns)', () => {
    expect(
      decodeAccessionPage(tableWith({ accessions: '', taxIds: new Uint8Array(0), reviewed: new Uint8Array(0) })),
    ).toEqual({
      accessions: '',
      accessionEnds: new Uint32Array(0),
      taxIds: new Int32Array(0),
      reviewed: new Uint8Array(0),
    });
  });
});

// Damage that only arithmetic checks catch: sums that would wrap past 2^32 in a Uint32Array, zero counts, values
// outside their range.
describe('damage only arithmetic checks catch', () => {
  const misread = (bytes: Uint8Array) => expect(() => decodeShard(bytes, TABLE.taxIds.length)).toThrow(Error);
  it('refs whose running sum wraps past 2^32 (ranks 4, 4 + 2^32 - 2 = 2, 3: not ascending)', () => {
    misread(shardWith({ refs: bin([0, 1, 1, 5, 4, 2 ** 32 - 2, 1, 2]) })); // ranks 4, 2, 3
  });
  it('a rank past the table hidden by a later gap that wraps past 2^32 (only the last rank is checked)', () => {
    misread(shardWith({ refs: bin([0, 1, 1, 5, 99, 2 ** 32 - 97, 1, 2]) })); // ranks 99, 2, 3
  });
  it('a peptide of length 0 (an empty sequence)', () => {
    misread(shardWith({ lengths: bin([8, 6, 0, 11, 2]) }));
  });
  it('lengths whose running sum wraps past 2^32', () => {
    misread(shardWith({ lengths: bin([8, 6, 2 ** 32 - 1, 12, 2]) })); // ends 8, 14, 13, 25, 27
  });
  it('a mass group of 0 peptides', () => {
    misread(shardWith({ massKeys: bin([1000, 3, 500, 497]), groupSizes: bin([2, 1, 0, 2]) }));
  });
  it('groupSizes whose running sum wraps past 2^32', () => {
    misread(shardWith({ groupSizes: bin([2, 2 ** 32 - 1, 4]) }));
  });
  it('refCounts whose running sum wraps past 2^32, refused at once (not after walking 2^31 refs)', () => {
    const started = performance.now();
    misread(shardWith({ refCounts: bin([2 ** 31, 2 ** 31 + 3, 1, 1, 1]) }));
    expect(performance.now() - started).toBeLessThan(1000);
  });
  it('a formatVersion sent as a string is named as one', () => {
    expect(() => decodeShard(shardWith({ formatVersion: '3' }), TABLE.taxIds.length)).toThrow(
      'shard format version "3" is not 3',
    );
  });
  it('a taxId varint past 2^31 (read as a negative taxId)', () => {
    expect(() => decodeAccessionPage(tableWith({ taxIds: bin([9607, 0, 10091, 1, 2 ** 32 - 1, 562]) }))).toThrow(Error);
  });
  it('a reviewed byte other than 0 or 1', () => {
    expect(() => decodeAccessionPage(tableWith({ reviewed: Uint8Array.of(1, 0, 7, 0, 0, 1) }))).toThrow(Error);
  });
  it('an empty first accession', () => {
    expect(() => decodeAccessionPage(tableWith({ accessions: '\nP12345\nP12346\nQ00001\nQ00002\nX1' }))).toThrow(Error);
  });
});

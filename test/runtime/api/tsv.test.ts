// Tests runtime/api/tsv.ts: groupRows (one row per peptide–accession pair: mass key as the API writes it, sequence,
// accession, taxId) and runRows (chunks that never split a row and concatenate to every group's rows) on a
// hand-made Shard object and accession table, ranks not in the order of their accessions (rows list a peptide's
// accessions by accession); TSV_HEADER.
import { describe, expect, it } from 'vitest';
import { groupRows, runRows, TSV_COLUMNS, TSV_HEADER } from '../../../runtime/api/tsv.js';
import { AccessionSet } from '../../../runtime/model/accessionSet.js';
import type { Shard } from '../../../runtime/model/format.js';
import { letterBytes } from '../../helpers/letters.js';

// Four groups, six peptides (one without accessions), three accessions (one without a taxId).
const SHARD: Shard = {
  massKeys: Uint32Array.from([10_000_000, 10_005_000, 12_345_678, 20_000_001]),
  groupEnds: Uint32Array.from([2, 4, 5, 6]),
  sequences: letterBytes('PEPTIDEK' + 'TIDEPEPK' + 'AAAAR' + 'GGGGK' + 'WWK' + 'MK'),
  sequenceEnds: Uint32Array.from([8, 16, 21, 26, 29, 31]),
  accessionRefEnds: Uint32Array.from([2, 3, 3, 4, 7, 8]),
  accessionRefs: Uint32Array.from([0, 1, 2, 0, 0, 1, 2, 2]),
};
const ACCESSIONS = new AccessionSet([
  {
    first: 0,
    table: {
      accessions: 'X00001' + 'P12345' + 'Q9XYZ1',
      accessionEnds: Uint32Array.from([6, 12, 18]),
      taxIds: Int32Array.from([10090, 9606, -1]),
      reviewed: new Uint8Array(3),
    },
  },
]);

/** The rows of each group, written by hand. */
const ROWS = [
  '1000.0\tPEPTIDEK\tP12345\t9606\n1000.0\tPEPTIDEK\tX00001\t10090\n1000.0\tTIDEPEPK\tQ9XYZ1\t-1\n',
  '1000.5\tGGGGK\tX00001\t10090\n',
  '1234.5678\tWWK\tP12345\t9606\n1234.5678\tWWK\tQ9XYZ1\t-1\n1234.5678\tWWK\tX00001\t10090\n',
  '2000.0001\tMK\tQ9XYZ1\t-1\n',
];

describe('TSV_HEADER', () => {
  it('names the four columns, tab-separated, ending the line', () => {
    expect(TSV_COLUMNS).toEqual(['mass', 'sequence', 'accession', 'taxId']);
    expect(TSV_HEADER).toBe('mass\tsequence\taccession\ttaxId\n');
  });
});

describe('groupRows', () => {
  it('writes one row per peptide–accession pair of the group', () => {
    ROWS.forEach((rows, group) => expect(groupRows({ shard: SHARD, group }, ACCESSIONS), `group ${group}`).toBe(rows));
  });
});

describe('runRows', () => {
  it('concatenates to the rows of groups from..to-1, for any chunk size', () => {
    for (const chunkChars of [1, 10, 40, 100, 200, 64 * 1024]) {
      for (const [from, to] of [
        [0, 4],
        [1, 3],
        [2, 3],
        [3, 4],
      ]) {
        const chunks = [...runRows({ shard: SHARD, from, to, accessions: ACCESSIONS }, chunkChars)];
        expect(chunks.join(''), `${from}..${to} by ${chunkChars}`).toBe(ROWS.slice(from, to).join(''));
      }
    }
    expect([...runRows({ shard: SHARD, from: 0, to: 4, accessions: ACCESSIONS })]).toEqual([ROWS.join('')]);
  });

  it('never splits a row or a group: every chunk is whole groups, none empty', () => {
    for (const chunkChars of [1, 10, 40, 100, 200]) {
      const chunks = [...runRows({ shard: SHARD, from: 0, to: 4, accessions: ACCESSIONS }, chunkChars)];
      let group = 0;
      for (const chunk of chunks) {
        expect(chunk.length).toBeGreaterThan(0);
        let rest = chunk;
        while (rest.length > 0) {
          expect(rest.startsWith(ROWS[group]), `chunk ${JSON.stringify(chunk)} at group ${group}`).toBe(true);
          rest = rest.slice(ROWS[group++].length);
        }
      }
      expect(group).toBe(4);
    }
  });

  it('closes a chunk as soon as it reaches the chunk size', () => {
    expect([...runRows({ shard: SHARD, from: 0, to: 4, accessions: ACCESSIONS }, 1)]).toEqual(ROWS);
    const firstTwo = ROWS[0].length + ROWS[1].length;
    expect([...runRows({ shard: SHARD, from: 0, to: 4, accessions: ACCESSIONS }, firstTwo)]).toEqual([
      ROWS[0] + ROWS[1],
      ROWS[2] + ROWS[3],
    ]);
  });

  it('yields nothing for an empty run', () => {
    expect([...runRows({ shard: SHARD, from: 2, to: 2, accessions: ACCESSIONS }, 1)]).toEqual([]);
  });
});

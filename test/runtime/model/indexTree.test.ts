// Tests runtime/model/indexTree.ts: levelsOf accepts 1..4 (absent: 1) and nothing else; a leaf or inner index
// page, an inner protein page and a leaf protein page that agree with their entry pass, and each single
// disagreement (position, count, keys, sums, order, tiling, columns, residueMax) is named.
import { describe, expect, it } from 'vitest';
import type { IndexPageEntry, ProteinPageEntry, ShardEntry } from '../../../runtime/model/format.js';
import {
  indexPageViolation,
  levelsOf,
  proteinIndexPageViolation,
  proteinPageViolation,
} from '../../../runtime/model/indexTree.js';

const shard = (i: number): ShardEntry => ({
  file: `s${i}`,
  firstKey: 100 * i,
  lastKey: 100 * i + 50,
  massGroups: 2,
  peptides: 3 + i,
  bytes: 1,
  sha256: 'x',
});
const shards = [10, 11, 12].map(shard);
const entry: IndexPageEntry = {
  file: 'index-a.json.gz',
  sha256: 'x',
  bytes: 1,
  firstShard: 10,
  shards: 3,
  firstKey: 1000,
  lastKey: 1250,
  massGroups: 6,
  peptides: 3 + 10 + 3 + 11 + 3 + 12,
};
const subpage = (firstShard: number, n: number, firstKey: number): IndexPageEntry => ({
  file: `index-${firstShard}`,
  sha256: 'x',
  bytes: 1,
  firstShard,
  shards: n,
  firstKey,
  lastKey: firstKey + 90,
  massGroups: 2 * n,
  peptides: 4 * n,
});
const inner = [subpage(10, 2, 1000), subpage(12, 5, 2000)];
const innerEntry: IndexPageEntry = {
  file: 'index-b.json.gz',
  sha256: 'x',
  bytes: 1,
  firstShard: 10,
  shards: 7,
  firstKey: 1000,
  lastKey: 2090,
  massGroups: 14,
  peptides: 28,
};

describe('levelsOf', () => {
  it('is 1 when absent, the value for 1..4, null for anything else', () => {
    expect(levelsOf({})).toBe(1);
    for (const levels of [1, 2, 3, 4]) expect(levelsOf({ levels })).toBe(levels);
    for (const levels of [0, 5, -1, 1.5, '2', null, true, Infinity, NaN])
      expect(levelsOf({ levels }), String(levels)).toBeNull();
  });
});

describe('indexPageViolation', () => {
  it('passes a leaf and an inner page that agree with their entries', () => {
    expect(indexPageViolation({ formatVersion: 2, firstShard: 10, shards }, entry, true)).toBeNull();
    expect(indexPageViolation({ formatVersion: 2, firstShard: 10, pages: inner }, innerEntry, false)).toBeNull();
  });

  it('names each disagreement of a leaf page with its entry', () => {
    const leaf = (page: unknown, e: IndexPageEntry = entry) => indexPageViolation(page, e, true);
    expect(leaf(null)).toBe('no shards listed');
    expect(leaf({ firstShard: 10, shards: [] })).toBe('no shards listed');
    expect(leaf({ firstShard: 10, pages: inner })).toBe('no shards listed'); // an inner page where a leaf belongs
    expect(leaf({ firstShard: 9, shards })).toBe('firstShard 9, not 10');
    expect(leaf({ shards })).toBe('firstShard undefined, not 10');
    expect(leaf({ firstShard: 10, shards: shards.slice(0, 2) })).toBe('wrong shard count: 2, not 3');
    expect(leaf({ firstShard: 10, shards: [shards[1], shards[0], shards[2]] })).toMatch(
      /^shard 1 starts at 1000, not above/,
    );
    expect(leaf({ firstShard: 10, shards }, { ...entry, firstKey: 999 })).toBe(
      'first or last key differs from its entry',
    );
    expect(leaf({ firstShard: 10, shards }, { ...entry, lastKey: 1251 })).toBe(
      'first or last key differs from its entry',
    );
    expect(leaf({ firstShard: 10, shards }, { ...entry, massGroups: 7 })).toBe(
      'mass groups or peptides differ from its entry',
    );
    expect(leaf({ firstShard: 10, shards }, { ...entry, peptides: 1 })).toBe(
      'mass groups or peptides differ from its entry',
    );
  });

  it('names each disagreement of an inner page with its entry', () => {
    const check = (pages: IndexPageEntry[], e: IndexPageEntry = innerEntry, firstShard = 10) =>
      indexPageViolation({ firstShard, pages }, e, false);
    expect(indexPageViolation({ firstShard: 10, shards }, entry, false)).toBe('no pages listed'); // a leaf where an inner page belongs
    expect(check(inner, innerEntry, 0)).toBe('firstShard 0, not 10');
    expect(check([inner[0], { ...inner[1], shards: 4 }])).toBe('wrong shard count: 6, not 7');
    expect(
      check([
        { ...inner[0], firstShard: 11 },
        { ...inner[1], firstShard: 11 },
      ]),
    ).toBe('page 0 does not continue the shards before it');
    expect(check([inner[0], { ...inner[1], firstShard: 13, shards: 4 }], { ...innerEntry, shards: 6 })).toBe(
      'page 1 does not continue the shards before it',
    );
    expect(check([inner[0], { ...inner[1], firstKey: 1090 }])).toMatch(/^shard 1 starts at 1090, not above/);
    expect(check(inner, { ...innerEntry, lastKey: 2091 })).toBe('first or last key differs from its entry');
    expect(check(inner, { ...innerEntry, massGroups: 13 })).toBe('mass groups or peptides differ from its entry');
    expect(check(inner, { ...innerEntry, peptides: 29 })).toBe('mass groups or peptides differ from its entry');
  });
});

describe('indexPageViolation and residueMax', () => {
  const digits = (first: string) => first + '1'.repeat(22);
  const withMax = [10, 11, 12].map((i, k) => ({ ...shard(i), residueMax: digits(['3', 'a', '0'][k]) }));
  it("passes an entry whose residueMax is its shards' combined one, or that gives none", () => {
    expect(
      indexPageViolation({ firstShard: 10, shards: withMax }, { ...entry, residueMax: digits('a') }, true),
    ).toBeNull();
    expect(indexPageViolation({ firstShard: 10, shards: withMax }, entry, true)).toBeNull();
  });
  it('names an entry whose residueMax differs from its shards', () => {
    expect(indexPageViolation({ firstShard: 10, shards: withMax }, { ...entry, residueMax: digits('9') }, true)).toBe(
      `residueMax differs from its entry's "${digits('9')}"`,
    );
    expect(indexPageViolation({ firstShard: 10, shards }, { ...entry, residueMax: digits('a') }, true)).toMatch(
      /^residueMax differs/,
    ); // shards without one
    const pages = inner.map((p, k) => ({ ...p, residueMax: digits(['2', '5'][k]) }));
    expect(indexPageViolation({ firstShard: 10, pages }, { ...innerEntry, residueMax: digits('5') }, false)).toBeNull();
    expect(indexPageViolation({ firstShard: 10, pages }, { ...innerEntry, residueMax: digits('2') }, false)).toMatch(
      /^residueMax differs/,
    );
  });
});

describe('protein pages', () => {
  const page = (first: string, last: string, accessions: number): ProteinPageEntry => ({
    file: `proteins-${first}`,
    sha256: 'x',
    bytes: 1,
    firstAccession: first,
    lastAccession: last,
    accessions,
  });
  const pages = [page('A1', 'A5', 3), page('B1', 'B1', 1), page('C', 'D', 2)];
  const parent = page('A1', 'D', 6);

  it('passes an inner page that agrees with its entry, and names each disagreement', () => {
    expect(proteinIndexPageViolation({ formatVersion: 2, pages }, parent)).toBeNull();
    expect(proteinIndexPageViolation({ pages: [] }, parent)).toBe('no pages listed');
    expect(proteinIndexPageViolation({ accessions: ['A1'] }, parent)).toBe('no pages listed');
    expect(proteinIndexPageViolation({ pages: [pages[0], page('B1', 'B1', 0), pages[2]] }, parent)).toBe(
      'page 1 holds no accessions in order',
    );
    expect(proteinIndexPageViolation({ pages: [pages[0], page('B2', 'B1', 1), pages[2]] }, parent)).toBe(
      'page 1 holds no accessions in order',
    );
    expect(proteinIndexPageViolation({ pages: [pages[0], page('A5', 'B1', 1), pages[2]] }, parent)).toBe(
      'page 1 does not follow page 0',
    );
    expect(proteinIndexPageViolation({ pages }, page('A0', 'D', 6))).toBe(
      'first or last accession differs from its entry',
    );
    expect(proteinIndexPageViolation({ pages }, page('A1', 'E', 6))).toBe(
      'first or last accession differs from its entry',
    );
    expect(proteinIndexPageViolation({ pages }, page('A1', 'D', 7))).toBe('accession count differs from its entry');
  });

  it('passes a leaf page whose columns hold its entry’s accessions, and names a disagreement', () => {
    const leaf = {
      formatVersion: 2,
      accessions: ['A1', 'A3', 'A5'],
      taxIds: [1, 2, 3],
      reviewed: [0, 1, 0],
      proteins: ['', 'p', 'q'],
      organisms: ['o', '', ''],
    };
    expect(proteinPageViolation(leaf, pages[0])).toBeNull();
    expect(proteinPageViolation({ ...leaf, organisms: ['o'] }, pages[0])).toBe(
      'columns are missing or differ in length',
    );
    expect(proteinPageViolation({ ...leaf, taxIds: undefined }, pages[0])).toBe(
      'columns are missing or differ in length',
    );
    expect(proteinPageViolation(leaf, page('A1', 'A5', 4))).toBe('columns are missing or differ in length');
    expect(proteinPageViolation(leaf, page('A0', 'A5', 3))).toBe('first or last accession differs from its entry');
    expect(proteinPageViolation(leaf, page('A1', 'A4', 3))).toBe('first or last accession differs from its entry');
  });
});

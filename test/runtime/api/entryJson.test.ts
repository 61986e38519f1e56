// The answer body written from per-shard entry JSON (runtime/api/entryJson.ts) or directly (successJson of
// runtime/api/envelope.ts) equals the same answer built from plain objects with JSON.stringify, for both entry
// shapes, any run of groups, and accessions that need escaping (quotes, backslashes, control and non-ASCII
// characters), each peptide's accessions listed by accession whatever their ranks.
import { beforeAll, describe, expect, it } from 'vitest';
import { Dataset } from '../../../runtime/core/storage/dataset.js';
import { cachedEntryJson, entryJson } from '../../../runtime/api/entryJson.js';
import type { GroupRef, QueryResult } from '../../../runtime/core/range/search.js';
import { AccessionSet } from '../../../runtime/model/accessionSet.js';
import { sequenceOf, type Shard } from '../../../runtime/model/format.js';
import { formatMassKey } from '../../../runtime/model/massKey.js';
import type { EntryShape } from '../../../runtime/api/endpoints.js';
import { successJson, type Envelope } from '../../../runtime/api/envelope.js';
import { FileSource } from '../../../runtime/entries/node/fileSource.js';
import { smallShardsDataset } from '../../helpers/datasets.js';
import { letterBytes } from '../../helpers/letters.js';

/** A shard made from plain lists, with the accession table its ranks point into (as plain lists too, and as a set). */
type TestShard = Shard & { table: [string, number][]; set: AccessionSet };

/**
 * A shard from plain lists: groups of [massKey, [[sequence, ranks ascending]]] over an accession table of [accession,
 * taxId] in rank order, read as one page, or as pages of `pageSize` accessions.
 */
function shardOf(
  table: [string, number][],
  groups: [number, [string, number[]][]][],
  pageSize = table.length,
): TestShard {
  const peptides = groups.flatMap(([, ps]) => ps);
  const cumulative = (lengths: number[]) =>
    Uint32Array.from(lengths.map((_, i) => lengths.slice(0, i + 1).reduce((a, b) => a + b, 0)));
  return {
    massKeys: Uint32Array.from(groups.map(([key]) => key)),
    groupEnds: cumulative(groups.map(([, ps]) => ps.length)),
    sequences: letterBytes(peptides.map(([seq]) => seq).join('')),
    sequenceEnds: cumulative(peptides.map(([seq]) => seq.length)),
    accessionRefEnds: cumulative(peptides.map(([, refs]) => refs.length)),
    accessionRefs: Uint32Array.from(peptides.flatMap(([, refs]) => refs)),
    table,
    set: new AccessionSet(
      Array.from({ length: Math.ceil(table.length / pageSize) }, (_, k) => {
        const rows = table.slice(k * pageSize, (k + 1) * pageSize);
        return {
          first: k * pageSize,
          table: {
            accessions: rows.map(([acc]) => acc).join(''),
            accessionEnds: cumulative(rows.map(([acc]) => acc.length)),
            taxIds: Int32Array.from(rows.map(([, taxId]) => taxId)),
            reviewed: new Uint8Array(rows.length),
          },
        };
      }),
    ),
  };
}

/** The same answer through objects and JSON.stringify, each peptide's accessions sorted by their text. */
function expected(shard: TestShard, groups: number[], shape: EntryShape, e: Envelope): unknown {
  const result = groups.map((g) => {
    const entries = [];
    for (let p = g === 0 ? 0 : shard.groupEnds[g - 1]; p < shard.groupEnds[g]; p++) {
      const refs = [
        ...shard.accessionRefs.subarray(p === 0 ? 0 : shard.accessionRefEnds[p - 1], shard.accessionRefEnds[p]),
      ];
      const listed = refs.map((a) => shard.table[a]).sort(([x], [y]) => (x < y ? -1 : 1));
      entries.push(
        shape === 'acc'
          ? { seq: sequenceOf(shard, p), acc: listed.map(([acc]) => acc) }
          : { seq: sequenceOf(shard, p), accsTax: listed.map(([acc, taxId]) => ({ acc, taxId })) },
      );
    }
    return { [formatMassKey(shard.massKeys[g])]: entries };
  });
  return { ...e, result };
}

const envelope: Envelope = { totalResult: 3, memory: '41 MB', duration: '00:00:00.001', page: 1, pageSize: 10 };
const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');

const plain = shardOf(
  [
    ['A0A023GPI8', 9606],
    ['P69905', 9606],
    ['Q9XYZ1', -1],
  ],
  [
    [7993600, [['PEPTIDE', [0, 1]]]],
    [
      8024007,
      [
        ['SAMPLER', [2]],
        ['SAMPLRE', [0, 1, 2]],
      ],
    ],
    [10003783, [['EWECFCGK', [1]]]],
  ],
);
/** The plain shard's peptides over pages of two accessions (their records written from each page's own). */
const paged = shardOf(
  plain.table,
  [
    [7993600, [['PEPTIDE', [0, 1]]]],
    [
      8024007,
      [
        ['SAMPLER', [2]],
        ['SAMPLRE', [0, 1, 2]],
      ],
    ],
    [10003783, [['EWECFCGK', [1]]]],
  ],
  2,
);
/** Plain accessions, one of them too long for a record: written from the table's text. */
const long = shardOf(
  [
    ['P69905', 9606],
    ['XP_' + '1234567890'.repeat(4), 10090],
    ['Q9XYZ1', -1],
  ],
  [
    [7993600, [['PEPTIDE', [0, 1]]]],
    [
      8024007,
      [
        ['SAMPLER', [2]],
        ['SAMPLRE', [0, 1, 2]],
      ],
    ],
  ],
);
const odd = shardOf(
  [
    ['acc"quote', 1],
    ['back\\slash', 2],
    ['tab\there', 3],
    ['caf\u00e9', 4],
    ['\u{1F9EA}x', 5],
    ['</script>', 6],
  ],
  [
    [5000000, [['AAAAAK', [0, 1, 2]]]],
    [
      5000001,
      [
        ['CCCCCK', [3, 4, 5]],
        ['DDDDDK', [5]],
      ],
    ],
  ],
);

/** A query result holding `groups` (the envelope's fields come from the test's own envelope). */
const page = (groups: GroupRef[], accessions = plain.set): QueryResult => ({
  totalResult: groups.length,
  page: 1,
  pageSize: 10,
  groups,
  accessions,
});

describe('successJson over entry JSON', () => {
  it('the test shards take both ways of writing accessions: from records, and from text', () => {
    expect([plain.set.recorded, paged.set.recorded, long.set.recorded, odd.set.recorded]).toEqual([
      true,
      true,
      false,
      false,
    ]);
    expect([plain.set.plain, long.set.plain, odd.set.plain]).toEqual([true, true, false]);
  });

  for (const [name, shard] of [
    ['plain accessions', plain],
    ['plain accessions over pages', paged],
    ['a plain accession too long for a record', long],
    ['accessions that need escaping', odd],
  ] as const) {
    for (const [shape, path] of [
      ['acc', 'entry JSON'],
      ['accsTax', 'entry JSON'],
      ['acc', 'direct'],
      ['accsTax', 'direct'],
    ] as const) {
      const entries = (s: Shard) => (path === 'direct' ? undefined : entryJson(s, shard.set, shape).value);
      it(`${name}, ${shape}, ${path}: every run of consecutive groups equals the JSON.stringify answer`, () => {
        const count = shard.massKeys.length;
        for (let from = 0; from < count; from++) {
          for (let to = from; to <= count; to++) {
            const groups = Array.from({ length: to - from }, (_, i) => from + i);
            const body = text(
              successJson(
                page(
                  groups.map((group) => ({ shard, group })),
                  shard.set,
                ),
                shape,
                entries,
                () => envelope,
              ),
            );
            expect(/^[\x20-\x7e]*$/.test(body)).toBe(true); // ASCII only: non-ASCII is \u-escaped
            expect(JSON.parse(body)).toEqual(expected(shard, groups, shape, envelope));
          }
        }
      });
    }
  }

  it('keeps the envelope fields in the original order, before result', () => {
    const body = text(
      successJson(
        page([{ shard: plain, group: 1 }]),
        'acc',
        () => undefined,
        () => envelope,
      ),
    );
    expect(
      body.startsWith(
        '{"totalResult":3,"memory":"41 MB","duration":"00:00:00.001","page":1,"pageSize":10,"result":[{"802.4007":',
      ),
    ).toBe(true);
  });

  it('lays out one entry per peptide, each ending in a comma', () => {
    const { bytes, ends } = entryJson(plain, plain.set, 'acc').value;
    expect(ends).toHaveLength(plain.sequenceEnds.length);
    expect(ends[ends.length - 1]).toBe(bytes.length);
    expect(text(bytes)).toBe(
      '{"seq":"PEPTIDE","acc":["A0A023GPI8","P69905"]},{"seq":"SAMPLER","acc":["Q9XYZ1"]},{"seq":"SAMPLRE","acc":["A0A023GPI8","P69905","Q9XYZ1"]},{"seq":"EWECFCGK","acc":["P69905"]},',
    );
  });

  it('an empty page is an empty result array', () => {
    expect(
      JSON.parse(
        text(
          successJson(
            page([]),
            'accsTax',
            () => undefined,
            () => ({ ...envelope, totalResult: 0 }),
          ),
        ),
      ),
    ).toEqual({ ...envelope, totalResult: 0, result: [] });
  });
});

describe('cachedEntryJson: kept with the cached shard and charged to the cache budget', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await smallShardsDataset();
  }, 180_000);

  it('is built once the shard is used again, once per shape, and its bytes are added to the cache', async () => {
    const dataset = await Dataset.open(new FileSource(dir), { cacheBytes: 2 ** 30 });
    const located = await dataset.index.shardOfGroup(100);
    const shard = await dataset.shard(located.entry);
    expect(cachedEntryJson(dataset, shard, 'acc')).toBeUndefined(); // first use: the answer writes its entries
    expect(await dataset.shard(located.entry)).toBe(shard);
    const before = dataset.cacheStats.bytes;
    const acc = cachedEntryJson(dataset, shard, 'acc')!;
    expect(cachedEntryJson(dataset, shard, 'acc')).toBe(acc);
    expect(dataset.cacheStats.bytes).toBe(before + acc.bytes.byteLength + acc.ends.byteLength);
    const tax = cachedEntryJson(dataset, shard, 'accsTax')!;
    expect(tax).not.toBe(acc);
    expect(dataset.cacheStats.bytes).toBe(
      before + acc.bytes.byteLength + acc.ends.byteLength + tax.bytes.byteLength + tax.ends.byteLength,
    );
    expect(text(tax.bytes)).toBe(text(entryJson(shard, dataset.wholeAccessions!, 'accsTax').value.bytes));
  });

  it('is not built while it would not fit without evicting; when built, the cache stays within its budget', async () => {
    const probe = await Dataset.open(new FileSource(dir), { cacheBytes: 2 ** 30 });
    const { entry } = await probe.index.shardOfGroup(100);
    const tight = await Dataset.open(new FileSource(dir), { cacheBytes: entry.bytes * 2 + 1 }); // the decoded shard only
    await tight.shard(entry);
    expect(cachedEntryJson(tight, await tight.shard(entry), 'acc')).toBeUndefined();

    const budget = 256 * 1024;
    const dataset = await Dataset.open(new FileSource(dir), { cacheBytes: budget });
    let built = 0;
    let largest = 0;
    for (let g = 0; g < dataset.index.groupCount; g += 997) {
      const located = await dataset.index.shardOfGroup(g);
      await dataset.shard(located.entry);
      const shard = await dataset.shard(located.entry);
      const json = cachedEntryJson(dataset, shard, 'accsTax');
      if (json) {
        built++;
        expect(text(json.bytes)).toBe(text(entryJson(shard, dataset.wholeAccessions!, 'accsTax').value.bytes));
      }
      largest = Math.max(largest, entry.bytes * 2 + (json ? json.bytes.byteLength + json.ends.byteLength : 0));
      expect(dataset.cacheStats.bytes).toBeLessThanOrEqual(budget + largest);
    }
    expect(built).toBeGreaterThan(0);
    expect(dataset.cacheStats.shards).toBeLessThan(dataset.index.groupCount / 997);
  });

  it('a shard no longer cached gets none (its answer writes directly)', async () => {
    const probe = await Dataset.open(new FileSource(dir), { cacheBytes: 2 ** 30 });
    const { entry } = await probe.index.shardOfGroup(0);
    await probe.shard(entry);
    expect(cachedEntryJson(probe, await probe.shard(entry), 'acc')).toBeDefined();
    // A budget with room for this shard and its entry JSON (entry JSON is built only while the decoded
    // shard's size is still free): loading the other shards evicts it.
    const dataset = await Dataset.open(new FileSource(dir), { cacheBytes: probe.cacheStats.bytes + entry.bytes * 2 });
    await dataset.shard(entry);
    const shard = await dataset.shard(entry);
    expect(cachedEntryJson(dataset, shard, 'acc')).toBeDefined();
    for (let g = dataset.index.groupCount - 1; g > 0; g -= 500)
      await dataset.shard((await dataset.index.shardOfGroup(g)).entry);
    expect(dataset.cacheStats.shards).toBeLessThan(dataset.index.shardCount);
    expect(cachedEntryJson(dataset, shard, 'acc')).toBeUndefined();
  });
});

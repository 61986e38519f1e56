// Tests runtime/core/dataset.ts's accession table: the accessionTable option (a Dataset given the one-page table
// another decoded answers the same without reading the table file; a table of another dataset, or for a paged
// table, is refused), and a paged table read by the ranks an answer lists — only the pages holding them (down through
// inner pages), worked out here from the ranks and the page sizes, not by the runtime's lookup; shards and the other
// files are fetched under separate limits (concurrency, pageConcurrency).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Dataset } from '../../../../runtime/core/storage/dataset.js';
import { runQuery } from '../../../../runtime/core/range/search.js';
import type { ShardSource } from '../../../../runtime/core/storage/source.js';
import { FileSource } from '../../../../runtime/entries/node/fileSource.js';
import { accessionRefsOf } from '../../../../runtime/model/format.js';
import { CountingSource, isShardFile } from '../../../helpers/countingSource.js';
import {
  readAccessionTable,
  readManifest,
  removeTempDirs,
  subsetDataset,
  treeLevels,
} from '../../../helpers/datasets.js';
import { retreedDataset } from '../../../helpers/indexTrees.js';
import { folderHandler } from '../../../helpers/api.js';

afterAll(removeTempDirs);

describe('Dataset.open with accessionTable', () => {
  it('answers as a Dataset that reads the table, without reading it', async () => {
    const dir = await subsetDataset(40, 4096);
    const manifest = readManifest(dir);
    const query = { lowKey: 0, highKey: 2 ** 32 - 1, page: 2, pageSize: 50 };
    const plain = await Dataset.open(new FileSource(dir));
    const counting = new CountingSource(new FileSource(dir));
    const given = await Dataset.open(counting, { accessionTable: readAccessionTable(dir) });
    const [a, b] = [await runQuery(plain, query), await runQuery(given, query)];
    expect(b.totalResult).toBe(a.totalResult);
    expect(b.groups.map((g) => [g.shard.massKeys[g.group], g.shard.sequences])).toEqual(
      a.groups.map((g) => [g.shard.massKeys[g.group], g.shard.sequences]),
    );
    expect(counting.reads).not.toContain(manifest.accessions.pages[0].file);
    expect(counting.shardReads.length).toBeGreaterThan(0);
  });

  it('refuses a table whose size is not the manifest’s', async () => {
    const small = readAccessionTable(await subsetDataset(40, 4096));
    await expect(
      Dataset.open(new FileSource(await subsetDataset(60, 4096)), { accessionTable: small }),
    ).rejects.toThrow(/not this dataset’s/);
  });
});

describe('a paged accession table', () => {
  const PAGE = 16;
  let whole: string;
  let paged: string;
  beforeAll(async () => {
    whole = await subsetDataset(400, 4096);
    paged = retreedDataset(whole, 'paged-accessions', {
      index: {},
      proteinPage: 64,
      proteins: { rootLimit: 4, innerPages: 4 },
      accessionPage: PAGE,
      accessions: { rootLimit: 3, innerPages: 3 },
    });
  }, 300_000);

  it('is the dataset the case is named for: pages of 16 under inner pages', () => {
    const { accessions } = readManifest(paged);
    expect(accessions.levels).toBeGreaterThanOrEqual(3);
    expect(
      treeLevels(paged, accessions)
        .at(-1)!
        .map((p) => p.accessions)
        .slice(0, -1)
        .every((n) => n === PAGE),
    ).toBe(true);
    expect(accessions.count).toBeGreaterThan(20 * PAGE);
  });

  it('reads only the pages of the ranks a page of results lists, and the inner pages above them', async () => {
    const { accessions } = readManifest(paged);
    const levels = treeLevels(paged, accessions);
    const leaves = levels.at(-1)!;
    const inner = new Set(
      levels
        .slice(1, -1)
        .flat()
        .map((p) => p.file)
        .concat(levels.length > 1 ? levels[0].map((p) => p.file) : []),
    );
    for (const [page, pageSize] of [
      [1, 3],
      [2, 7],
      [5, 1],
    ]) {
      const counting = new CountingSource(new FileSource(paged));
      const dataset = await Dataset.open(counting);
      const result = await runQuery(dataset, { lowKey: 0, highKey: 2 ** 32 - 1, page, pageSize });
      const ranks = new Set<number>();
      for (const { shard, group } of result.groups) {
        for (let p = group === 0 ? 0 : shard.groupEnds[group - 1]; p < shard.groupEnds[group]; p++)
          accessionRefsOf(shard, p).forEach((a) => ranks.add(a));
      }
      const wanted = new Set([...ranks].map((a) => leaves[Math.floor(a / PAGE)].file));
      const read = counting.reads.filter((f) => f.startsWith('accessions-') && !inner.has(f));
      expect(new Set(read), `page ${page} of ${pageSize}`).toEqual(wanted);
      expect(read.length).toBe(wanted.size); // each once
      expect(counting.reads.filter((f) => inner.has(f)).length).toBeLessThanOrEqual(wanted.size * (levels.length - 1));
      for (const a of ranks) expect(result.accessions.has(a)).toBe(true);
    }
  });

  it('fetches shards and the other files under separate limits: concurrency and pageConcurrency', async () => {
    for (const [concurrency, pageConcurrency] of [
      [1, 3],
      [3, 1],
    ]) {
      const source = new InFlightSource(new FileSource(paged));
      const dataset = await Dataset.open(source, { concurrency, pageConcurrency });
      await runQuery(dataset, { lowKey: 0, highKey: 2 ** 32 - 1, page: 1, pageSize: 2000 });
      expect(source.most, `concurrency ${concurrency}, pageConcurrency ${pageConcurrency}`).toEqual({
        shard: concurrency,
        other: pageConcurrency,
      });
    }
  });

  it('answers every endpoint as the dataset whose table is one page', async () => {
    const [one, many] = [folderHandler(whole), folderHandler(paged)];
    const urls = [
      '/search.php?mass1=1000&mass2=1100&pageSize=50',
      '/search-taxonomy.php?mass1=1200&mass2=1300&page=2&pageSize=20',
      '/api/v1/search?mass=1500&tolerance=200&fixed=Carbamidomethyl@C&variable=Oxidation@M',
      '/api/v1/search?mass=1500&tolerance=500&reviewed=false&proteins=true',
      '/api/v1/search?mass=1800&tolerance=500&taxon=2',
    ];
    for (const url of urls) {
      const [a, b] = [await one(new Request(`http://x${url}`)), await many(new Request(`http://x${url}`))];
      expect([a.status, b.status], url).toEqual([200, 200]);
      expect(strip(await b.text()), url).toBe(strip(await a.text()));
    }
  });
});

/** A source whose reads each take 20 ms, counting the most reads of shards and of other files in flight at once. */
class InFlightSource implements ShardSource {
  readonly description = 'in-flight counting';
  readonly most = { shard: 0, other: 0 };
  private now = { shard: 0, other: 0 };
  constructor(private inner: ShardSource) {}

  async get(file: string): Promise<Uint8Array> {
    const kind = isShardFile(file) ? 'shard' : 'other';
    this.most[kind] = Math.max(this.most[kind], ++this.now[kind]);
    try {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return await this.inner.get(file);
    } finally {
      this.now[kind]--;
    }
  }
}

/** An answer without the fields that vary from call to call. */
const strip = (text: string) => text.replace(/"duration":"[^"]*"/, '').replace(/"memory":"[^"]*"/, '');

// Tests runtime/core/dataset.ts's accessionTable option: a Dataset given the table another Dataset of the same
// dataset decoded answers the same without reading the table file; a table of another dataset is refused.
import { afterAll, describe, expect, it } from 'vitest';
import { Dataset } from '../../../runtime/core/dataset.js';
import { runQuery } from '../../../runtime/core/search.js';
import { FileSource } from '../../../runtime/entries/node/fileSource.js';
import { CountingSource } from '../../helpers/countingSource.js';
import { readAccessionTable, readManifest, removeTempDirs, subsetDataset } from '../../helpers/datasets.js';

afterAll(removeTempDirs);

describe('Dataset.open with accessionTable', () => {
  it('answers as a Dataset that reads the table, without reading it', async () => {
    const dir = await subsetDataset(40, 4096);
    const manifest = readManifest(dir);
    const query = { lowKey: 0, highKey: 2 ** 32 - 1, page: 2, pageSize: 50 };
    const plain = await Dataset.open(new FileSource(dir));
    const counting = new CountingSource(new FileSource(dir));
    const given = await Dataset.open(counting, { accessionTable: await plain.accessionTable() });
    const [a, b] = [await runQuery(plain, query), await runQuery(given, query)];
    expect(b.totalResult).toBe(a.totalResult);
    expect(b.groups.map((g) => [g.shard.massKeys[g.group], g.shard.sequences])).toEqual(a.groups.map((g) => [g.shard.massKeys[g.group], g.shard.sequences]));
    expect(counting.reads).not.toContain(manifest.accessions.pages[0].file);
    expect(counting.shardReads.length).toBeGreaterThan(0);
  });

  it('refuses a table whose size is not the manifest’s', async () => {
    const small = readAccessionTable(await subsetDataset(40, 4096));
    await expect(Dataset.open(new FileSource(await subsetDataset(60, 4096)), { accessionTable: small })).rejects.toThrow(/not this dataset’s/);
  });
});

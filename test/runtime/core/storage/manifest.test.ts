// Tests runtime/core/manifest.ts: readManifest on in-memory sources — a valid flat and two-level manifest, and every
// refusal as an unavailable DatasetError with its exact message: missing, hanging, not JSON, wrong format, a format 1
// dataset (named, with what to do), an unknown compression, no accession table, no shard list, a shard list or index
// root that does not tile the mass line, an index tree, accession or protein table of levels outside 1..4, and a view
// (manifest `views`) that names no modification, lists no shards, does not tile or has levels outside 1..4.
import { describe, expect, it } from 'vitest';
import { DatasetError } from '../../../../runtime/core/errors.js';
import { readManifest } from '../../../../runtime/core/storage/manifest.js';
import { SourceError, type ShardSource } from '../../../../runtime/core/storage/source.js';

/** A source holding only manifest.json with `text` (or failing with `error`), recording what is read. */
function manifestSource(text: string | Error | 'hang') {
  const reads: string[] = [];
  const source: ShardSource = {
    description: 'memory',
    get(file) {
      reads.push(file);
      if (text === 'hang') return new Promise<Uint8Array>(() => {});
      if (text instanceof Error) return Promise.reject(text);
      return file === 'manifest.json'
        ? Promise.resolve(new TextEncoder().encode(text))
        : Promise.reject(new SourceError(`${file}: not found`, false));
    },
  };
  return { source, reads };
}

const shard = (firstKey: number, lastKey: number, massGroups = 2, peptides = 3) => ({
  file: `${firstKey}.msgpack`,
  firstKey,
  lastKey,
  massGroups,
  peptides,
  bytes: 10,
  sha256: 'x',
});
const page = (firstKey: number, lastKey: number, massGroups = 4, peptides = 6) => ({
  file: `index-${firstKey}.json`,
  sha256: 'x',
  bytes: 10,
  firstShard: 0,
  shards: 2,
  firstKey,
  lastKey,
  massGroups,
  peptides,
});
const base = {
  format: 'digested-peptides',
  formatVersion: 3,
  compression: 'gzip',
  datasetVersion: 'v',
  parameters: {},
  sources: [],
  totals: {},
  accessions: { count: 3, pages: [{ file: 'accessions-a.msgpack.gz', sha256: 'x', bytes: 10, accessions: 3 }] },
};

async function refusal(text: string | Error | 'hang', timeoutMs = 1000) {
  const error = await readManifest(manifestSource(text).source, timeoutMs).then(
    () => {
      throw new Error('accepted');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DatasetError);
  return { kind: (error as DatasetError).kind, message: (error as DatasetError).message };
}

describe('readManifest', () => {
  it('reads a valid flat manifest from manifest.json only', async () => {
    const manifest = { ...base, shards: [shard(10, 20), shard(21, 21, 1, 1), shard(30, 90)] };
    const { source, reads } = manifestSource(JSON.stringify(manifest));
    expect(await readManifest(source, 1000)).toEqual(manifest);
    expect(reads).toEqual(['manifest.json']);
  });

  it('reads a valid two-level manifest without reading its pages', async () => {
    const manifest = { ...base, shardIndex: { pages: [page(10, 20), page(25, 40)] } };
    const { source, reads } = manifestSource(JSON.stringify(manifest));
    expect(await readManifest(source, 1000)).toEqual(manifest);
    expect(reads).toEqual(['manifest.json']);
  });

  it('is unavailable when the manifest is missing or the source fails, with the source message', async () => {
    expect(await refusal(new SourceError('manifest.json: not found', false))).toEqual({
      kind: 'unavailable',
      message: 'dataset unavailable: manifest.json: not found',
    });
    expect(await refusal(new SourceError('manifest.json: HTTP 500', true))).toEqual({
      kind: 'unavailable',
      message: 'dataset unavailable: manifest.json: HTTP 500',
    });
  });

  it('is unavailable when the source does not answer within the timeout', async () => {
    const started = performance.now();
    expect(await refusal('hang', 30)).toEqual({
      kind: 'unavailable',
      message: 'dataset unavailable: manifest.json: no answer within 30 ms',
    });
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('is unavailable when manifest.json is not JSON', async () => {
    for (const text of ['', '{', 'not json', '{"format": "digested-peptides",}', '\u0000']) {
      expect(await refusal(text)).toEqual({
        kind: 'unavailable',
        message: 'dataset unavailable: manifest.json is not valid JSON',
      });
    }
  });

  it('reads a tree of index pages (levels 1 to 4, absent: 1) for the shard index, the accession table and the protein table', async () => {
    for (const levels of [undefined, 1, 2, 4]) {
      const manifest = {
        ...base,
        shardIndex: { pages: [page(10, 20), page(25, 40)], levels },
        accessions: { ...base.accessions, levels },
        proteins: { pages: [], levels },
      };
      expect(await readManifest(manifestSource(JSON.stringify(manifest)).source, 1000)).toEqual(
        JSON.parse(JSON.stringify(manifest)),
      );
    }
  });

  it('is unavailable for a tree of levels it cannot walk (outside 1..4, or not a whole number)', async () => {
    for (const levels of [0, 5, 1.5, '2', null, -1]) {
      expect(await refusal(JSON.stringify({ ...base, shardIndex: { pages: [page(10, 20)], levels } }))).toEqual({
        kind: 'unavailable',
        message: `dataset unavailable: the shard index has ${JSON.stringify(levels)} levels of pages; this server reads 1 to 4`,
      });
      expect(
        await refusal(JSON.stringify({ ...base, shards: [shard(10, 20)], proteins: { pages: [], levels } })),
      ).toEqual({
        kind: 'unavailable',
        message: `dataset unavailable: the protein table has ${JSON.stringify(levels)} levels of pages; this server reads 1 to 4`,
      });
      expect(
        await refusal(JSON.stringify({ ...base, shards: [shard(10, 20)], accessions: { ...base.accessions, levels } })),
      ).toEqual({
        kind: 'unavailable',
        message: `dataset unavailable: the accession table has ${JSON.stringify(levels)} levels of pages; this server reads 1 to 4`,
      });
    }
  });

  it('is unavailable for another format, or JSON that is no manifest', async () => {
    const wrong = 'dataset unavailable: manifest is not a digested-peptides dataset';
    for (const manifest of [{ ...base, format: 'other' }, { shards: [] }, null, 42, 'text', []]) {
      expect(await refusal(JSON.stringify(manifest)), JSON.stringify(manifest)).toEqual({
        kind: 'unavailable',
        message: wrong,
      });
    }
  });

  it('is unavailable naming the version of a dataset in another format version, and what to do', async () => {
    for (const version of [1, 2, 4, '3']) {
      expect(await refusal(JSON.stringify({ ...base, formatVersion: version, shards: [shard(10, 20)] }))).toEqual({
        kind: 'unavailable',
        message: `dataset unavailable: the dataset is format version ${version}; this server reads version 3 only (rebuild it with npm run build:shards)`,
      });
    }
  });

  it('is unavailable for an unknown compression or a missing accession table', async () => {
    for (const compression of ['zstd', undefined, 'GZIP']) {
      expect(await refusal(JSON.stringify({ ...base, compression, shards: [shard(10, 20)] }))).toEqual({
        kind: 'unavailable',
        message: `dataset unavailable: manifest names an unknown compression "${String(compression)}"`,
      });
    }
    for (const accessions of [
      undefined,
      {},
      null,
      { count: 3 },
      { pages: [] },
      { count: '3', pages: [] },
      { file: 'accessions-a.msgpack.gz', sha256: 'x', bytes: 10, count: 3 },
    ]) {
      expect(await refusal(JSON.stringify({ ...base, accessions, shards: [shard(10, 20)] }))).toEqual({
        kind: 'unavailable',
        message: 'dataset unavailable: manifest lists no accession table',
      });
    }
  });

  it('is unavailable when the manifest lists no shards', async () => {
    for (const manifest of [
      base,
      { ...base, shards: null },
      { ...base, shards: {} },
      { ...base, shardIndex: {} },
      { ...base, shardIndex: { pages: 'x' } },
    ]) {
      expect(await refusal(JSON.stringify(manifest)), JSON.stringify(manifest)).toEqual({
        kind: 'unavailable',
        message: 'dataset unavailable: manifest lists no shards',
      });
    }
  });

  it('is unavailable naming the first tiling violation of the shard list or the index root', async () => {
    const cases: [unknown, string][] = [
      [{ ...base, shards: [shard(10, 20), shard(20, 30)] }, "shard 1 starts at 20, not above shard 0's last key 20"],
      [
        { ...base, shards: [shard(10, 20), shard(30, 40), shard(35, 50)] },
        "shard 2 starts at 35, not above shard 1's last key 40",
      ],
      [{ ...base, shards: [shard(10, 20), shard(40, 30)] }, 'shard 1 has firstKey 40 > lastKey 30'],
      [{ ...base, shards: [shard(10, 20, 0, 0)] }, 'shard 0 has 0 groups and 0 peptides'],
      [{ ...base, shards: [shard(10, 20, 3, 2)] }, 'shard 0 has 3 groups and 2 peptides'],
      [
        { ...base, shardIndex: { pages: [page(10, 20), page(15, 40)] } },
        "shard 1 starts at 15, not above shard 0's last key 20",
      ],
    ];
    for (const [manifest, problem] of cases) {
      expect(await refusal(JSON.stringify(manifest))).toEqual({
        kind: 'unavailable',
        message: `dataset unavailable: ${problem}`,
      });
    }
  });

  it('reads views (a flat one and one of index pages) and is unavailable naming the first view that is not one', async () => {
    const view = (index: object) => ({ fixed: 'Carbamidomethyl@C', totals: {}, ...index });
    const manifest = {
      ...base,
      shards: [shard(10, 20)],
      views: [
        view({ shards: [shard(15, 25), shard(30, 31)] }),
        view({ shardIndex: { pages: [page(10, 20)], levels: 2 } }),
      ],
    };
    expect(await readManifest(manifestSource(JSON.stringify(manifest)).source, 1000)).toEqual(manifest);
    const cases: [unknown, string][] = [
      [{ views: {} }, 'manifest views is not a list'],
      [{ views: [null] }, 'view 0 names no modification (fixed)'],
      [{ views: [view({ shards: [shard(1, 2)] }), { shards: [shard(1, 2)] }] }, 'view 1 names no modification (fixed)'],
      [{ views: [view({})] }, 'view 0 lists no shards'],
      [{ views: [view({ shardIndex: { pages: 'x' } })] }, 'view 0 lists no shards'],
      [
        { views: [view({ shards: [shard(10, 20), shard(20, 30)] })] },
        "view 0 shard 1 starts at 20, not above shard 0's last key 20",
      ],
      [
        { views: [view({ shardIndex: { pages: [page(10, 20)], levels: 5 } })] },
        'view 0 has 5 levels of index pages; this server reads 1 to 4',
      ],
    ];
    for (const [views, problem] of cases) {
      expect(await refusal(JSON.stringify({ ...base, shards: [shard(10, 20)], ...(views as object) }))).toEqual({
        kind: 'unavailable',
        message: `dataset unavailable: ${problem}`,
      });
    }
  });
});

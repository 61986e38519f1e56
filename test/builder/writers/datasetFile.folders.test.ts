// Tests the placement of a dataset's files in hash folders (build --folder-digits, placedFile): every file but the
// manifest sits in the folder named by the first digits of its sha256, shards are the flat build's bytes, the
// runtime answers as from the flat build, parts merge into the same folders, publishing removes stale files in
// folders (and folders left empty), and the build finds the fullest folder.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mergeParts } from '../../../builder/phases/merge.js';
import { buildPart } from '../../../builder/phases/pipeline.js';
import { crowdingWarning, datasetFiles, fullestFolder } from '../../../builder/writers/publish.js';
import {
  build,
  readManifest,
  removeTempDirs,
  SAMPLE_TAXDUMP,
  sampleRecords,
  sampleSubset,
  shardEntries,
  snapshot,
  tempDir,
  writeFixture,
} from '../../helpers/datasets.js';
import { call, folderHandler } from '../../helpers/api.js';
import { expectSameFolder } from '../../helpers/folders.js';

afterAll(removeTempDirs);

describe('a dataset built with --folder-digits 2', () => {
  let flat: string;
  let fanned: string;
  beforeAll(async () => {
    const root = tempDir('folders');
    const input = sampleSubset(600);
    flat = join(root, 'flat');
    fanned = join(root, 'fanned');
    // Small shards: an index tree, many files.
    await build([input], flat, { shardBytes: 2048, taxdump: SAMPLE_TAXDUMP });
    await build([input], fanned, { shardBytes: 2048, taxdump: SAMPLE_TAXDUMP, folderDigits: 2 });
  }, 120_000);

  it('places every file but the manifest in the folder of its sha256 first 2 hex digits, and nothing else', () => {
    const manifest = readManifest(fanned);
    expect(manifest.parameters.folderDigits).toBe(2);
    const listed = datasetFiles(manifest, fanned);
    expect(listed.length).toBeGreaterThan(300);
    for (const file of listed) {
      const sha256 = createHash('sha256')
        .update(readFileSync(join(fanned, file)))
        .digest('hex');
      expect(file).toBe(`${sha256.slice(0, 2)}/${basename(file)}`);
      expect(
        basename(file).startsWith(sha256.slice(0, 20)) || basename(file).includes(`-${sha256.slice(0, 20)}.`),
      ).toBe(true);
    }
    const onDisk = [...snapshot(fanned).keys()].filter((f) => !f.endsWith('/') && f !== 'manifest.json').sort();
    expect(onDisk).toEqual([...listed].sort());
    expect(readdirSync(fanned).filter((f) => !/^[0-9a-f]{2}$/.test(f))).toEqual(['manifest.json']);
  });

  it('stores the same shard bytes as the flat build, under the same names', () => {
    const flatShards = shardEntries(flat);
    const fannedShards = shardEntries(fanned);
    expect(fannedShards.map((s) => basename(s.file))).toEqual(flatShards.map((s) => s.file));
    fannedShards.forEach((s, i) =>
      expect(readFileSync(join(fanned, s.file)).equals(readFileSync(join(flat, flatShards[i].file)))).toBe(true),
    );
  });

  it('answers every endpoint as the flat build does', async () => {
    const queries = [
      '/search.php?mass1=1000&mass2=1010&page=1&pageSize=100',
      '/search.php?mass1=2000.5&mass2=2003&page=1&pageSize=50',
      '/api/v1/search?mz=650.32&charge=2&tolerance=20&fixed=Carbamidomethyl@C&variable=Oxidation@M',
      '/search-taxonomy.php?mass1=1500&mass2=1520&taxonomyID=9606',
      '/api/v1/info',
    ];
    const [a, b] = [folderHandler(flat), folderHandler(fanned)];
    for (const query of queries) {
      const [x, y] = [await call(a, query), await call(b, query)];
      expect(x.status, query).toBe(200);
      expect(JSON.stringify(x.body).length, query).toBeGreaterThan(300); // real answers, not empty pages
      expect(y.status, query).toBe(200);
      expect(
        JSON.stringify(y.body, (k, v) =>
          k === 'duration' || k === 'memory' || k === 'datasetVersion' || k === 'parameters' ? undefined : v,
        ),
      ).toBe(
        JSON.stringify(x.body, (k, v) =>
          k === 'duration' || k === 'memory' || k === 'datasetVersion' || k === 'parameters' ? undefined : v,
        ),
      );
    }
  });

  it('finds the fullest folder', () => {
    expect(fullestFolder([])).toEqual({ folder: '', files: 0 });
    expect(fullestFolder(['a', 'ab/x', 'ab/y', 'ab/w', 'cd/z', 'b'])).toEqual({ folder: 'ab', files: 3 });
    expect(fullestFolder(['a', 'ab/x', 'b'])).toEqual({ folder: '', files: 2 });
    const many = Array.from({ length: 50_001 }, (_, i) => `ab/${i}`);
    expect(crowdingWarning(many, 2)).toBe(
      'warning: folder ab holds 50001 files, more than hosts such as Netlify allow in one folder: build with --folder-digits 3',
    );
    expect(crowdingWarning(many.slice(1), 2)).toBeUndefined();
    const fullest = fullestFolder(datasetFiles(readManifest(fanned), fanned));
    expect(fullest.files).toBeLessThan(datasetFiles(readManifest(fanned), fanned).length / 64);
  });
});

describe('hash folders across builds', () => {
  it('parts built with --folder-digits merge into the single build, byte for byte', async () => {
    const input = sampleSubset(200);
    const root = tempDir('folders-parts');
    const options = {
      enzyme: 'trypsin',
      missedCleavages: 2,
      minLength: 6,
      maxLength: 50,
      threads: 0,
      shardBytes: 1024,
      folderDigits: 1,
      cutRecords: 2000,
    };
    await build([input], join(root, 'single'), options);
    const dirs = [];
    for (const index of [1, 2, 3]) {
      dirs.push(join(root, `p${index}`));
      await buildPart({ ...options, inputs: [input], out: join(root, `p${index}`) }, { index, count: 3 });
    }
    mergeParts(dirs, join(root, 'merged'));
    expectSameFolder(join(root, 'merged'), join(root, 'single'));
  }, 120_000);

  it('publishing removes the files no kept manifest lists from the folders, and folders left empty', async () => {
    const dir = tempDir('folders-generations');
    const out = join(dir, 'out');
    const generation = async (from: number) => {
      await build([writeFixture(dir, `g${from}.fasta`, sampleRecords(15, from))], out, {
        shardBytes: 4096,
        folderDigits: 3,
      });
      return datasetFiles(readManifest(out), out);
    };
    const a = await generation(0);
    const b = await generation(15);
    const c = await generation(30);
    const onDisk = [...snapshot(out).keys()].filter((f) => !f.endsWith('/') && f !== 'manifest.json').sort();
    expect(onDisk).toEqual([...new Set([...b, ...c])].sort());
    const folders = [...snapshot(out).keys()].filter((f) => f.endsWith('/')).map((f) => f.slice(0, -1));
    for (const folder of folders) expect(readdirSync(join(out, folder)).length).toBeGreaterThan(0);
    expect(a.some((f) => !b.includes(f) && !c.includes(f) && existsSync(join(out, f)))).toBe(false);
  }, 60_000);
});

// Tests builder/writers/publish.ts: publish moves the new files in, then replaces manifest.json in one rename of a
// complete file, and only then removes the shards, index pages, protein pages and taxonomy files no manifest (new or
// previous) lists, leaving other files — inner pages of index and protein trees as well; openStaging creates the output
// folder and a fresh staging folder, removing those of builds whose process is gone.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import * as fs from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { writeShardIndex } from '../../../builder/writers/indexPages.js';
import { writeProteinPages } from '../../../builder/writers/proteinTable.js';
import { openStaging, publish } from '../../../builder/writers/publish.js';
import type { Manifest } from '../../../runtime/model/format.js';
import { accessionColumns } from '../../helpers/accessionColumns.js';
import { removeTempDirs, tempDir } from '../../helpers/datasets.js';

/** The file-system calls publish makes, in order, with their paths. */
const events: string[] = [];
vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs')>();
  const logged =
    <A extends unknown[], R>(name: string, f: (...args: A) => R) =>
    (...args: A): R => (
      events.push([name, ...args.slice(0, 2).filter((a) => typeof a === 'string')].join(' ')), f(...args)
    );
  return {
    ...actual,
    renameSync: logged('rename', actual.renameSync),
    rmSync: logged('rm', actual.rmSync),
    writeFileSync: logged('write', actual.writeFileSync),
  };
});

afterAll(removeTempDirs);
beforeEach(() => {
  events.length = 0;
});

const manifest = (files: string[], pages: string[] = []) =>
  ({
    format: 'digested-peptides',
    formatVersion: 2,
    compression: 'gzip',
    datasetVersion: files.join('+'),
    ...(pages.length
      ? { shardIndex: { pages: pages.map((file) => ({ file })) } }
      : { shards: files.map((file) => ({ file })) }),
  }) as unknown as Manifest;

/** A staging folder holding `files` (and, for a paged manifest, its page files listing them). */
function stage(out: string, files: string[], page?: string): { tmp: string; manifest: Manifest } {
  const tmp = join(out, `.build-test-${Math.random().toString(36).slice(2)}`);
  mkdirSync(tmp, { recursive: true });
  for (const f of files) writeFileSync(join(tmp, f), `content of ${f}`);
  if (page)
    writeFileSync(
      join(tmp, page),
      gzipSync(JSON.stringify({ formatVersion: 2, firstShard: 0, shards: files.map((file) => ({ file })) })),
    );
  return { tmp, manifest: page ? manifest(files, [page]) : manifest(files) };
}

const published = (out: string) => JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
const listing = (out: string) =>
  readdirSync(out)
    .filter((f) => !f.startsWith('.build-'))
    .sort();

describe('publish', () => {
  it('moves the files in and writes the manifest, into an empty folder', () => {
    const out = tempDir('publish-first');
    const { tmp, manifest: m } = stage(out, ['a.msgpack', 'b.msgpack']);
    publish(tmp, out, m);
    expect(listing(out)).toEqual(['a.msgpack', 'b.msgpack', 'manifest.json']);
    expect(readFileSync(join(out, 'a.msgpack'), 'utf8')).toBe('content of a.msgpack');
    expect(published(out)).toEqual(m);
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('is atomic: files first, then the manifest in one rename of a complete file, then removals', () => {
    const out = tempDir('publish-order');
    publish(stage(out, ['old.msgpack']).tmp, out, manifest(['old.msgpack']));
    publish(stage(out, ['mid.msgpack']).tmp, out, manifest(['mid.msgpack']));
    const before = statSync(join(out, 'manifest.json')).ino;
    const { tmp, manifest: m } = stage(out, ['n1.msgpack', 'n2.msgpack'], 'index-n.json');
    events.length = 0;
    publish(tmp, out, m);
    const manifestRename = events.indexOf(`rename ${join(tmp, 'manifest.json')} ${join(out, 'manifest.json')}`);
    expect(manifestRename).toBeGreaterThan(0);
    for (const f of ['index-n.json', 'n1.msgpack', 'n2.msgpack'])
      expect(events.indexOf(`rename ${join(tmp, f)} ${join(out, f)}`)).toBeLessThan(manifestRename);
    expect(events.filter((e) => e.startsWith('write')).map((e) => e.split(' ')[1])).toEqual([
      join(tmp, 'manifest.json'),
    ]); // staged, never written in place
    const removals = events.flatMap((e, i) => (e.startsWith('rm') ? [i] : []));
    expect(removals.length).toBe(1);
    expect(removals.every((i) => i > manifestRename)).toBe(true);
    expect(events[removals[0]]).toBe(`rm ${join(out, 'old.msgpack')}`);
    expect(statSync(join(out, 'manifest.json')).ino).not.toBe(before);
  });

  it('keeps the previous generation’s files, removes older ones, and leaves files that are no dataset files', () => {
    const out = tempDir('publish-generations');
    publish(stage(out, ['a.msgpack', 'b.msgpack']).tmp, out, manifest(['a.msgpack', 'b.msgpack']));
    for (const f of ['stale.msgpack', 'index-stale.json', 'README.md', 'notes.json', 'index.json', 'x.msgpack.bak'])
      writeFileSync(join(out, f), 'x');
    const second = stage(out, ['b.msgpack', 'd.msgpack'], 'index-two.json');
    publish(second.tmp, out, second.manifest);
    expect(published(out)).toEqual(second.manifest);
    expect(listing(out)).toEqual([
      'README.md',
      'a.msgpack',
      'b.msgpack',
      'd.msgpack',
      'index-two.json',
      'index.json',
      'manifest.json',
      'notes.json',
      'x.msgpack.bak',
    ]);
    const third = stage(out, ['e.msgpack']);
    publish(third.tmp, out, third.manifest);
    expect(listing(out)).toEqual([
      'README.md',
      'b.msgpack',
      'd.msgpack',
      'e.msgpack',
      'index-two.json',
      'index.json',
      'manifest.json',
      'notes.json',
      'x.msgpack.bak',
    ]);
  });

  it('moves the accession table, protein and sequence pages and the taxonomy file in with the shards, and removes them like shards when no kept manifest lists them', () => {
    const out = tempDir('publish-tables');
    const generation = (name: string) => {
      const files = [
        `${name}.msgpack.gz`,
        `accessions-${name}.msgpack.gz`,
        `proteins-${name}.json.gz`,
        `taxonomy-${name}.json.gz`,
        `sequences-${name}.json.gz`,
      ];
      const { tmp, manifest: m } = stage(out, files);
      const full = {
        ...m,
        shards: [{ file: files[0] }],
        accessions: { pages: [{ file: files[1] }] },
        proteins: { pages: [{ file: files[2] }] },
        taxonomy: { file: files[3] },
        sequences: { pages: [{ file: files[4] }] },
      } as unknown as Manifest;
      events.length = 0;
      publish(tmp, out, full);
      const manifestRename = events.indexOf(`rename ${join(tmp, 'manifest.json')} ${join(out, 'manifest.json')}`);
      for (const f of files)
        expect(events.indexOf(`rename ${join(tmp, f)} ${join(out, f)}`)).toBeLessThan(manifestRename);
      expect(readdirSync(tmp)).toEqual([]);
    };
    const named = (...names: string[]) =>
      names.flatMap((n) => [
        `${n}.msgpack.gz`,
        `accessions-${n}.msgpack.gz`,
        `proteins-${n}.json.gz`,
        `taxonomy-${n}.json.gz`,
        `sequences-${n}.json.gz`,
      ]);
    generation('a');
    writeFileSync(join(out, 'proteins.json.gz'), 'not a dataset file');
    generation('b');
    expect(listing(out)).toEqual([...named('a', 'b'), 'manifest.json', 'proteins.json.gz'].sort());
    // Format 1's files (plain .msgpack and .json) go the same way once no kept manifest lists them.
    for (const old of [
      '0123.msgpack',
      'index-0123.json',
      'proteins-0123.json',
      'taxonomy-0123.json',
      'sequences-0.json',
    ])
      writeFileSync(join(out, old), 'x');
    generation('c');
    expect(listing(out)).toEqual([...named('b', 'c'), 'manifest.json', 'proteins.json.gz'].sort());
  });

  it('moves every page of index and protein trees in (inner pages too), keeps them while a kept manifest lists them, then removes them', () => {
    const out = tempDir('publish-trees');
    const treeGeneration = () => {
      const tmp = join(out, '.build-test-tree');
      mkdirSync(tmp, { recursive: true });
      const shards = Array.from({ length: 12 }, (_, i) => ({
        file: `${String(i).padStart(20, '0')}.msgpack.gz`,
        firstKey: 10 * i,
        lastKey: 10 * i + 5,
        massGroups: 1,
        peptides: 1,
        bytes: 1,
        sha256: 'x',
      }));
      for (const s of shards) writeFileSync(join(tmp, s.file), 'x');
      const sorted = Array.from({ length: 9 }, (_, i) => `P${i}`);
      const ranked = accessionColumns({
        sorted,
        taxIds: new Int32Array(9),
        reviewed: new Uint8Array(9),
        proteins: sorted,
        organisms: sorted,
      });
      const m = {
        format: 'digested-peptides',
        formatVersion: 2,
        compression: 'gzip',
        datasetVersion: 'tree',
        ...writeShardIndex(tmp, shards, 'gzip', { pageShards: 2, flatLimit: 0, rootLimit: 2, innerPages: 2 }),
        proteins: writeProteinPages(tmp, ranked, 'gzip', 2, { rootLimit: 2, innerPages: 2 }),
      } as Manifest;
      expect([m.shardIndex!.levels, m.proteins!.levels]).toEqual([3, 3]);
      const files = readdirSync(tmp);
      publish(tmp, out, m);
      return files;
    };
    const files = treeGeneration();
    expect(files.filter((f) => f.startsWith('index-'))).toHaveLength(2 + 3 + 6);
    expect(files.filter((f) => f.startsWith('proteins-index-'))).toHaveLength(2 + 3);
    expect(listing(out)).toEqual([...files, 'manifest.json'].sort());
    publish(stage(out, ['a.msgpack']).tmp, out, manifest(['a.msgpack']));
    expect(listing(out)).toEqual([...files, 'a.msgpack', 'manifest.json'].sort()); // the previous generation's, kept
    publish(stage(out, ['b.msgpack']).tmp, out, manifest(['b.msgpack']));
    expect(listing(out)).toEqual(['a.msgpack', 'b.msgpack', 'manifest.json']);
  });

  it('when the published manifest is unreadable, keeps only the new dataset’s files', () => {
    const out = tempDir('publish-garbage');
    for (const f of ['manifest.json', 'old.msgpack', 'index-old.json']) writeFileSync(join(out, f), 'not json');
    const { tmp, manifest: m } = stage(out, ['new.msgpack']);
    publish(tmp, out, m);
    expect(listing(out)).toEqual(['manifest.json', 'new.msgpack']);
    expect(published(out)).toEqual(m);
  });
});

describe('openStaging', () => {
  it('creates the output folder and an empty staging folder named for this process', () => {
    const out = join(tempDir('staging-new'), 'deep', 'out');
    const staging = openStaging(out);
    expect(staging.startsWith(join(out, `.build-${process.pid}-`))).toBe(true);
    expect(statSync(staging).isDirectory()).toBe(true);
    expect(readdirSync(staging)).toEqual([]);
    expect(openStaging(out)).not.toBe(staging);
  });

  it('removes staging folders of dead builds, keeps live ones and everything else', () => {
    const out = tempDir('staging-stale');
    const names = [
      `.build-${process.pid}-live`,
      `.build-${process.ppid}-parent`,
      '.build-999999999-dead',
      '.build-notapid-x',
      'shards',
      '.other',
    ];
    for (const name of names) {
      mkdirSync(join(out, name));
      writeFileSync(join(out, name, 'partial.bin'), 'x');
    }
    writeFileSync(join(out, 'a.msgpack'), 'x');
    const staging = openStaging(out);
    const left = readdirSync(out)
      .filter((n) => join(out, n) !== staging)
      .sort();
    expect(left).toEqual(
      [`.build-${process.pid}-live`, `.build-${process.ppid}-parent`, '.other', 'a.msgpack', 'shards'].sort(),
    );
    expect(existsSync(join(out, `.build-${process.pid}-live`, 'partial.bin'))).toBe(true);
    expect(fs.existsSync(join(out, '.build-999999999-dead'))).toBe(false);
  });
});

// `query mirror` (runtime/entries/cli/mirror.ts): a copy from a folder or over HTTP is byte for byte the source;
// resuming, retries, failures that keep the previous manifest, hostile names, --mass, the command line and Ctrl-C.
import { spawn, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SourceError, type ShardSource } from '../../../../runtime/core/storage/source.js';
import { datasetSource } from '../../../../runtime/entries/cli/datasetSource.js';
import { main, mirrorDataset, MIRROR_TEMP_PREFIX, type MirrorOptions } from '../../../../runtime/entries/cli/mirror.js';
import { main as query } from '../../../../runtime/entries/cli/query.js';
import { listen, stableText } from '../../../helpers/api.js';
import { expectSameFolder } from '../../../helpers/folders.js';
import { CountingSource } from '../../../helpers/countingSource.js';
import { readManifest, removeTempDirs, shardEntries, tempDir } from '../../../helpers/datasets.js';
import { fannedDataset, flatDataset, folderFiles } from '../../../helpers/fannedDataset.js';
import { FaultySource } from '../../../helpers/faultySource.js';
import { fewFilesPagedDataset } from '../../../helpers/indexTrees.js';
import { Collector, REPO, runTsx, type Run } from '../../../helpers/process.js';

let flat: string;
let paged: string;
let deep: string;

beforeAll(async () => {
  // A mirror's work grows with the files it copies: small datasets (tens to a couple of hundred files) that still
  // have what the cases walk, the paged one 3 leaf index pages, the fanned-out one 14 leaf pages under 5 inner pages
  // under a root of 2.
  [flat, paged] = await Promise.all([flatDataset(), fewFilesPagedDataset()]);
  deep = fannedDataset(paged, 'deep', { pageShards: 10, fanOut: 3, indexLevels: 3, proteinLevels: 2, folderDigits: 2 });
}, 300_000);

afterAll(removeTempDirs);

/** Runs `query mirror ...` in process; `tty` makes stderr claim to be a terminal. */
async function mirror(argv: string[], tty = false): Promise<Run> {
  const stdout = new Collector();
  const stderr = new Collector();
  if (tty) Object.assign(stderr, { isTTY: true, columns: 120 });
  const code = await main(argv, { stdout, stderr });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

async function ask(...argv: string[]): Promise<Run> {
  const stdout = new Collector();
  const stderr = new Collector();
  const code = await query(argv, { stdout, stderr });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

const SUMMARY =
  /^mirror: (\d+) files fetched \([\d.]+ MB\), (\d+) skipped as present and verified \([\d.]+ MB\), manifest\.json written( \(shards of [\d.]+-[\d.]+ Da only\))?; [\d.]+ s\n$/;

/** Files fetched and skipped, from a successful run's summary line (its only output). */
function counts(run: Run): { fetched: number; skipped: number } {
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toBe('');
  const match = SUMMARY.exec(run.stderr);
  expect(match, run.stderr).not.toBeNull();
  return { fetched: Number(match![1]), skipped: Number(match![2]) };
}

/** The one error line of a failed run (exit 1, no stack trace, no usage). */
function failure(run: Run): string {
  expect(run.code, run.stderr).toBe(1);
  expect(run.stderr).toMatch(/^mirror: error: [^\n]+\n$/);
  return run.stderr.slice('mirror: error: '.length, -1);
}

/** Temporary folders a mirror left in `dir`. */
const temps = (dir: string) =>
  existsSync(dir) ? readdirSync(dir).filter((n) => n.startsWith(MIRROR_TEMP_PREFIX)) : [];

/** A fresh target folder path (not created). */
const target = (label = 'out') => join(tempDir(`mirror-${label}`), 'copy');

/**
 * Serves a dataset folder under /shards/ (names of one folder level at most), as a static host does; `tamper`
 * may change a file's bytes on the way, `hang` names files never answered.
 */
function folderListener(
  dir: string,
  options: { tamper?: (file: string, bytes: Buffer) => Buffer; hang?: (file: string) => boolean } = {},
) {
  return async (req: IncomingMessage, res: ServerResponse) => {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0]);
    const file = path.startsWith('/shards/') ? path.slice('/shards/'.length) : '';
    if (!/^([0-9a-f]{2}\/)?[A-Za-z0-9._-]+$/.test(file) || file.startsWith('.')) return void res.writeHead(404).end();
    if (options.hang?.(file)) return;
    try {
      const bytes = await readFile(join(dir, file));
      const body = options.tamper ? options.tamper(file, bytes) : bytes;
      res.writeHead(200, { 'Content-Length': body.length }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  };
}

/** A source that serves `k` files (manifest.json aside) and then fails every request, as a link that went down. */
class OutageAfter implements ShardSource {
  readonly description = 'a source that goes down';
  private served = 0;

  constructor(
    private inner: ShardSource,
    private k: number,
  ) {}

  async get(file: string): Promise<Uint8Array> {
    if (file !== 'manifest.json' && this.served++ >= this.k)
      throw new SourceError(`${file}: connection refused`, false);
    return this.inner.get(file);
  }
}

/** A copy of the bytes with one bit of the middle byte flipped. */
function flipped(bytes: Buffer): Buffer {
  const copy = Buffer.from(bytes);
  copy[copy.length >> 1] ^= 0x08;
  return copy;
}

/** Flips one bit of a file. */
const corrupt = (path: string) => writeFileSync(path, flipped(readFileSync(path)));

describe('mirror: a complete copy', () => {
  it('copies a dataset with index pages from a folder byte for byte, and the copy answers as the source does', async () => {
    expect(readManifest(paged).shardIndex!.pages).toHaveLength(3);
    const out = target();
    const { fetched, skipped } = counts(await mirror([paged, out]));
    expect([fetched, skipped]).toEqual([folderFiles(paged).length, 0]);
    expectSameFolder(out, paged);
    for (const argv of [
      ['export', '--mass1', '0', '--mass2', '100000'],
      [
        'v1',
        '--mz',
        '650.32',
        '--charge',
        '2',
        '--fixed',
        'Carbamidomethyl@C',
        '--variable',
        'Oxidation@M',
        '--proteins',
        'true',
      ],
      ['taxa', '--name', 'Homo'],
      ['info'],
    ]) {
      const [mine, theirs] = [await ask(...argv, '--shards', out), await ask(...argv, '--shards', paged)];
      expect(theirs.code, theirs.stdout).toBe(0);
      expect(stableText(mine.stdout), argv.join(' ')).toBe(stableText(theirs.stdout));
      expect(mine.stdout.length).toBeGreaterThan(100);
    }
  });

  it('copies over HTTP: a flat dataset, and a fanned-out one with a 3-level index into its folders', async () => {
    for (const dir of [flat, deep]) {
      const server = await listen(folderListener(dir));
      try {
        const out = target('http');
        const { fetched } = counts(await mirror([`${server.base}/shards/`, out, '--concurrency', '3']));
        expect(fetched).toBe(folderFiles(dir).length);
        expectSameFolder(out, dir);
      } finally {
        await server.close();
      }
    }
    expect(readManifest(flat).shards).toBeDefined();
    expect(readManifest(deep).shardIndex!.levels).toBe(3);
    const out = target('flat');
    counts(await mirror([flat, out]));
    const [mine, theirs] = [
      await ask('export', '--mass1', '0', '--mass2', '100000', '--shards', out),
      await ask('export', '--mass1', '0', '--mass2', '100000', '--shards', flat),
    ];
    expect(mine.stdout).toBe(theirs.stdout);
    expect(mine.stdout.split('\n').length).toBeGreaterThan(1000);
  });

  it('copies a fanned-out dataset from a folder, and mirroring a complete copy fetches nothing', async () => {
    const out = target('deep');
    counts(await mirror([deep, out, '--concurrency', '1']));
    expectSameFolder(out, deep);
    expect(counts(await mirror([deep, out]))).toEqual({ fetched: 0, skipped: folderFiles(deep).length });
    expectSameFolder(out, deep);
  });

  it('draws a progress bar on a terminal and only the summary elsewhere', async () => {
    const tty = await mirror([flat, target('tty')], true);
    expect(tty.code).toBe(0);
    expect(tty.stderr).toMatch(/mirror \|.*\| \d+\/\d+ files \| [\d.]+ MB fetched \| [\d.]+ MB\/s \| ETA/);
    expect(tty.stderr.split('\n').at(-2)).toMatch(/^mirror: \d+ files fetched/);
    const plain = await mirror([flat, target('plain')]);
    expect(plain.stderr.split('\n')).toHaveLength(2);
  });
});

describe('mirror: resuming', () => {
  it('after an outage, fetches exactly the files that are not there yet', async () => {
    const out = target('outage');
    const all = folderFiles(paged);
    const outage = mirrorDataset(new OutageAfter(datasetSource(paged, 10_000), 75), out, { concurrency: 8 });
    await expect(outage).rejects.toThrow(/connection refused \(from a source that goes down\)/);
    const present = folderFiles(out);
    expect(present.length).toBeGreaterThan(25);
    expect(present.length).toBeLessThanOrEqual(75);
    for (const file of present)
      expect(readFileSync(join(out, file)).equals(readFileSync(join(paged, file))), file).toBe(true);
    expect(existsSync(join(out, 'manifest.json'))).toBe(false);
    expect(temps(out)).toEqual([]);

    const counting = new CountingSource(datasetSource(paged, 10_000));
    const summary = await mirrorDataset(counting, out, { concurrency: 8 });
    expect([...counting.reads].sort()).toEqual(['manifest.json', ...all.filter((f) => !present.includes(f))].sort());
    expect([summary.fetched, summary.present]).toEqual([all.length - present.length, present.length]);
    expectSameFolder(out, paged);
  });

  it('fetches again only the files deleted, truncated or corrupted, and leaves the others in place', async () => {
    const out = target('damaged');
    counts(await mirror([paged, out]));
    const manifest = readManifest(paged);
    const shards = shardEntries(paged).map((s) => s.file);
    const pages = manifest.shardIndex!.pages.map((p) => p.file);
    for (const file of [shards[0], pages[1], manifest.accessions.pages[0].file]) rmSync(join(out, file));
    truncateSync(join(out, manifest.taxonomy!.file), 10);
    for (const file of [shards[130], pages[2]]) corrupt(join(out, file));
    const untouched = statSync(join(out, shards[100])).ino;
    expect(counts(await mirror([paged, out]))).toEqual({ fetched: 6, skipped: folderFiles(paged).length - 6 });
    expectSameFolder(out, paged);
    expect(statSync(join(out, shards[100])).ino).toBe(untouched);
  });

  it('removes temporary folders of mirrors whose process is gone, and keeps those of live ones', async () => {
    const out = target('stale');
    const dead = spawnSync(process.execPath, ['-e', '']).pid!;
    mkdirSync(join(out, `${MIRROR_TEMP_PREFIX}${dead}-abc`), { recursive: true });
    writeFileSync(join(out, `${MIRROR_TEMP_PREFIX}${dead}-abc`, '1'), 'half a file');
    mkdirSync(join(out, `${MIRROR_TEMP_PREFIX}${process.ppid}-live`));
    counts(await mirror([flat, out]));
    expect(temps(out)).toEqual([`${MIRROR_TEMP_PREFIX}${process.ppid}-live`]);
  });
});

describe('mirror: failures', () => {
  const options: MirrorOptions = { concurrency: 4, backoffMs: 5 };

  it('retries transient failures and time-outs, then succeeds', async () => {
    const manifest = readManifest(paged);
    const [shard, page] = [shardEntries(paged)[42].file, manifest.shardIndex!.pages[2].file];
    const source = new FaultySource(datasetSource(paged, 10_000))
      .inject(shard, { kind: 'transient', times: 3 })
      .inject(page, { kind: 'transient', times: 1 })
      .inject(manifest.accessions.pages[0].file, { kind: 'hang', times: 1 });
    const out = target('transient');
    const summary = await mirrorDataset(source, out, { ...options, timeoutMs: 300 });
    expect([source.callsTo(shard), source.callsTo(page), source.callsTo(manifest.accessions.pages[0].file)]).toEqual([
      4, 2, 2,
    ]);
    expect(summary.fetched).toBe(folderFiles(paged).length);
    expectSameFolder(out, paged);
  });

  it('gives up on a file that keeps failing, or fails its sha256 check twice: the previous manifest stays, no temporary file', async () => {
    const out = target('fails');
    counts(await mirror([flat, out]));
    const previous = readFileSync(join(out, 'manifest.json'));
    const shard = shardEntries(paged)[7].file;
    const down = new FaultySource(datasetSource(paged, 10_000)).inject(shard, { kind: 'transient' });
    await expect(mirrorDataset(down, out, options)).rejects.toThrow(
      `dataset file unavailable: ${shard}: HTTP 503 (from faulty test source, 4 tries)`,
    );
    expect(down.callsTo(shard)).toBe(4);
    const bad = new FaultySource(datasetSource(paged, 10_000)).inject(shard, { kind: 'corrupt' });
    await expect(mirrorDataset(bad, out, options)).rejects.toThrow(
      `${shard} failed its sha256 check (from faulty test source)`,
    );
    expect(bad.callsTo(shard)).toBe(2);
    expect(readFileSync(join(out, 'manifest.json')).equals(previous)).toBe(true);
    expect(temps(out)).toEqual([]);
    expect(existsSync(join(out, shard))).toBe(false);
  });

  it('over HTTP, a corrupt file fails the command with one line naming it (exit 1)', async () => {
    const shard = shardEntries(paged)[123].file;
    const server = await listen(
      folderListener(paged, { tamper: (file, bytes) => (file === shard ? flipped(bytes) : bytes) }),
    );
    try {
      const out = target('corrupt');
      counts(await mirror([flat, out]));
      const previous = readFileSync(join(out, 'manifest.json'));
      const message = failure(await mirror([`${server.base}/shards`, out]));
      expect(message).toBe(`${shard} failed its sha256 check (from ${server.base}/shards/)`);
      expect(readFileSync(join(out, 'manifest.json')).equals(previous)).toBe(true);
      expect(temps(out)).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('refuses hostile file names, writing nothing outside the target', async () => {
    const HOSTILE = [
      '../evil.msgpack.gz',
      'ab/../../evil.msgpack.gz',
      '/tmp/evil-mirror.msgpack.gz',
      'ab\\..\\evil.msgpack.gz',
      'ab/cd/evil.msgpack.gz',
      '.evil.msgpack.gz',
      'manifest.json',
    ];
    for (const name of HOSTILE) {
      const parent = tempDir('hostile');
      const source = join(parent, 'source');
      cpSync(flat, source, { recursive: true });
      const manifest = readManifest(source);
      manifest.shards![3].file = name;
      writeFileSync(join(source, 'manifest.json'), JSON.stringify(manifest));
      const out = join(parent, 'out');
      const message = failure(await mirror([source, out]));
      expect(message).toContain(`the dataset names a file ${JSON.stringify(name)} that is refused: `);
      expect(readdirSync(parent).sort()).toEqual(['out', 'source']);
      expect(existsSync('/tmp/evil-mirror.msgpack.gz')).toBe(false);
      expect(existsSync(join(out, 'manifest.json'))).toBe(false);
      expect(temps(out)).toEqual([]);
    }
  });

  it('fails on a source without a dataset (exit 1)', async () => {
    const empty = tempDir('empty');
    expect(failure(await mirror([empty, target()]))).toBe(
      `cannot read manifest.json from folder ${empty}: manifest.json: not found`,
    );
    writeFileSync(join(empty, 'manifest.json'), JSON.stringify({ format: 'digested-peptides', formatVersion: 1 }));
    expect(failure(await mirror([empty, target()]))).toMatch(/^dataset unavailable: the dataset is format version 1/);
  });
});

describe('mirror --mass', () => {
  it('copies the shards meeting the range and every other file; the copy answers inside the range and fails outside; a full mirror completes it', async () => {
    const out = target('mass');
    const run = await mirror([paged, out, '--mass', '1000-1100']);
    expect(run.stderr).toContain('(shards of 1000.0-1100.0 Da only)');
    const inRange = shardEntries(paged).filter((s) => s.firstKey <= 11_000_000 && s.lastKey >= 10_000_000);
    const others = folderFiles(paged).filter((f) => !shardEntries(paged).some((s) => s.file === f));
    expect(counts(run).fetched).toBe(inRange.length + others.length);
    expect(folderFiles(out)).toEqual([...others, ...inRange.map((s) => s.file)].sort());
    for (const file of folderFiles(out))
      expect(readFileSync(join(out, file)).equals(readFileSync(join(paged, file)))).toBe(true);
    expect(readFileSync(join(out, 'manifest.json')).equals(readFileSync(join(paged, 'manifest.json')))).toBe(true);

    for (const argv of [
      ['search', '--mass1', '1000', '--mass2', '1100', '--page-size', '1000'],
      ['export', '--mass1', '1000', '--mass2', '1100'],
    ]) {
      const [mine, theirs] = [await ask(...argv, '--shards', out), await ask(...argv, '--shards', paged)];
      expect(mine.code).toBe(0);
      expect(stableText(mine.stdout)).toBe(stableText(theirs.stdout));
    }
    const outside = await ask('search', '--mass1', '2000', '--mass2', '2001', '--shards', out);
    expect(outside.code).toBe(1);
    expect(outside.stdout).toMatch(/^\{"error":"dataset file unavailable: [0-9a-f]{20}\.msgpack\.gz: not found"\}\n$/);

    expect(counts(await mirror([paged, out]))).toEqual({
      fetched: shardEntries(paged).length - inRange.length,
      skipped: inRange.length + others.length,
    });
    expectSameFolder(out, paged);
  });
});

describe('mirror: the command line', () => {
  it('refuses bad usage with exit 2, naming the parameter', async () => {
    const cases: [string[], RegExp][] = [
      [[], /takes a dataset \(folder or URL\) and a target folder, got 0 arguments/],
      [[flat], /got 1 argument$/m],
      [[flat, 'a', 'b'], /got 3 arguments/],
      [[flat, 'a', '--concurrency', '0'], /--concurrency must be a whole number from 1 to 64, got "0"/],
      [[flat, 'a', '--concurrency', '65'], /--concurrency must be a whole number from 1 to 64, got "65"/],
      [[flat, 'a', '--concurrency', 'many'], /--concurrency must be a whole number/],
      [[flat, 'a', '--mass', '1100-1000'], /--mass: its low end 1100 is above its high end 1000/],
      [[flat, 'a', '--mass', '1000'], /--mass must be <low>-<high> in Da/],
      [[flat, 'a', '--mass=-5-10'], /--mass must be <low>-<high> in Da/],
      [[flat, 'a', '--bogus', '1'], /unknown option --bogus$/],
      [[flat, 'a', '--concurency', '2'], /unknown option --concurency: did you mean --concurrency\?$/],
      [[flat, 'a', '--mass'], /--mass/],
    ];
    for (const [argv, message] of cases) {
      const run = await mirror(argv);
      expect(run.code, argv.join(' ')).toBe(2);
      const [first, usage] = run.stderr.split('\n');
      expect(first).toMatch(/^mirror: error: /);
      expect(first, argv.join(' ')).toMatch(message);
      expect(usage).toBe('usage: npm run query -- mirror <dir|url> <out-dir> [--concurrency N (8)] [--mass Da-Da]');
    }
    const help = await mirror(['--help']);
    expect([help.code, help.stdout]).toEqual([
      0,
      'usage: npm run query -- mirror <dir|url> <out-dir> [--concurrency N (8)] [--mass Da-Da]\n',
    ]);
  });

  it('runs through bin.ts as npm run query does: exit 0, 1 and 2, no stack trace', async () => {
    const out = target('bin');
    const ok = await runTsx(['runtime/entries/cli/bin.ts', 'mirror', flat, out]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stderr).toMatch(SUMMARY);
    expectSameFolder(out, flat);
    const failed = await runTsx(['runtime/entries/cli/bin.ts', 'mirror', join(flat, 'nowhere'), target()]);
    expect([failed.code, failed.stderr]).toEqual([
      1,
      `mirror: error: cannot read manifest.json from folder ${join(flat, 'nowhere')}: manifest.json: not found\n`,
    ]);
    const usage = await runTsx(['runtime/entries/cli/bin.ts', 'mirror', flat]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).not.toMatch(/\n\s+at /);
  });

  it('on Ctrl-C, removes its temporary folder and exits 130, the target without a manifest', async () => {
    const hung = shardEntries(paged)[70].file;
    let asked = false;
    const server = await listen(folderListener(paged, { hang: (file) => file === hung && (asked = true) }));
    const out = target('sigint');
    try {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', 'runtime/entries/cli/bin.ts', 'mirror', `${server.base}/shards/`, out],
        { cwd: REPO, stdio: 'ignore' },
      );
      const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
      // Wait until the mirror waits on the file that never comes and has fetched most others (into its temp folder).
      const half = folderFiles(paged).length / 2;
      for (let i = 0; i < 600 && !(asked && temps(out).length === 1 && folderFiles(out).length > half); i++)
        await new Promise((r) => setTimeout(r, 100));
      expect(asked).toBe(true);
      expect(folderFiles(out).length).toBeGreaterThan(half);
      expect(temps(out)).toHaveLength(1);
      child.kill('SIGINT');
      expect(await exited).toBe(130);
      expect(temps(out)).toEqual([]);
      expect(existsSync(join(out, 'manifest.json'))).toBe(false);
    } finally {
      await server.close();
    }
  }, 120_000);
});

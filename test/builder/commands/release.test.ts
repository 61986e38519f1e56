// Rebuild from a release (builder/commands/release.ts) against a loopback HTTP server serving a small gzipped FASTA cut
// from the bundled sample and a taxdump.tar.gz made by GNU tar from data/taxdump, with NCBI's .md5 beside it:
// the release is recorded and the dataset answers queries; a checksum mismatch (or a failed download, a bad
// archive) aborts with one line and a non-zero exit, leaving the published dataset byte-identical. The first build and
// the first refusal run the command in a child process; the other cases run its entry in this process.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, folderHandler, listen } from '../../helpers/api.js';
import {
  readManifest,
  removeTempDirs,
  SAMPLE_TAXDUMP,
  sampleRecords,
  snapshot,
  tempDir,
} from '../../helpers/datasets.js';
import { runTsx, staticFiles } from '../../helpers/process.js';
import { runEntryInProcess } from '../../helpers/builderTestEntry.js';
import { folderDifferences } from '../../helpers/folders.js';

const RECORDS = 40;
const LAST_MODIFIED = 'Wed, 05 Feb 2025 10:00:00 GMT';

let dir: string;
let served: string;
let base: string;
let close: () => Promise<void>;
let fasta: Buffer;
let sha256: string;
let accessions: string[];
let taxdump: Buffer;

/** The environment of build:release here: the local taxdump unless --taxdump-url says otherwise (never NCBI's own). */
const releaseEnv = () => ({
  RELEASE_SHA256: '',
  RELEASE_URL: '',
  RELEASE_UNVERIFIED: '',
  RELEASE_TAXDUMP_URL: `${base}taxdump.tar.gz`,
  RELEASE_TAXDUMP_SHA256: '',
});
/** build:release in a child process. */
const releaseCommand = (args: string[]) =>
  runTsx(['builder/commands/release.ts', '--threads', '0', ...args], releaseEnv());
/** build:release's entry in this process. */
const release = (args: string[]) =>
  runEntryInProcess(() => import('../../../builder/commands/release.js'), ['--threads', '0', ...args], releaseEnv());
const md5 = (bytes: Buffer) => createHash('md5').update(bytes).digest('hex');

/** A .tar.gz of `files` (taken from data/taxdump, or made up) written by GNU tar, as NCBI's is. */
function tarball(files: Record<string, string | null>): Buffer {
  const from = join(dir, `tar-${Object.keys(files).join('-')}`);
  mkdirSync(from);
  for (const [name, text] of Object.entries(files)) {
    if (text === null) copyFileSync(join(SAMPLE_TAXDUMP, name), join(from, name));
    else writeFileSync(join(from, name), text);
  }
  return execFileSync('tar', ['-czf', '-', '-C', from, ...Object.keys(files)]);
}

beforeAll(async () => {
  dir = tempDir('release');
  served = join(dir, 'served');
  mkdirSync(served);
  // The first RECORDS records of the bundled sample, as a release file.
  const cut = sampleRecords(RECORDS);
  accessions = [...cut.matchAll(/^>\w+\|([^|]+)\|/gm)].map((m) => m[1]);
  expect(accessions).toHaveLength(RECORDS);
  fasta = gzipSync(Buffer.from(cut, 'latin1'));
  sha256 = createHash('sha256').update(fasta).digest('hex');
  writeFileSync(join(served, 'uniprot_sprot.fasta.gz'), fasta);
  // NCBI's archive holds more than the two files the build reads.
  taxdump = tarball({
    'readme.txt': 'NCBI taxonomy\n',
    'nodes.dmp': null,
    'merged.dmp': '12\t|\t74109\t|\n',
    'names.dmp': null,
  });
  const serve = (name: string, bytes: Buffer, md5File?: string) => {
    writeFileSync(join(served, name), bytes);
    if (md5File !== undefined) writeFileSync(join(served, `${name}.md5`), md5File);
  };
  serve('taxdump.tar.gz', taxdump, `${md5(taxdump)}  taxdump.tar.gz\n`);
  serve('badmd5.tar.gz', taxdump, `${md5(Buffer.from('other'))}  badmd5.tar.gz\n`);
  serve('nomd5.tar.gz', taxdump);
  const half = taxdump.subarray(0, taxdump.length >> 1);
  serve('cut.tar.gz', half, `${md5(half)}  cut.tar.gz\n`);
  const namesOnly = tarball({ 'names.dmp': null, 'readme.txt': 'no nodes here\n' });
  serve('nonodes.tar.gz', namesOnly, `${md5(namesOnly)}  nonodes.tar.gz\n`);
  const server = await listen(staticFiles(served, '/release/', { 'Last-Modified': LAST_MODIFIED }));
  base = `${server.base}/release/`;
  close = server.close;
});

afterAll(async () => {
  await close?.();
  removeTempDirs();
});

describe('build:release', () => {
  it('downloads, verifies, builds and records the release; the dataset answers queries', async () => {
    const out = join(dir, 'site', 'shards');
    const url = `${base}uniprot_sprot.fasta.gz`;
    const before = Date.now();
    const run = await releaseCommand([
      '--url',
      url,
      '--sha256',
      sha256.toUpperCase(),
      '--out',
      out,
      '--name',
      '2099_01',
      '--date',
      '01-Jan-2099',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const manifest = readManifest(out);
    expect(manifest.release).toEqual({
      url,
      sha256,
      verified: 'true',
      retrieved: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      lastModified: LAST_MODIFIED,
      name: '2099_01',
      date: '01-Jan-2099',
      taxdumpUrl: `${base}taxdump.tar.gz`,
      taxdumpSha256: createHash('sha256').update(taxdump).digest('hex'),
      taxdumpVerified: 'md5',
      taxdumpLastModified: LAST_MODIFIED,
    });
    const retrieved = Date.parse(manifest.release!.retrieved);
    expect(retrieved).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(retrieved).toBeLessThanOrEqual(Date.now());
    const dmp = (name: string) => ({
      file: name,
      bytes: readFileSync(join(SAMPLE_TAXDUMP, name)).length,
      sha256: createHash('sha256')
        .update(readFileSync(join(SAMPLE_TAXDUMP, name)))
        .digest('hex'),
    });
    expect(manifest.sources).toEqual([
      { file: 'uniprot_sprot.fasta.gz', bytes: fasta.length, sha256 },
      dmp('nodes.dmp'),
      dmp('names.dmp'),
    ]);
    expect(manifest.totals.proteins).toBe(RECORDS);
    // The taxonomy of the release's organisms, from the unpacked taxdump.
    expect(manifest.taxonomy!.nodes).toBeGreaterThan(RECORDS);
    expect(manifest.totals.taxonomyNodes).toBe(manifest.taxonomy!.nodes);

    // Queryable: every mass group of the dataset, from the accessions of the release only.
    const got = await call(folderHandler(out), '/search-taxonomy.php?mass1=0&mass2=100000&pageSize=1000');
    expect(got.status).toBe(200);
    const body = got.body as { totalResult: number; result: Record<string, { accsTax: { acc: string }[] }[]>[] };
    expect(body.totalResult).toBe(manifest.totals.massGroups);
    expect(body.totalResult).toBeGreaterThan(100);
    const found = new Set(body.result.flatMap((g) => Object.values(g)[0].flatMap((e) => e.accsTax.map((a) => a.acc))));
    expect(found.size).toBeGreaterThan(RECORDS / 2);
    for (const acc of found) expect(accessions).toContain(acc);
    // No temporary download is left behind in the output.
    expect(
      readdirSync(out).filter(
        (f) =>
          !/^(manifest\.json|(accessions-|peptide-counts-)?[0-9a-f]{20}\.msgpack\.gz|(index|proteins|taxonomy)-[0-9a-f]{20}\.json\.gz)$/.test(
            f,
          ),
      ),
    ).toEqual([]);
  });

  it('a checksum mismatch aborts with one line and leaves the published dataset byte-identical', async () => {
    const out = join(dir, 'site', 'shards');
    expect(existsSync(join(out, 'manifest.json'))).toBe(true);
    const before = snapshot(join(dir, 'site'));
    const wrong = sha256.replace(/^./, (c) => (c === '0' ? '1' : '0'));
    const run = await releaseCommand([
      '--url',
      `${base}uniprot_sprot.fasta.gz`,
      '--sha256',
      wrong,
      '--out',
      out,
      '--name',
      '2099_02',
    ]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(
      /^build:release: error: sha256 mismatch for http:\/\/127\.0\.0\.1:\d+\/release\/uniprot_sprot\.fasta\.gz: expected [0-9a-f]{64}, got [0-9a-f]{64}/m,
    );
    expect(
      run.stderr
        .trim()
        .split('\n')
        .filter((l) => l.startsWith('build:release:')),
    ).toHaveLength(1);
    expect(folderDifferences(snapshot(join(dir, 'site')), before)).toEqual([]);
  });

  it('a checksum mismatch where no dataset existed publishes nothing', async () => {
    const out = join(dir, 'fresh', 'shards');
    const run = await release(['--url', `${base}uniprot_sprot.fasta.gz`, '--sha256', '0'.repeat(64), '--out', out]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/sha256 mismatch/);
    expect(existsSync(join(out, 'manifest.json'))).toBe(false);
    expect(existsSync(join(dir, 'fresh'))).toBe(false);
  });

  it('a failed download or a missing checksum aborts before anything is built', async () => {
    const out = join(dir, 'fresh', 'shards');
    const missing = await release(['--url', `${base}no-such-release.fasta.gz`, '--sha256', sha256, '--out', out]);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/^build:release: error: download of .* failed: HTTP 404$/m);
    const unchecked = await release(['--url', `${base}uniprot_sprot.fasta.gz`, '--out', out]);
    expect(unchecked.code).not.toBe(0);
    expect(unchecked.stderr).toMatch(/no expected checksum/);
    expect(existsSync(join(dir, 'fresh'))).toBe(false);
  });

  it('--unverified builds without an expected checksum and records that', async () => {
    const out = join(dir, 'unverified');
    const run = await release(['--url', `${base}uniprot_sprot.fasta.gz`, '--unverified', '--out', out]);
    expect(run.code, run.stderr).toBe(0);
    const manifest = readManifest(out);
    expect(manifest.release).toMatchObject({ sha256, verified: 'false' });
  });

  it('--taxdump-sha256 verifies the taxdump by sha256; a mismatch aborts and leaves the published dataset byte-identical', async () => {
    const out = join(dir, 'site', 'shards');
    const taxdumpSha256 = createHash('sha256').update(taxdump).digest('hex');
    const ok = await release([
      '--url',
      `${base}uniprot_sprot.fasta.gz`,
      '--sha256',
      sha256,
      '--out',
      join(dir, 'by-sha'),
      '--taxdump-sha256',
      taxdumpSha256.toUpperCase(),
    ]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(readManifest(join(dir, 'by-sha')).release).toMatchObject({ taxdumpSha256, taxdumpVerified: 'sha256' });
    const before = snapshot(join(dir, 'site'));
    const run = await release([
      '--url',
      `${base}uniprot_sprot.fasta.gz`,
      '--sha256',
      sha256,
      '--out',
      out,
      '--taxdump-sha256',
      '0'.repeat(64),
    ]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(
      /^build:release: error: sha256 mismatch for http:\/\/127\.0\.0\.1:\d+\/release\/taxdump\.tar\.gz: expected 0{64}, got [0-9a-f]{64}/m,
    );
    expect(folderDifferences(snapshot(join(dir, 'site')), before)).toEqual([]);
  });

  const failing: [string, string[], RegExp][] = [
    [
      "an MD5 that does not match NCBI's .md5",
      ['--taxdump-url', 'badmd5.tar.gz'],
      /md5 mismatch for .*badmd5\.tar\.gz: .*badmd5\.tar\.gz\.md5 says [0-9a-f]{32}, got [0-9a-f]{32}/,
    ],
    [
      'no .md5 beside the taxdump and no --taxdump-sha256',
      ['--taxdump-url', 'nomd5.tar.gz'],
      /no checksum for the taxdump: download of .*nomd5\.tar\.gz\.md5 failed: HTTP 404; give --taxdump-sha256/,
    ],
    ['a cut archive', ['--taxdump-url', 'cut.tar.gz'], /cut\.tar\.gz is not a readable \.tar\.gz/],
    [
      'an archive without nodes.dmp',
      ['--taxdump-url', 'nonodes.tar.gz'],
      /nonodes\.tar\.gz holds no nodes\.dmp at its top level/,
    ],
    ['a missing taxdump', ['--taxdump-url', 'missing.tar.gz'], /download of .*missing\.tar\.gz\.md5 failed: HTTP 404/],
    ['a bad --taxdump-url', ['--taxdump-url', 'ftp://x/taxdump.tar.gz'], /--taxdump-url must be an http\(s\) URL/],
  ];
  for (const [label, args, message] of failing) {
    it(`${label}: one line, the published dataset byte-identical`, async () => {
      const out = join(dir, 'site', 'shards');
      const before = snapshot(join(dir, 'site'));
      const withUrl = args.map((a, i) => (args[i - 1] === '--taxdump-url' && !a.includes(':') ? `${base}${a}` : a));
      const run = await release([
        '--url',
        `${base}uniprot_sprot.fasta.gz`,
        '--sha256',
        sha256,
        '--out',
        out,
        ...withUrl,
      ]);
      expect(run.code).not.toBe(0);
      const lines = run.stderr
        .trim()
        .split('\n')
        .filter((l) => l.startsWith('build:release:'));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(message);
      expect(folderDifferences(snapshot(join(dir, 'site')), before)).toEqual([]);
    });
  }

  it('--unverified builds with a taxdump that has no .md5, and records that', async () => {
    const out = join(dir, 'unverified-taxdump');
    const run = await release([
      '--url',
      `${base}uniprot_sprot.fasta.gz`,
      '--unverified',
      '--out',
      out,
      '--taxdump-url',
      `${base}nomd5.tar.gz`,
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(readManifest(out).release).toMatchObject({
      verified: 'false',
      taxdumpUrl: `${base}nomd5.tar.gz`,
      taxdumpVerified: 'false',
    });
    expect(readManifest(out).taxonomy).toBeDefined();
  });

  it('--no-taxdump builds without a taxonomy and downloads none', async () => {
    const out = join(dir, 'no-taxdump');
    const run = await release([
      '--url',
      `${base}uniprot_sprot.fasta.gz`,
      '--sha256',
      sha256,
      '--out',
      out,
      '--no-taxdump',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(/taxdump\.tar\.gz/);
    const manifest = readManifest(out);
    expect(manifest.taxonomy).toBeUndefined();
    expect(Object.keys(manifest.release!).filter((k) => k.startsWith('taxdump'))).toEqual([]);
    expect(manifest.sources.map((s) => s.file)).toEqual(['uniprot_sprot.fasta.gz']);
    const both = await release([
      '--url',
      `${base}uniprot_sprot.fasta.gz`,
      '--sha256',
      sha256,
      '--out',
      out,
      '--no-taxdump',
      '--taxdump-sha256',
      '0'.repeat(64),
    ]);
    expect(both.stderr).toMatch(/contradict/);
  });

  it('--sequences builds the sequence table too; without it there is none', async () => {
    const out = join(dir, 'sequences');
    const args = ['--url', `${base}uniprot_sprot.fasta.gz`, '--sha256', sha256, '--out', out, '--no-taxdump'];
    const run = await release([...args, '--sequences']);
    expect(run.code, run.stderr).toBe(0);
    const manifest = readManifest(out);
    expect(manifest.sequences?.pages.length).toBeGreaterThan(0);
    expect(manifest.sequences!.pages.reduce((n, p) => n + p.accessions, 0)).toBe(manifest.totals.accessions);
    const without = await release(args);
    expect(without.code, without.stderr).toBe(0);
    expect(readManifest(out).sequences).toBeUndefined();
  });
});

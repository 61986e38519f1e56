// Rebuild from a release (build/release.ts) against a loopback HTTP server serving a small gzipped FASTA cut
// from the bundled sample: the release is recorded and the dataset answers queries; a checksum mismatch (or
// a failed download) aborts with one line and a non-zero exit, leaving the published dataset byte-identical.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, folderHandler, listen } from '../helpers/api.js';
import { readManifest, removeTempDirs, sampleRecords, snapshot, tempDir } from '../helpers/datasets.js';
import { runTsx, staticFiles } from '../helpers/process.js';

const RECORDS = 40;
const LAST_MODIFIED = 'Wed, 05 Feb 2025 10:00:00 GMT';

let dir: string;
let served: string;
let base: string;
let close: () => Promise<void>;
let fasta: Buffer;
let sha256: string;
let accessions: string[];

const release = (args: string[]) => runTsx(['build/release.ts', '--threads', '0', ...args], { RELEASE_SHA256: '', RELEASE_URL: '', RELEASE_UNVERIFIED: '' });

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
    const run = await release(['--url', url, '--sha256', sha256.toUpperCase(), '--out', out, '--name', '2099_01', '--date', '01-Jan-2099']);
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
    });
    const retrieved = Date.parse(manifest.release!.retrieved);
    expect(retrieved).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(retrieved).toBeLessThanOrEqual(Date.now());
    expect(manifest.sources).toEqual([{ file: 'uniprot_sprot.fasta.gz', bytes: fasta.length, sha256 }]);
    expect(manifest.totals.proteins).toBe(RECORDS);

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
    expect(readdirSync(out).filter((f) => !/^(manifest\.json|[0-9a-f]{20}\.msgpack|(index|proteins|taxonomy)-[0-9a-f]{20}\.json)$/.test(f))).toEqual([]);
  });

  it('a checksum mismatch aborts with one line and leaves the published dataset byte-identical', async () => {
    const out = join(dir, 'site', 'shards');
    expect(existsSync(join(out, 'manifest.json'))).toBe(true);
    const before = snapshot(join(dir, 'site'));
    const wrong = sha256.replace(/^./, (c) => (c === '0' ? '1' : '0'));
    const run = await release(['--url', `${base}uniprot_sprot.fasta.gz`, '--sha256', wrong, '--out', out, '--name', '2099_02']);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/^build:release: error: sha256 mismatch for http:\/\/127\.0\.0\.1:\d+\/release\/uniprot_sprot\.fasta\.gz: expected [0-9a-f]{64}, got [0-9a-f]{64}/m);
    expect(run.stderr.trim().split('\n').filter((l) => l.startsWith('build:release:'))).toHaveLength(1);
    expect(snapshot(join(dir, 'site'))).toEqual(before);
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
});

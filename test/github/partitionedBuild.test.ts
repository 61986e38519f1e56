// Tests the partitioned build's CI scripts (.github/scripts/partitioned-*.sh, run by
// .github/workflows/partitioned-build.yml) with a stand-in `aws` over a local folder (test/helpers/fakeAws.ts,
// bundled once into plain JavaScript so that each call starts Node alone) and a local HTTP server for the downloads:
// plan → 3 parts → merge deploys exactly the files of a single build, manifest.json last; a checksum mismatch stops
// the plan and stages nothing.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename, join } from 'node:path';
import { build as bundle } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, removeTempDirs, SAMPLE_TAXDUMP, sampleSubset, tempDir } from '../helpers/datasets.js';
import { expectSameFolder } from '../helpers/folders.js';
import { REPO, runProgram, type Run } from '../helpers/process.js';

afterAll(removeTempDirs);

let root: string;
let server: Server;
let base: string;
let fasta: string;
/** What the workflow passes the parts (beside --shard-bytes): a release name, files in hash folders. */
const BUILD_ARGS = ['--release', 'name=test_01', '--folder-digits', '1'];

/** Runs a CI script in the repository with the stand-in aws first on PATH. */
function runScript(script: string, env: Record<string, string>): Promise<Run> {
  return runProgram('bash', [join(REPO, '.github/scripts', script)], {
    PATH: `${join(root, 'bin')}:${process.env.PATH}`,
    FAKE_S3_ROOT: join(root, 's3'),
    ...env,
  });
}

beforeAll(async () => {
  root = tempDir('ci');
  mkdirSync(join(root, 'bin'));
  mkdirSync(join(root, 's3'));
  await bundle({
    entryPoints: [join(REPO, 'test/helpers/fakeAws.ts')],
    outfile: join(root, 'bin/fakeAws.mjs'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    logLevel: 'error',
  });
  writeFileSync(
    join(root, 'bin/aws'),
    `#!/bin/sh\nexec "${process.execPath}" "${join(root, 'bin/fakeAws.mjs')}" "$@"\n`,
  );
  chmodSync(join(root, 'bin/aws'), 0o755);
  // What the plan downloads: a FASTA and an NCBI-style taxdump.tar.gz with its .md5.
  const www = join(root, 'www');
  mkdirSync(www);
  fasta = join(www, 'sample_sprot.fasta');
  cpSync(sampleSubset(200), fasta);
  execFileSync('tar', ['-czf', join(www, 'taxdump.tar.gz'), '-C', SAMPLE_TAXDUMP, 'nodes.dmp', 'names.dmp']);
  const md5 = createHash('md5')
    .update(readFileSync(join(www, 'taxdump.tar.gz')))
    .digest('hex');
  writeFileSync(join(www, 'taxdump.tar.gz.md5'), `${md5}  taxdump.tar.gz\n`);
  server = createServer((req, res) => {
    const path = join(www, basename(req.url ?? ''));
    if (!existsSync(path)) return res.writeHead(404).end();
    res.writeHead(200).end(readFileSync(path));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('the partitioned build workflow scripts', () => {
  it('plan, 3 parts and merge deploy the single build files (its view among them), manifest.json last', async () => {
    const sha256 = createHash('sha256').update(readFileSync(fasta)).digest('hex');
    const common = { STAGING_URL: 's3://bucket/staging/1', DATASET_URL: 's3://bucket/datasets/test' };
    const plan = await runScript('partitioned-plan.sh', {
      ...common,
      FASTA_URL: `${base}/sample_sprot.fasta`,
      SHA256: sha256,
      TAXDUMP_URL: `${base}/taxdump.tar.gz`,
      WORK_DIR: join(root, 'plan'),
    });
    expect(plan.code, plan.stderr).toBe(0);
    for (const part of [1, 2, 3]) {
      const run = await runScript('partitioned-part.sh', {
        ...common,
        PART: String(part),
        PARTS: '3',
        META_DIR: join(root, 'meta', `part-${part}`),
        WORK_DIR: join(root, `part-${part}`),
        THREADS: '0',
        BUILD_ARGS: BUILD_ARGS.join(' '),
        VIEWS: 'Carbamidomethyl@C',
      });
      expect(run.code, run.stderr).toBe(0);
    }
    const merge = await runScript('partitioned-merge.sh', {
      ...common,
      META_ROOT: join(root, 'meta'),
      WORK_DIR: join(root, 'merge'),
    });
    expect(merge.code, merge.stderr).toBe(0);

    const single = join(root, 'single');
    await build([fasta], single, {
      taxdump: SAMPLE_TAXDUMP,
      release: { name: 'test_01' },
      folderDigits: 1,
      views: ['Carbamidomethyl@C'],
    });
    expect(JSON.parse(readFileSync(join(single, 'manifest.json'), 'utf8')).views).toHaveLength(1);
    expectSameFolder(join(root, 's3/bucket/datasets/test'), single);
    const puts = readFileSync(join(root, 's3/calls.log'), 'utf8')
      .trim()
      .split('\n')
      .filter((l) => l.includes('datasets/test/'));
    expect(puts[puts.length - 1]).toMatch(
      /^put s3:\/\/bucket\/datasets\/test\/manifest\.json --content-type=application\/json/,
    );
    // Shards are uploaded once, by their part; the shared files by part 1 only; the parts' taxonomy files never.
    const uploaded = puts.map((l) => l.split(' ')[1]);
    expect(new Set(uploaded).size).toBe(uploaded.length);
    for (const line of puts.slice(0, -1))
      expect(line).toMatch(
        /--content-type=application\/octet-stream --cache-control=public, max-age=31536000, immutable/,
      );
  }, 180_000);

  it('stops the plan on a checksum mismatch, leaving nothing staged', async () => {
    const run = await runScript('partitioned-plan.sh', {
      FASTA_URL: `${base}/sample_sprot.fasta`,
      SHA256: '0'.repeat(64),
      TAXDUMP_URL: `${base}/taxdump.tar.gz`,
      STAGING_URL: 's3://bucket/staging/2',
      WORK_DIR: join(root, 'plan-bad'),
    });
    expect(run.code).toBe(1);
    expect(run.stdout + run.stderr).toMatch(/sample_sprot\.fasta has sha256 [0-9a-f]{64}, expected 0{64}/);
    expect(existsSync(join(root, 's3/bucket/staging/2/input/sample_sprot.fasta'))).toBe(false);
  }, 60_000);
});

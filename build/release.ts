// Rebuild from a UniProt release: download the FASTA (streamed to a temporary file while hashing), verify its
// sha256, then build and publish the dataset with the release recorded in the manifest. A failed download or
// a checksum mismatch stops before the build starts, so the published dataset stays exactly as it was.
//   npm run build:release -- [--url <fasta.gz url>] (--sha256 <hex> | --unverified) [--out dist/shards]
//                            [--name 2025_01] [--date 05-Feb-2025] [--threads N] [--shard-bytes N]
import { createHash } from 'node:crypto';
import { createWriteStream, realpathSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { fileURLToPath } from 'node:url';
import fg from 'fast-glob';
import { expBackoff, fetch, minimist, retry, tmpdir } from 'zx';
import { DEFAULT_DIGEST } from './digest.js';
import { buildDataset, DEFAULT_SHARD_BYTES } from './pipeline.js';

export const SWISS_PROT_URL = 'https://ftp.uniprot.org/pub/databases/uniprot/current_release/knowledgebase/complete/uniprot_sprot.fasta.gz';
export const DEFAULT_OUT = 'dist/shards';

const USAGE = `usage: npm run build:release -- [--url <url>] (--sha256 <hex> | --unverified) [--out <dir>]
  [--name <release name>] [--date <release date>] [--threads N] [--shard-bytes N]
  --url        FASTA (plain or gzip) to download; env RELEASE_URL; default ${SWISS_PROT_URL}
  --sha256     expected sha256 of the download; env RELEASE_SHA256. A mismatch aborts before building.
  --unverified build without an expected checksum (env RELEASE_UNVERIFIED=1); the sha256 is still recorded
  --out        dataset folder to publish into (default ${DEFAULT_OUT}); its previous dataset is kept on failure
  --name/--date  the release's name and date (env RELEASE_NAME / RELEASE_DATE), recorded in the manifest`;

/** A failure reported as one line; `retry` says whether trying the download again may help. */
class ReleaseError extends Error {
  constructor(
    message: string,
    readonly retry = false,
  ) {
    super(message);
  }
}

interface Options {
  url: string;
  sha256?: string;
  out: string;
  name?: string;
  date?: string;
  threads: number;
  shardBytes: number;
}

const STRING_FLAGS = ['url', 'sha256', 'out', 'name', 'date', 'threads', 'shard-bytes'];
const BOOLEAN_FLAGS = ['unverified', 'help'];

function parseOptions(argv: string[]): Options | 'help' {
  const args = minimist(argv, {
    string: STRING_FLAGS,
    boolean: BOOLEAN_FLAGS,
    unknown: (arg) => {
      if (arg.startsWith('-')) throw new ReleaseError(`unknown option ${arg} (see --help)`);
      throw new ReleaseError(`unexpected argument "${arg}" (see --help)`);
    },
  });
  if (args.help) return 'help';
  for (const flag of STRING_FLAGS) {
    if (Array.isArray(args[flag])) throw new ReleaseError(`--${flag} is given more than once`);
    if (flag in args && args[flag] === '') throw new ReleaseError(`--${flag} needs a value`);
  }
  const env = process.env;
  const text = (flag: string, variable?: string): string | undefined => (args[flag] as string | undefined) ?? (variable ? env[variable] || undefined : undefined);
  const integer = (flag: string, fallback: number) => {
    const value = text(flag);
    if (value === undefined) return fallback;
    if (!/^\d+$/.test(value)) throw new ReleaseError(`--${flag} must be a non-negative integer, got "${value}"`);
    return Number(value);
  };
  const url = text('url', 'RELEASE_URL') ?? SWISS_PROT_URL;
  if (!/^https?:\/\//i.test(url)) throw new ReleaseError(`--url must be an http(s) URL, got "${url}"`);
  const sha256 = text('sha256', 'RELEASE_SHA256')?.toLowerCase();
  const unverified = args.unverified === true || env.RELEASE_UNVERIFIED === '1';
  if (sha256 !== undefined && !/^[0-9a-f]{64}$/.test(sha256)) throw new ReleaseError(`--sha256 must be 64 hex digits, got "${sha256}"`);
  if (sha256 === undefined && !unverified) throw new ReleaseError('no expected checksum: give --sha256 <hex> (or RELEASE_SHA256), or --unverified to build without one');
  if (sha256 !== undefined && unverified) throw new ReleaseError('give either --sha256 or --unverified, not both');
  return {
    url,
    sha256,
    out: text('out') ?? DEFAULT_OUT,
    name: text('name', 'RELEASE_NAME'),
    date: text('date', 'RELEASE_DATE'),
    threads: integer('threads', Math.min(4, availableParallelism())),
    shardBytes: integer('shard-bytes', DEFAULT_SHARD_BYTES),
  };
}

interface Download {
  sha256: string;
  bytes: number;
  lastModified?: string;
}

/** Streams `url` into `file`, hashing on the way; errors that a new attempt may fix are marked `retry`. */
async function download(url: string, file: string, log: (line: string) => void): Promise<Download> {
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(6 * 3600_000) });
  } catch (e) {
    throw new ReleaseError(`download of ${url} failed: ${(e as Error).message}`, true);
  }
  if (!response.ok || !response.body) {
    await response.body?.cancel();
    throw new ReleaseError(`download of ${url} failed: HTTP ${response.status}`, response.status >= 500 || response.status === 429);
  }
  const hash = createHash('sha256');
  let bytes = 0;
  let lastLog = Date.now();
  const hashing = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      bytes += chunk.length;
      if (Date.now() - lastLog >= 5000) {
        lastLog = Date.now();
        log(`download: ${(bytes / 1e6).toFixed(0)} MB`);
      }
      done(null, chunk);
    },
  });
  try {
    await pipeline(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>), hashing, createWriteStream(file));
  } catch (e) {
    throw new ReleaseError(`download of ${url} was cut short after ${bytes} bytes: ${(e as Error).message}`, true);
  }
  return { sha256: hash.digest('hex'), bytes, lastModified: response.headers.get('Last-Modified') ?? undefined };
}

export async function main(argv: string[], log: (line: string) => void = (line) => process.stderr.write(line + '\n')): Promise<number> {
  let work: string | undefined;
  try {
    const options = parseOptions(argv);
    if (options === 'help') {
      process.stdout.write(USAGE + '\n');
      return 0;
    }
    work = tmpdir('digested-peptides-release-');
    // The input keeps the release's file name (it is recorded in the manifest's sources).
    const name = basename(new URL(options.url).pathname).replace(/[^A-Za-z0-9._-]/g, '_') || 'release.fasta';
    const file = join(work, name);
    const retrieved = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
    log(`download: ${options.url}`);
    const got = await retry(3, expBackoff('30s', '2s'), async () => {
      try {
        return { ok: await download(options.url, file, log) };
      } catch (e) {
        if (e instanceof ReleaseError && !e.retry) return { failed: e };
        log(`${(e as Error).message}; trying again`);
        throw e;
      }
    });
    if ('failed' in got) throw got.failed;
    const { sha256, bytes, lastModified } = got.ok;
    if (options.sha256 !== undefined && sha256 !== options.sha256) {
      throw new ReleaseError(`sha256 mismatch for ${options.url}: expected ${options.sha256}, got ${sha256} (${bytes} bytes); nothing was built or published`);
    }
    log(`download: ${bytes} bytes, sha256 ${sha256} ${options.sha256 ? 'verified' : '(unverified: no expected checksum given)'}`);

    const release: Record<string, string> = {
      url: options.url,
      sha256,
      verified: options.sha256 ? 'true' : 'false',
      retrieved,
      ...(lastModified ? { lastModified } : {}),
      ...(options.name ? { name: options.name } : {}),
      ...(options.date ? { date: options.date } : {}),
    };
    const manifest = await buildDataset({
      ...DEFAULT_DIGEST,
      inputs: [fg.escapePath(file)],
      out: options.out,
      shardBytes: options.shardBytes,
      threads: options.threads,
      log,
      release,
    });
    log(`published dataset ${manifest.datasetVersion} (${manifest.totals.shards} shards) of ${options.url} into ${options.out}`);
    return 0;
  } catch (e) {
    const message = (e instanceof Error ? e.message : String(e)).split('\n')[0];
    process.stderr.write(`build:release: error: ${message}\n`);
    return 1;
  } finally {
    if (work) rmSync(work, { recursive: true, force: true });
  }
}

function isEntry(): boolean {
  try {
    return process.argv[1] !== undefined && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntry()) process.exitCode = await main(process.argv.slice(2));

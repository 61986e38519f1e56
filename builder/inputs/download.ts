// Download of a release file: streamed into a local file while hashing (sha256 and md5), with a few retries for
// failures that a new attempt may fix (network errors, HTTP 5xx and 429); other failures stop at once.
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { expBackoff, fetch, retry } from 'zx';

/** A failed download, reported as one line; `retry` says whether trying again may help. */
export class DownloadError extends Error {
  constructor(
    message: string,
    readonly retry = false,
  ) {
    super(message);
  }
}

export interface Download {
  sha256: string;
  /** MD5 too: NCBI publishes its files' MD5 sums (taxdump.tar.gz.md5). */
  md5: string;
  bytes: number;
  /** The response's Last-Modified header, when it has one. */
  lastModified?: string;
}

/** Downloads `url` into `file` (up to 3 attempts); throws the last DownloadError when every attempt fails. */
export async function downloadWithRetries(url: string, file: string, log: (line: string) => void): Promise<Download> {
  const got = await retry(3, expBackoff('30s', '2s'), async () => {
    try {
      return { ok: await download(url, file, log) };
    } catch (e) {
      if (e instanceof DownloadError && !e.retry) return { failed: e };
      log(`${(e as Error).message}; trying again`);
      throw e;
    }
  });
  if ('failed' in got) throw got.failed;
  return got.ok;
}

/** Streams `url` into `file`, hashing on the way; errors that a new attempt may fix are marked `retry`. */
async function download(url: string, file: string, log: (line: string) => void): Promise<Download> {
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(6 * 3600_000) });
  } catch (e) {
    throw new DownloadError(`download of ${url} failed: ${(e as Error).message}`, true);
  }
  if (!response.ok || !response.body) {
    await response.body?.cancel();
    throw new DownloadError(
      `download of ${url} failed: HTTP ${response.status}`,
      response.status >= 500 || response.status === 429,
    );
  }
  const hash = createHash('sha256');
  const md5 = createHash('md5');
  let bytes = 0;
  let lastLog = Date.now();
  const hashing = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      md5.update(chunk);
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
    throw new DownloadError(`download of ${url} was cut short after ${bytes} bytes: ${(e as Error).message}`, true);
  }
  return {
    sha256: hash.digest('hex'),
    md5: md5.digest('hex'),
    bytes,
    lastModified: response.headers.get('Last-Modified') ?? undefined,
  };
}

// Getting one dataset file from a ShardSource the way every query does: within a time limit, checked against
// the sha256 its manifest entry names (one retry: a body may be cut in transit), failures as DatasetErrors.
import { DatasetError } from '../errors.js';
import { SourceError, type ShardSource } from './source.js';

export const DEFAULT_FETCH_TIMEOUT_MS = 10_000;

/** `source.get(file)`, abandoned after `ms`: a hanging source fails the request instead of holding it forever. */
export function getWithin(source: ShardSource, file: string, ms: number): Promise<Uint8Array> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new SourceError(`${file}: no answer within ${ms} ms`, true)), ms);
  });
  return Promise.race([source.get(file), timeout]).finally(() => clearTimeout(timer));
}

/** A sha256 implementation: lower-case hex of the bytes' digest. */
export type Sha256 = (bytes: Uint8Array) => string | Promise<string>;

/** Lower-case hex sha256 of `bytes` (Web Crypto: Node, browsers and edge runtimes alike; the default Sha256). */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  let hex = '';
  for (const byte of digest) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/**
 * The bytes of a dataset file, checked against its sha256. `schedule` runs the fetch (a concurrency limit);
 * a source failure becomes a DatasetError: unavailable when it may pass, corrupt when the source answered wrongly.
 */
export async function fetchChecked(
  source: ShardSource,
  file: string,
  sha256: string,
  timeoutMs: number,
  schedule: <T>(task: () => Promise<T>) => Promise<T> = (task) => task(),
  hash: Sha256 = sha256Hex,
): Promise<Uint8Array> {
  for (let attempt = 0; ; attempt++) {
    let bytes: Uint8Array;
    try {
      bytes = await schedule(() => getWithin(source, file, timeoutMs));
    } catch (e) {
      const error = e as SourceError;
      throw new DatasetError(
        `dataset file unavailable: ${error.message}`,
        error.transient === false ? 'corrupt' : 'unavailable',
      );
    }
    if ((await hash(bytes)) === sha256) return bytes;
    if (attempt > 0) throw new DatasetError(`${file} failed its sha256 check`, 'corrupt');
  }
}

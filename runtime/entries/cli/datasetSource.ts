// The dataset a bulk command (mirror, archive) reads: a folder or an http(s) base URL (file names may hold one
// folder of hex digits, `abc/0123….msgpack.gz`, which the sources accept), and its manifest read once.
import { resolve } from 'node:path';
import { DatasetError } from '../../core/errors.js';
import { getWithin } from '../../core/storage/fetchFile.js';
import { readManifest } from '../../core/storage/manifest.js';
import { HttpSource, SourceError, type ShardSource } from '../../core/storage/source.js';
import { MANIFEST_FILE, type Manifest } from '../../model/format.js';
import { FileSource } from '../node/fileSource.js';

/** Whether a location is a base URL rather than a folder. */
export const isUrl = (location: string): boolean => /^https?:\/\//i.test(location);

/** The dataset at a folder or base URL; HTTP attempts time out after `httpTimeoutMs` and are not retried here (the caller retries). */
export function datasetSource(location: string, httpTimeoutMs: number): ShardSource {
  return isUrl(location)
    ? new HttpSource(location, { timeoutMs: httpTimeoutMs, retries: 0 })
    : new FileSource(resolve(location));
}

/**
 * manifest.json as the source holds it (its bytes, to copy unchanged) and the manifest they hold, checked as
 * every reader checks it (format, version, compression, tiling): read once, so both are of the same release.
 */
export async function readManifestBytes(
  source: ShardSource,
  timeoutMs: number,
): Promise<{ bytes: Uint8Array; manifest: Manifest }> {
  let bytes: Uint8Array;
  try {
    bytes = await getWithin(source, MANIFEST_FILE, timeoutMs);
  } catch (e) {
    throw new DatasetError(
      `cannot read ${MANIFEST_FILE} from ${source.description}: ${e instanceof SourceError ? e.message : String(e)}`,
      'unavailable',
    );
  }
  const manifest = await readManifest({ description: source.description, get: async () => bytes }, timeoutMs);
  return { bytes, manifest };
}

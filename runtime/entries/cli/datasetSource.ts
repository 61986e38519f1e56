// The dataset a bulk command (mirror, archive) reads: a folder or an http(s) base URL whose file names may hold
// one folder level (`abc/0123….msgpack.gz`, large datasets fanned out by hex digits). The project's sources take
// plain names only, so each folder is read through a source of its own; names are checked first.
import { join, resolve } from 'node:path';
import { checkDatasetPath } from '../../core/datasetFiles.js';
import { DatasetError, getWithin } from '../../core/fetchFile.js';
import { readManifest } from '../../core/manifest.js';
import { HttpSource, SourceError, type ShardSource } from '../../core/source.js';
import { MANIFEST_FILE, type Manifest } from '../../model/format.js';
import { FileSource } from '../node/fileSource.js';

/** A ShardSource reading `folder/name` through the source `open(folder)` gives, and plain names through `root`. */
export class FoldersSource implements ShardSource {
  readonly description: string;
  private folders = new Map<string, ShardSource>();

  constructor(
    private root: ShardSource,
    private open: (folder: string) => ShardSource,
  ) {
    this.description = root.description;
  }

  get(file: string): Promise<Uint8Array> {
    const slash = file.indexOf('/');
    if (slash < 0) return this.root.get(file);
    checkDatasetPath(file);
    const folder = file.slice(0, slash);
    let source = this.folders.get(folder);
    if (!source) this.folders.set(folder, (source = this.open(folder)));
    return source.get(file.slice(slash + 1));
  }
}

/** Whether a location is a base URL rather than a folder. */
export const isUrl = (location: string): boolean => /^https?:\/\//i.test(location);

/** The dataset at a folder or base URL; HTTP attempts time out after `httpTimeoutMs` and are not retried here (the caller retries). */
export function datasetSource(location: string, httpTimeoutMs: number): ShardSource {
  if (isUrl(location)) {
    const base = new URL(location);
    if (!base.pathname.endsWith('/')) base.pathname += '/';
    const http = (url: URL) => new HttpSource(url, { timeoutMs: httpTimeoutMs, retries: 0 });
    return new FoldersSource(http(base), (folder) => http(new URL(`${folder}/`, base)));
  }
  const dir = resolve(location);
  return new FoldersSource(new FileSource(dir), (folder) => new FileSource(join(dir, folder)));
}

/**
 * manifest.json as the source holds it (its bytes, to copy unchanged) and the manifest they hold, checked as
 * every reader checks it (format, version, compression, tiling): read once, so both are of the same release.
 */
export async function readManifestBytes(source: ShardSource, timeoutMs: number): Promise<{ bytes: Uint8Array; manifest: Manifest }> {
  let bytes: Uint8Array;
  try {
    bytes = await getWithin(source, MANIFEST_FILE, timeoutMs);
  } catch (e) {
    throw new DatasetError(`cannot read ${MANIFEST_FILE} from ${source.description}: ${e instanceof SourceError ? e.message : String(e)}`, 503);
  }
  const manifest = await readManifest({ description: source.description, get: async () => bytes }, timeoutMs);
  return { bytes, manifest };
}

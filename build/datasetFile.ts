// Writes one dataset file the way the format stores every file but the manifest: compressed (brotli or gzip),
// named by the sha256 of the stored bytes (in a folder named by its first hex digits, for large datasets), listed
// by the manifest with that hash and size.
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { brotliCompressSync, constants, gunzipSync, brotliDecompressSync, gzipSync } from 'node:zlib';
import { placedFile, type Compression, type FileEntry } from '../runtime/model/format.js';

/**
 * How a dataset's files are stored: their compression and, with `folderDigits` > 0, in folders named by that many
 * leading hex digits of their sha256 (build --folder-digits). A bare compression means one flat folder.
 */
export type Storage = Compression | { compression: Compression; folderDigits: number };

export const compressionOf = (storage: Storage): Compression =>
  typeof storage === 'string' ? storage : storage.compression;
const folderDigitsOf = (storage: Storage): number => (typeof storage === 'string' ? 0 : storage.folderDigits);

/**
 * Brotli quality 5 compresses shards as small as quality 9 and several times faster (docs/decisions.md);
 * gzip at its best level.
 */
export function compress(bytes: Uint8Array, compression: Compression): Uint8Array {
  if (compression === 'gzip') return gzipSync(bytes, { level: 9 });
  return brotliCompressSync(bytes, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
  });
}

export function decompress(bytes: Uint8Array, compression: Compression): Uint8Array {
  return compression === 'gzip' ? gunzipSync(bytes) : brotliDecompressSync(bytes);
}

/** Compresses `content` (msgpack bytes, or a value written as JSON), writes it into `dir` named by `nameOf`, stored as `storage` says. */
export function writeDatasetFile(
  dir: string,
  content: Uint8Array | object,
  nameOf: (sha256: string, compression: Compression) => string,
  storage: Storage,
): FileEntry {
  const raw = content instanceof Uint8Array ? content : Buffer.from(JSON.stringify(content) + '\n');
  const compression = compressionOf(storage);
  const bytes = compress(raw, compression);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const file = placedFile(nameOf(sha256, compression), sha256, folderDigitsOf(storage));
  if (file.includes('/')) mkdirSync(dirname(join(dir, file)), { recursive: true });
  writeFileSync(join(dir, file), bytes);
  return { file, sha256, bytes: bytes.length };
}

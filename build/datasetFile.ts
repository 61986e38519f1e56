// Writes one dataset file the way format 2 stores every file but the manifest: compressed (brotli or gzip),
// named by the sha256 of the stored bytes, listed by the manifest with that hash and size.
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gunzipSync, brotliDecompressSync, gzipSync } from 'node:zlib';
import type { Compression, FileEntry } from '../runtime/model/format.js';

/**
 * Brotli quality 5 compresses shards as small as quality 9 and several times faster (test/bench/FORMAT-V2-STUDY.md);
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

/** Compresses `content` (msgpack bytes, or a value written as JSON), writes it into `dir` named by `nameOf`. */
export function writeDatasetFile(
  dir: string,
  content: Uint8Array | object,
  nameOf: (sha256: string, compression: Compression) => string,
  compression: Compression,
): FileEntry {
  const raw = content instanceof Uint8Array ? content : Buffer.from(JSON.stringify(content) + '\n');
  const bytes = compress(raw, compression);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const file = nameOf(sha256, compression);
  writeFileSync(join(dir, file), bytes);
  return { file, sha256, bytes: bytes.length };
}

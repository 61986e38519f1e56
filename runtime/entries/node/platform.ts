// What Node entries (server, CLI, Netlify functions) share: where a dataset is, how much memory its cache may
// use, and the process's memory for the answers' `memory` field.
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { DEFAULT_CACHE_BYTES, type DatasetOptions } from '../../core/storage/dataset.js';
import type { Decompress } from '../../core/storage/decompress.js';
import { HttpSource, type ShardSource } from '../../core/storage/source.js';
import { FileSource } from './fileSource.js';

/** Default dataset folder: SHARDS_DIR, else ./shards. */
export const DEFAULT_SHARDS_DIR = 'shards';
export const defaultShards = (): string => process.env.SHARDS_DIR ?? DEFAULT_SHARDS_DIR;

/** `http(s)://...` reads over HTTP (e.g. a deployed site's /shards/); anything else is a local folder. */
export function sourceFor(location: string): ShardSource {
  return /^https?:\/\//i.test(location) ? new HttpSource(location) : new FileSource(resolve(location));
}

/** SHARD_CACHE_BYTES, checked (default `fallback`, 256 MB unless said otherwise). */
export function cacheBytesFromEnv(fallback = DEFAULT_CACHE_BYTES): number {
  const text = process.env.SHARD_CACHE_BYTES;
  const bytes = text === undefined ? fallback : text.trim() === '' ? NaN : Number(text);
  if (!Number.isFinite(bytes) || bytes < 0)
    throw new Error(
      `SHARD_CACHE_BYTES must be a number of bytes (e.g. 268435456 for 256 MB; 0 for no cache), not ${JSON.stringify(text)}`,
    );
  return bytes;
}

/** Resident set size: the `memory` of the answers. */
export const processMemory = () => process.memoryUsage.rss();

/** Node's own sha256: synchronous and faster than Web Crypto's for a shard (no round trip to a thread pool). */
export const nodeSha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/**
 * Output chunks of zlib's decompression: large enough that a shard decompresses into one chunk, not several of zlib's
 * default 16 KB joined by a copy.
 */
const CHUNK = { chunkSize: 64 * 1024 };

/** zlib's synchronous codecs: no stream machinery for files of a few kilobytes, and brotli on every Node. */
export const nodeDecompress: Decompress = (bytes, compression) =>
  compression === 'gzip' ? gunzipSync(bytes, CHUNK) : brotliDecompressSync(bytes, CHUNK);

/** Node's codecs for a dataset: its sha256 and decompression. */
export const nodeCodecs = { sha256: nodeSha256, decompress: nodeDecompress } satisfies DatasetOptions;

/** Dataset options every Node entry uses: the cache budget from the environment, Node's sha256 and zlib. */
export const nodeDatasetOptions = (): DatasetOptions => ({ cacheBytes: cacheBytesFromEnv(), ...nodeCodecs });

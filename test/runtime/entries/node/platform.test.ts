// Tests runtime/entries/node/platform.ts: sourceFor (http/https URLs → HttpSource, anything else → FileSource of
// the resolved folder), cacheBytesFromEnv (default 256 MiB, valid values, invalid ones refused with the message),
// defaultShards (SHARDS_DIR, else "shards"), nodeDecompress (gzip and brotli, one output chunk or many, a cut stream
// refused).
import { resolve } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpSource } from '../../../../runtime/core/storage/source.js';
import { FileSource } from '../../../../runtime/entries/node/fileSource.js';
import {
  cacheBytesFromEnv,
  defaultShards,
  nodeDecompress,
  sourceFor,
} from '../../../../runtime/entries/node/platform.js';
import { prng } from '../../../helpers/prng.js';

const saved = { SHARD_CACHE_BYTES: process.env.SHARD_CACHE_BYTES, SHARDS_DIR: process.env.SHARDS_DIR };

/** Sets (or, with undefined, removes) an environment variable for one test. */
function env(name: keyof typeof saved, value: string | undefined) {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}

afterEach(() => {
  for (const [name, value] of Object.entries(saved)) env(name as keyof typeof saved, value);
});

describe('sourceFor', () => {
  it('reads http and https URLs over HTTP, whatever their case, below the URL as a folder', () => {
    for (const [location, description] of [
      ['http://example.org/shards/', 'http://example.org/shards/'],
      ['https://cdn.example.org/data', 'https://cdn.example.org/data/'],
      ['HTTPS://Example.org/x/', 'https://example.org/x/'],
      ['http://127.0.0.1:8080', 'http://127.0.0.1:8080/'],
    ]) {
      const source = sourceFor(location);
      expect(source, location).toBeInstanceOf(HttpSource);
      expect(source.description).toBe(description);
    }
  });

  it('reads anything else as a local folder, resolved against the working directory', () => {
    for (const location of [
      'shards',
      './data/shards',
      '/tmp/some/dataset',
      'ftp://example.org/x',
      'httpx://x',
      'http:/one-slash',
      'file:///tmp/x',
    ]) {
      const source = sourceFor(location);
      expect(source, location).toBeInstanceOf(FileSource);
      expect(source.description).toBe(`folder ${resolve(location)}`);
    }
  });
});

describe('cacheBytesFromEnv', () => {
  it('is 256 MiB when SHARD_CACHE_BYTES is not set', () => {
    env('SHARD_CACHE_BYTES', undefined);
    expect(cacheBytesFromEnv()).toBe(268_435_456);
  });

  it('reads a number of bytes', () => {
    for (const [text, bytes] of [
      ['1000', 1000],
      ['0', 0],
      ['1e9', 1e9],
      ['536870912', 536_870_912],
    ] as const) {
      env('SHARD_CACHE_BYTES', text);
      expect(cacheBytesFromEnv(), text).toBe(bytes);
    }
  });

  it('refuses what is not a non-negative finite number, naming the value', () => {
    for (const text of ['abc', '-1', 'Infinity', '12MB', 'NaN', '', ' ']) {
      env('SHARD_CACHE_BYTES', text);
      expect(() => cacheBytesFromEnv(), text).toThrow(
        `SHARD_CACHE_BYTES must be a number of bytes (e.g. 268435456 for 256 MB; 0 for no cache), not ${JSON.stringify(text)}`,
      );
    }
  });
});

describe('defaultShards', () => {
  it('is SHARDS_DIR when set, else "shards"', () => {
    env('SHARDS_DIR', undefined);
    expect(defaultShards()).toBe('shards');
    env('SHARDS_DIR', '/data/release-2025');
    expect(defaultShards()).toBe('/data/release-2025');
    env('SHARDS_DIR', 'https://example.org/shards/');
    expect(defaultShards()).toBe('https://example.org/shards/');
  });
});

describe('nodeDecompress', () => {
  it('gives back the bytes compressed, for outputs below, at and above its 64 KiB chunk, in both compressions', async () => {
    const random = prng(3);
    for (const size of [0, 1, 65_535, 65_536, 65_537, 300_000]) {
      // Letters from a small alphabet: compressible, as shards are.
      const original = Uint8Array.from({ length: size }, () => 65 + Math.floor(random() * 20));
      expect(
        Buffer.from(await nodeDecompress(gzipSync(original), 'gzip')).equals(original),
        `gzip, ${size} bytes`,
      ).toBe(true);
      expect(
        Buffer.from(await nodeDecompress(brotliCompressSync(original), 'br')).equals(original),
        `br, ${size} bytes`,
      ).toBe(true);
    }
  });

  it('refuses a stream cut short', () => {
    const stored = gzipSync(new Uint8Array(100_000).fill(7));
    expect(() => nodeDecompress(stored.subarray(0, stored.length - 9), 'gzip')).toThrow();
  });
});

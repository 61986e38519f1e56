// One dataset opened from a ShardSource: its manifest (read once, checked) and its shards, decoded on
// demand, verified against their sha256, shared by concurrent requests and kept in an LRU bounded by bytes.
import { createHash } from 'node:crypto';
import pLimit from 'p-limit';
import { decodeShard, FORMAT_NAME, FORMAT_VERSION, tilingViolation, type IndexPage, type IndexPageEntry, type Manifest, type Shard, type ShardEntry } from './format.js';
import { entryJson, entryJsonBytes, type EntryJson } from './entryJson.js';
import type { EntryShape } from './params.js';
import { ShardIndex } from './shardIndex.js';
import { SourceError, type ShardSource } from './source.js';

/** A dataset failure as the API reports it: 503 when storage is unavailable, 502 when it answered wrongly. */
export class DatasetError extends Error {
  constructor(
    message: string,
    readonly status: 502 | 503,
  ) {
    super(message);
  }
}

/** A decoded shard in the cache, with the entry JSON built from it so far; cost = bytes charged for both. */
interface CacheEntry {
  shard: Shard;
  cost: number;
  /** Times the shard was taken from the cache. */
  hits: number;
  json: Partial<Record<EntryShape, EntryJson>>;
}

export interface DatasetOptions {
  /** Budget of the decoded-shard cache, in bytes of decoded data (estimated). Default 256 MB. */
  cacheBytes?: number;
  /** Shard fetches in flight at once. Default 6. */
  concurrency?: number;
  /** Milliseconds one file fetch may take before it counts as unavailable (503), whatever the source. Default 10 s. */
  fetchTimeoutMs?: number;
}

export const DEFAULT_FETCH_TIMEOUT_MS = 10_000;

/** `source.get(file)`, abandoned after `ms`: a hanging source fails the request instead of holding it forever. */
function getWithin(source: ShardSource, file: string, ms: number): Promise<Uint8Array> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new SourceError(`${file}: no answer within ${ms} ms`, true)), ms);
  });
  return Promise.race([source.get(file), timeout]).finally(() => clearTimeout(timer));
}

/** Decoded shards take about this many times their file size in memory (strings and typed columns); their
 * entry JSON (entryJson.ts) is charged at its own size when it is built. */
const DECODED_PER_FILE_BYTE = 2;

export class Dataset {
  readonly index: ShardIndex;
  private cache = new Map<string, CacheEntry>();
  /** The cache key of each shard object still in the cache. */
  private fileOf = new WeakMap<Shard, string>();
  private cachedBytes = 0;
  private loading = new Map<string, Promise<Shard>>();
  private limit: ReturnType<typeof pLimit>;
  private cacheBytes: number;
  private fetchTimeoutMs: number;

  private constructor(
    readonly manifest: Manifest,
    private source: ShardSource,
    options: DatasetOptions,
  ) {
    this.cacheBytes = options.cacheBytes ?? 256 * 2 ** 20;
    this.limit = pLimit(options.concurrency ?? 6);
    this.fetchTimeoutMs = options.fetchTimeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS;
    this.index = new ShardIndex(manifest, (page) => this.loadIndexPage(page));
  }

  /** Reads and checks the manifest; throws DatasetError (503) when it is missing or not a valid manifest. */
  static async open(source: ShardSource, options: DatasetOptions = {}): Promise<Dataset> {
    let manifest: Manifest;
    try {
      manifest = JSON.parse(new TextDecoder().decode(await getWithin(source, 'manifest.json', options.fetchTimeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS))) as Manifest;
    } catch (e) {
      const reason = e instanceof SourceError ? e.message : 'manifest.json is not valid JSON';
      throw new DatasetError(`dataset unavailable: ${reason}`, 503);
    }
    const list = manifest?.shards ?? manifest?.shardIndex?.pages;
    const problem =
      manifest?.format !== FORMAT_NAME || manifest.formatVersion !== FORMAT_VERSION
        ? `manifest is not ${FORMAT_NAME} format ${FORMAT_VERSION}`
        : !Array.isArray(list)
          ? 'manifest lists no shards'
          : tilingViolation(list);
    if (problem) throw new DatasetError(`dataset unavailable: ${problem}`, 503);
    return new Dataset(manifest, source, options);
  }

  /** The bytes of a dataset file, checked against its sha256 (one retry: a body may be cut in transit). */
  private async fetchChecked(file: string, sha256: string): Promise<Uint8Array> {
    for (let attempt = 0; ; attempt++) {
      let bytes: Uint8Array;
      try {
        bytes = await this.limit(() => getWithin(this.source, file, this.fetchTimeoutMs));
      } catch (e) {
        const error = e as SourceError;
        throw new DatasetError(`dataset file unavailable: ${error.message}`, error.transient === false ? 502 : 503);
      }
      if (createHash('sha256').update(bytes).digest('hex') === sha256) return bytes;
      if (attempt > 0) throw new DatasetError(`${file} failed its sha256 check`, 502);
    }
  }

  private async loadIndexPage(entry: IndexPageEntry): Promise<ShardEntry[]> {
    const bytes = await this.fetchChecked(entry.file, entry.sha256);
    const page = JSON.parse(new TextDecoder().decode(bytes)) as IndexPage;
    const problem = !Array.isArray(page?.shards) || page.shards.length !== entry.shards ? 'wrong shard count' : tilingViolation(page.shards);
    if (problem) throw new DatasetError(`index page ${entry.file} is not readable: ${problem}`, 502);
    return page.shards;
  }

  /** The decoded shard, from the cache, a load in flight, or the source. */
  shard(entry: ShardEntry): Promise<Shard> {
    const cached = this.cache.get(entry.file);
    if (cached) {
      cached.hits++;
      this.cache.delete(entry.file);
      this.cache.set(entry.file, cached);
      return Promise.resolve(cached.shard);
    }
    let pending = this.loading.get(entry.file);
    if (!pending) {
      pending = this.load(entry).finally(() => this.loading.delete(entry.file));
      this.loading.set(entry.file, pending);
    }
    return pending;
  }

  private async load(entry: ShardEntry): Promise<Shard> {
    const bytes = await this.fetchChecked(entry.file, entry.sha256);
    let shard: Shard;
    try {
      shard = decodeShard(bytes);
    } catch (e) {
      throw new DatasetError(`shard ${entry.file} is not readable: ${(e as Error).message}`, 502);
    }
    this.remember(entry.file, shard, entry.bytes * DECODED_PER_FILE_BYTE);
    return shard;
  }

  /**
   * The entries of a cached shard as JSON in `shape`, once the shard has been asked for again after its
   * load and the cache has room: built then and kept with the shard while it stays in the cache, its bytes
   * added to the shard's cost. Otherwise undefined, and the answer writes the few entries it needs directly.
   */
  entryJson(shard: Shard, shape: EntryShape): EntryJson | undefined {
    const file = this.fileOf.get(shard);
    const cached = file === undefined ? undefined : this.cache.get(file);
    if (!cached || cached.shard !== shard) return undefined;
    let json = cached.json[shape];
    if (!json) {
      // Only for shards used again, and only while it fits without evicting (its size is at most about the
      // decoded shard's): under a cache that keeps evicting, building it would cost more than it saves.
      if (cached.hits === 0 || this.cachedBytes + cached.cost > this.cacheBytes) return undefined;
      json = cached.json[shape] = entryJson(shard, shape);
      cached.cost += entryJsonBytes(json);
      this.cachedBytes += entryJsonBytes(json);
      this.evict(file!);
    }
    return json;
  }

  private remember(file: string, shard: Shard, cost: number): void {
    this.cache.set(file, { shard, cost, hits: 0, json: {} });
    this.fileOf.set(shard, file);
    this.cachedBytes += cost;
    this.evict(file);
  }

  /** Drops least recently used shards until the cache fits its budget; never `keep`. */
  private evict(keep: string): void {
    for (const [oldest, { cost }] of this.cache) {
      if (this.cachedBytes <= this.cacheBytes) break;
      if (oldest === keep) continue;
      this.cache.delete(oldest);
      this.cachedBytes -= cost;
    }
  }
}

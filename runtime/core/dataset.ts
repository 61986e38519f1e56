// One dataset opened from a ShardSource: its manifest, its shard index, and its shards — fetched on demand,
// verified, decoded, shared by concurrent requests and kept in a ShardCache bounded by bytes.
import pLimit from 'p-limit';
import type { FileEntry, IndexPage, IndexPageEntry, Manifest, ProteinPage, ProteinPageEntry, Shard, ShardEntry, TaxonomyFile } from '../model/format.js';
import { tilingViolation } from '../model/format.js';
import { decodeShard } from '../model/shardCodec.js';
import { Taxonomy } from '../model/taxonomy.js';
import { DatasetError, DEFAULT_FETCH_TIMEOUT_MS, fetchChecked, type Sha256 } from './fetchFile.js';
import { readManifest } from './manifest.js';
import { ShardCache, type Derived } from './shardCache.js';
import { ShardIndex } from './shardIndex.js';
import type { ShardSource } from './source.js';

export { DatasetError };

/** Memory for decoded shards and what is derived from them, unless a platform says otherwise. */
export const DEFAULT_CACHE_BYTES = 256 * 2 ** 20;

export interface DatasetOptions {
  /** Budget of the decoded-shard cache, in bytes of decoded data (estimated). Default 256 MB. */
  cacheBytes?: number;
  /** Shard fetches in flight at once. Default 6. */
  concurrency?: number;
  /** Milliseconds one file fetch may take before it counts as unavailable (503), whatever the source. Default 10 s. */
  fetchTimeoutMs?: number;
  /** The sha256 that checks every file (default Web Crypto; a platform may give a faster one). */
  sha256?: Sha256;
}

/** JSON files of the dataset (protein pages) kept decoded, most recently used first out last. */
const MAX_JSON_FILES = 256;

/** Decoded shards take about this many times their file size in memory (strings and typed columns). */
const DECODED_PER_FILE_BYTE = 2;

export class Dataset {
  readonly index: ShardIndex;
  private cache: ShardCache;
  private loading = new Map<string, Promise<Shard>>();
  /** JSON files read (or being read) and decoded, by file name: the taxonomy and protein pages. */
  private jsonFiles = new Map<string, Promise<unknown>>();
  private schedule: <T>(task: () => Promise<T>) => Promise<T>;
  private fetchTimeoutMs: number;
  private sha256: Sha256 | undefined;

  private constructor(
    readonly manifest: Manifest,
    private source: ShardSource,
    options: DatasetOptions,
  ) {
    this.cache = new ShardCache(options.cacheBytes ?? DEFAULT_CACHE_BYTES);
    const limit = pLimit(options.concurrency ?? 6);
    this.schedule = (task) => limit(task);
    this.fetchTimeoutMs = options.fetchTimeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS;
    this.sha256 = options.sha256;
    this.index = new ShardIndex(manifest, (page) => this.loadIndexPage(page));
  }

  /** Reads and checks the manifest; throws DatasetError (503) when it is missing or not a valid manifest. */
  static async open(source: ShardSource, options: DatasetOptions = {}): Promise<Dataset> {
    return new Dataset(await readManifest(source, options.fetchTimeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS), source, options);
  }

  private fetch(file: string, sha256: string): Promise<Uint8Array> {
    return fetchChecked(this.source, file, sha256, this.fetchTimeoutMs, this.schedule, this.sha256);
  }

  private async loadIndexPage(entry: IndexPageEntry): Promise<ShardEntry[]> {
    const bytes = await this.fetch(entry.file, entry.sha256);
    const page = JSON.parse(new TextDecoder().decode(bytes)) as IndexPage;
    const problem = !Array.isArray(page?.shards) || page.shards.length !== entry.shards ? 'wrong shard count' : tilingViolation(page.shards);
    if (problem) throw new DatasetError(`index page ${entry.file} is not readable: ${problem}`, 502);
    return page.shards;
  }

  /** The decoded shard when it is in the cache (now the most recently used), else undefined. */
  cachedShard(entry: ShardEntry): Shard | undefined {
    return this.cache.get(entry.file);
  }

  /** The decoded shard, from the cache, a load in flight, or the source. */
  shard(entry: ShardEntry): Promise<Shard> {
    const cached = this.cache.get(entry.file);
    if (cached) return Promise.resolve(cached);
    let pending = this.loading.get(entry.file);
    if (!pending) {
      pending = this.load(entry).finally(() => this.loading.delete(entry.file));
      this.loading.set(entry.file, pending);
    }
    return pending;
  }

  private async load(entry: ShardEntry): Promise<Shard> {
    const bytes = await this.fetch(entry.file, entry.sha256);
    let shard: Shard;
    try {
      shard = decodeShard(bytes);
    } catch (e) {
      throw new DatasetError(`shard ${entry.file} is not readable: ${(e as Error).message}`, 502);
    }
    this.cache.put(entry.file, shard, entry.bytes * DECODED_PER_FILE_BYTE);
    return shard;
  }

  /** The dataset's taxonomy, or undefined when it was built without one. */
  taxonomy(): Promise<Taxonomy | undefined> {
    const entry = this.manifest.taxonomy;
    return entry ? this.jsonFile(entry, 'taxonomy', (file: TaxonomyFile) => new Taxonomy(file)) : Promise.resolve(undefined);
  }

  /** A page of the protein table, checked. */
  proteinPage(entry: ProteinPageEntry): Promise<ProteinPage> {
    return this.jsonFile(entry, 'protein page', (page: ProteinPage) => {
      const columns = [page.accessions, page.taxIds, page.reviewed, page.proteins, page.organisms];
      if (columns.some((c) => !Array.isArray(c) || c.length !== entry.accessions)) throw new Error('columns are missing or differ in length');
      return page;
    });
  }

  /** A JSON file of the dataset, fetched, checked and decoded once, kept while among the last MAX_JSON_FILES used. */
  private jsonFile<R, T>(entry: FileEntry, what: string, decode: (raw: R) => T): Promise<T> {
    let pending = this.jsonFiles.get(entry.file) as Promise<T> | undefined;
    if (pending) {
      this.jsonFiles.delete(entry.file); // most recently used again
    } else {
      pending = this.fetch(entry.file, entry.sha256).then((bytes) => {
        try {
          return decode(JSON.parse(new TextDecoder().decode(bytes)) as R);
        } catch (e) {
          throw new DatasetError(`${what} ${entry.file} is not readable: ${(e as Error).message}`, 502);
        }
      });
      pending.catch(() => this.jsonFiles.delete(entry.file));
      if (this.jsonFiles.size >= MAX_JSON_FILES) this.jsonFiles.delete(this.jsonFiles.keys().next().value!);
    }
    this.jsonFiles.set(entry.file, pending);
    return pending;
  }

  /** What the shard cache holds now: shards, bytes charged, budget. */
  get cacheStats(): { shards: number; bytes: number; budget: number } {
    return this.cache.stats;
  }

  /** A value derived from a cached shard, memoized with it (see ShardCache.derive); undefined when not worth it. */
  derived<T>(shard: Shard, key: string, build: (shard: Shard) => Derived<T>): T | undefined {
    return this.cache.derive(shard, key, build);
  }
}

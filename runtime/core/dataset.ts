// One dataset opened from a ShardSource: its manifest, its shard index, its accession table and its shards —
// fetched on demand, verified, decompressed, decoded, shared by concurrent requests and kept in a ShardCache
// bounded by bytes.
import pLimit from 'p-limit';
import type { AccessionIndexPage, AccessionPageEntry, AccessionTable, DatasetView, FileEntry, IndexPage, IndexPageEntry, InnerIndexPage, Manifest, ProteinIndexPage, ProteinPage, ProteinPageEntry, Shard, ShardEntry, TaxonomyFile } from '../model/format.js';
import { accessionIndexPageViolation, indexPageViolation, proteinIndexPageViolation, proteinPageViolation } from '../model/indexTree.js';
import { decodeAccessionPage, decodeShard, joinAccessionPages } from '../model/shardCodec.js';
import { parseModifications, siteSlots, type ModSpec, type SlotSet } from '../model/modifications.js';
import { Taxonomy } from '../model/taxonomy.js';
import { streamDecompress, type Decompress } from './decompress.js';
import { DatasetError, DEFAULT_FETCH_TIMEOUT_MS, fetchChecked, type Sha256 } from './fetchFile.js';
import { readManifest } from './manifest.js';
import { ShardCache, type Derived } from './shardCache.js';
import { ShardIndex } from './shardIndex.js';
import type { ShardSource } from './source.js';

export { DatasetError };

/** Memory for decoded shards and what is derived from them, unless a platform says otherwise. */
export const DEFAULT_CACHE_BYTES = 256 * 2 ** 20;

export interface DatasetOptions {
  /** Budget of the decoded-shard cache, in bytes of decoded data (estimated). Default 256 MB. The accession table and the taxonomy (read once, kept: ~20 bytes per accession) are outside it. */
  cacheBytes?: number;
  /** Shard fetches in flight at once. Default 6. */
  concurrency?: number;
  /** Milliseconds one file fetch may take before it counts as unavailable (503), whatever the source. Default 10 s. */
  fetchTimeoutMs?: number;
  /** The sha256 that checks every file (default Web Crypto; a platform may give a faster one). */
  sha256?: Sha256;
  /** Decompresses every file but the manifest (default DecompressionStream; a platform may give a faster one). */
  decompress?: Decompress;
  /**
   * The dataset's accession table, already decoded by another Dataset of the same dataset version (a process
   * reopening it, a benchmark of cold shard reads): not read again. Checked against the manifest's count.
   */
  accessionTable?: AccessionTable;
}

/** Memory of a decoded shard: its typed columns and its sequences (one byte per residue), plus the objects. */
const shardBytes = (s: Shard) =>
  s.massKeys.byteLength + s.groupEnds.byteLength + s.sequenceEnds.byteLength + s.accessionRefEnds.byteLength + s.accessionRefs.byteLength + s.sequences.length + 400;
/** Decoded JSON (arrays of short strings) takes about this many times its text in memory. */
const DECODED_PER_JSON_BYTE = 4;

const parseJson = <T>(bytes: Uint8Array) => JSON.parse(new TextDecoder().decode(bytes)) as T;

/** `value` when `problem(value)` finds none, else an Error naming it (load makes it a DatasetError). */
function checked<T>(value: T, problem: (value: T) => string | null): T {
  const found = problem(value);
  if (found) throw new Error(found);
  return value;
}

/** A view of the dataset a reader can use: its modification on residue letters, and its shard index. */
export interface ReadableView {
  spec: ModSpec & { site: { kind: 'residues' } };
  /** The slots its modification takes: the residues of its letters. */
  slots: SlotSet;
  index: ShardIndex;
}

/** The view of a manifest's entry, or undefined when this reader cannot use it (not one modification on residues adding mass). */
function readableView(view: DatasetView, loadPage: ConstructorParameters<typeof ShardIndex>[1]): ReadableView | undefined {
  let specs: ModSpec[];
  try {
    specs = parseModifications(view.fixed);
  } catch {
    return undefined;
  }
  const [spec] = specs;
  if (specs.length !== 1 || spec.site.kind !== 'residues' || spec.modification.deltaUnits <= 0) return undefined;
  return { spec: spec as ReadableView['spec'], slots: siteSlots(spec.site), index: new ShardIndex(view, loadPage) };
}

export class Dataset {
  readonly index: ShardIndex;
  /** The views the manifest lists that this reader can use (precursor search reads them). */
  readonly views: ReadableView[];
  private cache: ShardCache;
  /** Files being read and decoded, by name: concurrent requests share one read. */
  private loading = new Map<string, Promise<object>>();
  private taxonomyTree: Promise<Taxonomy> | undefined;
  private table: Promise<AccessionTable> | undefined;
  private schedule: <T>(task: () => Promise<T>) => Promise<T>;
  private fetchTimeoutMs: number;
  private sha256: Sha256 | undefined;
  private decompress: Decompress;

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
    this.decompress = options.decompress ?? streamDecompress;
    if (options.accessionTable) {
      if (options.accessionTable.accessionEnds.length !== manifest.accessions.count) throw new Error('the accession table given is not this dataset’s');
      this.table = Promise.resolve(options.accessionTable);
    }
    const loadPage = (page: IndexPageEntry, leaf: boolean) => this.loadIndexPage(page, leaf);
    this.index = new ShardIndex(manifest, loadPage);
    this.views = (manifest.views ?? []).flatMap((view) => readableView(view, loadPage) ?? []);
  }

  /** Reads and checks the manifest; throws DatasetError (503) when it is missing or not a valid manifest. */
  static async open(source: ShardSource, options: DatasetOptions = {}): Promise<Dataset> {
    return new Dataset(await readManifest(source, options.fetchTimeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS), source, options);
  }

  private fetch(file: string, sha256: string): Promise<Uint8Array> {
    return fetchChecked(this.source, file, sha256, this.fetchTimeoutMs, this.schedule, this.sha256);
  }

  /** An index page, checked against its entry: its shards (a leaf) or the pages of the level below. */
  private loadIndexPage(entry: IndexPageEntry, leaf: boolean): Promise<ShardEntry[] | IndexPageEntry[]> {
    return this.load(entry, 'index page', (bytes) => {
      const page = checked(parseJson<IndexPage & InnerIndexPage>(bytes), (p) => indexPageViolation(p, entry, leaf));
      return leaf ? page.shards : page.pages;
    });
  }

  /** The decoded shard when it is in the cache (now the most recently used), else undefined. */
  cachedShard(entry: ShardEntry): Shard | undefined {
    return this.cache.get(entry.file);
  }

  /** The decoded shard, from the cache, a load in flight, or the source. */
  shard(entry: ShardEntry): Promise<Shard> {
    const cached = this.cache.get<Shard>(entry.file);
    if (cached) return Promise.resolve(cached);
    const table = this.accessionTable(); // fetched beside the shard, not after it: one round trip for both
    return this.file(entry, 'shard', (bytes) => table.then((t) => decodeShard(bytes, t)), shardBytes);
  }

  /** The accession table every shard's ranks point into: all its pages, read once, joined, kept. */
  accessionTable(): Promise<AccessionTable> {
    if (!this.table) {
      this.table = this.readAccessionTable();
      this.table.catch(() => (this.table = undefined)); // a failed read is tried again next time
    }
    return this.table;
  }

  /** Every page of the accession table (down through its inner pages), each checked against its entry, joined in rank order. */
  private async readAccessionTable(): Promise<AccessionTable> {
    const { pages: root, levels = 1, count } = this.manifest.accessions;
    let entries: AccessionPageEntry[] = root;
    for (let level = levels; level > 1; level--) {
      const inner = entries.map((entry) => this.load(entry, 'accession index page', (bytes) => checked(parseJson<AccessionIndexPage>(bytes), (page) => accessionIndexPageViolation(page, entry)).pages));
      entries = (await Promise.all(inner)).flat();
    }
    const pages = await Promise.all(entries.map((entry) => this.load(entry, 'accession page', (bytes) => checked(decodeAccessionPage(bytes), (page) => (page.taxIds.length === entry.accessions ? null : `it holds ${page.taxIds.length} accessions where its entry says ${entry.accessions}`)))));
    const table = joinAccessionPages(pages);
    if (table.taxIds.length !== count) throw new DatasetError(`the accession table holds ${table.taxIds.length} accessions where the manifest says ${count}`, 502);
    // Reviewed accessions first (model/accessionOrder.ts): the reviewed filter takes ranks below their count.
    const reviewed = this.manifest.totals.reviewedAccessions ?? 0;
    if (table.reviewed.findIndex((flag, a) => flag !== (a < reviewed ? 1 : 0)) >= 0) throw new DatasetError(`the accession table does not rank its ${reviewed} reviewed accessions first`, 502);
    return table;
  }

  /** The dataset's taxonomy (read once, kept), or undefined when it was built without one. */
  taxonomy(): Promise<Taxonomy | undefined> {
    const entry = this.manifest.taxonomy;
    if (!entry) return Promise.resolve(undefined);
    if (!this.taxonomyTree) {
      this.taxonomyTree = this.load(entry, 'taxonomy', (bytes) => new Taxonomy(parseJson<TaxonomyFile>(bytes)));
      this.taxonomyTree.catch(() => (this.taxonomyTree = undefined)); // a failed read is tried again next time
    }
    return this.taxonomyTree;
  }

  /** A page of the protein table, checked against its entry; cached beside the shards. */
  proteinPage(entry: ProteinPageEntry): Promise<ProteinPage> {
    return this.file(entry, 'protein page', (bytes) => checked(parseJson<ProteinPage>(bytes), (page) => proteinPageViolation(page, entry)), (_, text) => text * DECODED_PER_JSON_BYTE);
  }

  /** An inner page of the protein table (the pages of the level below), checked against its entry; cached beside the shards. */
  proteinIndexPage(entry: ProteinPageEntry): Promise<ProteinPageEntry[]> {
    return this.file(entry, 'protein index page', (bytes) => checked(parseJson<ProteinIndexPage>(bytes), (page) => proteinIndexPageViolation(page, entry)).pages, (_, text) => text * DECODED_PER_JSON_BYTE);
  }

  /** A decoded file: from the cache, a load in flight, or the source (then cached, charged `cost(value, its decompressed size)`). */
  private file<T extends object>(entry: FileEntry, what: string, decode: (bytes: Uint8Array) => T | Promise<T>, cost: (value: T, decompressed: number) => number): Promise<T> {
    const cached = this.cache.get<T>(entry.file);
    if (cached) return Promise.resolve(cached);
    let pending = this.loading.get(entry.file) as Promise<T> | undefined;
    if (!pending) {
      let decompressed = 0;
      pending = this.load(entry, what, (bytes) => {
        decompressed = bytes.length;
        return decode(bytes);
      })
        .then((value) => {
          this.cache.put(entry.file, value, cost(value, decompressed));
          return value;
        })
        .finally(() => this.loading.delete(entry.file));
      this.loading.set(entry.file, pending);
    }
    return pending;
  }

  /**
   * Fetches, checks, decompresses and decodes one file; a file that does not decode is a DatasetError (502), and
   * a DatasetError of what decoding waits for (the accession table) stays as it is.
   */
  private async load<T>(entry: FileEntry, what: string, decode: (bytes: Uint8Array) => T | Promise<T>): Promise<T> {
    const bytes = await this.fetch(entry.file, entry.sha256);
    try {
      return await decode(await this.decompress(bytes, this.manifest.compression));
    } catch (e) {
      if (e instanceof DatasetError) throw e;
      throw new DatasetError(`${what} ${entry.file} is not readable: ${(e as Error).message}`, 502);
    }
  }

  /** What the cache holds now: decoded files (shards, protein pages), bytes charged, budget. */
  get cacheStats(): { shards: number; bytes: number; budget: number } {
    return this.cache.stats;
  }

  /** A value derived from a cached shard, memoized with it (see ShardCache.derive); undefined when not worth it. */
  derived<T>(shard: Shard, key: string, build: (shard: Shard) => Derived<T>): T | undefined {
    return this.cache.derive(shard, key, build);
  }
}

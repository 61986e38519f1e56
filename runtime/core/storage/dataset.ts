// One dataset opened from a ShardSource: its manifest, its shard index, its shards and the pages of its accession
// table an answer lists — fetched on demand, verified, decompressed, decoded, shared by concurrent requests and
// kept in a ShardCache bounded by bytes.
import pLimit from 'p-limit';
import type {
  AccessionIndexPage,
  AccessionPageEntry,
  AccessionTable,
  DatasetView,
  FileEntry,
  IndexPage,
  IndexPageEntry,
  InnerIndexPage,
  Manifest,
  ProteinIndexPage,
  ProteinPage,
  ProteinPageEntry,
  SequencePage,
  Shard,
  ShardEntry,
  TaxonomyFile,
} from '../../model/format.js';
import {
  accessionIndexPageViolation,
  indexPageViolation,
  proteinIndexPageViolation,
  proteinPageViolation,
  sequencePageViolation,
} from '../../model/indexTree.js';
import { decodeAccessionPage, decodePeptideCounts, decodeShard } from '../../model/shardCodec.js';
import { AccessionSet, NO_ACCESSIONS, recordBytes, type AccessionRun } from '../../model/accessionSet.js';
import { siteSlots, type SlotSet } from '../../model/modifications.js';
import { parseViewText, type ResidueSpec, type ViewMods } from '../../model/views.js';
import { Taxonomy } from '../../model/taxonomy.js';
import { streamDecompress, type Decompress } from './decompress.js';
import { DatasetError } from '../errors.js';
import { DEFAULT_FETCH_TIMEOUT_MS, fetchChecked, type Sha256 } from './fetchFile.js';
import { readManifest } from './manifest.js';
import { ShardCache, type Derived } from './shardCache.js';
import { ShardIndex } from './shardIndex.js';
import type { ShardSource } from './source.js';

export { DatasetError };

type Schedule = <T>(task: () => Promise<T>) => Promise<T>;

/** Memory for decoded shards and what is derived from them, unless a platform says otherwise. */
export const DEFAULT_CACHE_BYTES = 256 * 2 ** 20;

export interface DatasetOptions {
  /**
   * Budget of the decoded-shard cache, in bytes of decoded data (estimated). Default 256 MB. Pages of a paged
   * accession table are charged to it; a table of one page and the taxonomy (read once, kept: ~20 bytes per
   * accession) are outside it.
   */
  cacheBytes?: number;
  /** Shard fetches in flight at once. Default 6. */
  concurrency?: number;
  /**
   * Fetches of every other file (index pages, table pages, the taxonomy) in flight at once, apart from the shards'.
   * Default 32: an answer over a paged accession table reads, after its shards, every page its accessions fall in —
   * 51–61 on average on a Swiss-Prot-sized set, all 279 at p99 (docs/decisions.md): at 6 at once a cold
   * query took up to 51 round trips, at 32 up to 14.
   */
  pageConcurrency?: number;
  /** Milliseconds one file fetch may take before it counts as unavailable, whatever the source. Default 10 s. */
  fetchTimeoutMs?: number;
  /** The sha256 that checks every file (default Web Crypto; a platform may give a faster one). */
  sha256?: Sha256;
  /** Decompresses every file but the manifest (default DecompressionStream; a platform may give a faster one). */
  decompress?: Decompress;
  /**
   * The dataset's accession table when it is one page, already decoded by another Dataset of the same dataset
   * version (a process reopening it, a benchmark of cold shard reads): not read again. Checked against the manifest.
   */
  accessionTable?: AccessionTable;
}

/** Memory of a decoded shard: its typed columns and its sequences (one byte per residue), plus the objects. */
const shardBytes = (s: Shard) =>
  s.massKeys.byteLength +
  s.groupEnds.byteLength +
  s.sequenceEnds.byteLength +
  s.accessionRefEnds.byteLength +
  s.accessionRefs.byteLength +
  s.sequences.byteLength +
  (s.startRefs?.byteLength ?? 0) * 1.25 +
  400;
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
  spec: ResidueSpec;
  /** The slots its modification takes: the residues of its letters. */
  slots: SlotSet;
  /** A complete view's variable modification, the slots it takes and the most of it one peptide carries. */
  variable?: { spec: ResidueSpec; slots: SlotSet; max: number };
  index: ShardIndex;
}

/**
 * The view of a manifest's entry, or undefined when this reader cannot use it (its text is not a view's:
 * model/views.ts).
 */
function readableView(
  view: DatasetView,
  loadPage: ConstructorParameters<typeof ShardIndex>[1],
): ReadableView | undefined {
  let mods: ViewMods;
  try {
    mods = parseViewText(view.fixed);
  } catch {
    return undefined;
  }
  const { fixed, variable } = mods;
  const index = new ShardIndex(view, loadPage);
  return {
    spec: fixed,
    slots: siteSlots(fixed.site),
    ...(variable ? { variable: { ...variable, slots: siteSlots(variable.spec.site) } } : {}),
    index,
  };
}

export class Dataset {
  readonly index: ShardIndex;
  /** The views the manifest lists that this reader can use (precursor search reads them). */
  readonly views: ReadableView[];
  private cache: ShardCache;
  /** Files being read and decoded, by name: concurrent requests share one read. */
  private loading = new Map<string, Promise<object>>();
  private taxonomyTree: Promise<Taxonomy> | undefined;
  /** The accession table when it is one page: read once (beside a query's first shard), kept. */
  private table: Promise<AccessionSet> | undefined;
  private tableNow: AccessionSet | undefined;
  /** Runs a shard's fetch (options.concurrency), and every other file's (options.pageConcurrency). */
  private schedule: { shard: Schedule; page: Schedule };
  private fetchTimeoutMs: number;
  private sha256: Sha256 | undefined;
  private decompress: Decompress;

  private constructor(
    readonly manifest: Manifest,
    private source: ShardSource,
    options: DatasetOptions,
  ) {
    this.cache = new ShardCache(options.cacheBytes ?? DEFAULT_CACHE_BYTES);
    const [shards, pages] = [pLimit(options.concurrency ?? 6), pLimit(options.pageConcurrency ?? 32)];
    this.schedule = { shard: (task) => shards(task), page: (task) => pages(task) };
    this.fetchTimeoutMs = options.fetchTimeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS;
    this.sha256 = options.sha256;
    this.decompress = options.decompress ?? streamDecompress;
    if (options.accessionTable) {
      if (!this.onePage || options.accessionTable.accessionEnds.length !== manifest.accessions.count)
        throw new Error('the accession table given is not this dataset’s');
      this.tableNow = new AccessionSet([{ first: 0, table: options.accessionTable }]);
      this.table = Promise.resolve(this.tableNow);
    }
    const loadPage = (page: IndexPageEntry, leaf: boolean) => this.loadIndexPage(page, leaf);
    this.index = new ShardIndex(manifest, loadPage);
    this.views = (manifest.views ?? []).flatMap((view) => readableView(view, loadPage) ?? []);
  }

  /** Reads and checks the manifest; throws DatasetError (unavailable) when it is missing or not a valid manifest. */
  static async open(source: ShardSource, options: DatasetOptions = {}): Promise<Dataset> {
    return new Dataset(await readManifest(source, options.fetchTimeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS), source, options);
  }

  private fetch(file: string, sha256: string, schedule: Schedule): Promise<Uint8Array> {
    return fetchChecked(this.source, file, sha256, this.fetchTimeoutMs, schedule, this.sha256);
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
    return Promise.resolve(this.shardNowOrLater(entry));
  }

  /**
   * The decoded shard itself when it is cached (a query over cached shards then takes no promise), else the promise of
   * its read (from a load in flight or the source); the cache counts the request the same either way.
   */
  shardNowOrLater(entry: ShardEntry): Shard | Promise<Shard> {
    return this.cache.get<Shard>(entry.file) ?? this.readShard(entry);
  }

  /** A shard not in the cache: from a load in flight or the source. */
  private readShard(entry: ShardEntry): Promise<Shard> {
    // A one-page accession table is read beside the shard, not after it (one round trip for both), and the shard is
    // ready when the table is: its answer lists accessions.
    const table = this.onePage ? this.wholeTable() : undefined;
    const decode = (bytes: Uint8Array) => decodeShard(bytes, this.manifest.accessions.count);
    return this.file(
      entry,
      'shard',
      (bytes) => (table ? table.then(() => decode(bytes)) : decode(bytes)),
      shardBytes,
      this.schedule.shard,
    );
  }

  /**
   * Whether the accession table is one page (a small dataset's): read whole, kept outside the cache (with its records:
   * 16 B an accession for UniProt's, 32 at most).
   */
  private get onePage(): boolean {
    const { pages, levels = 1 } = this.manifest.accessions;
    return levels === 1 && pages.length === 1;
  }

  /**
   * The accessions of the ranks `gather` gives (to its `add`), as one set an answer reads synchronously: the pages
   * holding them, each read once and cached beside the shards (down through inner pages). A table of one page is
   * read once and kept, and is the set of every answer (`gather` is not called once it is read).
   */
  async accessionSet(gather: (add: (rank: number) => void) => void): Promise<AccessionSet> {
    if (this.tableNow) return this.tableNow;
    const wanted: number[] = [];
    gather((rank) => wanted.push(rank));
    if (wanted.length === 0) return NO_ACCESSIONS; // nothing read for an answer that lists no accession
    if (this.onePage) return this.wholeTable();
    const ranks = Uint32Array.from(wanted).sort();
    const { pages, levels = 1 } = this.manifest.accessions;
    return new AccessionSet(await this.accessionRuns(pages, 0, levels, ranks, 0, ranks.length));
  }

  /** The accession table's set when it is one page and has been read: every answer's (else undefined). */
  get wholeAccessions(): AccessionSet | undefined {
    return this.tableNow;
  }

  private wholeTable(): Promise<AccessionSet> {
    if (!this.table) {
      const [entry] = this.manifest.accessions.pages;
      this.table = this.load(entry, 'accession page', (bytes) => this.checkedAccessionPage(bytes, entry, 0)).then(
        (table) => (this.tableNow = new AccessionSet([{ first: 0, table }])),
      );
      this.table.catch(() => (this.table = undefined)); // a failed read is tried again next time
    }
    return this.table;
  }

  /**
   * The leaf pages holding ranks[from..to) (ascending), below `entries`: consecutive pages from rank `first`, at
   * `level` (1: leaf pages; more: inner pages, read to go down).
   */
  private async accessionRuns(
    entries: readonly AccessionPageEntry[],
    first: number,
    level: number,
    ranks: Uint32Array,
    from: number,
    to: number,
  ): Promise<AccessionRun[]> {
    const reads: Promise<AccessionRun[]>[] = [];
    for (let k = 0, start = first, i = from; k < entries.length && i < to; start += entries[k++].accessions) {
      const [entry, end] = [entries[k], start + entries[k].accessions];
      let j = i;
      while (j < to && ranks[j] < end) j++;
      if (j === i) continue;
      const [pageFirst, pageFrom, pageTo] = [start, i, j];
      reads.push(
        level > 1
          ? this.accessionIndexPage(entry).then((below) =>
              this.accessionRuns(below, pageFirst, level - 1, ranks, pageFrom, pageTo),
            )
          : this.file(
              entry,
              'accession page',
              (bytes) => this.checkedAccessionPage(bytes, entry, pageFirst),
              (table, bytes) => 2 * bytes + recordBytes(table),
            ).then((table) => [{ first: pageFirst, table }]),
      );
      i = j;
    }
    return (await Promise.all(reads)).flat();
  }

  /**
   * An inner page of the accession table (the pages of the level below), checked against its entry; cached beside the
   * shards.
   */
  private accessionIndexPage(entry: AccessionPageEntry): Promise<AccessionPageEntry[]> {
    return this.file(
      entry,
      'accession index page',
      (bytes) =>
        checked(parseJson<AccessionIndexPage>(bytes), (page) => accessionIndexPageViolation(page, entry)).pages,
      (_, text) => text * DECODED_PER_JSON_BYTE,
    );
  }

  /**
   * A page of the accession table from rank `first`, checked: its entry's count, and reviewed accessions ranked first.
   */
  private checkedAccessionPage(bytes: Uint8Array, entry: AccessionPageEntry, first: number): AccessionTable {
    const page = decodeAccessionPage(bytes);
    if (page.taxIds.length !== entry.accessions)
      throw new Error(`it holds ${page.taxIds.length} accessions where its entry says ${entry.accessions}`);
    // Reviewed accessions first (model/accessionOrder.ts): the reviewed filter takes ranks below their count.
    const reviewed = this.manifest.totals.reviewedAccessions ?? 0;
    const wrong = page.reviewed.findIndex((flag, i) => flag !== (first + i < reviewed ? 1 : 0));
    if (wrong >= 0)
      throw new Error(
        `rank ${first + wrong} is ${page.reviewed[wrong] ? '' : 'not '}reviewed, where the manifest ranks its ${reviewed} reviewed accessions first`,
      );
    return page;
  }

  /**
   * How many of the dataset's peptides each of `ranks` has, from the pages of the peptide counts holding them (each
   * read once and cached beside the shards), or undefined when the dataset was built without them.
   */
  async peptideCounts(ranks: Iterable<number>): Promise<((rank: number) => number) | undefined> {
    const entry = this.manifest.peptideCounts;
    if (!entry) return undefined;
    const { ranksPerPage, pages } = entry;
    const wanted = new Set<number>();
    for (const rank of ranks) wanted.add(Math.floor(rank / ranksPerPage));
    const read = new Map<number, Uint32Array>();
    await Promise.all(
      [...wanted].map(async (k) => {
        if (!pages[k])
          throw new DatasetError(`the peptide counts have no page for rank ${k * ranksPerPage}`, 'corrupt');
        read.set(
          k,
          await this.file(pages[k], 'peptide counts page', decodePeptideCounts, (counts) => counts.byteLength),
        );
      }),
    );
    return (rank) => read.get(Math.floor(rank / ranksPerPage))![rank % ranksPerPage];
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
    return this.file(
      entry,
      'protein page',
      (bytes) => checked(parseJson<ProteinPage>(bytes), (page) => proteinPageViolation(page, entry)),
      (_, text) => text * DECODED_PER_JSON_BYTE,
    );
  }

  /** A page of the sequence table, checked against its entry; cached beside the shards. */
  sequencePage(entry: ProteinPageEntry): Promise<SequencePage> {
    return this.file(
      entry,
      'sequence page',
      (bytes) => checked(parseJson<SequencePage>(bytes), (page) => sequencePageViolation(page, entry)),
      (_, text) => text * DECODED_PER_JSON_BYTE,
    );
  }

  /**
   * An inner page of the protein table, or of the sequence table (the same pages by accession), checked against its
   * entry; cached beside the shards.
   */
  proteinIndexPage(entry: ProteinPageEntry, table: 'protein' | 'sequence' = 'protein'): Promise<ProteinPageEntry[]> {
    return this.file(
      entry,
      `${table} index page`,
      (bytes) => checked(parseJson<ProteinIndexPage>(bytes), (page) => proteinIndexPageViolation(page, entry)).pages,
      (_, text) => text * DECODED_PER_JSON_BYTE,
    );
  }

  /**
   * A decoded file: from the cache, a load in flight, or the source (then cached, charged `cost(value, its decompressed
   * size)`); fetched under the pages' limit unless `schedule` is the shards'.
   */
  private file<T extends object>(
    entry: FileEntry,
    what: string,
    decode: (bytes: Uint8Array) => T | Promise<T>,
    cost: (value: T, decompressed: number) => number,
    schedule = this.schedule.page,
  ): Promise<T> {
    const cached = this.cache.get<T>(entry.file);
    if (cached) return Promise.resolve(cached);
    let pending = this.loading.get(entry.file) as Promise<T> | undefined;
    if (!pending) {
      let decompressed = 0;
      pending = this.load(
        entry,
        what,
        (bytes) => {
          decompressed = bytes.length;
          return decode(bytes);
        },
        schedule,
      )
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
   * Fetches, checks, decompresses and decodes one file; a file that does not decode is a DatasetError (corrupt), and
   * a DatasetError of what decoding waits for (the accession table) stays as it is.
   */
  private async load<T>(
    entry: FileEntry,
    what: string,
    decode: (bytes: Uint8Array) => T | Promise<T>,
    schedule = this.schedule.page,
  ): Promise<T> {
    const bytes = await this.fetch(entry.file, entry.sha256, schedule);
    try {
      return await decode(await this.decompress(bytes, this.manifest.compression));
    } catch (e) {
      if (e instanceof DatasetError) throw e;
      throw new DatasetError(`${what} ${entry.file} is not readable: ${(e as Error).message}`, 'corrupt');
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

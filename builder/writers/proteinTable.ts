// The dataset-wide accession tables: the accession table (every accession, its taxId and reviewed flag, in rank
// order, in pages of consecutive ranks under inner pages when there are many; shards refer to its ranks) and the
// protein table (the same with protein and organism names, as compressed JSON pages of PROTEIN_PAGE_ACCESSIONS
// accessions in byte order, likewise: a table by accession, byAccession.ts), named by content, listed in the manifest.
import {
  accessionIndexPageFileName,
  accessionPageFileName,
  accessionPageSize,
  FORMAT_VERSION,
  PROTEIN_PAGE_ACCESSIONS,
  proteinIndexPageFileName,
  proteinPageFileName,
  type AccessionIndexPage,
  type AccessionPageEntry,
  type Manifest,
  type ProteinPage,
} from '../../runtime/model/format.js';
import { encodeAccessionPage } from '../../runtime/model/shardEncoder.js';
import type { AccessionColumns, RankFields } from '../phases/accessions.js';
import { appendFileSync, closeSync, mkdirSync, openSync, readFileSync, readSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { byAccessionPageFiles, ByAccessionWriter, type ByAccessionTable } from './byAccession.js';
import { writeDatasetFile, type Storage } from './datasetFile.js';
import { readJson } from './indexPages.js';
import { pageTree, TREE_SHAPE, treePages, type TreeShape } from './pageTree.js';

/** Accessions joined into one run of text before it is appended to the spill file. */
const ACCESSION_RUN = 65_536;
/** Ranks whose accessions' text is in memory at a time while the table is written. */
export const BUCKET_RANKS = 1 << 18;
/** Bytes a bucket gathers before they are appended to its file. */
const BUCKET_BUFFER = 32 << 10;

/** The columns an accession table is written from, by rank. */
export type RankColumns = Pick<AccessionColumns, 'count' | 'accession' | 'taxIds' | 'reviewed'>;

/**
 * Writes the accession table of `table` into `dir`: pages of `pageAccessions` consecutive ranks (the last may hold
 * fewer), then the inner pages a root of `shape.rootLimit` entries needs; returns the manifest's `accessions`.
 */
export function writeAccessionPages(
  dir: string,
  table: RankColumns,
  storage: Storage,
  pageAccessions = accessionPageSize(table.count),
  shape: TreeShape = TREE_SHAPE,
): Manifest['accessions'] {
  const leaves: AccessionPageEntry[] = [];
  for (let first = 0; first < table.count; first += pageAccessions) {
    const end = Math.min(table.count, first + pageAccessions);
    const accessions = Array.from({ length: end - first }, (_, k) => table.accession(first + k));
    const bytes = encodeAccessionPage({
      accessions,
      taxIds: table.taxIds.subarray(first, end),
      reviewed: table.reviewed.subarray(first, end),
    });
    leaves.push({ ...writeDatasetFile(dir, bytes, accessionPageFileName, storage), accessions: end - first });
  }
  const tree = pageTree(
    leaves,
    (pages) => ({
      ...writeDatasetFile(dir, { formatVersion: FORMAT_VERSION, pages }, accessionIndexPageFileName, storage),
      accessions: pages.reduce((total, p) => total + p.accessions, 0),
    }),
    shape,
  );
  return { count: table.count, ...tree };
}

/**
 * The accession table, from its accessions handed on in byte order (as the ranking reads them), written in rank
 * order once the ranks are known (finish) — with memory bounded whatever the count: the text waits on disk in
 * `work`, in runs in byte order; finish routes each accession to the bucket file of its rank (BUCKET_RANKS ranks a
 * bucket), then writes the pages reading one bucket at a time, and removes `work`.
 */
export class AccessionTableWriter {
  private run: string[] = [];
  /** Bytes of each run of the spill file (run k holds accessions k·ACCESSION_RUN onwards, newline-separated). */
  private runBytes: number[] = [];
  private count = 0;
  private readonly spill: string;

  constructor(
    private readonly dir: string,
    private readonly storage: Storage,
    private readonly work: string,
    private readonly bucketRanks = BUCKET_RANKS,
  ) {
    mkdirSync(work, { recursive: true });
    this.spill = join(work, 'accessions');
  }

  add(accession: string): void {
    this.count++;
    this.run.push(accession);
    if (this.run.length === ACCESSION_RUN) this.endRun();
  }

  /**
   * Writes the table: `rankOf[i]` the rank of the i-th accession handed on, `taxIds` and `reviewed` by rank, in
   * pages of `pageAccessions`; returns the manifest's `accessions`.
   */
  finish(
    rankOf: Uint32Array,
    { taxIds, reviewed }: Pick<AccessionColumns, 'taxIds' | 'reviewed'>,
    pageAccessions = accessionPageSize(this.count),
    shape: TreeShape = TREE_SHAPE,
  ): Manifest['accessions'] {
    if (taxIds.length !== this.count || reviewed.length !== this.count || rankOf.length !== this.count)
      throw new Error('internal error: accession table columns of another length');
    this.endRun();
    try {
      this.routeToBuckets(rankOf);
      let [loaded, texts] = [-1, [] as string[]];
      const accession = (rank: number) => {
        const bucket = Math.floor(rank / this.bucketRanks);
        if (bucket !== loaded) [loaded, texts] = [bucket, this.readBucket(bucket)];
        return texts[rank - bucket * this.bucketRanks];
      };
      return writeAccessionPages(
        this.dir,
        { count: this.count, accession, taxIds, reviewed },
        this.storage,
        pageAccessions,
        shape,
      );
    } finally {
      rmSync(this.work, { recursive: true, force: true });
    }
  }

  private endRun(): void {
    if (this.run.length === 0) return;
    const bytes = Buffer.from(this.run.join('\n'));
    appendFileSync(this.spill, bytes);
    this.runBytes.push(bytes.length);
    this.run = [];
  }

  private bucketFile = (bucket: number) => join(this.work, `bucket-${bucket}`);

  /**
   * Reads the spill file run by run and appends each accession to its rank's bucket as (u32 rank, u32 UTF-8 length, its
   * bytes).
   */
  private routeToBuckets(rankOf: Uint32Array): void {
    const buffers: (Buffer | undefined)[] = [];
    const used: number[] = [];
    const flush = (bucket: number) => {
      if (used[bucket] > 0) appendFileSync(this.bucketFile(bucket), buffers[bucket]!.subarray(0, used[bucket]));
      used[bucket] = 0;
    };
    const fd = openSync(this.spill, 'r');
    try {
      let [i, position] = [0, 0];
      for (const length of this.runBytes) {
        const run = Buffer.allocUnsafe(length);
        readSync(fd, run, 0, length, position);
        position += length;
        for (let start = 0; start <= length; i++) {
          let end = run.indexOf(10, start);
          if (end < 0) end = length;
          const rank = rankOf[i];
          const bucket = Math.floor(rank / this.bucketRanks);
          const size = 8 + end - start;
          if ((used[bucket] ?? 0) + size > BUCKET_BUFFER) flush(bucket);
          let buffer = (buffers[bucket] ??= Buffer.allocUnsafe(BUCKET_BUFFER));
          if (size > buffer.length) buffer = buffers[bucket] = Buffer.allocUnsafe(size); // an accession of over 32 KB
          const at = (used[bucket] ??= 0);
          buffer.writeUInt32LE(rank, at);
          buffer.writeUInt32LE(end - start, at + 4);
          run.copy(buffer, at + 8, start, end);
          used[bucket] = at + size;
          start = end + 1;
        }
      }
    } finally {
      closeSync(fd);
    }
    used.forEach((_, bucket) => flush(bucket));
    rmSync(this.spill, { force: true });
  }

  /** The accessions of a bucket's ranks, by rank less the bucket's first. */
  private readBucket(bucket: number): string[] {
    const bytes = readFileSync(this.bucketFile(bucket));
    const texts: string[] = [];
    for (let at = 0; at < bytes.length; ) {
      const [rank, length] = [bytes.readUInt32LE(at), bytes.readUInt32LE(at + 4)];
      texts[rank - bucket * this.bucketRanks] = bytes.toString('utf8', at + 8, at + 8 + length);
      at += 8 + length;
    }
    return texts;
  }
}

/**
 * Writes the protein pages of `ranked` into `dir` (pages of `pageAccessions`, then the inner pages a root of
 * `shape.rootLimit` entries needs); returns the manifest's `proteins`.
 */
export function writeProteinPages(
  dir: string,
  ranked: AccessionColumns,
  storage: Storage,
  pageAccessions = PROTEIN_PAGE_ACCESSIONS,
  shape: TreeShape = TREE_SHAPE,
): NonNullable<Manifest['proteins']> {
  const writer = new ProteinPageWriter(dir, storage, pageAccessions, shape);
  for (let rank = 0; rank < ranked.count; rank++) {
    writer.add({
      accession: ranked.accession(rank),
      taxId: ranked.taxIds[rank],
      reviewed: ranked.reviewed[rank] === 1,
      protein: ranked.protein(rank),
      organism: ranked.organism(rank),
    });
  }
  return writer.finish();
}

/** The protein table: each accession's fields (RankFields) in pages of parallel columns. */
export const PROTEIN_TABLE: ByAccessionTable<RankFields, ProteinPage> = {
  pageFileName: proteinPageFileName,
  indexPageFileName: proteinIndexPageFileName,
  emptyPage: () => ({
    formatVersion: FORMAT_VERSION,
    accessions: [],
    taxIds: [],
    reviewed: [],
    proteins: [],
    organisms: [],
  }),
  push(page, fields) {
    page.accessions.push(fields.accession);
    page.taxIds.push(fields.taxId);
    page.reviewed.push(fields.reviewed ? 1 : 0);
    page.proteins.push(fields.protein);
    page.organisms.push(fields.organism);
  },
};

/** The protein table, written page by page from its accessions' fields handed on in byte order. */
export class ProteinPageWriter extends ByAccessionWriter<RankFields, ProteinPage> {
  constructor(dir: string, storage: Storage, pageAccessions = PROTEIN_PAGE_ACCESSIONS, shape: TreeShape = TREE_SHAPE) {
    super(dir, storage, PROTEIN_TABLE, pageAccessions, shape);
  }
}

/**
 * Every page of the manifest's accession table (inner pages first, level by level, then the leaves), reading inner
 * pages from `dir`.
 */
export function accessionPageFiles(manifest: Manifest, dir: string): string[] {
  if (!manifest.accessions?.pages) return [];
  return treePages(
    manifest.accessions,
    (file) => readJson<AccessionIndexPage>(dir, file, manifest.compression).pages,
  ).pages.map((p) => p.file);
}

/**
 * Every page of the manifest's protein table (inner pages first, level by level, then the leaves), reading inner pages
 * from `dir`.
 */
export function proteinPageFiles(manifest: Manifest, dir: string): string[] {
  return byAccessionPageFiles(manifest.proteins, manifest.compression, dir);
}

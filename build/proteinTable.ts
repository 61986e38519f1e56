// The dataset-wide accession tables: the accession table (every accession, its taxId and reviewed flag, in rank
// order, in pages of consecutive ranks under inner pages when there are many; shards refer to its ranks) and the
// protein table (the same with protein and organism names, as compressed JSON pages of PROTEIN_PAGE_ACCESSIONS
// accessions in byte order, likewise), named by content, listed in the manifest.
import { accessionIndexPageFileName, accessionPageFileName, accessionPageSize, FORMAT_VERSION, PROTEIN_PAGE_ACCESSIONS, proteinIndexPageFileName, proteinPageFileName, type AccessionIndexPage, type AccessionPageEntry, type Manifest, type ProteinIndexPage, type ProteinPage, type ProteinPageEntry, type FileEntry } from '../runtime/model/format.js';
import { Column } from '../runtime/model/column.js';
import { encodeAccessionPage } from '../runtime/model/shardEncoder.js';
import type { AccessionColumns, RankFields } from './accessions.js';
import { writeDatasetFile, type Storage } from './datasetFile.js';
import { readJson } from './indexPages.js';
import { pageTree, TREE_SHAPE, treePages, type TreeShape } from './pageTree.js';

const ACCESSION_RUN = 65_536;

/** The columns an accession table is written from, by rank. */
export type RankColumns = Pick<AccessionColumns, 'count' | 'accession' | 'taxIds' | 'reviewed'>;

/**
 * Writes the accession table of `table` into `dir`: pages of `pageAccessions` consecutive ranks (the last may hold
 * fewer), then the inner pages a root of `shape.rootLimit` entries needs; returns the manifest's `accessions`.
 */
export function writeAccessionPages(dir: string, table: RankColumns, storage: Storage, pageAccessions = accessionPageSize(table.count), shape: TreeShape = TREE_SHAPE): Manifest['accessions'] {
  const leaves: AccessionPageEntry[] = [];
  for (let first = 0; first < table.count; first += pageAccessions) {
    const end = Math.min(table.count, first + pageAccessions);
    const accessions = Array.from({ length: end - first }, (_, k) => table.accession(first + k));
    const bytes = encodeAccessionPage({ accessions, taxIds: table.taxIds.subarray(first, end), reviewed: table.reviewed.subarray(first, end) });
    leaves.push({ ...writeDatasetFile(dir, bytes, accessionPageFileName, storage), accessions: end - first });
  }
  const tree = pageTree(leaves, (pages) => ({
    ...writeDatasetFile(dir, { formatVersion: FORMAT_VERSION, pages }, accessionIndexPageFileName, storage),
    accessions: pages.reduce((total, p) => total + p.accessions, 0),
  }), shape);
  return { count: table.count, ...tree };
}

/**
 * The accession table, from its accessions handed on in byte order (as the ranking reads them), kept as runs of
 * text; written in rank order once the ranks are known (finish).
 */
export class AccessionTableWriter {
  /** Runs of accessions joined as a page joins them: no string of every accession at once. */
  private runs: string[] = [];
  private run: string[] = [];
  /** Where each accession ends in its run's text. */
  private ends = new Column(new Uint32Array(1024));
  private runText = 0;
  private count = 0;

  constructor(
    private readonly dir: string,
    private readonly storage: Storage,
  ) {}

  add(accession: string): void {
    this.count++;
    this.runText += (this.run.length > 0 ? 1 : 0) + accession.length;
    this.ends.push(this.runText);
    this.run.push(accession);
    if (this.run.length === ACCESSION_RUN) this.endRun();
  }

  /**
   * Writes the table: `rankOf[i]` the rank of the i-th accession handed on, `taxIds` and `reviewed` by rank, in
   * pages of `pageAccessions`; returns the manifest's `accessions`.
   */
  finish(rankOf: Uint32Array, { taxIds, reviewed }: Pick<AccessionColumns, 'taxIds' | 'reviewed'>, pageAccessions = accessionPageSize(this.count), shape: TreeShape = TREE_SHAPE): Manifest['accessions'] {
    if (taxIds.length !== this.count || reviewed.length !== this.count || rankOf.length !== this.count) throw new Error('internal error: accession table columns of another length');
    this.endRun();
    const handedOn = new Uint32Array(this.count); // by rank: the accession's place in byte order
    for (let i = 0; i < this.count; i++) handedOn[rankOf[i]] = i;
    const accession = (rank: number) => {
      const i = handedOn[rank];
      const start = i % ACCESSION_RUN === 0 ? 0 : this.ends.data[i - 1] + 1;
      return this.runs[Math.floor(i / ACCESSION_RUN)].slice(start, this.ends.data[i]);
    };
    return writeAccessionPages(this.dir, { count: this.count, accession, taxIds, reviewed }, this.storage, pageAccessions, shape);
  }

  private endRun(): void {
    if (this.run.length > 0) this.runs.push(this.run.join('\n'));
    this.run = [];
    this.runText = 0;
  }
}

/**
 * Writes the protein pages of `ranked` into `dir` (pages of `pageAccessions`, then the inner pages a root of
 * `shape.rootLimit` entries needs); returns the manifest's `proteins`.
 */
export function writeProteinPages(dir: string, ranked: AccessionColumns, storage: Storage, pageAccessions = PROTEIN_PAGE_ACCESSIONS, shape: TreeShape = TREE_SHAPE): NonNullable<Manifest['proteins']> {
  const writer = new ProteinPageWriter(dir, storage, pageAccessions, shape);
  for (let rank = 0; rank < ranked.count; rank++) {
    writer.add({ accession: ranked.accession(rank), taxId: ranked.taxIds[rank], reviewed: ranked.reviewed[rank] === 1, protein: ranked.protein(rank), organism: ranked.organism(rank) });
  }
  return writer.finish();
}

/** The protein table, written page by page from its accessions' fields handed on rank by rank. */
export class ProteinPageWriter {
  private pages: ProteinPageEntry[] = [];
  private page = emptyPage();

  constructor(
    private readonly dir: string,
    private readonly storage: Storage,
    private readonly pageAccessions = PROTEIN_PAGE_ACCESSIONS,
    private readonly shape: TreeShape = TREE_SHAPE,
  ) {}

  add(fields: RankFields): void {
    const page = this.page;
    page.accessions.push(fields.accession);
    page.taxIds.push(fields.taxId);
    page.reviewed.push(fields.reviewed ? 1 : 0);
    page.proteins.push(fields.protein);
    page.organisms.push(fields.organism);
    if (page.accessions.length === this.pageAccessions) this.endPage();
  }

  /** Writes the last page and the inner pages; returns the manifest's `proteins`. */
  finish(): NonNullable<Manifest['proteins']> {
    this.endPage();
    return proteinTableTree(this.pages, (page) => writeDatasetFile(this.dir, page, proteinIndexPageFileName, this.storage), this.shape);
  }

  private endPage(): void {
    const page = this.page;
    if (page.accessions.length === 0) return;
    const entry = writeDatasetFile(this.dir, page, proteinPageFileName, this.storage);
    this.pages.push({ ...entry, firstAccession: page.accessions[0], lastAccession: page.accessions[page.accessions.length - 1], accessions: page.accessions.length });
    this.page = emptyPage();
  }
}

const emptyPage = (): ProteinPage => ({ formatVersion: FORMAT_VERSION, accessions: [], taxIds: [], reviewed: [], proteins: [], organisms: [] });

/** The manifest's `proteins` over the entries of the leaf pages, writing (with `write`) the inner pages a root of `shape.rootLimit` needs. */
export function proteinTableTree(leaves: ProteinPageEntry[], write: (page: ProteinIndexPage) => FileEntry, shape: TreeShape = TREE_SHAPE): NonNullable<Manifest['proteins']> {
  return pageTree(leaves, (pages) => ({
    ...write({ formatVersion: FORMAT_VERSION, pages }),
    firstAccession: pages[0].firstAccession,
    lastAccession: pages[pages.length - 1].lastAccession,
    accessions: pages.reduce((total, p) => total + p.accessions, 0),
  }), shape);
}

/** Every page of the manifest's accession table (inner pages first, level by level, then the leaves), reading inner pages from `dir`. */
export function accessionPageFiles(manifest: Manifest, dir: string): string[] {
  if (!manifest.accessions?.pages) return [];
  return treePages(manifest.accessions, (file) => readJson<AccessionIndexPage>(dir, file, manifest.compression).pages).pages.map((p) => p.file);
}

/** Every page of the manifest's protein table (inner pages first, level by level, then the leaves), reading inner pages from `dir`. */
export function proteinPageFiles(manifest: Manifest, dir: string): string[] {
  if (!manifest.proteins) return [];
  return treePages(manifest.proteins, (file) => readJson<ProteinIndexPage>(dir, file, manifest.compression).pages).pages.map((p) => p.file);
}

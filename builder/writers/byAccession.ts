// Tables of pages by accession (the protein table, the sequence table): rows handed on in byte order of accession are
// cut into compressed JSON pages of a fixed number of accessions, named by content, under the inner pages a root of
// the tree's width needs; the manifest lists the root (docs/format.md "Protein table").
import {
  FORMAT_VERSION,
  type Compression,
  type FileEntry,
  type Manifest,
  type ProteinIndexPage,
  type ProteinPageEntry,
} from '../../runtime/model/format.js';
import { writeDatasetFile, type Storage } from './datasetFile.js';
import { readJson } from './indexPages.js';
import { pageTree, TREE_SHAPE, treePages, type TreeShape } from './pageTree.js';

/** The manifest's root of a table by accession (`proteins`, `sequences`). */
export type ByAccessionRoot = NonNullable<Manifest['proteins']>;

/** A leaf page of a table by accession: its parallel columns, `accessions` first. */
export interface ByAccessionPage {
  formatVersion: number;
  accessions: string[];
}

/** What a table by accession is: its file names, an empty page, and how a row goes into a page. */
export interface ByAccessionTable<R, P extends ByAccessionPage> {
  pageFileName: (sha256: string, compression: Compression) => string;
  indexPageFileName: (sha256: string, compression: Compression) => string;
  emptyPage(): P;
  /** Appends `row` to every column of `page` (its accession to `accessions`). */
  push(page: P, row: R): void;
}

/**
 * A table by accession, written page by page from its rows handed on in byte order of accession: pages of
 * `pageAccessions` (the last may hold fewer), then the inner pages a root of `shape.rootLimit` entries needs.
 */
export class ByAccessionWriter<R, P extends ByAccessionPage> {
  private pages: ProteinPageEntry[] = [];
  private page: P;

  constructor(
    private readonly dir: string,
    private readonly storage: Storage,
    private readonly table: ByAccessionTable<R, P>,
    private readonly pageAccessions: number,
    private readonly shape: TreeShape = TREE_SHAPE,
  ) {
    if (!(Number.isInteger(pageAccessions) && pageAccessions >= 1))
      throw new Error(`a page holds 1 accession or more, got ${pageAccessions}`);
    this.page = table.emptyPage();
  }

  add(row: R): void {
    this.table.push(this.page, row);
    if (this.page.accessions.length >= this.pageAccessions) this.endPage();
  }

  /** Writes the last page and the inner pages; returns the manifest's root of the table. */
  finish(): ByAccessionRoot {
    this.endPage();
    return byAccessionTree(
      this.pages,
      (page) => writeDatasetFile(this.dir, page, this.table.indexPageFileName, this.storage),
      this.shape,
    );
  }

  private endPage(): void {
    const page = this.page;
    if (page.accessions.length === 0) return;
    const entry = writeDatasetFile(this.dir, page, this.table.pageFileName, this.storage);
    this.pages.push({
      ...entry,
      firstAccession: page.accessions[0],
      lastAccession: page.accessions[page.accessions.length - 1],
      accessions: page.accessions.length,
    });
    this.page = this.table.emptyPage();
  }
}

/**
 * The manifest's root over the entries of a table's leaf pages, writing (with `write`) the inner pages a root of
 * `shape.rootLimit` needs: each sums up its entries (their first and last accession, their count).
 */
export function byAccessionTree(
  leaves: ProteinPageEntry[],
  write: (page: ProteinIndexPage) => FileEntry,
  shape: TreeShape = TREE_SHAPE,
): ByAccessionRoot {
  return pageTree(
    leaves,
    (pages) => ({
      ...write({ formatVersion: FORMAT_VERSION, pages }),
      firstAccession: pages[0].firstAccession,
      lastAccession: pages[pages.length - 1].lastAccession,
      accessions: pages.reduce((total, p) => total + p.accessions, 0),
    }),
    shape,
  );
}

/**
 * Every page of a table by accession (inner pages first, level by level, then the leaves), reading inner pages
 * from `dir`.
 */
export function byAccessionPageFiles(
  root: ByAccessionRoot | undefined,
  compression: Compression,
  dir: string,
): string[] {
  if (!root) return [];
  return treePages(root, (file) => readJson<ProteinIndexPage>(dir, file, compression).pages).pages.map((p) => p.file);
}

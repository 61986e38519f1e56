// The dataset-wide accession tables: the accession table (every accession, its taxId and reviewed flag; shards
// refer to its ranks) and the protein table (the same with protein and organism names, as compressed JSON pages
// of PROTEIN_PAGE_ACCESSIONS consecutive accessions, under inner pages when there are many), named by content,
// listed in the manifest; written as the ranking hands on accessions rank by rank, or from whole columns.
import { accessionTableFileName, FORMAT_VERSION, PROTEIN_PAGE_ACCESSIONS, proteinIndexPageFileName, proteinPageFileName, type FileEntry, type Manifest, type ProteinIndexPage, type ProteinPage, type ProteinPageEntry } from '../runtime/model/format.js';
import { encodeAccessionTable } from '../runtime/model/shardEncoder.js';
import { MAX_ACCESSION_TEXT, type AccessionColumns, type RankFields } from './accessions.js';
import { writeDatasetFile, type Storage } from './datasetFile.js';
import { readJson } from './indexPages.js';
import { pageTree, TREE_SHAPE, treePages, type TreeShape } from './pageTree.js';

const ACCESSION_RUN = 65_536;

/** Writes the accession table of `ranked` into `dir`; returns the manifest's `accessions` entry. */
export function writeAccessionTable(dir: string, ranked: AccessionColumns, storage: Storage): FileEntry & { count: number } {
  const writer = new AccessionTableWriter(dir, storage);
  for (let rank = 0; rank < ranked.count; rank++) writer.add(ranked.accession(rank));
  return writer.finish(ranked);
}

/** The accession table, written from its accessions handed on rank by rank, then its taxId and reviewed columns. */
export class AccessionTableWriter {
  /** Runs of accessions joined as the table joins them: no string of every accession at once. */
  private runs: string[] = [];
  private run: string[] = [];
  private count = 0;
  /** Characters of the table's text so far, a newline after each accession. */
  private characters = 0;

  /** `maxText`: characters past which accessions are counted but not kept (a table that large is refused before `finish`). */
  constructor(
    private readonly dir: string,
    private readonly storage: Storage,
    private readonly maxText = MAX_ACCESSION_TEXT,
  ) {}

  add(accession: string): void {
    this.count++;
    this.characters += accession.length + 1;
    if (this.characters - 1 > this.maxText) return;
    this.run.push(accession);
    if (this.run.length === ACCESSION_RUN) this.endRun();
  }

  /** Writes the table with the columns of its ranks; returns the manifest's `accessions` entry. */
  finish({ taxIds, reviewed }: Pick<AccessionColumns, 'taxIds' | 'reviewed'>): FileEntry & { count: number } {
    if (this.characters - 1 > this.maxText) throw new Error(`internal error: an accession table of ${this.characters - 1} characters was not refused`);
    if (taxIds.length !== this.count || reviewed.length !== this.count) throw new Error('internal error: accession table columns of another length');
    this.endRun();
    const bytes = encodeAccessionTable({ accessions: this.runs, taxIds, reviewed });
    return { ...writeDatasetFile(this.dir, bytes, accessionTableFileName, this.storage), count: this.count };
  }

  private endRun(): void {
    if (this.run.length > 0) this.runs.push(this.run.join('\n'));
    this.run = [];
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

/** Every page of the manifest's protein table (inner pages first, level by level, then the leaves), reading inner pages from `dir`. */
export function proteinPageFiles(manifest: Manifest, dir: string): string[] {
  if (!manifest.proteins) return [];
  return treePages(manifest.proteins, (file) => readJson<ProteinIndexPage>(dir, file, manifest.compression).pages).pages.map((p) => p.file);
}

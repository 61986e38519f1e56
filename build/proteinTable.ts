// The dataset-wide accession tables: the accession table (every accession, its taxId and reviewed flag; shards
// refer to its ranks) and the protein table (the same with protein and organism names, as compressed JSON pages
// of PROTEIN_PAGE_ACCESSIONS consecutive accessions, under inner pages when there are many), named by content,
// listed in the manifest.
import { accessionTableFileName, FORMAT_VERSION, PROTEIN_PAGE_ACCESSIONS, proteinIndexPageFileName, proteinPageFileName, type FileEntry, type Manifest, type ProteinIndexPage, type ProteinPage, type ProteinPageEntry } from '../runtime/model/format.js';
import { encodeAccessionTable } from '../runtime/model/shardEncoder.js';
import type { AccessionColumns } from './accessions.js';
import { writeDatasetFile, type Storage } from './datasetFile.js';
import { readJson } from './indexPages.js';
import { pageTree, TREE_SHAPE, treePages, type TreeShape } from './pageTree.js';

const ACCESSION_RUN = 65_536;

/** Writes the accession table of `ranked` into `dir`; returns the manifest's `accessions` entry. */
export function writeAccessionTable(dir: string, ranked: AccessionColumns, storage: Storage): FileEntry & { count: number } {
  // Runs of accessions joined as the table joins them: no string of every accession at once.
  const runs: string[] = [];
  for (let first = 0; first < ranked.count; first += ACCESSION_RUN) runs.push(texts(ranked.accession, first, Math.min(first + ACCESSION_RUN, ranked.count)).join('\n'));
  const bytes = encodeAccessionTable({ accessions: runs, taxIds: ranked.taxIds, reviewed: ranked.reviewed });
  return { ...writeDatasetFile(dir, bytes, accessionTableFileName, storage), count: ranked.count };
}

/** The strings of ranks `first` to `end` (exclusive) of a column. */
function texts(column: (rank: number) => string, first: number, end: number): string[] {
  return Array.from({ length: end - first }, (_, k) => column(first + k));
}

/**
 * Writes the protein pages of `ranked` into `dir` (pages of `pageAccessions`, then the inner pages a root of
 * `shape.rootLimit` entries needs); returns the manifest's `proteins`.
 */
export function writeProteinPages(dir: string, ranked: AccessionColumns, storage: Storage, pageAccessions = PROTEIN_PAGE_ACCESSIONS, shape: TreeShape = TREE_SHAPE): NonNullable<Manifest['proteins']> {
  const pages: ProteinPageEntry[] = [];
  for (let first = 0; first < ranked.count; first += pageAccessions) {
    const end = Math.min(first + pageAccessions, ranked.count);
    const page: ProteinPage = {
      formatVersion: FORMAT_VERSION,
      accessions: texts(ranked.accession, first, end),
      taxIds: Array.from(ranked.taxIds.subarray(first, end)),
      reviewed: Array.from(ranked.reviewed.subarray(first, end)),
      proteins: texts(ranked.protein, first, end),
      organisms: texts(ranked.organism, first, end),
    };
    pages.push({ ...writeDatasetFile(dir, page, proteinPageFileName, storage), firstAccession: page.accessions[0], lastAccession: page.accessions[page.accessions.length - 1], accessions: page.accessions.length });
  }
  return proteinTableTree(pages, (page) => writeDatasetFile(dir, page, proteinIndexPageFileName, storage), shape);
}

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

// The dataset-wide accession tables: the accession table (every accession, its taxId and reviewed flag; shards
// refer to its ranks) and the protein table (the same with protein and organism names, as compressed JSON pages
// of PROTEIN_PAGE_ACCESSIONS consecutive accessions), named by content, listed in the manifest.
import { accessionTableFileName, FORMAT_VERSION, PROTEIN_PAGE_ACCESSIONS, proteinPageFileName, type Compression, type FileEntry, type ProteinPage, type ProteinPageEntry } from '../runtime/model/format.js';
import { encodeAccessionTable } from '../runtime/model/shardEncoder.js';
import type { RankedAccessions } from './accessions.js';
import { writeDatasetFile } from './datasetFile.js';

/** Writes the accession table of `ranked` into `dir`; returns the manifest's `accessions` entry. */
export function writeAccessionTable(dir: string, ranked: Pick<RankedAccessions, 'sorted' | 'taxIds' | 'reviewed'>, compression: Compression): FileEntry & { count: number } {
  const bytes = encodeAccessionTable({ accessions: ranked.sorted, taxIds: ranked.taxIds, reviewed: ranked.reviewed });
  return { ...writeDatasetFile(dir, bytes, accessionTableFileName, compression), count: ranked.sorted.length };
}

/** Writes the protein pages of `ranked` into `dir`; returns their manifest entries, in accession order. */
export function writeProteinPages(dir: string, ranked: Pick<RankedAccessions, 'sorted' | 'taxIds' | 'reviewed' | 'proteins' | 'organisms'>, compression: Compression, pageAccessions = PROTEIN_PAGE_ACCESSIONS): ProteinPageEntry[] {
  const pages: ProteinPageEntry[] = [];
  for (let first = 0; first < ranked.sorted.length; first += pageAccessions) {
    const end = Math.min(first + pageAccessions, ranked.sorted.length);
    const page: ProteinPage = {
      formatVersion: FORMAT_VERSION,
      accessions: ranked.sorted.slice(first, end),
      taxIds: Array.from(ranked.taxIds.subarray(first, end)),
      reviewed: Array.from(ranked.reviewed.subarray(first, end)),
      proteins: ranked.proteins.slice(first, end),
      organisms: ranked.organisms.slice(first, end),
    };
    pages.push({ ...writeDatasetFile(dir, page, proteinPageFileName, compression), firstAccession: page.accessions[0], lastAccession: page.accessions[page.accessions.length - 1], accessions: page.accessions.length });
  }
  return pages;
}

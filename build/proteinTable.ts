// The protein table: every accession's taxId, reviewed flag, protein and organism names, written as JSON pages
// of PROTEIN_PAGE_ACCESSIONS consecutive accessions (ascending), named by content, listed in the manifest.
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FORMAT_VERSION, PROTEIN_PAGE_ACCESSIONS, proteinPageFileName, type ProteinPage, type ProteinPageEntry } from '../runtime/model/format.js';
import type { RankedAccessions } from './accessions.js';

/** Writes the protein pages of `ranked` into `dir`; returns their manifest entries, in accession order. */
export function writeProteinPages(dir: string, ranked: Pick<RankedAccessions, 'sorted' | 'taxIds' | 'reviewed' | 'proteins' | 'organisms'>, pageAccessions = PROTEIN_PAGE_ACCESSIONS): ProteinPageEntry[] {
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
    const bytes = Buffer.from(JSON.stringify(page) + '\n');
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const file = proteinPageFileName(sha256);
    writeFileSync(join(dir, file), bytes);
    pages.push({ file, sha256, bytes: bytes.length, firstAccession: page.accessions[0], lastAccession: page.accessions[page.accessions.length - 1], accessions: page.accessions.length });
  }
  return pages;
}

// The sequence table of a build with --sequences: each accession's residues (those of its first record, as they were
// digested), in compressed JSON pages of SEQUENCE_PAGE_ACCESSIONS accessions in byte order under inner pages when
// there are many, as the protein table (a table by accession, byAccession.ts); named by content, listed in the
// manifest's `sequences`.
import {
  FORMAT_VERSION,
  SEQUENCE_PAGE_ACCESSIONS,
  sequenceIndexPageFileName,
  sequencePageFileName,
  type Manifest,
  type SequencePage,
} from '../../runtime/model/format.js';
import { byAccessionPageFiles, ByAccessionWriter, type ByAccessionTable } from './byAccession.js';
import type { Storage } from './datasetFile.js';
import { TREE_SHAPE, type TreeShape } from './pageTree.js';

/** An accession and its residues. */
export interface SequenceRow {
  accession: string;
  sequence: string;
}

export const SEQUENCE_TABLE: ByAccessionTable<SequenceRow, SequencePage> = {
  pageFileName: sequencePageFileName,
  indexPageFileName: sequenceIndexPageFileName,
  emptyPage: () => ({ formatVersion: FORMAT_VERSION, accessions: [], sequences: [] }),
  push(page, row) {
    page.accessions.push(row.accession);
    page.sequences.push(row.sequence);
  },
};

/** The sequence table, written page by page from its accessions' residues handed on in byte order. */
export class SequencePageWriter extends ByAccessionWriter<SequenceRow, SequencePage> {
  constructor(dir: string, storage: Storage, pageAccessions = SEQUENCE_PAGE_ACCESSIONS, shape: TreeShape = TREE_SHAPE) {
    super(dir, storage, SEQUENCE_TABLE, pageAccessions, shape);
  }
}

/**
 * Every page of the manifest's sequence table, none without one (inner pages first, level by level, then the leaves),
 * reading inner pages from `dir`.
 */
export function sequencePageFiles(manifest: Manifest, dir: string): string[] {
  return byAccessionPageFiles(manifest.sequences, manifest.compression, dir);
}

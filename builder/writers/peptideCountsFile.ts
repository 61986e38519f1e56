// The peptide counts' pages: how many of the dataset's peptides each accession has, PEPTIDE_COUNT_RANKS ranks a
// page, named by content and listed in the manifest's `peptideCounts`.
import { PEPTIDE_COUNT_RANKS, peptideCountsFileName, type Manifest } from '../../runtime/model/format.js';
import { encodePeptideCounts } from '../../runtime/model/shardEncoder.js';
import { writeDatasetFile, type Storage } from './datasetFile.js';

/** Writes the pages of `counts` (by rank) into `dir`; returns the manifest's `peptideCounts`. */
export function writePeptideCounts(
  dir: string,
  counts: Uint32Array,
  storage: Storage,
  ranksPerPage = PEPTIDE_COUNT_RANKS,
): NonNullable<Manifest['peptideCounts']> {
  const pages = [];
  for (let first = 0; first < counts.length; first += ranksPerPage)
    pages.push(
      writeDatasetFile(
        dir,
        encodePeptideCounts(counts.subarray(first, first + ranksPerPage)),
        peptideCountsFileName,
        storage,
      ),
    );
  return { ranksPerPage, pages };
}

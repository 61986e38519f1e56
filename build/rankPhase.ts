// Build phase 2 as the pipeline runs it: the header runs read back in (accession, ordinal) order are ranked, and
// each rank's fields go straight into the accession table and the protein pages (written into the staging folder),
// so no accession or name stays in memory; only the ranks' fixed-width columns do.
import type { FileEntry, Manifest } from '../runtime/model/format.js';
import { checkAccessionText, rankAccessions, type RankedAccessions } from './accessions.js';
import type { Storage } from './datasetFile.js';
import type { HeaderRuns } from './headerRuns.js';
import { AccessionTableWriter, ProteinPageWriter } from './proteinTable.js';

/** The manifest's entries of the accession table and the protein table. */
export interface AccessionTables {
  accessions: FileEntry & { count: number };
  proteins: NonNullable<Manifest['proteins']>;
}

/**
 * Ranks the accessions of `headers` and writes their tables into `dir`; removes the header runs. Throws a
 * BuildError when the accession table would be past `maxAccessionText` (checkAccessionText).
 */
export function rankAndWriteTables(headers: HeaderRuns, taxonomy: ReadonlyMap<string, number>, dir: string, storage: Storage, maxAccessionText?: number): { ranked: RankedAccessions; tables: AccessionTables } {
  const accessions = new AccessionTableWriter(dir, storage);
  const proteins = new ProteinPageWriter(dir, storage);
  const ranked = rankAccessions(headers.sorted(), headers.count, taxonomy, (_, fields) => {
    accessions.add(fields.accession);
    proteins.add(fields);
  });
  headers.remove();
  checkAccessionText(ranked, maxAccessionText);
  return { ranked, tables: { accessions: accessions.finish(ranked), proteins: proteins.finish() } };
}

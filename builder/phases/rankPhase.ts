// Build phase 2 as the pipeline runs it: the header runs read back in (accession, ordinal) order are ranked in byte
// order, each accession's fields going straight into the protein pages (and, with --sequences, its first record's
// residues into the sequence pages; both written into the staging folder) and its text into the accession table's
// runs; once the taxonomy is pruned to the dataset's lineages, the ranks are put in the format's order
// (runtime/model/accessionOrder.ts) and the accession table is written in it. No name, accession or sequence stays in
// memory; only the ranks' fixed-width columns do (the text waits on disk: AccessionTableWriter).
import { join } from 'node:path';
import { depthFirstOrder } from '../../runtime/model/taxonomy.js';
import { rankOrder } from '../../runtime/model/accessionOrder.js';
import type { Manifest } from '../../runtime/model/format.js';
import { rankAccessions, type RankedAccessions } from './accessions.js';
import type { Storage } from '../writers/datasetFile.js';
import type { HeaderRuns } from '../inputs/headerRuns.js';
import type { pruneToLineages } from '../inputs/taxdump.js';
import { AccessionTableWriter, ProteinPageWriter } from '../writers/proteinTable.js';
import { SequencePageWriter } from '../writers/sequenceTable.js';
import type { BuildOptions } from './options.js';

/** The manifest's entries of the accession table, the protein table and, when written, the sequence table. */
export interface AccessionTables {
  accessions: Manifest['accessions'];
  proteins: NonNullable<Manifest['proteins']>;
  sequences?: Manifest['sequences'];
}

/**
 * Ranked accessions in byte order, their protein pages (and sequence pages) written, and their accession table still
 * to write (orderRanks).
 */
export interface RankedHeaders {
  ranked: RankedAccessions;
  proteins: NonNullable<Manifest['proteins']>;
  sequences?: Manifest['sequences'];
  accessions: AccessionTableWriter;
}

/**
 * Ranks the accessions of `headers` in byte order and writes their protein pages into `dir`, and their sequence pages
 * when `options.sequences` (the header runs then hold the sequences); the accessions' text waits in
 * `dir`/accession-text until orderRanks. Removes the header runs.
 */
export function rankHeaders(
  headers: HeaderRuns,
  taxonomy: ReadonlyMap<string, number>,
  dir: string,
  storage: Storage,
  options: Pick<BuildOptions, 'sequences' | 'sequencePageAccessions'> = {},
): RankedHeaders {
  const accessions = new AccessionTableWriter(dir, storage, join(dir, 'accession-text'));
  const proteins = new ProteinPageWriter(dir, storage);
  const sequences = options.sequences
    ? new SequencePageWriter(dir, storage, options.sequencePageAccessions)
    : undefined;
  const ranked = rankAccessions(headers.sorted(), headers.count, taxonomy, (_, fields, sequence) => {
    accessions.add(fields.accession);
    proteins.add(fields);
    sequences?.add({ accession: fields.accession, sequence });
  });
  headers.remove();
  return {
    ranked,
    proteins: proteins.finish(),
    ...(sequences ? { sequences: sequences.finish() } : {}),
    accessions,
  };
}

/**
 * Puts the ranks in the format's order — reviewed first, then by the depth-first position of the taxId's node in
 * the pruned taxonomy (`lineages`), then by accession — in place: each protein's rank, the taxId and reviewed
 * columns, and the lineages' node of each rank; then writes the accession table in that order (pages of
 * `pageAccessions`, or the format's size). Returns the manifest's entries of the tables.
 */
export function orderRanks(
  { ranked, proteins, sequences, accessions }: RankedHeaders,
  lineages: Awaited<ReturnType<typeof pruneToLineages>> | undefined,
  pageAccessions?: number,
): AccessionTables {
  let position: Int32Array | undefined;
  let positions = 0;
  if (lineages) {
    const { enter } = depthFirstOrder(lineages.taxonomy.parents);
    position = Int32Array.from(lineages.nodeOf, (node) => (node < 0 ? -1 : enter[node]));
    positions = enter.length;
  }
  const order = rankOrder(ranked.reviewed, position, positions);
  const permuted = <T extends Int32Array | Uint8Array>(column: T): T => {
    const out = new (column.constructor as new (n: number) => T)(column.length);
    for (let a = 0; a < column.length; a++) out[order[a]] = column[a];
    return out;
  };
  [ranked.taxIds, ranked.reviewed] = [permuted(ranked.taxIds), permuted(ranked.reviewed)];
  if (lineages) lineages.nodeOf = permuted(lineages.nodeOf);
  for (let p = 0; p < ranked.rankOf.length; p++) ranked.rankOf[p] = order[ranked.rankOf[p]];
  return {
    accessions: accessions.finish(order, ranked, pageAccessions),
    proteins,
    ...(sequences ? { sequences } : {}),
  };
}

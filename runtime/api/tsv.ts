// Tab-separated text: the one escape of a field (tabs and line breaks become spaces), and the range endpoints' rows,
// one per peptide–accession pair (mass key as the API writes it, sequence, accession, taxId), for a page of groups
// or a run of a shard's groups.
import type { GroupRef, ListedRun } from '../core/range/search.js';
import type { AccessionSet } from '../model/accessionSet.js';
import { sequenceOf } from '../model/format.js';
import { formatMassKey } from '../model/massKey.js';

/** A TSV field: tabs and line breaks inside it become spaces; null and undefined are empty. */
export const cell = (value: string | number | boolean | null | undefined): string =>
  String(value ?? '').replace(/[\t\r\n]/g, ' ');

/** A TSV row: its fields escaped (cell), tab-separated, ending with a line break. */
export const tsvRow = (values: readonly (string | number | boolean | null | undefined)[]): string =>
  values.map(cell).join('\t') + '\n';

export const TSV_COLUMNS = ['mass', 'sequence', 'accession', 'taxId'] as const;
export const TSV_HEADER = TSV_COLUMNS.join('\t') + '\n';

/** Rows of one mass group: mass key as the API writes it, sequence, accession, taxId (-1 when unknown). */
export function groupRows({ shard, group }: GroupRef, accessions: AccessionSet): string {
  const mass = formatMassKey(shard.massKeys[group]);
  let rows = '';
  for (let p = group === 0 ? 0 : shard.groupEnds[group - 1]; p < shard.groupEnds[group]; p++) {
    const seq = sequenceOf(shard, p);
    for (const a of accessions.listed(shard, p))
      rows += `${mass}\t${seq}\t${accessions.accession(a)}\t${accessions.taxId(a)}\n`;
  }
  return rows;
}

/** Rows of a run of groups, in chunks of about `chunkChars` characters (for streaming without holding a range). */
export function* runRows({ shard, from, to, accessions }: ListedRun, chunkChars = 64 * 1024): Generator<string> {
  let chunk = '';
  for (let group = from; group < to; group++) {
    chunk += groupRows({ shard, group }, accessions);
    if (chunk.length >= chunkChars) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}

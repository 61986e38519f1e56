// The TSV form of a batch match (`npm run query -- match`'s default output): one row per (precursor, search,
// candidate) and one with empty candidate columns for a search without any (an isotopeError column after the charge
// when the query tries isotope errors) — the values matchJson.ts's JSON gives, written as bytes straight from the
// batch's columns (no object or row string per candidate: a run writes millions).
import type { MatchBatch, SearchIds } from '../core/match/match.js';
import type { MatchQuery } from '../core/match/matchQuery.js';
import { UNITS_PER_DA } from '../model/chemistry.js';
import type { AsciiWriter } from './asciiWriter.js';
import type { PrecursorJson } from './matchJson.js';
import { writeMassText, writePpmText } from './numberText.js';
import { cell } from './tsv.js';

export const MATCH_TSV_COLUMNS = [
  'index',
  'title',
  'scans',
  'rtSeconds',
  'mz',
  'charge',
  'mass',
  'sequence',
  'proforma',
  'modifiedMass',
  'ppm',
  'accessions',
  'taxIds',
  'error',
] as const;
export const MATCH_TSV_HEADER = MATCH_TSV_COLUMNS.join('\t') + '\n';
/** The columns when the query tries isotope errors: each search's isotope error after its charge. */
export const MATCH_ISOTOPE_TSV_COLUMNS = MATCH_TSV_COLUMNS.flatMap((c) => (c === 'charge' ? [c, 'isotopeError'] : [c]));

/** The header of a query's rows: with the isotopeError column when it tries isotope errors. */
export const matchTsvHeader = (query: Pick<MatchQuery, 'isotopeErrors'>): string =>
  query.isotopeErrors ? MATCH_ISOTOPE_TSV_COLUMNS.join('\t') + '\n' : MATCH_TSV_HEADER;

const utf8 = new TextEncoder();

/** Writes the TSV rows of precursor `i` of a batch (its searches as batch.searchIds gives them) to `w`. */
export function writePrecursorRows(
  w: AsciiWriter,
  batch: MatchBatch,
  i: number,
  searches: SearchIds[] = batch.searchIds(i),
): void {
  const precursor: Omit<PrecursorJson, 'searches'> = batch.precursors[i];
  const head = `${precursor.index}\t${cell(precursor.title)}\t${cell(precursor.scans)}\t${cell(precursor.rtSeconds)}\t${cell(precursor.mz)}`;
  const { accessions, columns } = batch;
  const utf8Out = {
    write: (text: string, from?: number, to?: number) => w.writeUtf8(text, from, to),
    copy: (bytes: Uint8Array, from: number, to: number) => w.copy(bytes, from, to),
  };
  for (const s of searches) {
    const isotope = s.isotopeError === undefined ? '' : `${s.isotopeError}\t`;
    const search = utf8.encode(`${head}\t${s.charge ?? ''}\t${isotope}${s.mass.toFixed(6)}\t`); // a TITLE may be any text
    if (s.candidates.length === 0) {
      w.copy(search, 0, search.length);
      w.writeUtf8(`\t\t\t\t\t\t${cell(s.error)}\n`);
    }
    for (const id of s.candidates) {
      w.copy(search, 0, search.length);
      const sequence = columns.sequence(id); // unpacked once, for the row and its ProForma
      w.write(sequence);
      w.write('\t');
      batch.writeProforma(w, sequence, id);
      w.write('\t');
      const units = columns.units(id);
      writeMassText(w, units);
      w.write('\t');
      writePpmText(w, s.mass, units / UNITS_PER_DA);
      w.write('\t');
      const [first, end] = [columns.accessionEnd(id - 1), columns.accessionEnd(id)];
      for (let r = first; r < end; r++) {
        const a = columns.accession(r);
        if (r > first) w.write(';');
        accessions.writeAccession(utf8Out, a);
      }
      w.write('\t');
      for (let r = first; r < end; r++) {
        if (r > first) w.write(';');
        w.writeInt(accessions.taxId(columns.accession(r)));
      }
      w.write('\t\n');
    }
  }
}

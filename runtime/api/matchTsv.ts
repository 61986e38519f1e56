// The TSV form of a batch match (`npm run query -- match`'s default output): one row per (precursor, search,
// candidate) and one with empty candidate columns for a search without any — the values matchJson.ts's JSON gives,
// written as bytes straight from the batch's columns (no object or row string per candidate: a run writes millions).
import type { MatchBatch, SearchIds } from '../core/match.js';
import { UNITS_PER_DA } from '../model/chemistry.js';
import type { AsciiWriter } from './asciiWriter.js';
import type { PrecursorJson } from './matchJson.js';
import { ppmOf } from './precursorJson.js';

export const MATCH_TSV_COLUMNS = ['index', 'title', 'scans', 'rtSeconds', 'mz', 'charge', 'mass', 'sequence', 'proforma', 'modifiedMass', 'ppm', 'accessions', 'taxIds', 'error'] as const;
export const MATCH_TSV_HEADER = MATCH_TSV_COLUMNS.join('\t') + '\n';

/** A field of free text (a TITLE) kept on its row: tabs and line breaks become spaces. */
const field = (text: string | number | undefined) => (text === undefined ? '' : String(text).replace(/[\t\r\n]/g, ' '));

const utf8 = new TextEncoder();

/** Units in a millionth of a dalton, the last decimal a mass is written with. */
const UNITS_PER_MICRODALTON = UNITS_PER_DA / 1e6;

/**
 * Writes `(units / UNITS_PER_DA).toFixed(6)` — the same text — from the integer `units` without making a string.
 * Exact: rounding the integer half up agrees with toFixed on the quotient except at an exact half (a remainder of
 * 5,000 units), where the quotient's binary error decides; that case, and any non-integer, is left to toFixed.
 */
export function writeMassText(w: AsciiWriter, units: number): void {
  const remainder = units % UNITS_PER_MICRODALTON;
  if (!(Number.isSafeInteger(units) && units >= 0) || remainder === UNITS_PER_MICRODALTON / 2) return w.write((units / UNITS_PER_DA).toFixed(6));
  const micro = (units - remainder) / UNITS_PER_MICRODALTON + (remainder > UNITS_PER_MICRODALTON / 2 ? 1 : 0);
  const fraction = micro % 1e6;
  w.writeInt((micro - fraction) / 1e6);
  w.write('.');
  let digits = 1;
  for (let rest = fraction; rest >= 10; rest = Math.floor(rest / 10)) digits++;
  w.write('000000', 0, 6 - digits);
  w.writeInt(fraction);
}

/**
 * Writes `String(ppmOf(centre, mass))` — the same text: the error rounded to 2 decimals, trailing zeros dropped, no
 * minus zero — without making a string. Rounding the scaled error agrees with toFixed(2) unless it lies within 1e-6
 * of a half (its binary error is far smaller below 1e6); that case, and errors of 10,000 ppm or more, are left to ppmOf.
 */
export function writePpmText(w: AsciiWriter, centre: number, mass: number): void {
  const scaled = ((centre - mass) / mass) * 1e6 * 100;
  if (!(Math.abs(scaled) < 1e6) || Math.abs(Math.abs(scaled % 1) - 0.5) < 1e-6) return w.write(String(ppmOf(centre, mass)));
  let hundredths = Math.round(scaled);
  if (hundredths < 0) {
    w.write('-');
    hundredths = -hundredths;
  }
  const fraction = hundredths % 100;
  w.writeInt((hundredths - fraction) / 100);
  if (fraction === 0) return;
  w.write(fraction < 10 ? '.0' : '.');
  w.writeInt(fraction % 10 === 0 ? fraction / 10 : fraction);
}

/** Writes the TSV rows of precursor `i` of a batch (its searches as batch.searchIds gives them) to `w`. */
export function writePrecursorRows(w: AsciiWriter, batch: MatchBatch, i: number, searches: SearchIds[] = batch.searchIds(i)): void {
  const precursor: Omit<PrecursorJson, 'searches'> = batch.precursors[i];
  const head = `${precursor.index}\t${field(precursor.title)}\t${field(precursor.scans)}\t${field(precursor.rtSeconds)}\t${field(precursor.mz)}`;
  const { table, columns } = batch;
  const [letters, sequenceEnds, units] = [columns.letters.data, columns.sequenceEnds.data, columns.units.data];
  const [accessions, accessionEnds] = [columns.accessions.data, columns.accessionEnds.data];
  for (const s of searches) {
    const search = utf8.encode(`${head}\t${s.charge ?? ''}\t${s.mass.toFixed(6)}\t`); // a TITLE may be any text
    if (s.candidates.length === 0) {
      w.copy(search, 0, search.length);
      w.writeUtf8(`\t\t\t\t\t\t${field(s.error)}\n`);
    }
    for (const id of s.candidates) {
      w.copy(search, 0, search.length);
      w.copy(letters, id === 0 ? 0 : sequenceEnds[id - 1], sequenceEnds[id]);
      w.write('\t');
      w.writeUtf8(batch.proforma(columns.sequence(id), id)); // a custom modification's name may be any text
      w.write('\t');
      writeMassText(w, units[id]);
      w.write('\t');
      writePpmText(w, s.mass, units[id] / UNITS_PER_DA);
      w.write('\t');
      const [from, to] = [id === 0 ? 0 : accessionEnds[id - 1], accessionEnds[id]];
      for (let r = from; r < to; r++) {
        const a = accessions[r];
        if (r > from) w.write(';');
        w.writeUtf8(table.accessions, a === 0 ? 0 : table.accessionEnds[a - 1], table.accessionEnds[a]);
      }
      w.write('\t');
      for (let r = from; r < to; r++) {
        if (r > from) w.write(';');
        w.writeInt(table.taxIds[accessions[r]]);
      }
      w.write('\t\n');
    }
  }
}

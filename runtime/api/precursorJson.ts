// Answers of /api/v1/search rendered from a precursor result: the seed's envelope, mass groups keyed by the
// modified mass's 4-decimal key, one entry per (sequence, modification composition) with its ProForma, exact
// mass, ppm error and accessions; and the same candidates as TSV rows.
import type { Candidate, CandidateGroup, PrecursorQuery, PrecursorResult } from '../core/precursor.js';
import { accessionOf, accessionRefsOf } from '../model/format.js';
import { formatMassKey } from '../model/massKey.js';
import { UNITS_PER_DA } from '../model/chemistry.js';
import { proforma } from '../model/proforma.js';
import { formatDuration } from './envelope.js';

/** One candidate as the answer lists it. */
export interface PrecursorEntry {
  seq: string;
  proforma: string;
  /** Modified monoisotopic mass in Da, 6 decimals. */
  mass: number;
  /** (query mass − candidate mass) / candidate mass × 10^6, 2 decimals: observed minus theoretical; absent for mass1/mass2. */
  ppm?: number;
  accsTax: { acc: string; taxId: number }[];
}

/** A candidate's entry: its ProForma under the query's modifications, mass, ppm error and accessions. */
export function precursorEntry(query: PrecursorQuery, c: Candidate): PrecursorEntry {
  const fixed = query.fixed;
  const variable = query.variable.map((spec, i) => ({ spec, count: c.variableCounts[i] }));
  const mass = c.units / UNITS_PER_DA;
  const ppm = query.centre === undefined ? {} : { ppm: Number((((query.centre - mass) / mass) * 1e6).toFixed(2)) || 0 };
  const accsTax = [...accessionRefsOf(c.shard, c.peptide)].map((a) => ({ acc: accessionOf(c.shard, a), taxId: c.shard.taxIds[a] }));
  return { seq: c.sequence, proforma: proforma(c.sequence, fixed, variable), mass: Number(mass.toFixed(6)), ...ppm, accsTax };
}

/** A group's entries, ordered by sequence, then ProForma. */
export function groupEntries(query: PrecursorQuery, group: CandidateGroup): PrecursorEntry[] {
  return group.candidates.map((c) => precursorEntry(query, c)).sort((a, b) => (a.seq < b.seq ? -1 : a.seq > b.seq ? 1 : a.proforma < b.proforma ? -1 : a.proforma > b.proforma ? 1 : 0));
}

/** The success body: the envelope in the seed's field order, then `result` as `[{"<key>": [entries]}, ..]`. */
export function renderPrecursorJson(query: PrecursorQuery, result: PrecursorResult, started: number, memory: () => string): string {
  const groups = result.groups.map((g) => `{${JSON.stringify(formatMassKey(g.key))}:${JSON.stringify(groupEntries(query, g))}}`);
  const duration = formatDuration(performance.now() - started);
  return `{"totalResult":${result.totalResult},"memory":${JSON.stringify(memory())},"duration":"${duration}","page":${result.page},"pageSize":${result.pageSize},"result":[${groups.join(',')}]}`;
}

export const PRECURSOR_TSV_COLUMNS = ['mass', 'sequence', 'proforma', 'modifiedMass', 'ppm', 'accession', 'taxId'] as const;
export const PRECURSOR_TSV_HEADER = PRECURSOR_TSV_COLUMNS.join('\t') + '\n';

/** TSV rows of a page: one per candidate–accession pair; `ppm` empty when the query has no centre. */
export function precursorRows(query: PrecursorQuery, result: PrecursorResult): string {
  let rows = '';
  for (const group of result.groups) {
    const mass = formatMassKey(group.key);
    for (const e of groupEntries(query, group)) {
      for (const { acc, taxId } of e.accsTax) rows += `${mass}\t${e.seq}\t${e.proforma}\t${e.mass.toFixed(6)}\t${e.ppm ?? ''}\t${acc}\t${taxId}\n`;
    }
  }
  return rows;
}

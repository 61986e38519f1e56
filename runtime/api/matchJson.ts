// Answers of a batch match as JSON: each precursor as one object with its searches (a charge and isotope error each)
// and their candidates — each candidate the entry /api/v1/search gives it; and the run's summary (matchTsv.ts: the
// TSV form).
import type { MatchBatch, SearchMatch } from '../core/match/match.js';
import type { Precursor } from '../core/match/matchQuery.js';
import type { Malformed } from '../core/match/mgf.js';
import { UNITS_PER_DA } from '../model/chemistry.js';
import type { AccessionSet } from '../model/accessionSet.js';
import { formatDuration } from './envelope.js';
import { ppmOf } from './numberText.js';
import type { PrecursorEntry } from './precursorJson.js';

/**
 * A search as the answer lists it: the charge and isotope error tried (the latter when the query gives isotopeErrors),
 * the neutral mass searched, and its candidates (or why it was not made).
 */
export interface SearchJson {
  charge?: number;
  isotopeError?: number;
  mass: number;
  candidates: PrecursorEntry[];
  error?: string;
}

/** A precursor as the answer lists it: what its MGF record or JSON item gave (Precursor's fields), and its searches. */
export interface PrecursorJson {
  index: number;
  line?: number;
  title?: string;
  scans?: string;
  rtSeconds?: number;
  mz?: number;
  intensity?: number;
  /** The charges the record or item gave (none: the query's `charges` were tried). */
  charges?: number[];
  mass?: number;
  searches: SearchJson[];
}

/** A candidate's entry, exactly as /api/v1/search gives it. */
function entryOf(accessions: AccessionSet, search: SearchMatch, c: SearchMatch['candidates'][number]): PrecursorEntry {
  const mass = c.units / UNITS_PER_DA;
  const accsTax = Array.from(c.accessions, (a) => ({ acc: accessions.accession(a), taxId: accessions.taxId(a) }));
  return {
    seq: c.sequence,
    proforma: c.proforma,
    mass: Number(mass.toFixed(6)),
    ppm: ppmOf(search.mass, mass),
    accsTax,
  };
}

/** The precursor `i` of a batch with its searches and their candidates. */
export function precursorJson(batch: MatchBatch, i: number): PrecursorJson {
  const searches = batch.searches(i).map(
    (s): SearchJson => ({
      ...(s.charge === undefined ? {} : { charge: s.charge }),
      ...(s.isotopeError === undefined ? {} : { isotopeError: s.isotopeError }),
      mass: s.mass,
      candidates: s.candidates.map((c) => entryOf(batch.accessions, s, c)),
      ...(s.error ? { error: s.error } : {}),
    }),
  );
  const precursor: Precursor = batch.precursors[i];
  return { ...precursor, searches };
}

/** Malformed records an answer lists (all are counted): a file of junk should not make a huge answer. */
export const MALFORMED_LISTED = 20;

/** Counts of a run, for its summary line and the HTTP answer. */
export class MatchSummary {
  precursors = 0;
  withCandidates = 0;
  candidates = 0;
  /** Searches refused (too many hypotheses or peptides, no positive mass). */
  refused = 0;
  malformed: Malformed[] = [];

  /** Counts a precursor by its searches (as SearchMatch or as SearchJson). */
  count(searches: readonly { candidates: readonly unknown[]; error?: string }[]): void {
    this.precursors++;
    const found = searches.reduce((n, s) => n + s.candidates.length, 0);
    this.candidates += found;
    if (found > 0) this.withCandidates++;
    this.refused += searches.filter((s) => s.error).length;
  }

  /** `10,000 spectra (3 malformed, skipped), 9,870 with candidates, 7,884,849 candidates in 12.3 s (813 spectra/s)` */
  line(ms: number, what = 'spectra'): string {
    const n = (x: number) => x.toLocaleString('en');
    const skipped = this.malformed.length > 0 ? ` (${n(this.malformed.length)} malformed, skipped)` : '';
    const refused = this.refused > 0 ? `, ${n(this.refused)} searches refused` : '';
    const rate = ms > 0 ? `, ${n(Math.round((this.precursors / ms) * 1000))} ${what}/s` : '';
    return `${n(this.precursors)} ${what}${skipped}, ${n(this.withCandidates)} with candidates, ${n(this.candidates)} candidates${refused} in ${(ms / 1000).toFixed(1)} s${rate}`;
  }
}

/** The HTTP answer: the counts, the malformed records, and every precursor with its candidates. */
export function matchAnswerJson(
  results: PrecursorJson[],
  summary: MatchSummary,
  started: number,
  memory: () => string,
): string {
  const { precursors, withCandidates, candidates, malformed } = summary;
  return JSON.stringify({
    precursors,
    withCandidates,
    candidates,
    malformedCount: malformed.length,
    malformed: malformed.slice(0, MALFORMED_LISTED),
    memory: memory(),
    duration: formatDuration(performance.now() - started),
    result: results,
  });
}

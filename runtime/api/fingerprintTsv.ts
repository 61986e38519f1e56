// A fingerprint's answer as TSV, one table for any number of peak lists: a row per listed protein, then a row per
// listed organism, of each list in the order of the input (and one row with empty hit columns for a list with
// neither, so every list is accounted for); the values are the JSON answer's, lists of them `;`-joined.
import type { Fingerprint, ProteinHit, TaxonHit } from '../core/fingerprint/fingerprint.js';
import { tsvRow } from './tsv.js';

export const FINGERPRINT_TSV_COLUMNS = [
  'list',
  'title',
  'peaks',
  'kind',
  'position',
  'accession',
  'taxId',
  'organism',
  'taxonRank',
  'reviewed',
  'peptides',
  'matched',
  'distinct',
  'length',
  'coverage',
  'score',
  'expect',
  'matchedMz',
  'matchedPeptides',
  'sameSet',
  'proteins',
] as const;
export const FINGERPRINT_TSV_HEADER = FINGERPRINT_TSV_COLUMNS.join('\t') + '\n';

type Row = Partial<Record<(typeof FINGERPRINT_TSV_COLUMNS)[number], string | number | boolean>>;

const joined = (values: readonly (string | number)[]) => values.join(';');

/** A protein's row: its peptide matches one entry each (a peak explained by two peptides is named twice). */
const proteinRow = (hit: ProteinHit, list: Fingerprint, position: number): Row => ({
  kind: 'protein',
  position,
  accession: hit.accession,
  taxId: hit.taxId,
  reviewed: hit.reviewed,
  peptides: hit.peptides,
  matched: hit.matched,
  distinct: hit.distinct,
  length: hit.length,
  coverage: hit.coverage,
  score: hit.score,
  expect: hit.expect,
  matchedMz: joined(hit.matches.map((m) => list.peaks[m.peak].mz)),
  matchedPeptides: joined(hit.matches.map((m) => m.proforma)),
  sameSet: joined(hit.sameSet),
});

const organismRow = (taxon: TaxonHit, list: Fingerprint, position: number): Row => ({
  kind: 'organism',
  position,
  taxId: taxon.taxId,
  organism: taxon.name,
  taxonRank: taxon.rank,
  peptides: taxon.peptides,
  matched: taxon.matched,
  score: taxon.score,
  expect: taxon.expect,
  matchedMz: joined(taxon.peaks.map((p) => list.peaks[p].mz)),
  proteins: joined(taxon.proteins),
});

/** The rows of `lists`, numbered from `first` (their place in the input, from 1). */
export function fingerprintRows(lists: readonly Fingerprint[], first = 1): string {
  let rows = '';
  lists.forEach((list, i) => {
    const head: Row = { list: first + i, title: list.title ?? '', peaks: list.peaks.length };
    const hits = [
      ...list.proteins.map((hit, p) => proteinRow(hit, list, p + 1)),
      ...(list.organisms ?? []).map((taxon, t) => organismRow(taxon, list, t + 1)),
    ];
    for (const hit of hits.length > 0 ? hits : [{}]) {
      const row: Row = { ...head, ...hit };
      rows += tsvRow(FINGERPRINT_TSV_COLUMNS.map((column) => row[column]));
    }
  });
  return rows;
}

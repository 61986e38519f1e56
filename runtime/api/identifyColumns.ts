// An identification's PSMs as rows: one table of columns — named as Sage's results.sage.tsv names them wherever the
// meaning is the same, plus proforma, lca and organism — drives the TSV and the JSON; the Percolator PIN file
// (Percolator and mokapot rescore it) has its own layout of the same values.
import { fragmentPpm, matchedIntensityPct, precursorPpm } from '../core/identify/discriminant.js';
import type { IdentifiedPsm } from '../core/identify/identification.js';
import { ISOTOPE_SPACING_DA, UNITS_PER_DA } from '../model/chemistry.js';
import { tsvRow } from './tsv.js';

/** Where a row is written: the input's file name, and the row's number (from 1). */
export interface RowOf {
  filename: string;
  id: number;
}

/** A column: its name and its value for a PSM. */
interface Column {
  name: string;
  value(psm: IdentifiedPsm, row: RowOf): string | number;
}

/** Decoys' proteins are their targets' with this prefix. */
export const DECOY_PREFIX = 'rev_';

/** A number rounded to `decimals`, written shortest (no trailing zeros, never -0). */
const rounded = (x: number, decimals: number) => Number(x.toFixed(decimals)) || 0;

/** A mass delta in units as signed exact decimal text (`+57.021464`). */
const deltaText = (units: number) => {
  const text = String(rounded(units / UNITS_PER_DA, 10));
  return units < 0 ? text : `+${text}`;
};

/** The peptide as Sage writes it: each modified position's delta in brackets after it (a terminus's before or after). */
export function massAnnotated({ sequence, form }: Pick<IdentifiedPsm, 'sequence' | 'form'>): string {
  const residues = [...sequence].map((c, i) => (form.residues[i] ? `${c}[${deltaText(form.residues[i])}]` : c));
  return `${form.nTerm ? `[${deltaText(form.nTerm)}]-` : ''}${residues.join('')}${form.cTerm ? `-[${deltaText(form.cTerm)}]` : ''}`;
}

/**
 * The sequence and what each position carries (units) of a `peptide` column (massAnnotated's text); undefined when
 * the text is not one.
 */
export function parseMassAnnotated(
  text: string,
): { sequence: string; carried: { residues: number[]; nTerm: number; cTerm: number } } | undefined {
  const match = /^(?:\[([+-][\d.]+)\]-)?((?:[A-Z](?:\[[+-][\d.]+\])?)+)(?:-\[([+-][\d.]+)\])?$/.exec(text);
  if (!match) return undefined;
  const units = (delta: string | undefined) => (delta === undefined ? 0 : Math.round(Number(delta) * UNITS_PER_DA));
  const residues: number[] = [];
  let sequence = '';
  for (const [, letter, delta] of match[2].matchAll(/([A-Z])(?:\[([+-][\d.]+)\])?/g)) {
    sequence += letter;
    residues.push(units(delta));
  }
  return { sequence, carried: { residues, nTerm: units(match[1]), cTerm: units(match[3]) } };
}

export const proteinsText = (psm: IdentifiedPsm) =>
  psm.ref.accessions.map((a) => (psm.decoy ? DECOY_PREFIX + a : a)).join(';');

const calcMass = (psm: IdentifiedPsm) => psm.units / UNITS_PER_DA;
/** The spectrum's name in the file: its MGF TITLE, else its ordinal. */
export const scanName = (psm: IdentifiedPsm) => psm.spectrum.title ?? String(psm.spectrum.index);

export const PSM_COLUMNS: readonly Column[] = [
  { name: 'psm_id', value: (_psm, row) => row.id },
  { name: 'peptide', value: massAnnotated },
  { name: 'proteins', value: proteinsText },
  { name: 'num_proteins', value: (psm) => psm.ref.accessions.length },
  { name: 'filename', value: (_psm, row) => row.filename },
  { name: 'scannr', value: scanName },
  { name: 'rank', value: (psm) => psm.rank },
  { name: 'label', value: (psm) => (psm.decoy ? -1 : 1) },
  { name: 'expmass', value: (psm) => rounded(psm.expMass, 6) },
  { name: 'calcmass', value: (psm) => rounded(calcMass(psm), 6) },
  { name: 'charge', value: (psm) => psm.charge },
  { name: 'peptide_len', value: (psm) => psm.sequence.length },
  { name: 'missed_cleavages', value: (psm) => psm.missedCleavages },
  // In Da, as Sage writes it: the isotope error's count of 13C − 12C spacings.
  { name: 'isotope_error', value: (psm) => rounded(psm.isotopeError * ISOTOPE_SPACING_DA, 6) },
  { name: 'precursor_ppm', value: (psm) => rounded(precursorPpm(psm), 3) },
  { name: 'fragment_ppm', value: (psm) => rounded(fragmentPpm(psm), 3) },
  { name: 'hyperscore', value: (psm) => rounded(psm.hyperscore, 6) },
  { name: 'delta_next', value: (psm) => rounded(psm.deltaNext, 6) },
  { name: 'matched_peaks', value: (psm) => psm.matched.b + psm.matched.y },
  { name: 'matched_intensity_pct', value: (psm) => rounded(matchedIntensityPct(psm), 3) },
  { name: 'scored_candidates', value: (psm) => psm.scoredCandidates },
  { name: 'poisson', value: (psm) => rounded(psm.poisson, 6) },
  // The score the q-values rank by: the linear discriminant's projection, or the hyperscore when none was fit.
  { name: 'discriminant_score', value: (psm) => rounded(psm.score, 6) },
  { name: 'spectrum_q', value: (psm) => rounded(psm.spectrumQ, 6) },
  { name: 'peptide_q', value: (psm) => rounded(psm.peptideQ, 6) },
  { name: 'protein_q', value: (psm) => rounded(psm.proteinQ, 6) },
  // Minutes, as Sage writes it (MGF's RTINSECONDS / 60); empty when the spectrum gives none.
  { name: 'rt', value: (psm) => (psm.spectrum.rtSeconds === undefined ? '' : rounded(psm.spectrum.rtSeconds / 60, 6)) },
  { name: 'proforma', value: (psm) => psm.proforma },
  { name: 'lca', value: (psm) => (psm.lca.taxId < 0 ? '' : psm.lca.taxId) },
  { name: 'organism', value: (psm) => psm.lca.name },
];

export const PSM_TSV_HEADER = PSM_COLUMNS.map((c) => c.name).join('\t') + '\n';

export const psmTsvRow = (psm: IdentifiedPsm, row: RowOf) => tsvRow(PSM_COLUMNS.map((c) => c.value(psm, row)));

/** A PSM as a JSON object of the same columns (numbers as numbers). */
export const psmObject = (psm: IdentifiedPsm, row: RowOf) =>
  Object.fromEntries(PSM_COLUMNS.map((c) => [c.name, c.value(psm, row)]));

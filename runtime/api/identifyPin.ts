// An identification as a Percolator input (PIN) file, which Percolator and mokapot rescore: SpecId, Label (1 target,
// −1 decoy), ScanNr, then numeric features, then Peptide (flanks as `-.` and `.-`) and the proteins, one per column.
import type { IdentifiedPsm } from '../core/identify/identification.js';
import { ISOTOPE_SPACING_DA, UNITS_PER_DA } from '../model/chemistry.js';
import { fragmentPpm, matchedIntensityPct, precursorPpm } from '../core/identify/discriminant.js';
import { DECOY_PREFIX, massAnnotated, type RowOf } from './identifyColumns.js';
import { cell } from './tsv.js';

const FEATURES: readonly { name: string; value(psm: IdentifiedPsm): number }[] = [
  { name: 'ExpMass', value: (psm) => psm.expMass },
  { name: 'CalcMass', value: (psm) => psm.units / UNITS_PER_DA },
  { name: 'Rank', value: (psm) => psm.rank },
  { name: 'hyperscore', value: (psm) => psm.hyperscore },
  { name: 'delta_next', value: (psm) => psm.deltaNext },
  { name: 'matched_peaks', value: (psm) => psm.matched.b + psm.matched.y },
  { name: 'matched_b', value: (psm) => psm.matched.b },
  { name: 'matched_y', value: (psm) => psm.matched.y },
  { name: 'matched_intensity_pct', value: matchedIntensityPct },
  { name: 'ln_scored_candidates', value: (psm) => Math.log(psm.scoredCandidates) },
  { name: 'poisson', value: (psm) => psm.poisson },
  { name: 'abs_precursor_ppm', value: (psm) => Math.abs(precursorPpm(psm)) },
  { name: 'fragment_ppm', value: fragmentPpm },
  { name: 'isotope_error', value: (psm) => psm.isotopeError * ISOTOPE_SPACING_DA },
  { name: 'missed_cleavages', value: (psm) => psm.missedCleavages },
  { name: 'peptide_len', value: (psm) => psm.sequence.length },
];

/** The header: the features, and one charge column (`z=2`) per charge of the PSMs, ascending. */
export function pinHeader(charges: readonly number[]): string {
  return (
    [
      'SpecId',
      'Label',
      'ScanNr',
      ...FEATURES.map((f) => f.name),
      ...charges.map((z) => `z=${z}`),
      'Peptide',
      'Proteins',
    ].join('\t') + '\n'
  );
}

/** Charges of the PSMs, ascending, each once: the header's charge columns. */
export const pinCharges = (psms: readonly IdentifiedPsm[]) =>
  [...new Set(psms.map((p) => p.charge))].sort((a, b) => a - b);

export function pinRow(psm: IdentifiedPsm, row: RowOf, charges: readonly number[]): string {
  const values = [
    `${cell(row.filename)}.${psm.spectrum.index}.${psm.charge}.${psm.rank}`,
    psm.decoy ? -1 : 1,
    psm.spectrum.index,
    ...FEATURES.map((f) => Number(f.value(psm).toPrecision(8))),
    ...charges.map((z) => (z === psm.charge ? 1 : 0)),
    `-.${massAnnotated(psm)}.-`,
    ...psm.ref.accessions.map((a) => cell(psm.decoy ? DECOY_PREFIX + a : a)),
  ];
  return values.join('\t') + '\n';
}

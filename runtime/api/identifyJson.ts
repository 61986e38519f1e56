// An identification as one JSON document: the counts at the FDR threshold, the spectra refused, the sample's taxon
// table and every PSM as the TSV's columns.
import { FDR_THRESHOLD, type Identification } from '../core/identify/identification.js';
import { psmObject } from './identifyColumns.js';

export function identificationJson(identification: Identification, filename: string) {
  const { spectra, passing, refused, taxa, psms } = identification;
  return {
    spectra,
    fdr: FDR_THRESHOLD,
    passing,
    refused: refused.map(({ spectrum, error }) => ({ index: spectrum.index, title: spectrum.title, error })),
    taxa,
    psms: psms.map((psm, i) => psmObject(psm, { filename, id: i + 1 })),
  };
}

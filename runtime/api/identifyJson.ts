// An identification as one JSON document: the counts at the FDR threshold, the records skipped and spectra refused,
// the sample's taxon table and every PSM as the TSV's columns (its OpenAPI schema: identifySchema.ts).
import { FDR_THRESHOLD } from '../core/identify/fdr.js';
import type { Identification } from '../core/identify/identification.js';
import { psmObject } from './identifyColumns.js';
import { MALFORMED_LISTED } from './matchJson.js';

export function identificationJson(identification: Identification, filename: string) {
  const { spectra, passing, malformed, refused, cutCandidates, rescored, taxa, psms } = identification;
  return {
    spectra,
    fdr: FDR_THRESHOLD,
    rescored,
    passing,
    malformedCount: malformed.length,
    malformed: malformed.slice(0, MALFORMED_LISTED),
    refused: refused.map(({ spectrum, error }) => ({ index: spectrum.index, title: spectrum.title, error })),
    cutCandidates,
    taxa,
    psms: psms.map((psm, i) => psmObject(psm, { filename, id: i + 1 })),
  };
}

// Identification of a peak-list file: its spectra read in batches, each batch's precursors matched to their
// candidates over the dataset as a batch match finds them (match.ts), each spectrum's peaks scored against every
// form of its candidates and their decoys (psms.ts). The false discovery rates need every spectrum's best PSM:
// fdr levels are worked out once the file is read (levels.ts).
import { neutralMass } from '../../model/chemistry.js';
import { ENZYMES, missedCleavages } from '../../model/enzymes.js';
import type { Dataset } from '../storage/dataset.js';
import { matchSpectra, type StreamOptions } from '../match/match.js';
import type { MatchQuery } from '../match/matchQuery.js';
import type { Malformed, MgfItem, Spectrum } from '../match/mgf.js';
import { scoreSpectrum, type Psm, type Scoring, type ScoredSearch } from './psms.js';
import { topPeaks } from './score.js';

/** What an identification asks: a batch match's precursor search, and how spectra are scored. */
export interface IdentifyQuery extends MatchQuery, Scoring {
  /** Peaks kept per spectrum, the most intense. */
  topPeaks: number;
}

/** Peaks within this many m/z of the precursor's are left out of scoring (MSFragger's default range, ±1.5). */
export const PRECURSOR_PEAK_RANGE = 1.5;

/** The proteins a PSM's peptide comes from (of those the query keeps), with their NCBI taxIds (-1 unknown). */
export interface Proteins {
  accessions: string[];
  taxIds: number[];
}

/** The spectrum a PSM is of. */
export type SpectrumOf = Omit<Spectrum, 'peaks'>;

/** A PSM of a file: its spectrum, its proteins, and what it is known by beyond its score. */
export interface FilePsm extends Psm<Proteins> {
  spectrum: SpectrumOf;
  /** The precursor's neutral mass at the PSM's charge, in Da (before the isotope error). */
  expMass: number;
  missedCleavages: number;
  /** Intensity of the spectrum's scored peaks, summed. */
  scoredIntensity: number;
}

/** A spectrum none of whose searches could be made, and why (too many peptides to examine, say). */
export interface Refused {
  spectrum: SpectrumOf;
  error: string;
}

/** One batch's outcome: the PSMs of its spectra in file order, the spectra refused, and candidates cut. */
export interface IdentifiedBatch {
  spectra: number;
  psms: FilePsm[];
  refused: Refused[];
  /** Candidates with more placements of their modifications than MAX_FORMS: only the first were scored. */
  cut: number;
}

/**
 * The spectra of an MGF file (read with their peaks) identified batch by batch, in file order: memory is bounded by
 * a batch's candidates. A spectrum without peaks, or without a PSM of `minMatched` ions, has no PSM.
 */
export async function* identifySpectra(
  dataset: Dataset,
  query: IdentifyQuery,
  items: AsyncIterable<MgfItem>,
  options: StreamOptions = {},
): AsyncGenerator<IdentifiedBatch> {
  const enzyme = ENZYMES[dataset.manifest.parameters.enzyme];
  for await (const batch of matchSpectra(dataset, query, items, options)) {
    const out: IdentifiedBatch = { spectra: batch.precursors.length, psms: [], refused: [], cut: 0 };
    const proteinsOf = (id: number): Proteins => {
      const ranks = batch.columns.accessionsOf(id);
      return {
        accessions: Array.from(ranks, (r) => batch.accessions.accession(r)),
        taxIds: Array.from(ranks, (r) => batch.accessions.taxId(r)),
      };
    };
    batch.precursors.forEach((precursor, i) => {
      const { peaks, ...spectrum } = precursor as Spectrum;
      const all = batch.searchIds(i);
      const searches: ScoredSearch<number>[] = all
        .filter((s) => s.error === undefined)
        .map((s) => ({
          charge: s.charge!,
          isotopeError: s.isotopeError ?? 0,
          candidates: s.candidates.map((id) => ({
            sequence: batch.columns.sequence(id),
            counts: batch.variableCounts(id),
            units: batch.columns.units(id),
            ref: id,
            ...(batch.startsProtein(id) && { startsProtein: true }),
          })),
        }));
      if (searches.length === 0 && all.length > 0) out.refused.push({ spectrum, error: all[0].error! });
      if (!peaks || peaks.mz.length === 0) return;
      const kept = topPeaks(peaks.mz, peaks.intensity, query.topPeaks, {
        mz: spectrum.mz,
        da: PRECURSOR_PEAK_RANGE,
      });
      const scoredIntensity = kept.intensity.reduce((sum, x) => sum + x, 0);
      for (const psm of scoreSpectrum(kept, searches, query, out)) {
        out.psms.push({
          ...psm,
          ref: proteinsOf(psm.ref),
          spectrum,
          expMass: neutralMass(spectrum.mz, psm.charge),
          missedCleavages: enzyme ? missedCleavages(psm.sequence, enzyme) : 0,
          scoredIntensity,
        });
      }
    });
    yield out;
  }
}

/**
 * How a file's spectra become identified batches, in file order, malformed records told: identifySpectra's way
 * unless the platform has another (lanes.ts).
 */
export type BatchSource = (
  items: AsyncIterable<MgfItem>,
  malformed: (m: Malformed) => void,
) => AsyncIterable<IdentifiedBatch>;

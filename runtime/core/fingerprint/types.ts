// What a fingerprint asks and answers: the peaks as given, the proteins and taxa that explain them, each with its
// score (the chance of matching so many peaks at random, −10·log10) and E-value.
import type { FilterSpec } from '../range/accessionFilter.js';
import type { PeakSearch } from './finds.js';
import type { PeakList } from './peakText.js';

/** What a peak's m/z is: a singly protonated peptide (MALDI), a neutral mass, or an ion of this charge. */
export type PeakIon = 'mh' | 'neutral' | number;

/** What a fingerprint asks. */
export interface FingerprintQuery extends PeakSearch {
  filter: FilterSpec;
  ion: PeakIon;
  /** Only the most intense peaks of each list (all when it gives no intensities). */
  topPeaks?: number;
  /** The taxon rank organisms are scored at (`species`). */
  rank: string;
  /** How many proteins and organisms each answer lists. */
  proteins: number;
  organisms: number;
}

/** A peak list to fingerprint, with a title when its file gives one. */
export interface NamedPeakList extends PeakList {
  title?: string;
}

/** A peak of an answer: as given, the neutral mass searched, and how many of the dataset's peptides fill its window. */
export interface FingerprintPeak {
  mz: number;
  intensity?: number;
  mass: number;
  inWindow: number;
  /** Why the peak was not searched (no positive mass, or too many peptides to examine). */
  error?: string;
  /** The peptide of the best-ranked listed protein that explains it. */
  explainedBy?: { accession: string; proforma: string };
}

/** A peptide explaining a peak: its modified mass and the peak's error from it. */
export interface PeptideMatch {
  peak: number;
  sequence: string;
  proforma: string;
  mass: number;
  errorPpm: number;
  errorDa: number;
}

/**
 * A protein's score against a peak list. Proteins are listed one at a time, each the most significant on the peaks
 * the proteins above it leave unexplained (listing.ts).
 */
export interface ProteinHit {
  accession: string;
  taxId: number;
  reviewed: boolean;
  /** Its peptides in the dataset, and the peaks they explain. */
  peptides: number;
  matched: number;
  /** −10·log10 of the chance of matching so many peaks at random, and the proteins expected to by chance. */
  score: number;
  expect: number;
  /** The peaks it explains that no protein above it does, and the score of those on the peaks left to it. */
  distinct: number;
  distinctScore: number;
  /** Proteins explaining exactly its peaks: these peaks cannot tell them apart. */
  sameSet: string[];
  matches: PeptideMatch[];
  /** The peaks it does not explain (indexes into the answer's peaks). */
  unmatched: number[];
  /**
   * Its residues and the share of them its matched peptides cover, with the runs covered ([from, to), 0-based):
   * present when the dataset holds its sequence (built with `--sequences`).
   */
  sequence?: string;
  length?: number;
  coverage?: number;
  covered?: [from: number, to: number][];
}

/** A taxon's score: the peaks explained by peptides found only at or below it. */
export interface TaxonHit {
  taxId: number;
  name: string;
  rank: string;
  /** Its own peptides in the dataset (found at or below it only), and the peaks they explain. */
  peptides: number;
  matched: number;
  score: number;
  expect: number;
  /** The peaks its own peptides explain, and its best-scored proteins. */
  peaks: number[];
  proteins: string[];
}

/** The answer for one peak list. */
export interface Fingerprint {
  title?: string;
  peaks: FingerprintPeak[];
  /** The proteins and taxa (at the query's rank) a match was possible for: what E-values count. */
  tested: { proteins: number; taxa?: number };
  proteins: ProteinHit[];
  /** Absent when the dataset has no taxonomy. */
  organisms?: TaxonHit[];
}

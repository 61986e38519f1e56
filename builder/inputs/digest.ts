// In-silico digestion: every distinct peptide of a protein with its exact mass and whether it starts the protein,
// by an enzyme of runtime/model/enzymes.ts at a specificity (full, semi, none), with or without the initiator Met.
import { RESIDUE_UNITS, WATER_UNITS } from '../../runtime/model/chemistry.js';
import { cleavageSites, ENZYMES, type Specificity } from '../../runtime/model/enzymes.js';
import { AT_INSIDE, AT_PROTEIN_START } from '../../runtime/model/proteinStarts.js';

export interface DigestOptions {
  enzyme: string;
  missedCleavages: number;
  minLength: number;
  maxLength: number;
  /** Which ends must be cleavage sites or protein termini: both (`full`, the default), one (`semi`), none. */
  specificity?: Specificity;
  /** Also digest each protein that starts with M as if its initiator Met were removed (position 1 a terminus). */
  clipMet?: boolean;
}

export const DEFAULT_DIGEST: Readonly<DigestOptions> = {
  enzyme: 'trypsin',
  missedCleavages: 2,
  minLength: 6,
  maxLength: 50,
};

export interface Peptide {
  sequence: string;
  /** Mass with water, in 1e-10 Da units. */
  units: number;
  /** AT_PROTEIN_START and/or AT_INSIDE: whether it starts the protein (or the protein without its Met), or not. */
  places: number;
}

/**
 * Every distinct peptide of `protein` (upper-case letters) with a length within [minLength, maxLength] and, unless
 * the specificity is `none`, at most missedCleavages enzyme sites inside it; peptides with a residue of undefined
 * mass (B, X, Z) are left out. `onPeptide` is called once per distinct sequence, in order of first appearance.
 */
export function digest(protein: string, options: DigestOptions, onPeptide: (p: Peptide) => void): void {
  const enzyme = ENZYMES[options.enzyme];
  if (!enzyme) throw new Error(`unknown enzyme "${options.enzyme}"`);
  const n = protein.length;
  const sites = cleavageSites(protein, enzyme);
  // Prefix sums of residue units and of undefined residues, so any piece is weighed in O(1).
  const prefixUnits = new Float64Array(n + 1);
  const prefixUndefined = new Uint32Array(n + 1);
  for (let i = 0; i < n; i++) {
    const units = RESIDUE_UNITS[protein.charCodeAt(i)] ?? -1;
    prefixUnits[i + 1] = prefixUnits[i] + Math.max(units, 0);
    prefixUndefined[i + 1] = prefixUndefined[i] + (units < 0 ? 1 : 0);
  }
  const clipped = options.clipMet === true && protein[0] === 'M' && n > 1;
  const specificity = options.specificity ?? 'full';
  const isSite = new Uint8Array(n + 1);
  for (const s of sites) isSite[s] = 1;
  /**
   * Whether the protein keeping its Met gives the piece starting at 1 too (ends and missed cleavages are the same
   * either way): when 1 is a site, or, semi-specifically, when its end is.
   */
  const keptWithMet = (end: number) =>
    specificity === 'none' || isSite[1] === 1 || (specificity === 'semi' && isSite[end] === 1);
  const found = new Map<string, Peptide>();
  const emit = (start: number, end: number) => {
    const length = end - start;
    if (length < options.minLength || prefixUndefined[end] !== prefixUndefined[start]) return;
    const sequence = protein.slice(start, end);
    const afterMet = clipped && start === 1;
    const place =
      start === 0 ? AT_PROTEIN_START : afterMet ? AT_PROTEIN_START | (keptWithMet(end) ? AT_INSIDE : 0) : AT_INSIDE;
    const known = found.get(sequence);
    if (known) known.places |= place;
    else found.set(sequence, { sequence, units: prefixUnits[end] - prefixUnits[start] + WATER_UNITS, places: place });
  };
  if (specificity === 'full') {
    // From each site (and from 1 when the Met is clipped) to each of the next missedCleavages + 1 sites.
    const starts = clipped && sites[1] !== 1 ? [0, 1, ...sites.slice(1)] : sites;
    for (let a = 0, b = 1; a < starts.length - 1; a++) {
      while (sites[b] <= starts[a]) b++;
      for (let c = b; c <= b + options.missedCleavages && c < sites.length; c++) {
        if (sites[c] - starts[a] > options.maxLength) break;
        emit(starts[a], sites[c]);
      }
    }
  } else {
    const isStart = isSite.slice();
    if (clipped) isStart[1] = 1;
    for (let start = 0; start < n; start++) {
      let inside = 0;
      for (let end = start + 1; end <= n && end - start <= options.maxLength; end++) {
        if (specificity === 'semi') {
          if (end - 1 > start && isSite[end - 1]) inside++;
          if (inside > options.missedCleavages) break;
          if (!isStart[start] && !isSite[end]) continue;
        }
        emit(start, end);
      }
    }
  }
  for (const peptide of found.values()) onPeptide(peptide);
}

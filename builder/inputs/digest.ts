// In-silico digestion: every distinct peptide of a protein with its exact mass, by an enzyme of runtime/model/enzymes.ts.
import { RESIDUE_UNITS, WATER_UNITS } from '../../runtime/model/chemistry.js';
import { cleavageSites, ENZYMES } from '../../runtime/model/enzymes.js';

export interface DigestOptions {
  enzyme: string;
  missedCleavages: number;
  minLength: number;
  maxLength: number;
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
}

/**
 * Every distinct peptide of `protein` (upper-case letters) with 0..missedCleavages missed sites and a length
 * within [minLength, maxLength]; peptides with a residue of undefined mass (B, X, Z) are left out.
 * `onPeptide` is called once per distinct sequence, in order of first appearance.
 */
export function digest(protein: string, options: DigestOptions, onPeptide: (p: Peptide) => void): void {
  const enzyme = ENZYMES[options.enzyme];
  if (!enzyme) throw new Error(`unknown enzyme "${options.enzyme}"`);
  const sites = cleavageSites(protein, enzyme);
  // Prefix sums of residue units and of undefined residues, so any piece is weighed in O(1).
  const n = protein.length;
  const prefixUnits = new Float64Array(n + 1);
  const prefixUndefined = new Uint32Array(n + 1);
  for (let i = 0; i < n; i++) {
    const units = RESIDUE_UNITS[protein.charCodeAt(i)] ?? -1;
    prefixUnits[i + 1] = prefixUnits[i] + Math.max(units, 0);
    prefixUndefined[i + 1] = prefixUndefined[i] + (units < 0 ? 1 : 0);
  }
  const seen = new Set<string>();
  for (let a = 0; a < sites.length - 1; a++) {
    for (let b = a + 1; b <= a + 1 + options.missedCleavages && b < sites.length; b++) {
      const start = sites[a];
      const end = sites[b];
      const length = end - start;
      if (length > options.maxLength) break;
      if (length < options.minLength || prefixUndefined[end] !== prefixUndefined[start]) continue;
      const sequence = protein.slice(start, end);
      if (seen.has(sequence)) continue;
      seen.add(sequence);
      onPeptide({ sequence, units: prefixUnits[end] - prefixUnits[start] + WATER_UNITS });
    }
  }
}

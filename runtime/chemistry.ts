// The chemistry, defined once for build and runtime: residue masses, enzyme rules, digestion, mass keys.

/**
 * Masses are integers in units of 1e-10 Da. Every residue mass below has at most 10 decimals, so sums are
 * exact (a 1,000-residue peptide stays far below 2^53 units): build and runtime agree to the last bit.
 */
export const UNITS_PER_DA = 10_000_000_000;

/** A mass key is a mass rounded half-up to 4 decimals, as an integer count of 0.0001 Da. */
export const UNITS_PER_KEY = 1_000_000;
export const KEYS_PER_DA = 10_000;

/** Monoisotopic residue masses in Da, written as exact decimal text. J has the I/L mass. */
export const RESIDUE_MASS_DA: Readonly<Record<string, string>> = {
  G: '57.02146372', A: '71.03711378', S: '87.03202840', P: '97.05276385', V: '99.06841391',
  T: '101.04767847', C: '103.00918478', L: '113.08406398', I: '113.08406398', J: '113.08406398',
  N: '114.04292744', D: '115.02694302', Q: '128.05857751', K: '128.09496301', E: '129.04259309',
  M: '131.04048491', H: '137.05891186', F: '147.06841391', R: '156.10111102', Y: '163.06332853',
  W: '186.07931295', U: '150.95363508', O: '237.14772686',
};

/** Residue letters that are valid in a protein but have no defined mass: peptides holding them are dropped. */
export const UNDEFINED_MASS_RESIDUES = 'BXZ';

export const WATER_MASS_DA = '18.0105646837';

/** Exact decimal text ("57.02146372") to integer mass units. */
export function daTextToUnits(text: string): number {
  const [whole, fraction = ''] = text.split('.');
  return Number(whole) * UNITS_PER_DA + Number(fraction.padEnd(10, '0'));
}

export const WATER_UNITS = daTextToUnits(WATER_MASS_DA);

/** Residue mass in units by char code (0..127); -1 where the letter has no defined mass. */
export const RESIDUE_UNITS: Float64Array = (() => {
  const table = new Float64Array(128).fill(-1);
  for (const [letter, da] of Object.entries(RESIDUE_MASS_DA)) table[letter.charCodeAt(0)] = daTextToUnits(da);
  return table;
})();

export interface Enzyme {
  /** Residues after which the enzyme cuts. */
  cleaveAfter: string;
  /** Residues that block the cut when they follow the site (the proline rule). */
  notBefore: string;
}

export const ENZYMES: Readonly<Record<string, Enzyme>> = {
  trypsin: { cleaveAfter: 'KR', notBefore: 'P' },
  'trypsin/p': { cleaveAfter: 'KR', notBefore: '' },
  'lys-c': { cleaveAfter: 'K', notBefore: '' },
  chymotrypsin: { cleaveAfter: 'FWY', notBefore: 'P' },
};

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

/** Where the enzyme cuts `protein`: 0, every position after a cut residue, and the protein's length. */
export function cleavageSites(protein: string, enzyme: Enzyme): number[] {
  const sites = [0];
  for (let i = 0; i < protein.length - 1; i++) {
    if (enzyme.cleaveAfter.includes(protein[i]) && !enzyme.notBefore.includes(protein[i + 1])) sites.push(i + 1);
  }
  if (protein.length > 0) sites.push(protein.length);
  return sites;
}

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
    prefixUnits[i + 1] = prefixUnits[i] + (units < 0 ? 0 : units);
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

/** Mass key of a mass in units: rounded half-up to 0.0001 Da, computed exactly on integers. */
export function massKey(units: number): number {
  const remainder = units % UNITS_PER_KEY;
  return (units - remainder) / UNITS_PER_KEY + (remainder >= UNITS_PER_KEY / 2 ? 1 : 0);
}

export type PeptideMass = { units: number } | { error: string; position: number; character: string };

/**
 * Mass (with water) of a peptide typed by a user: upper-case letters with a defined mass only.
 * Reports the first offending character and its 1-based position otherwise.
 */
export function peptideMass(sequence: string): PeptideMass {
  let units = WATER_UNITS;
  let position = 0;
  for (const character of sequence) {
    position++;
    const code = character.charCodeAt(0);
    const residue = character.length === 1 && code < 128 ? RESIDUE_UNITS[code] : -1;
    if (residue < 0) {
      const reason = UNDEFINED_MASS_RESIDUES.includes(character) ? 'has no defined mass' : 'is not an amino-acid letter';
      return { error: reason, position, character };
    }
    units += residue;
  }
  return { units };
}

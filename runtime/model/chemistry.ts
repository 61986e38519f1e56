// The chemistry as data, defined once for build and runtime: monoisotopic residue and water masses (with
// their sources) as exact integers, and the mass of a peptide typed by a user.

/**
 * Masses are integers in units of 1e-10 Da. Every residue mass below has at most 10 decimals, so sums are
 * exact (a 1,000-residue peptide stays far below 2^53 units): build and runtime agree to the last bit.
 */
export const UNITS_PER_DA = 10_000_000_000;

/**
 * Monoisotopic residue masses in Da (the amino acid less H2O), as exact decimal text: the elemental formula
 * beside each line summed with the isotope masses of NIST's "Atomic Weights and Isotopic Compositions"
 * (AME2003: 1H 1.00782503207, 12C 12, 14N 14.0030740048, 16O 15.99491461956, 32S 31.97207100,
 * 80Se 79.9165213) and rounded to 8 decimals. J is I-or-L and has their mass; B, X, Z have none (below).
 */
export const RESIDUE_MASS_DA: Readonly<Record<string, string>> = {
  G: '57.02146372', // C2H3NO
  A: '71.03711378', // C3H5NO
  S: '87.03202840', // C3H5NO2
  P: '97.05276385', // C5H7NO
  V: '99.06841391', // C5H9NO
  T: '101.04767847', // C4H7NO2
  C: '103.00918478', // C3H5NOS (unmodified cysteine)
  L: '113.08406398', // C6H11NO
  I: '113.08406398', // C6H11NO
  J: '113.08406398', // I or L
  N: '114.04292744', // C4H6N2O2
  D: '115.02694302', // C4H5NO3
  Q: '128.05857751', // C5H8N2O2
  K: '128.09496301', // C6H12N2O
  E: '129.04259309', // C5H7NO3
  M: '131.04048491', // C5H9NOS
  H: '137.05891186', // C6H7N3O
  F: '147.06841391', // C9H9NO
  R: '156.10111102', // C6H12N4O
  Y: '163.06332853', // C9H9NO2
  W: '186.07931295', // C11H10N2O
  U: '150.95363508', // C3H5NOSe (selenocysteine)
  O: '237.14772686', // C12H19N3O2 (pyrrolysine)
};

/** Residue letters that are valid in a protein but have no defined mass (B = D/N, Z = E/Q, X = any). */
export const UNDEFINED_MASS_RESIDUES = 'BXZ';

/** H2O (2 × 1H + 16O, same source), added once per peptide for its two termini. */
export const WATER_MASS_DA = '18.0105646837';

/** Exact decimal text ("57.02146372") to integer mass units. */
export function daTextToUnits(text: string): number {
  const [whole, fraction = ''] = text.split('.');
  return Number(whole) * UNITS_PER_DA + Number(fraction.padEnd(10, '0'));
}

export const WATER_UNITS = daTextToUnits(WATER_MASS_DA);

/** Proton mass in Da (CODATA 2018): a precursor of charge z at m/z weighs (m/z − proton) × z neutral. */
export const PROTON_MASS_DA = 1.007276466621;

/**
 * The spacing of a peptide's isotope peaks in Da, 13C − 12C (same source as the residues: 13.0033548378 − 12): a
 * precursor picked n peaks above its monoisotopic one weighs n spacings more.
 */
export const ISOTOPE_SPACING_DA = 1.0033548378;

/**
 * Neutral mass in Da of a precursor at `mz` with `charge` protons added (positive) or removed (negative, as
 * MGF's `3-`): (m/z − proton) × z, or (m/z + proton) × |z|.
 */
export const neutralMass = (mz: number, charge: number): number =>
  charge > 0 ? (mz - PROTON_MASS_DA) * charge : (mz + PROTON_MASS_DA) * -charge;

/** Residue mass in units by char code (0..127); -1 where the letter has no defined mass. */
export const RESIDUE_UNITS: Float64Array = (() => {
  const table = new Float64Array(128).fill(-1);
  for (const [letter, da] of Object.entries(RESIDUE_MASS_DA)) table[letter.charCodeAt(0)] = daTextToUnits(da);
  return table;
})();

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
      const reason = UNDEFINED_MASS_RESIDUES.includes(character)
        ? 'has no defined mass'
        : 'is not an amino-acid letter';
      return { error: reason, position, character };
    }
    units += residue;
  }
  return { units };
}

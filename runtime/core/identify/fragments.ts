// Fragment ions of a peptide: the m/z of each b ion (an N-terminal piece) and y ion (a C-terminal piece, with its
// water) at each fragment charge, from the residues' masses and the mass each position carries (its modification).
import { PROTON_MASS_DA, RESIDUE_UNITS, UNITS_PER_DA, WATER_UNITS } from '../../model/chemistry.js';

/** One fragment ion: b or y, how many residues it holds, its charge and m/z. */
export interface Fragment {
  kind: 'b' | 'y';
  residues: number;
  charge: number;
  mz: number;
}

/** What a peptide carries beyond its residues, in units (1e-10 Da): per residue, and on each terminus. */
export interface Carried {
  residues?: readonly number[];
  nTerm?: number;
  cTerm?: number;
}

/**
 * The b and y ions of `sequence` at charges 1..`maxCharge`: b_i holds residues 1..i and the N-terminal
 * modification, y_i residues n−i+1..n, the C-terminal modification and water, for 1 ≤ i < n; each ion's m/z is
 * (its mass + z × proton) / z. Ordered by kind, then size, then charge.
 */
export function fragmentIons(sequence: string, carried: Carried, maxCharge: number): Fragment[] {
  const n = sequence.length;
  const at = (i: number) => RESIDUE_UNITS[sequence.charCodeAt(i) & 127] + (carried.residues?.[i] ?? 0);
  const ions: Fragment[] = [];
  const push = (kind: 'b' | 'y', residues: number, units: number) => {
    for (let charge = 1; charge <= maxCharge; charge++)
      ions.push({ kind, residues, charge, mz: (units / UNITS_PER_DA + charge * PROTON_MASS_DA) / charge });
  };
  let b = carried.nTerm ?? 0;
  for (let i = 0; i < n - 1; i++) push('b', i + 1, (b += at(i)));
  let y = WATER_UNITS + (carried.cTerm ?? 0);
  for (let i = n - 1; i > 0; i--) push('y', n - i, (y += at(i)));
  return ions;
}

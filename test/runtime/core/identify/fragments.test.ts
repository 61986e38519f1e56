// Tests runtime/core/identify/fragments.ts against the ions written from their definitions with the tests' own
// residue table (test/helpers/reference.ts): for 10,000 random peptides with modifications on residues and termini,
// every b_i (residues 1..i and the N-terminal modification) and y_i (residues n−i+1..n, the C-terminal modification
// and water), at charges 1 to 3, as (M + z × proton) / z.
import { describe, expect, it } from 'vitest';
import { fragmentIons } from '../../../../runtime/core/identify/fragments.js';
import { decimalToUnits, REFERENCE_RESIDUE_MASS, REFERENCE_WATER } from '../../../helpers/reference.js';
import { REFERENCE_PROTON } from '../../../helpers/referencePrecursor.js';
import { prng } from '../../../helpers/prng.js';

const LETTERS = 'ACDEFGHIKLMNPQRSTVWY';
/** Unimod deltas as exact 1e-10 Da counts: Oxidation, Phospho, Carbamidomethyl, Acetyl, Deamidated, Gln->pyro-Glu. */
const DELTAS = [159949146000n, 799663310000n, 570214640000n, 420105650000n, 9840160000n, -170265490000n];

describe('fragmentIons', () => {
  it('gives every b and y ion of 10,000 random modified peptides at charges 1 to 3, as the definitions do', () => {
    const random = prng(45);
    const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
    let compared = 0;
    const wrong: string[] = [];
    for (let trial = 0; trial < 10_000; trial++) {
      const sequence = Array.from({ length: 6 + Math.floor(random() * 25) }, () => pick([...LETTERS])).join('');
      const residues = [...sequence].map(() => (random() < 0.15 ? pick(DELTAS) : 0n));
      const nTerm = random() < 0.2 ? pick(DELTAS) : 0n;
      const cTerm = random() < 0.1 ? pick(DELTAS) : 0n;
      const maxCharge = 1 + Math.floor(random() * 3);
      const got = fragmentIons(
        sequence,
        { residues: residues.map(Number), nTerm: Number(nTerm), cTerm: Number(cTerm) },
        maxCharge,
      );
      const mass = (i: number) => decimalToUnits(REFERENCE_RESIDUE_MASS[sequence[i]]) + residues[i];
      const expected: { kind: string; residues: number; charge: number; units: bigint }[] = [];
      const n = sequence.length;
      for (let i = 1; i < n; i++) {
        let units = nTerm;
        for (let r = 0; r < i; r++) units += mass(r);
        for (let z = 1; z <= maxCharge; z++) expected.push({ kind: 'b', residues: i, charge: z, units });
      }
      for (let i = 1; i < n; i++) {
        let units = cTerm + decimalToUnits(REFERENCE_WATER);
        for (let r = n - i; r < n; r++) units += mass(r);
        for (let z = 1; z <= maxCharge; z++) expected.push({ kind: 'y', residues: i, charge: z, units });
      }
      expect(got.length).toBe(expected.length);
      got.forEach((ion, k) => {
        const e = expected[k];
        const mz = (Number(e.units) / 1e10 + e.charge * REFERENCE_PROTON) / e.charge;
        if (
          ion.kind !== e.kind ||
          ion.residues !== e.residues ||
          ion.charge !== e.charge ||
          !(Math.abs(ion.mz - mz) < 1e-9)
        )
          wrong.push(
            `${sequence} ${e.kind}${e.residues}^${e.charge}: ${ion.kind}${ion.residues}^${ion.charge} ${ion.mz} ≠ ${mz}`,
          );
      });
      compared += got.length;
    }
    expect(wrong.slice(0, 5)).toEqual([]);
    expect(compared).toBeGreaterThan(500_000);
  });
});

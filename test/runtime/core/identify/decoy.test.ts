// Tests runtime/core/identify/decoy.ts: a decoy is its target reversed but for the C-terminal residue — the same
// residues, so the same mass, the same last residue (the cleavage site), each modification on the residue it was
// on — and reversing it again gives the target back; a target that is its own decoy has none.
import { describe, expect, it } from 'vitest';
import { decoyOf } from '../../../../runtime/core/identify/decoy.js';
import { peptideMass } from '../../../../runtime/model/chemistry.js';
import { prng } from '../../../helpers/prng.js';

const units = (sequence: string) => (peptideMass(sequence) as { units: number }).units;

describe('decoyOf', () => {
  it('reverses all but the last residue, modifications moving with their residues', () => {
    expect(
      decoyOf({
        sequence: 'PEPTIDEK',
        residues: [undefined, 'a', undefined, 'b', undefined, undefined, undefined, 'c'],
      }),
    ).toEqual({
      sequence: 'EDITPEPK',
      residues: [undefined, undefined, undefined, 'b', undefined, 'a', undefined, 'c'],
    });
  });

  it('keeps mass, composition and the C-terminal residue of random peptides, and is its own inverse', () => {
    const random = prng(46);
    for (let trial = 0; trial < 5000; trial++) {
      const sequence = Array.from(
        { length: 6 + Math.floor(random() * 20) },
        () => 'ACDEFGHIKLMNPQRSTVWY'[Math.floor(random() * 20)],
      ).join('');
      const residues = [...sequence].map((_, i) => (random() < 0.2 ? i : undefined));
      const decoy = decoyOf({ sequence, residues });
      if (!decoy) continue;
      expect(units(decoy.sequence)).toBe(units(sequence));
      expect([...decoy.sequence].sort()).toEqual([...sequence].sort());
      expect(decoy.sequence.at(-1)).toBe(sequence.at(-1));
      decoy.residues.forEach((m, i) => m !== undefined && expect(sequence[m]).toBe(decoy.sequence[i]));
      expect(decoyOf(decoy)).toEqual({ sequence, residues });
    }
  });

  it('gives none for a target that reads the same reversed but for its last residue', () => {
    expect(decoyOf({ sequence: 'ABCBAK', residues: [] })).toBeUndefined();
    expect(decoyOf({ sequence: 'ABCBAK', residues: ['x'] })).toBeDefined(); // the modification moves: another peptide
  });
});

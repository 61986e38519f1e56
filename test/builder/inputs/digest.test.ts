// Digestion edge cases of builder/inputs/digest.ts digest(): cleavage rules, missed cleavages, length bounds,
// undefined residues, duplicates; and a property test against the plain reference digestion.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { digest, type DigestOptions } from '../../../builder/inputs/digest.js';
import { ENZYMES } from '../../../runtime/model/enzymes.js';
import { massKey } from '../../../runtime/model/massKey.js';
import { peptideMass } from '../../../runtime/model/chemistry.js';
import { referenceDigest, referenceKey, referenceUnits, REFERENCE_ENZYMES } from '../../helpers/reference.js';

interface Emitted {
  sequence: string;
  units: number;
}

function run(protein: string, options: Partial<DigestOptions> = {}): Emitted[] {
  const emitted: Emitted[] = [];
  digest(protein, { enzyme: 'trypsin', missedCleavages: 0, minLength: 1, maxLength: 50, ...options }, (p) =>
    emitted.push(p),
  );
  return emitted;
}

/** Emitted sequences, sorted; fails when a sequence is emitted twice. */
function peptides(protein: string, options: Partial<DigestOptions> = {}): string[] {
  const sequences = run(protein, options).map((p) => p.sequence);
  expect(new Set(sequences).size).toBe(sequences.length);
  return sequences.sort();
}

const sorted = (list: string[]) => [...list].sort();

describe('trypsin and the proline rule', () => {
  it('trypsin does not cut K or R before P', () => {
    expect(peptides('GGGKPAAARPCCCKDDD')).toEqual(sorted(['GGGKPAAARPCCCK', 'DDD']));
  });

  it('trypsin/p cuts K and R before P too', () => {
    expect(peptides('GGGKPAAARPCCCKDDD', { enzyme: 'trypsin/p' })).toEqual(sorted(['GGGK', 'PAAAR', 'PCCCK', 'DDD']));
  });

  it('trypsin cuts after K and R followed by anything but P', () => {
    expect(peptides('AAKCCRDDKEERFFKGG')).toEqual(sorted(['AAK', 'CCR', 'DDK', 'EER', 'FFK', 'GG']));
  });
});

describe('consecutive sites (KK, RR)', () => {
  it('give one-residue pieces, never empty ones', () => {
    expect(peptides('AAKKCCRRDD')).toEqual(sorted(['AAK', 'K', 'CCR', 'R', 'DD']));
    expect(peptides('AAKKCCRRDD', { minLength: 0 })).toEqual(sorted(['AAK', 'K', 'CCR', 'R', 'DD']));
  });

  it('short pieces fall under minLength', () => {
    expect(peptides('AAKKCCRRDD', { minLength: 2 })).toEqual(sorted(['AAK', 'CCR', 'DD']));
  });

  it('join their neighbours when missed', () => {
    expect(peptides('AAKKCCRRDD', { missedCleavages: 1 })).toEqual(
      sorted(['AAK', 'K', 'CCR', 'R', 'DD', 'AAKK', 'KCCR', 'CCRR', 'RDD']),
    );
  });

  it('a run of K gives K, KK, KKK... once each', () => {
    expect(peptides('KKKK', { missedCleavages: 3, minLength: 0 })).toEqual(['K', 'KK', 'KKK', 'KKKK']);
    expect(peptides('KKKK', { missedCleavages: 1 })).toEqual(['K', 'KK']);
  });
});

describe('protein termini', () => {
  it('keeps the N-terminal and the C-terminal pieces', () => {
    expect(peptides('MSTVKAAGGRLLNPE')).toEqual(sorted(['MSTVK', 'AAGGR', 'LLNPE']));
    expect(peptides('MSTVKAAGGRLLNPE', { missedCleavages: 2 })).toEqual(
      sorted(['MSTVK', 'AAGGR', 'LLNPE', 'MSTVKAAGGR', 'AAGGRLLNPE', 'MSTVKAAGGRLLNPE']),
    );
  });

  it('a site at the last residue adds no empty piece; one at the first gives a 1-residue piece', () => {
    expect(peptides('AAAAK', { minLength: 0, missedCleavages: 3 })).toEqual(['AAAAK']);
    expect(peptides('RAAAA', { minLength: 0, missedCleavages: 3 })).toEqual(sorted(['R', 'AAAA', 'RAAAA']));
  });

  it('a protein without sites is one peptide; an empty protein none', () => {
    expect(peptides('ACDEFGHILMN', { missedCleavages: 2 })).toEqual(['ACDEFGHILMN']);
    expect(peptides('', { minLength: 0 })).toEqual([]);
  });
});

describe('missed cleavages', () => {
  const pieces = ['GGK', 'AAR', 'CCK', 'DDR', 'EEH'];
  const protein = pieces.join('');
  /** All runs of 1..n+1 consecutive pieces. */
  const runs = (n: number) => {
    const out: string[] = [];
    for (let i = 0; i < pieces.length; i++)
      for (let j = i; j <= i + n && j < pieces.length; j++) out.push(pieces.slice(i, j + 1).join(''));
    return out.sort();
  };
  // 5 pieces: 5 runs of 1, 4 of 2, 3 of 3, 2 of 4, 1 of 5.
  const counts = [5, 9, 12, 14];

  for (const n of [0, 1, 2, 3]) {
    it(`${n} missed: every peptide with 0..${n} missed sites, exactly`, () => {
      const got = peptides(protein, { missedCleavages: n });
      expect(got).toEqual(runs(n));
      expect(got).toHaveLength(counts[n]);
      const missedSites = (p: string) => [...p.slice(0, -1)].filter((r) => r === 'K' || r === 'R').length;
      expect(Math.max(...got.map(missedSites))).toBe(n);
    });
  }

  it('0 missed gives the pieces themselves', () => {
    expect(peptides(protein)).toEqual(sorted(pieces));
  });

  it('more missed cleavages than sites gives the whole protein at most', () => {
    expect(peptides(protein, { missedCleavages: 10 })).toEqual(runs(4));
    expect(peptides(protein, { missedCleavages: 10 })).toContain(protein);
  });
});

describe('length bounds are inclusive', () => {
  // Pieces of length 5, 6, 7 and 8.
  const protein = 'AAAAK' + 'CCCCCK' + 'DDDDDDK' + 'EEEEEEEK';

  it('minLength 6 and maxLength 7 keep lengths 6 and 7 only', () => {
    expect(peptides(protein, { minLength: 6, maxLength: 7 })).toEqual(sorted(['CCCCCK', 'DDDDDDK']));
    expect(peptides(protein, { minLength: 6, maxLength: 7, missedCleavages: 2 })).toEqual(
      sorted(['CCCCCK', 'DDDDDDK']),
    );
  });

  it('minLength = maxLength keeps that length only', () => {
    expect(peptides(protein, { minLength: 8, maxLength: 8 })).toEqual(['EEEEEEEK']);
    expect(peptides(protein, { minLength: 11, maxLength: 11, missedCleavages: 1 })).toEqual(['AAAAKCCCCCK']);
    expect(peptides(protein, { minLength: 12, maxLength: 12, missedCleavages: 1 })).toEqual([]);
  });

  it('the upper bound applies to joined pieces', () => {
    expect(peptides(protein, { minLength: 1, maxLength: 13, missedCleavages: 1 })).toEqual(
      sorted(['AAAAK', 'CCCCCK', 'DDDDDDK', 'EEEEEEEK', 'AAAAKCCCCCK', 'CCCCCKDDDDDDK']),
    );
  });

  it('defaults 6..50: a 50-residue peptide is kept, a 51-residue one dropped', () => {
    const fifty = 'A'.repeat(49) + 'K';
    const fiftyOne = 'G'.repeat(50) + 'K';
    expect(peptides(fifty + fiftyOne, { minLength: 6, maxLength: 50, missedCleavages: 2 })).toEqual([fifty]);
  });
});

describe('residues', () => {
  it('drops peptides holding B, X or Z, keeps the rest', () => {
    const protein = 'AAAAAAK' + 'DDDDDDR' + 'CCBCCCK' + 'EEXEEEK' + 'GGGZGGR' + 'HHHHHH';
    expect(peptides(protein, { missedCleavages: 1 })).toEqual(
      sorted(['AAAAAAK', 'DDDDDDR', 'HHHHHH', 'AAAAAAKDDDDDDR']),
    );
  });

  it('J has the I/L mass', () => {
    const [j] = run('AAAJAAK');
    const [i] = run('AAAIAAK');
    const [l] = run('AAALAAK');
    expect(j.sequence).toBe('AAAJAAK');
    expect(j.units).toBe(i.units);
    expect(j.units).toBe(l.units);
  });

  it('U and O are kept with their masses', () => {
    const got = run('AAUAAKGGOGGR', { minLength: 1 });
    expect(got.map((p) => p.sequence)).toEqual(['AAUAAK', 'GGOGGR']);
    for (const p of got) expect(p.units).toBe(referenceUnits(p.sequence));
  });

  it('each emitted mass is the peptide mass (with water)', () => {
    for (const p of run('MSTVKAAGGRLLNPEWYUOJ', { missedCleavages: 2 })) {
      expect(p.units).toBe((peptideMass(p.sequence) as { units: number }).units);
      expect(p.units).toBe(referenceUnits(p.sequence));
    }
  });
});

describe('enzymes', () => {
  it('lys-c cuts after K only, also before P', () => {
    expect(peptides('AAAKCCRDDDKPEE', { enzyme: 'lys-c' })).toEqual(sorted(['AAAK', 'CCRDDDK', 'PEE']));
  });

  it('chymotrypsin cuts after F, W, Y but not before P', () => {
    expect(peptides('AAFCCWDDYPEEYGGLKRM', { enzyme: 'chymotrypsin' })).toEqual(
      sorted(['AAF', 'CCW', 'DDYPEEY', 'GGLKRM']),
    );
  });

  it('an unknown enzyme is an error', () => {
    expect(() => run('AAAK', { enzyme: 'pepsin' })).toThrow(/pepsin/);
  });

  it('the enzyme table is exactly trypsin, trypsin/p, lys-c, chymotrypsin', () => {
    expect(Object.keys(ENZYMES).sort()).toEqual(['chymotrypsin', 'lys-c', 'trypsin', 'trypsin/p']);
  });
});

describe('duplicates', () => {
  it('a peptide repeated within a protein is emitted once', () => {
    const got = run('AAAAAAKAAAAAAKAAAAAAK', { missedCleavages: 1 }).map((p) => p.sequence);
    expect(got).toEqual(['AAAAAAK', 'AAAAAAKAAAAAAK']);
  });

  it('peptides come in order of first appearance', () => {
    expect(run('CCCKAAAKCCCK').map((p) => p.sequence)).toEqual(['CCCK', 'AAAK']);
  });
});

describe('digest agrees with the reference digestion on random proteins', () => {
  it('for every enzyme, missed cleavages 0..3 and random length bounds', () => {
    const protein = fc.string({ unit: fc.constantFrom(...'ACDEFGKKRRPPWYBXZJUO'), minLength: 0, maxLength: 80 });
    fc.assert(
      fc.property(
        protein,
        fc.constantFrom(...Object.keys(REFERENCE_ENZYMES)),
        fc.integer({ min: 0, max: 3 }),
        fc.integer({ min: 1, max: 10 }),
        fc.integer({ min: 0, max: 40 }),
        (sequence, enzyme, missed, min, extra) => {
          const got = run(sequence, { enzyme, missedCleavages: missed, minLength: min, maxLength: min + extra });
          const expected = referenceDigest(sequence, REFERENCE_ENZYMES[enzyme], missed, min, min + extra);
          expect(got.map((p) => p.sequence).sort()).toEqual([...expected].sort());
          for (const p of got) {
            expect(p.units).toBe(referenceUnits(p.sequence));
            expect(massKey(p.units)).toBe(referenceKey(p.units));
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});

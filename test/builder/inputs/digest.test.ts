// Digestion by builder/inputs/digest.ts digest(): each enzyme's rule, missed cleavages, length bounds, undefined
// residues, duplicates, semi- and non-specific cleavage, initiator Met clipping and where each peptide lies (places),
// with expectations worked out by hand from the rules; and every enzyme x specificity x missed cleavages x Met
// clipping on random proteins against the brute-force reference of test/helpers/reference.ts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { digest, type DigestOptions } from '../../../builder/inputs/digest.js';
import { AT_INSIDE, AT_PROTEIN_START } from '../../../runtime/model/proteinStarts.js';
import { ENZYMES } from '../../../runtime/model/enzymes.js';
import { massKey } from '../../../runtime/model/massKey.js';
import { peptideMass } from '../../../runtime/model/chemistry.js';
import {
  REFERENCE_AT_START,
  REFERENCE_ENZYMES,
  REFERENCE_INSIDE,
  referenceDigest,
  referenceKey,
  referencePeptides,
  referenceUnits,
} from '../../helpers/reference.js';

interface Emitted {
  sequence: string;
  units: number;
  places: number;
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

describe('enzymes, each by its PSI-MS rule (0 missed cleavages: the pieces)', () => {
  // [enzyme, protein, pieces]: each protein puts the enzyme's residues before P and before other residues.
  const cases: [string, string, string[]][] = [
    // (?<=[KR])(?!P)
    ['trypsin', 'GGKPAARCCKDD', ['GGKPAAR', 'CCK', 'DD']],
    // (?<=[KR])
    ['trypsin/p', 'GGKPAARCCKDD', ['GGK', 'PAAR', 'CCK', 'DD']],
    // (?<=R)(?!P): K is no site
    ['arg-c', 'AAKCCRPDDREE', ['AAKCCRPDDR', 'EE']],
    // (?<=R)
    ['arg-c/p', 'AAKCCRPDDREE', ['AAKCCR', 'PDDR', 'EE']],
    // (?=[BD]): before D, P after it or not
    ['asp-n', 'AADCCEDPDGG', ['AA', 'DCCE', 'DP', 'DGG']],
    // (?<=[FYWL])(?!P): M and I are no sites
    ['chymotrypsin', 'AAFCCWDDYPEEYGGLKRMIHH', ['AAF', 'CCW', 'DDYPEEY', 'GGL', 'KRMIHH']],
    // (?<=[FYWL])
    ['chymotrypsin/p', 'AAFCCWDDYPEEYGGLKRMIHH', ['AAF', 'CCW', 'DDY', 'PEEY', 'GGL', 'KRMIHH']],
    // (?<=M), before P too
    ['cnbr', 'AAMCCMPDDM', ['AAM', 'CCM', 'PDDM']],
    // (?<=[BDEZ])(?!P)
    ['glu-c', 'AADCCEPGGEHHDD', ['AAD', 'CCEPGGE', 'HHD', 'D']],
    // (?<=[EZ])(?!P): D is no site
    ['glu-c/e', 'AADCCEPGGEHHDD', ['AADCCEPGGE', 'HHDD']],
    // (?<=K)(?!P): R is no site
    ['lys-c', 'AAAKCCRDDDKPEE', ['AAAK', 'CCRDDDKPEE']],
    // (?<=K)
    ['lys-c/p', 'AAAKCCRDDDKPEE', ['AAAK', 'CCRDDDK', 'PEE']],
    // (?=K): before K, P after it or not; R is no site
    ['lys-n', 'AAKCCKPRKDD', ['AA', 'KCC', 'KPR', 'KDD']],
    // (?<=[FL]), before P too: Y, W and I are no sites
    ['pepsina', 'AAFCCLPGGYWII', ['AAF', 'CCL', 'PGGYWII']],
  ];
  for (const [enzyme, protein, pieces] of cases) {
    it(`${enzyme} cuts ${protein} into ${pieces.join(' ')}`, () => {
      expect(peptides(protein, { enzyme })).toEqual(sorted(pieces));
    });
  }

  it("the cases above name every enzyme of the table, which is exactly the reference's", () => {
    const names = Object.keys(ENZYMES).sort();
    expect(names).toEqual(
      sorted([
        'trypsin',
        'trypsin/p',
        'arg-c',
        'arg-c/p',
        'asp-n',
        'chymotrypsin',
        'chymotrypsin/p',
        'cnbr',
        'glu-c',
        'glu-c/e',
        'lys-c',
        'lys-c/p',
        'lys-n',
        'pepsina',
      ]),
    );
    expect(sorted(cases.map(([enzyme]) => enzyme))).toEqual(names);
    expect(Object.keys(REFERENCE_ENZYMES).sort()).toEqual(names);
  });

  it('the ambiguity codes B (D/N) and Z (E/Q) never cut', () => {
    // Were B a site, asp-n would give AA and glu-c CCD; were Z one, glu-c and glu-c/e would give CCE.
    expect(peptides('AABCCDEE', { enzyme: 'asp-n' })).toEqual(['DEE']);
    expect(peptides('AABCCDEE', { enzyme: 'glu-c' })).toEqual(['E']);
    expect(peptides('AAZCCEGG', { enzyme: 'glu-c' })).toEqual(['GG']);
    expect(peptides('AAZCCEGG', { enzyme: 'glu-c/e' })).toEqual(['GG']);
  });

  it('the ambiguity code J (I or L) never cuts', () => {
    for (const enzyme of ['chymotrypsin', 'chymotrypsin/p', 'pepsina'])
      expect(peptides('AAJCCFGG', { enzyme }), enzyme).toEqual(sorted(['AAJCCF', 'GG']));
  });

  it('the ambiguity code X (any) never cuts, and is no P after a site', () => {
    expect(peptides('AAXCCKXGGKDD', { enzyme: 'trypsin/p' })).toEqual(['DD']);
    expect(peptides('AAKXCCKGG')).toEqual(sorted(['AAK', 'GG']));
    expect(peptides('AAXCCKGG', { enzyme: 'lys-n' })).toEqual(['KGG']);
  });

  it('an unknown enzyme is an error', () => {
    expect(() => run('AAAK', { enzyme: 'pepsin' })).toThrow(/pepsin/);
  });
});

describe('semi-specific cleavage: one end at least at a site or a protein terminus', () => {
  // AAK|CCR: the site is at 3; starts may be 0 and 3, ends 3 and 6.
  it('0 missed cleavages: every piece of one side, no site inside', () => {
    expect(peptides('AAKCCR', { specificity: 'semi' })).toEqual(
      sorted(['A', 'AA', 'AAK', 'AK', 'K', 'C', 'CC', 'CCR', 'CR', 'R']),
    );
  });

  it('1 missed cleavage adds those across the site with one end at a terminus', () => {
    expect(peptides('AAKCCR', { specificity: 'semi', missedCleavages: 1 })).toEqual(
      sorted(['A', 'AA', 'AAK', 'AK', 'K', 'C', 'CC', 'CCR', 'CR', 'R', 'AAKC', 'AAKCC', 'AAKCCR', 'AKCCR', 'KCCR']),
    );
  });

  it('neither end at a site, or a site inside beyond the missed cleavages: left out', () => {
    // GGK|ACDEFR|CC: sites at 3 and 9. Of the 3-residue pieces, GGK, ACD and EFR have an end at a site; GKA, KAC,
    // CDE and DEF none; FRC none and the site at 9 inside; RCC ends at the C-terminus, the site at 9 inside.
    expect(peptides('GGKACDEFRCC', { specificity: 'semi', minLength: 3, maxLength: 3 })).toEqual(
      sorted(['GGK', 'ACD', 'EFR']),
    );
    expect(peptides('GGKACDEFRCC', { specificity: 'semi', minLength: 3, maxLength: 3, missedCleavages: 1 })).toEqual(
      sorted(['GGK', 'ACD', 'EFR', 'RCC']),
    );
  });

  it('includes the fully specific peptides', () => {
    const protein = 'MSTVKAAGGRLLNPEWYKRDDK';
    for (const missedCleavages of [0, 1, 2]) {
      const semi = peptides(protein, { specificity: 'semi', missedCleavages });
      for (const p of peptides(protein, { missedCleavages })) expect(semi).toContain(p);
    }
  });
});

describe('non-specific cleavage: every sub-sequence within the length range', () => {
  it('every sub-sequence, sites inside or not', () => {
    expect(peptides('AKRD', { specificity: 'none', missedCleavages: 0 })).toEqual(
      sorted(['A', 'K', 'R', 'D', 'AK', 'KR', 'RD', 'AKR', 'KRD', 'AKRD']),
    );
  });

  it('the length range bounds it; repeats are one peptide', () => {
    expect(peptides('AAAAA', { specificity: 'none', minLength: 2, maxLength: 3 })).toEqual(['AA', 'AAA']);
    expect(peptides('ACDEF', { specificity: 'none', minLength: 4, maxLength: 4 })).toEqual(['ACDE', 'CDEF']);
  });

  it('still leaves out peptides with B, X or Z', () => {
    expect(peptides('ABC', { specificity: 'none' })).toEqual(['A', 'C']);
  });
});

describe('initiator Met clipping', () => {
  // M|AAK|CC: trypsin's site is at 4; with the Met clipped, 1 is a protein N-terminus too.
  it('full: the first pieces also without the Met', () => {
    expect(peptides('MAAKCC')).toEqual(sorted(['MAAK', 'CC']));
    expect(peptides('MAAKCC', { clipMet: true })).toEqual(sorted(['MAAK', 'AAK', 'CC']));
    expect(peptides('MAAKCC', { clipMet: true, missedCleavages: 1 })).toEqual(
      sorted(['MAAK', 'AAK', 'CC', 'MAAKCC', 'AAKCC']),
    );
  });

  it('a protein not starting with M is unchanged', () => {
    expect(peptides('AMAKCC', { clipMet: true })).toEqual(sorted(['AMAK', 'CC']));
  });

  it('the Met alone is no peptide (residue 1 is an N-terminus, not a C-terminus)', () => {
    expect(peptides('MAAKCC', { clipMet: true, minLength: 1 })).not.toContain('M');
    expect(peptides('M', { clipMet: true })).toEqual(['M']);
  });

  it('semi: peptides starting at residue 1 count as starting at a terminus', () => {
    // MAAAAK|CC: site at 6 (inside AKC and KCC); AAA at 1..4 is semi only as a start after the Met.
    expect(peptides('MAAAAKCC', { specificity: 'semi', minLength: 3, maxLength: 3 })).toEqual(sorted(['MAA', 'AAK']));
    expect(peptides('MAAAAKCC', { specificity: 'semi', minLength: 3, maxLength: 3, clipMet: true })).toEqual(
      sorted(['MAA', 'AAA', 'AAK']),
    );
  });
});

describe('places: whether each peptide starts its protein (at residue 0, or 1 with the Met clipped) or lies inside', () => {
  const placesOf = (protein: string, options: Partial<DigestOptions> = {}) =>
    Object.fromEntries(run(protein, options).map((p) => [p.sequence, p.places]));

  it('the first piece starts the protein, the rest lie inside', () => {
    expect(AT_PROTEIN_START).toBe(1);
    expect(AT_INSIDE).toBe(2);
    expect(placesOf('MAAKCCRDD')).toEqual({ MAAK: 1, CCR: 2, DD: 2 });
  });

  it('a peptide both at the start and inside has both', () => {
    expect(placesOf('AAAAAAKAAAAAAKCC')).toEqual({ AAAAAAK: 3, CC: 2 });
  });

  it('with the Met clipped, peptides at residue 1 start the protein', () => {
    expect(placesOf('MAAKCC', { clipMet: true })).toEqual({ MAAK: 1, AAK: 1, CC: 2 });
    // CNBr cuts after the Met anyway: AAM lies inside the protein keeping it, and starts the one without it.
    expect(placesOf('MAAMCC', { enzyme: 'cnbr' })).toEqual({ M: 1, AAM: 2, CC: 2 });
    expect(placesOf('MAAMCC', { enzyme: 'cnbr', clipMet: true })).toEqual({ M: 1, AAM: 3, CC: 2 });
  });

  it('semi and none: every peptide from residue 0 starts the protein; one from residue 1 after a clipped Met also lies inside', () => {
    expect(placesOf('AKA', { specificity: 'none' })).toEqual({ A: 3, AK: 1, AKA: 1, K: 2, KA: 2 });
    expect(placesOf('MKM', { specificity: 'none', clipMet: true })).toEqual({ M: 3, MK: 1, MKM: 1, K: 3, KM: 3 });
    // Semi: ACC ends at no site, so only the protein without its Met (from its N-terminus) gives it; ACCK both.
    expect(placesOf('MACCK', { specificity: 'semi', clipMet: true, minLength: 3 })).toMatchObject({ ACC: 1, ACCK: 3 });
    expect(placesOf('AKCCK', { specificity: 'semi' })).toEqual({ A: 1, AK: 1, K: 2, C: 2, CC: 2, CCK: 2, CK: 2 });
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

describe('the brute-force reference', () => {
  it('with the Met clipped, holds the peptides of the protein and of the protein without its Met', () => {
    const protein = fc.string({ unit: fc.constantFrom(...'ACDEFKRPMWYL'), minLength: 1, maxLength: 40 });
    fc.assert(
      fc.property(
        protein,
        fc.constantFrom(...Object.keys(REFERENCE_ENZYMES)),
        fc.constantFrom('full' as const, 'semi' as const, 'none' as const),
        fc.integer({ min: 0, max: 3 }),
        fc.integer({ min: 1, max: 5 }),
        (tail, enzyme, specificity, missed, min) => {
          const sequence = `M${tail}`;
          const rule = REFERENCE_ENZYMES[enzyme];
          const clipped = referenceDigest(sequence, rule, missed, min, min + 10, { specificity, clipMet: true });
          const union = new Set([
            ...referenceDigest(sequence, rule, missed, min, min + 10, { specificity }),
            ...referenceDigest(tail, rule, missed, min, min + 10, { specificity }),
          ]);
          expect([...clipped].sort()).toEqual([...union].sort());
        },
      ),
      { numRuns: 300 },
    );
  });

  it('its places bits are the ones of builder/inputs/digest.ts', () => {
    expect([REFERENCE_AT_START, REFERENCE_INSIDE]).toEqual([AT_PROTEIN_START, AT_INSIDE]);
  });
});

describe('digest agrees with the brute-force reference on random proteins', () => {
  // The 20 standard residues, the enzymes' residues again (more sites), the ambiguity codes and U, O.
  const residues = 'ACDEFGHIKLMNPQRSTVWY' + 'KRDEFLWYMPK' + 'BJXZUO';
  const protein = fc
    .tuple(fc.boolean(), fc.string({ unit: fc.constantFrom(...residues), minLength: 0, maxLength: 60 }))
    .map(([met, rest]) => (met ? `M${rest}` : rest));
  for (const enzyme of Object.keys(REFERENCE_ENZYMES)) {
    it(`${enzyme}: full, semi and none x 0..3 missed cleavages x Met kept or clipped, random length bounds`, () => {
      for (const specificity of ['full', 'semi', 'none'] as const)
        for (const missed of [0, 1, 2, 3])
          for (const clipMet of [false, true])
            fc.assert(
              fc.property(
                protein,
                fc.integer({ min: 1, max: 8 }),
                fc.integer({ min: 0, max: 30 }),
                (sequence, min, extra) => {
                  const options = { specificity, clipMet };
                  const got = run(sequence, {
                    enzyme,
                    missedCleavages: missed,
                    minLength: min,
                    maxLength: min + extra,
                    ...options,
                  });
                  const expected = referencePeptides(
                    sequence,
                    REFERENCE_ENZYMES[enzyme],
                    missed,
                    min,
                    min + extra,
                    options,
                  );
                  expect(got.map((p) => [p.sequence, p.places]).sort()).toEqual([...expected].sort());
                  for (const p of got) {
                    expect(p.units).toBe(referenceUnits(p.sequence));
                    expect(massKey(p.units)).toBe(referenceKey(p.units));
                  }
                },
              ),
              { numRuns: 40 },
            );
    });
  }
});

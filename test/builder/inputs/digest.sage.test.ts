// Sage's own digestion tests (lazear/sage, crates/sage/src/enzyme.rs at commit 0639176e58b788a35c0b163e9cfdbdbede0e99c2,
// MIT licence): each published protein, enzyme, bounds and expected peptides, asked of builder/inputs/digest.ts. Sage
// lists peptides in its own generation order; the peptide sets are compared. Sage's enzymes are given by its rule
// (cleave at, restrict, C-terminal) and map to ours: KR/P trypsin, KR trypsin/p, D N-terminal asp-n, FYWL
// chymotrypsin/p (ours adds J, which the sequences do not hold), none our specificity none.
import { describe, expect, it } from 'vitest';
import { digest, type DigestOptions } from '../../../builder/inputs/digest.js';

const PROTEIN = 'MADEEKLPPGWEKRMSRSSGRVYYFNHITNASQWERPSGN';

const peptides = (protein: string, options: Partial<DigestOptions>) => {
  const out: string[] = [];
  digest(protein, { enzyme: 'trypsin', missedCleavages: 0, minLength: 1, maxLength: 50, ...options }, (p) =>
    out.push(p.sequence),
  );
  return out.sort();
};
const sorted = (list: string[]) => [...new Set(list)].sort();
/** Sage's peptides of PROTEIN with trypsin and up to 1 missed cleavage (its test lists them again for 2). */
const MISSED_1 = [
  'MADEEK',
  'LPPGWEK',
  'R',
  'MSR',
  'SSGR',
  'VYYFNHITNASQWERPSGN',
  'MADEEKLPPGWEK',
  'LPPGWEKR',
  'RMSR',
  'MSRSSGR',
  'SSGRVYYFNHITNASQWERPSGN',
];

describe("Sage's digestion tests", () => {
  it('trypsin', () => {
    expect(peptides(PROTEIN, { minLength: 2 })).toEqual(
      sorted(['MADEEK', 'LPPGWEK', 'MSR', 'SSGR', 'VYYFNHITNASQWERPSGN']),
    );
  });

  it('trypsin, 1 missed cleavage', () => {
    expect(peptides(PROTEIN, { minLength: 0, missedCleavages: 1 })).toEqual(sorted(MISSED_1));
  });

  it('trypsin, 2 missed cleavages', () => {
    expect(peptides(PROTEIN, { minLength: 0, missedCleavages: 2 })).toEqual(
      sorted([...MISSED_1, 'MADEEKLPPGWEKR', 'LPPGWEKRMSR', 'RMSRSSGR', 'MSRSSGRVYYFNHITNASQWERPSGN']),
    );
  });

  it('trypsin without the proline rule', () => {
    expect(peptides(PROTEIN, { enzyme: 'trypsin/p', minLength: 2 })).toEqual(
      sorted(['MADEEK', 'LPPGWEK', 'MSR', 'SSGR', 'VYYFNHITNASQWER', 'PSGN']),
    );
  });

  it('Asp-N', () => {
    expect(peptides(`${PROTEIN}W`, { enzyme: 'asp-n' })).toEqual(
      sorted(['MA', 'DEEKLPPGWEKRMSRSSGRVYYFNHITNASQWERPSGNW']),
    );
  });

  it('chymotrypsin without the proline rule', () => {
    expect(peptides(`${PROTEIN}W`, { enzyme: 'chymotrypsin/p' })).toEqual(
      sorted(['MADEEKL', 'PPGW', 'EKRMSRSSGRVY', 'Y', 'F', 'NHITNASQW', 'ERPSGNW']),
    );
  });

  it('non-specific, 5 and 5 to 7 residues', () => {
    const windows = (lengths: number[]) =>
      sorted(
        lengths.flatMap((n) => Array.from({ length: PROTEIN.length + 2 - n }, (_, i) => `${PROTEIN}W`.slice(i, i + n))),
      );
    expect(peptides(`${PROTEIN}W`, { specificity: 'none', minLength: 5, maxLength: 5 })).toEqual(windows([5]));
    expect(peptides(`${PROTEIN}W`, { specificity: 'none', minLength: 5, maxLength: 7 })).toEqual(windows([5, 6, 7]));
  });

  it('each peptide once', () => {
    expect(peptides('KVEGAQNQGKKVEGAQNQGK', { enzyme: 'trypsin/p', minLength: 2 })).toEqual(['VEGAQNQGK']);
  });

  it('semi-specific trypsin', () => {
    expect(peptides('MADEEK', { specificity: 'semi', minLength: 2 })).toEqual(
      sorted(['MADEEK', 'ADEEK', 'MA', 'DEEK', 'MAD', 'EEK', 'MADE', 'EK', 'MADEE']),
    );
  });

  it('semi-specific trypsin, 1 missed cleavage', () => {
    expect(peptides('MADEEKLPPGWEK', { specificity: 'semi', minLength: 3, missedCleavages: 1 })).toEqual(
      sorted([
        'MADEEK',
        'LPPGWEK',
        'MADEEKLPPGWEK',
        'ADEEK',
        'DEEK',
        'MAD',
        'EEK',
        'MADE',
        'MADEE',
        'PPGWEK',
        'PGWEK',
        'LPP',
        'GWEK',
        'LPPG',
        'WEK',
        'LPPGW',
        'LPPGWE',
        'ADEEKLPPGWEK',
        'DEEKLPPGWEK',
        'EEKLPPGWEK',
        'EKLPPGWEK',
        'KLPPGWEK',
        'MADEEKL',
        'MADEEKLP',
        'MADEEKLPP',
        'MADEEKLPPG',
        'MADEEKLPPGW',
        'MADEEKLPPGWE',
      ]),
    );
  });
});

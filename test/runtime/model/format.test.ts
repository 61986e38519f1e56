// Tests runtime/model/format.ts's residue maxima against counts made here: residueMaxOf (each letter's most residues
// in one peptide, capped at 35, past 255 of a letter too), combinedResidueMax (letter-wise maximum, none when an
// entry has none or a malformed one) and residueBound (the sum over a letter set; Infinity without residueMax).
import { describe, expect, it } from 'vitest';
import { prng } from '../../helpers/prng.js';
import { combinedResidueMax, RESIDUE_MAX_LETTERS, residueBound, residueMaxOf } from '../../../runtime/model/format.js';

/** residueMax written from the definition: per letter, the most of it in one sequence, capped at 35, base 36. */
const reference = (sequences: string[]) =>
  Array.from(RESIDUE_MAX_LETTERS, (letter) =>
    Math.min(35, Math.max(0, ...sequences.map((s) => s.split(letter).length - 1))).toString(36),
  ).join('');

describe('residueMaxOf', () => {
  it('gives each letter its most residues in one peptide, capped at 35', () => {
    let seed = 5;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const sequences = Array.from({ length: 300 }, () =>
      Array.from({ length: 6 + Math.floor(random() * 120) }, () => RESIDUE_MAX_LETTERS[Math.floor(random() * 23)]).join(
        '',
      ),
    );
    sequences.push('C'.repeat(40), 'MKMKMM');
    expect(residueMaxOf(sequences)).toBe(reference(sequences));
    expect(residueMaxOf(['PEPTIDE'])).toBe(reference(['PEPTIDE']));
    expect(residueMaxOf([])).toBe('0'.repeat(23));
  });

  it('counts past 255 of one letter (a 1,000-residue peptide may hold them): 260 glutamines are 35, not 4', () => {
    expect(residueMaxOf(['Q'.repeat(260) + 'K'])).toBe(reference(['Q'.repeat(260) + 'K']));
    expect(residueMaxOf(['Q'.repeat(260)])[RESIDUE_MAX_LETTERS.indexOf('Q')]).toBe('z');
  });
});

describe('combinedResidueMax and residueBound', () => {
  const a = residueMaxOf(['CCCMK', 'WWW']);
  const b = residueMaxOf(['MMMMMK', 'C']);
  it('combines entries letter by letter: the maximum of the peptides of all of them', () => {
    expect(combinedResidueMax([{ residueMax: a }, { residueMax: b }])).toBe(reference(['CCCMK', 'WWW', 'MMMMMK', 'C']));
    expect(combinedResidueMax([{ residueMax: a }])).toBe(a);
  });
  it('takes each letter’s largest base-36 digit over random entries', () => {
    const random = prng(36);
    const digit = () => Math.floor(random() * 36).toString(36);
    for (let trial = 0; trial < 200; trial++) {
      const entries = Array.from({ length: 1 + Math.floor(random() * 8) }, () => ({
        residueMax: Array.from(RESIDUE_MAX_LETTERS, digit).join(''),
      }));
      const expected = Array.from(RESIDUE_MAX_LETTERS, (_, l) =>
        Math.max(...entries.map((e) => parseInt(e.residueMax[l], 36))).toString(36),
      ).join('');
      expect(combinedResidueMax(entries)).toBe(expected);
    }
  });
  it('gives none for no entries, an entry without residueMax, or a malformed one', () => {
    for (const entries of [
      [],
      [{ residueMax: a }, {}],
      [{ residueMax: a }, { residueMax: 'zz' }],
      [{ residueMax: a.slice(0, 22) + 'Z' }],
    ])
      expect(combinedResidueMax(entries)).toBeUndefined();
  });
  it('bounds a letter set by the sum of its letters’ maxima; Infinity without residueMax', () => {
    const entry = { residueMax: combinedResidueMax([{ residueMax: a }, { residueMax: b }]) };
    expect([
      residueBound(entry, 'C'),
      residueBound(entry, 'M'),
      residueBound(entry, 'CM'),
      residueBound(entry, 'STY'),
    ]).toEqual([3, 5, 8, 0]);
    expect(residueBound({}, 'C')).toBe(Infinity);
  });
});

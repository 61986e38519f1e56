// Tests runtime/core/fingerprint/coverage.ts against brute force: each residue covered when some peptide equals the
// sequence's letters at some start whose span holds it, compared letter by letter; the runs and share read off
// those marks here.
import { describe, expect, it } from 'vitest';
import { coverageOf, coveredRuns } from '../../../../runtime/core/fingerprint/coverage.js';
import { prng } from '../../../helpers/prng.js';

/** For each residue, whether a peptide placed at some start (letter by letter equal) spans it. */
function coveredResidues(sequence: string, peptides: readonly string[]): boolean[] {
  const marks = Array.from(sequence, () => false);
  for (const peptide of peptides)
    for (let start = 0; start + peptide.length <= sequence.length; start++) {
      let equal = peptide.length > 0;
      for (let k = 0; k < peptide.length && equal; k++) equal = sequence[start + k] === peptide[k];
      if (equal) for (let k = 0; k < peptide.length; k++) marks[start + k] = true;
    }
  return marks;
}

describe('coveredRuns and coverageOf', () => {
  it('cover exactly the residues some placed peptide spans, in maximal runs, on random sequences', () => {
    const random = prng(4711);
    // A small alphabet makes repeats, overlaps and adjacent placements common.
    const letters = 'ACDK';
    const word = (length: number) =>
      Array.from({ length }, () => letters[Math.floor(random() * letters.length)]).join('');
    for (let trial = 0; trial < 2000; trial++) {
      const sequence = word(Math.floor(random() * 60));
      const peptides = Array.from({ length: Math.floor(random() * 6) }, () => {
        if (random() < 0.6 && sequence.length > 0) {
          const start = Math.floor(random() * sequence.length);
          return sequence.slice(start, start + 1 + Math.floor(random() * 8));
        }
        return word(1 + Math.floor(random() * 4));
      });
      const marks = coveredResidues(sequence, peptides);
      const runs = coveredRuns(sequence, peptides);
      const fromRuns = Array.from(sequence, (_, i) => runs.some(([from, to]) => from <= i && i < to));
      expect(fromRuns).toEqual(marks);
      // Maximal: runs ascend, are not empty, and neither touch nor overlap.
      runs.forEach(([from, to], i) => {
        expect(from).toBeLessThan(to);
        if (i > 0) expect(from).toBeGreaterThan(runs[i - 1][1]);
      });
      const count = marks.filter(Boolean).length;
      expect(coverageOf(runs, sequence.length)).toBe(sequence.length === 0 ? 0 : count / sequence.length);
    }
  });

  it('counts a peptide wherever it occurs, and none that does not occur', () => {
    expect(coveredRuns('PEPTIDEKPEPTIDEK', ['PEPTIDEK'])).toEqual([[0, 16]]);
    expect(coveredRuns('AAAKAAAK', ['AAK', 'QQ'])).toEqual([
      [1, 4],
      [5, 8],
    ]);
    expect(coveredRuns('MKWVTFISLLK', [])).toEqual([]);
  });
});

// Sequence coverage of a fingerprint's proteins: the residues their matched peptides cover, read against each
// protein's sequence in the dataset's sequence table (a dataset built without `--sequences` reports none).
import { sequencesOf } from '../lookup/proteins.js';
import type { Dataset } from '../storage/dataset.js';
import type { Fingerprint } from './types.js';

/** Residues of a sequence covered by peptides: [from, to) runs, 0-based, ascending and apart. */
export type CoveredRuns = [from: number, to: number][];

/** The runs of `sequence` that `peptides` cover, each peptide wherever it occurs (overlapping places too). */
export function coveredRuns(sequence: string, peptides: Iterable<string>): CoveredRuns {
  const covered = new Uint8Array(sequence.length);
  for (const peptide of new Set(peptides)) {
    if (peptide.length === 0) continue;
    for (let at = sequence.indexOf(peptide); at >= 0; at = sequence.indexOf(peptide, at + 1))
      covered.fill(1, at, at + peptide.length);
  }
  const runs: CoveredRuns = [];
  for (let i = 0; i < covered.length; i++) {
    if (!covered[i]) continue;
    const from = i;
    while (i < covered.length && covered[i]) i++;
    runs.push([from, i]);
  }
  return runs;
}

/** The share of `length` residues that `runs` cover (0 for an empty sequence). */
export function coverageOf(runs: CoveredRuns, length: number): number {
  return length === 0 ? 0 : runs.reduce((sum, [from, to]) => sum + to - from, 0) / length;
}

/** Adds to each listed protein of `answers` its sequence, length and coverage, when the dataset holds its sequence. */
export async function addCoverage(dataset: Dataset, answers: readonly Fingerprint[]): Promise<void> {
  if (!dataset.manifest.sequences) return;
  const sequences = await sequencesOf(
    dataset,
    answers.flatMap((answer) => answer.proteins.map((hit) => hit.accession)),
  );
  for (const answer of answers)
    for (const hit of answer.proteins) {
      const sequence = sequences.get(hit.accession);
      if (sequence === undefined) continue;
      const covered = coveredRuns(
        sequence,
        hit.matches.map((m) => m.sequence),
      );
      Object.assign(hit, {
        sequence,
        length: sequence.length,
        coverage: coverageOf(covered, sequence.length),
        covered,
      });
    }
}

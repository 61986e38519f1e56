// Peak lists the Fingerprint mode tests are given, made from the specification alone: a protein of the bundled sample
// read from its FASTA file, cut after K and R (not before P) with no missed cleavage, and each peptide of 6 to 30
// residues weighed as [M+H]+ from a residue table of this file's own (cysteines carbamidomethylated when asked).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { REPO } from '../../../helpers/process.js';

/** Monoisotopic residue masses (Da), water, the proton and carbamidomethyl (Unimod 4). */
const RESIDUE: Record<string, number> = {
  G: 57.021464,
  A: 71.037114,
  S: 87.032028,
  P: 97.052764,
  V: 99.068414,
  T: 101.047679,
  C: 103.009185,
  L: 113.084064,
  I: 113.084064,
  N: 114.042927,
  D: 115.026943,
  Q: 128.058578,
  K: 128.094963,
  E: 129.042593,
  M: 131.040485,
  H: 137.058912,
  F: 147.068414,
  R: 156.101111,
  Y: 163.06332,
  W: 186.079313,
};
const WATER = 18.010565;
const PROTON = 1.007276;
const CARBAMIDOMETHYL = 57.021464;

let fasta: string | undefined;

/** A protein of the bundled sample: its sequence and its FASTA header. */
export function sampleProtein(accession: string): { sequence: string; header: string } {
  fasta ??= gunzipSync(readFileSync(join(REPO, 'data/uniprot-sample.fasta.gz'))).toString('latin1');
  const record = fasta.split('\n>').find((r) => r.split('|')[1] === accession);
  if (!record) throw new Error(`${accession} is not in the bundled sample`);
  const [header, ...lines] = record.split('\n');
  return { sequence: lines.join(''), header };
}

/** A tryptic peptide of a protein and its [M+H]+. */
export interface PeptidePeak {
  sequence: string;
  mh: number;
}

/** The protein's tryptic peptides (no missed cleavage, 6 to 30 residues) with their [M+H]+, in protein order. */
export function trypticPeaks(accession: string, carbamidomethyl = false): PeptidePeak[] {
  return sampleProtein(accession)
    .sequence.replace(/([KR])(?!P)/g, '$1,')
    .split(',')
    .filter((p) => p.length >= 6 && p.length <= 30)
    .map((sequence) => ({
      sequence,
      mh: [...sequence].reduce(
        (sum, residue) => sum + RESIDUE[residue] + (carbamidomethyl && residue === 'C' ? CARBAMIDOMETHYL : 0),
        WATER + PROTON,
      ),
    }));
}

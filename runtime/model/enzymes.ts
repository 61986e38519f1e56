// Enzymes as data: where each cuts a protein (after which residues, unless the next one blocks it), for the build's
// digestion and for counting a peptide's missed cleavages at search time.

export interface Enzyme {
  /** Residues after which the enzyme cuts. */
  cleaveAfter: string;
  /** Residues that block the cut when they follow the site (the proline rule). */
  notBefore: string;
}

/** By the names a build takes (`--enzyme`), as Expasy PeptideCutter states the rules. */
export const ENZYMES: Readonly<Record<string, Enzyme>> = {
  trypsin: { cleaveAfter: 'KR', notBefore: 'P' },
  'trypsin/p': { cleaveAfter: 'KR', notBefore: '' },
  'lys-c': { cleaveAfter: 'K', notBefore: '' },
  chymotrypsin: { cleaveAfter: 'FWY', notBefore: 'P' },
};

/** Whether the enzyme cuts `sequence` between residue i and i + 1. */
export const cutsAfter = (enzyme: Enzyme, sequence: string, i: number): boolean =>
  enzyme.cleaveAfter.includes(sequence[i]) && !enzyme.notBefore.includes(sequence[i + 1]);

/** Where the enzyme cuts `protein`: 0, every position after a cut residue, and the protein's length. */
export function cleavageSites(protein: string, enzyme: Enzyme): number[] {
  const sites = [0];
  for (let i = 0; i < protein.length - 1; i++) if (cutsAfter(enzyme, protein, i)) sites.push(i + 1);
  if (protein.length > 0) sites.push(protein.length);
  return sites;
}

/** Sites inside a peptide where the enzyme would have cut (its last residue is its own cut, not a missed one). */
export function missedCleavages(peptide: string, enzyme: Enzyme): number {
  let missed = 0;
  for (let i = 0; i < peptide.length - 1; i++) if (cutsAfter(enzyme, peptide, i)) missed++;
  return missed;
}

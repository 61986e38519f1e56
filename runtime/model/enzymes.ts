// Enzymes as data: where each cuts a protein, for the build's digestion and for counting a peptide's missed
// cleavages at search time. The rules are the PSI-MS controlled vocabulary's cleavage-agent regular expressions
// (psi-ms.obo, as OpenMS's CHEMISTRY/Enzymes.xml carries them; test/runtime/model/enzymes.test.ts checks them),
// read as PSI-MS writes them: ambiguity codes never cut (B, X, Z have no mass, so peptides holding them are left out
// of a dataset anyway; J, I or L, is weighed but cut after by no rule).

export interface Enzyme {
  /** Residues after which the enzyme cuts (C-terminal to them). */
  cleaveAfter: string;
  /** Residues that block a cut after `cleaveAfter` when they follow it (the proline rule). */
  notBefore: string;
  /** Residues before which the enzyme cuts (N-terminal to them: Asp-N, Lys-N). */
  cleaveBefore: string;
}

const after = (cleaveAfter: string, notBefore = ''): Enzyme => ({ cleaveAfter, notBefore, cleaveBefore: '' });
const before = (cleaveBefore: string): Enzyme => ({ cleaveAfter: '', notBefore: '', cleaveBefore });

/** By the names a build takes (`--enzyme`), each with its PSI-MS term (or OpenMS's name where PSI-MS has none). */
export const ENZYMES: Readonly<Record<string, Enzyme>> = {
  trypsin: after('KR', 'P'), // MS:1001251 Trypsin
  'trypsin/p': after('KR'), // MS:1001313 Trypsin/P
  'arg-c': after('R', 'P'), // MS:1001303 Arg-C
  'arg-c/p': after('R'), // OpenMS Arg-C/P
  'asp-n': before('D'), // MS:1001304 Asp-N
  chymotrypsin: after('FYWL', 'P'), // MS:1001306 Chymotrypsin
  'chymotrypsin/p': after('FYWL'), // OpenMS Chymotrypsin/P
  cnbr: after('M'), // MS:1001307 CNBr
  'glu-c': after('DE', 'P'), // MS:1001314 V8-DE (Comet's Glu_C; phosphate buffer)
  'glu-c/e': after('E', 'P'), // MS:1001315 V8-E (bicarbonate buffer)
  'lys-c': after('K', 'P'), // MS:1001309 Lys-C
  'lys-c/p': after('K'), // MS:1001310 Lys-C/P
  'lys-n': before('K'), // OpenMS Lys-N
  pepsina: after('FL'), // MS:1001311 PepsinA
};

/** How a build may cut: at sites only (`full`), at a site or a terminus at one end at least (`semi`), anywhere. */
export const SPECIFICITIES = ['full', 'semi', 'none'] as const;
export type Specificity = (typeof SPECIFICITIES)[number];

/** Whether the enzyme cuts `sequence` between residue i and i + 1. */
export const cutsAfter = (enzyme: Enzyme, sequence: string, i: number): boolean =>
  (enzyme.cleaveAfter.includes(sequence[i]) && !enzyme.notBefore.includes(sequence[i + 1])) ||
  enzyme.cleaveBefore.includes(sequence[i + 1]);

/** Where the enzyme cuts `protein`: 0, every position after a cut residue, and the protein's length. */
export function cleavageSites(protein: string, enzyme: Enzyme): number[] {
  const sites = [0];
  for (let i = 0; i < protein.length - 1; i++) if (cutsAfter(enzyme, protein, i)) sites.push(i + 1);
  if (protein.length > 0) sites.push(protein.length);
  return sites;
}

/** Sites inside a peptide where the enzyme would have cut (its ends are its own cuts, not missed ones). */
export function missedCleavages(peptide: string, enzyme: Enzyme): number {
  let missed = 0;
  for (let i = 0; i < peptide.length - 1; i++) if (cutsAfter(enzyme, peptide, i)) missed++;
  return missed;
}

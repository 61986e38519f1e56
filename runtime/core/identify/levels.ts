// False discovery rates of a file's PSMs at three levels, each by target-decoy competition and fdr.ts's q-values:
// spectra (each spectrum's best PSM, target or decoy), peptides and proteins picked as Sage does after Lin et al.
// and Savitski et al. — a target and its own decoy compete, the better one's score counts, the other is dropped.
import { qValues } from './fdr.js';

/** A PSM as the levels see it: its rank, score, side, the target peptide it stands for, and its proteins. */
export interface Leveled {
  rank: number;
  /** Higher is better. */
  score: number;
  decoy: boolean;
  /** The target peptide's identity (a decoy's is its target's): its localised form. */
  peptide: string;
  /** The target proteins (a decoy's are its target's). */
  proteins: readonly string[];
}

/** The q-value of each PSM at each level; 1 for a PSM the level does not count (see fdrLevels). */
export interface Levels {
  spectrum: Float64Array;
  peptide: Float64Array;
  protein: Float64Array;
}

/**
 * q-values of items competing in pairs: each key's target (best score of its target items) and decoy (best of its
 * decoy items) compete, the decoy winning ties; the winners' q-values are fdr.ts's, each item gets its key's
 * q-value when its side won and 1 when it lost.
 */
export function pickedQValues(items: readonly { key: string; score: number; decoy: boolean }[]): Float64Array {
  const pairs = new Map<string, { target: number; decoy: number }>();
  for (const { key, score, decoy } of items) {
    const pair = pairs.get(key) ?? { target: -Infinity, decoy: -Infinity };
    if (decoy) pair.decoy = Math.max(pair.decoy, score);
    else pair.target = Math.max(pair.target, score);
    pairs.set(key, pair);
  }
  const keys = [...pairs.keys()];
  const winners = keys.map((key) => {
    const { target, decoy } = pairs.get(key)!;
    return { score: Math.max(target, decoy), decoy: decoy >= target };
  });
  const q = qValues(winners);
  const byKey = new Map(keys.map((key, i) => [key, { q: q[i], decoy: winners[i].decoy }]));
  return Float64Array.from(items, ({ key, decoy }) => {
    const won = byKey.get(key)!;
    return won.decoy === decoy ? won.q : 1;
  });
}

/**
 * Every level's q-values, in the PSMs' order. Only each spectrum's best PSM (rank 1) counts: the others get 1. At
 * the protein level only PSMs of a peptide of one protein count (a shared peptide says nothing about which protein
 * is there; Sage's rule); the others get 1.
 */
export function fdrLevels(psms: readonly Leveled[]): Levels {
  const spectrum = new Float64Array(psms.length).fill(1);
  const peptide = new Float64Array(psms.length).fill(1);
  const protein = new Float64Array(psms.length).fill(1);
  const best = psms.map((_, i) => i).filter((i) => psms[i].rank === 1);
  const spectrumQ = qValues(best.map((i) => ({ score: psms[i].score, decoy: psms[i].decoy })));
  const peptideQ = pickedQValues(
    best.map((i) => ({ key: psms[i].peptide, score: psms[i].score, decoy: psms[i].decoy })),
  );
  best.forEach((i, k) => {
    spectrum[i] = spectrumQ[k];
    peptide[i] = peptideQ[k];
  });
  const unique = best.filter((i) => psms[i].proteins.length === 1);
  const proteinQ = pickedQValues(
    unique.map((i) => ({ key: psms[i].proteins[0], score: psms[i].score, decoy: psms[i].decoy })),
  );
  unique.forEach((i, k) => {
    protein[i] = proteinQ[k];
  });
  return { spectrum, peptide, protein };
}

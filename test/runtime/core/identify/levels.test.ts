// Tests runtime/core/identify/levels.ts against a brute force from the definitions on random PSM lists with many
// ties: spectrum q over each spectrum's best PSM; picked peptide and protein q, where a target and its decoy compete
// (the decoy winning ties), the winner's q-value is the least (decoys + 1) / targets over thresholds at or below its
// score, and the loser gets 1; a shared peptide's protein q is 1.
import { describe, expect, it } from 'vitest';
import { fdrLevels, pickedQValues, type Leveled } from '../../../../runtime/core/identify/levels.js';
import { prng } from '../../../helpers/prng.js';

/** Brute-force q-values of scored items: the least FDR over every threshold at or below each score. */
function bruteQ(items: readonly { score: number; decoy: boolean }[]): number[] {
  const fdr = (t: number) => {
    const kept = items.filter((i) => i.score >= t);
    const targets = kept.filter((i) => !i.decoy).length;
    return targets === 0 ? 1 : Math.min(1, (kept.length - targets + 1) / targets);
  };
  return items.map((item) => Math.min(...items.filter((t) => t.score <= item.score).map((t) => fdr(t.score))));
}

function brutePicked(items: readonly { key: string; score: number; decoy: boolean }[]): number[] {
  const keys = [...new Set(items.map((i) => i.key))];
  const best = (key: string, decoy: boolean) =>
    Math.max(-Infinity, ...items.filter((i) => i.key === key && i.decoy === decoy).map((i) => i.score));
  const winners = keys.map((key) => {
    const [t, d] = [best(key, false), best(key, true)];
    return { key, score: Math.max(t, d), decoy: d >= t };
  });
  const q = bruteQ(winners);
  return items.map((item) => {
    const k = keys.indexOf(item.key);
    return winners[k].decoy === item.decoy ? q[k] : 1;
  });
}

function randomPsms(random: () => number): Leveled[] {
  const psms: Leveled[] = [];
  const spectra = 1 + Math.floor(random() * 80);
  const levels = 2 + Math.floor(random() * 25);
  for (let s = 0; s < spectra; s++) {
    const ranks = 1 + Math.floor(random() * 3);
    for (let rank = 1; rank <= ranks; rank++)
      psms.push({
        rank,
        score: Math.floor(random() * levels) / 2,
        decoy: random() < 0.4,
        peptide: `P${Math.floor(random() * spectra * 0.7)}`,
        proteins: random() < 0.3 ? ['A', 'B'] : [`Prot${Math.floor(random() * 12)}`],
      });
  }
  return psms;
}

describe('pickedQValues', () => {
  it('equals the brute force on random pairs with ties', () => {
    const random = prng(4501);
    for (let trial = 0; trial < 300; trial++) {
      const items = Array.from({ length: 1 + Math.floor(random() * 120) }, () => ({
        key: `k${Math.floor(random() * 40)}`,
        score: Math.floor(random() * 12) / 4,
        decoy: random() < 0.5,
      }));
      expect([...pickedQValues(items)]).toEqual(brutePicked(items));
    }
  });
});

describe('fdrLevels', () => {
  it('equals the brute force at the spectrum, peptide and protein levels', () => {
    const random = prng(4502);
    for (let trial = 0; trial < 200; trial++) {
      const psms = randomPsms(random);
      const levels = fdrLevels(psms);
      const best = psms.map((_, i) => i).filter((i) => psms[i].rank === 1);
      const expected = { spectrum: psms.map(() => 1), peptide: psms.map(() => 1), protein: psms.map(() => 1) };
      const spectrumQ = bruteQ(best.map((i) => ({ score: psms[i].score, decoy: psms[i].decoy })));
      const peptideQ = brutePicked(
        best.map((i) => ({ key: psms[i].peptide, score: psms[i].score, decoy: psms[i].decoy })),
      );
      best.forEach((i, k) => {
        expected.spectrum[i] = spectrumQ[k];
        expected.peptide[i] = peptideQ[k];
      });
      const unique = best.filter((i) => psms[i].proteins.length === 1);
      const proteinQ = brutePicked(
        unique.map((i) => ({ key: psms[i].proteins[0], score: psms[i].score, decoy: psms[i].decoy })),
      );
      unique.forEach((i, k) => {
        expected.protein[i] = proteinQ[k];
      });
      expect([...levels.spectrum]).toEqual(expected.spectrum);
      expect([...levels.peptide]).toEqual(expected.peptide);
      expect([...levels.protein]).toEqual(expected.protein);
    }
  });
});

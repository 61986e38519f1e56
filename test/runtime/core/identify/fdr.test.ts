// Tests runtime/core/identify/fdr.ts against a brute-force computation on random score lists with many ties: each
// item's q-value is the least, over every score threshold at or below its score, of min(1, (decoys + 1) / targets)
// counted over the items at or above the threshold.
import { describe, expect, it } from 'vitest';
import { qValues, type Scored } from '../../../../runtime/core/identify/fdr.js';
import { prng } from '../../../helpers/prng.js';

function bruteForce(items: readonly Scored[]): number[] {
  const thresholds = [...new Set(items.map((i) => i.score))];
  const fdr = (t: number) => {
    const kept = items.filter((i) => i.score >= t);
    const targets = kept.filter((i) => !i.decoy).length;
    const decoys = kept.length - targets;
    return targets === 0 ? 1 : Math.min(1, (decoys + 1) / targets);
  };
  return items.map((item) => Math.min(...thresholds.filter((t) => t <= item.score).map(fdr)));
}

describe('qValues', () => {
  it('equals the brute force on random lists with ties, and never rises as the score rises', () => {
    const random = prng(47);
    for (let trial = 0; trial < 300; trial++) {
      const levels = 1 + Math.floor(random() * 30);
      const decoyShare = random();
      const items = Array.from({ length: 1 + Math.floor(random() * 200) }, () => ({
        score: Math.floor(random() * levels) / 2,
        decoy: random() < decoyShare * (1 - 0.3 * random()),
      }));
      const q = qValues(items);
      expect([...q]).toEqual(bruteForce(items));
      const rising = items.findIndex((a, i) => items.some((b, j) => a.score >= b.score && q[i] > q[j]));
      expect(rising).toBe(-1);
    }
  });

  it('gives 1 when no target is kept, nothing for no items, and a threshold below a score to it', () => {
    expect([...qValues([{ score: 3, decoy: true }])]).toEqual([1]);
    expect([...qValues([])]).toEqual([]);
    // Kept at 5: 1 decoy-or-less over 1 target; at 4: (0 + 1) / 2; at 3: (1 + 1) / 2. The best takes 4's FDR.
    expect([
      ...qValues([
        { score: 5, decoy: false },
        { score: 4, decoy: false },
        { score: 3, decoy: true },
      ]),
    ]).toEqual([0.5, 0.5, 1]);
  });
});

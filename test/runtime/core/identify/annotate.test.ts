// Tests runtime/core/identify/annotate.ts: an annotation labels exactly the ions scoring matched — per kind, as many
// matched ions and the same summed intensities as matchForm finds in the same peaks — and each label's peak is
// within the tolerance of its ion and the most intense there.
import { describe, expect, it } from 'vitest';
import { annotate } from '../../../../runtime/core/identify/annotate.js';
import { fragmentCharges } from '../../../../runtime/core/identify/psms.js';
import { matchForm, topPeaks } from '../../../../runtime/core/identify/score.js';
import { fragmentIons } from '../../../../runtime/core/identify/fragments.js';
import { prng } from '../../../helpers/prng.js';

describe('annotate', () => {
  it('labels the ions scoring matched, each with the most intense peak in tolerance', () => {
    const random = prng(4505);
    for (let trial = 0; trial < 300; trial++) {
      const sequence = Array.from(
        { length: 6 + Math.floor(random() * 20) },
        () => 'ACDEFGHKLMNPQRSTVWY'[Math.floor(random() * 19)],
      ).join('');
      const carried = {
        residues: [...sequence].map(() => (random() < 0.1 ? 159949146 * 1000 : 0)),
        nTerm: 0,
        cTerm: 0,
      };
      const charge = 1 + Math.floor(random() * 4);
      const settings = { topPeaks: 60, fragmentTolerance: { value: 20, unit: 'ppm' as const }, maxFragmentCharge: 3 };
      const ions = fragmentIons(sequence, carried, 3);
      const mz = [
        ...ions.filter(() => random() < 0.4).map((i) => i.mz * (1 + (random() - 0.5) * 3e-5)),
        ...Array.from({ length: 80 }, () => 100 + random() * 2500),
      ];
      const raw = { mz: Float64Array.from(mz).sort(), intensity: Float64Array.from(mz, () => random() * 100) };
      const precursorMz = 400 + random() * 800;
      const { peaks, ions: labelled } = annotate(raw, precursorMz, sequence, carried, charge, settings);
      expect(peaks).toEqual(topPeaks(raw.mz, raw.intensity, 60, { mz: precursorMz, da: 1.5 }));
      const matched = matchForm(
        peaks,
        sequence,
        { ...carried },
        fragmentCharges(charge, 3),
        settings.fragmentTolerance,
      );
      const of = (kind: 'b' | 'y') => labelled.filter((i) => i.kind === kind && i.peak >= 0);
      expect([of('b').length, of('y').length]).toEqual([matched.b, matched.y]);
      expect(of('b').reduce((s, i) => s + peaks.intensity[i.peak], 0)).toBeCloseTo(matched.summedB, 9);
      for (const ion of labelled.filter((i) => i.peak >= 0)) {
        const within = [...peaks.mz.keys()].filter((k) => Math.abs(peaks.mz[k] - ion.mz) <= (ion.mz * 20) / 1e6);
        expect(within).toContain(ion.peak);
        expect(Math.max(...within.map((k) => peaks.intensity[k]))).toBe(peaks.intensity[ion.peak]);
      }
      expect(labelled.every((i) => i.charge <= fragmentCharges(charge, 3))).toBe(true);
    }
  });
});

// Tests runtime/core/searchPlan.ts on the bundled sample built with its Carbamidomethyl@C view: which searches read
// the view (a fixed modification that is the view's, on exactly its letters, and nothing else that can sit on C),
// and the hypotheses they make — the dataset's shards for peptides without C, the view for every count of C at once.
// A query of exactly the complete view's modifications (Carbamidomethyl@C fixed, Oxidation@M variable, maxVariable
// up to its 2) reads that view alone: one hypothesis per count of oxidised M, one range of modified keys.
// That the answers are right is the precursor and match differentials' to show (on a view build too). A view the
// build names for a custom modification is read back as that modification.
import { beforeAll, describe, expect, it } from 'vitest';
import { parseView } from '../../../../builder/phases/views.js';
import { Dataset } from '../../../../runtime/core/storage/dataset.js';
import { VIEW_COUNT } from '../../../../runtime/core/precursor/hypotheses.js';
import {
  completeHypotheses,
  hypothesesOf,
  searchHypotheses,
  viewOf,
} from '../../../../runtime/core/precursor/searchPlan.js';
import { parseModifications } from '../../../../runtime/model/modifications.js';
import { FileSource } from '../../../../runtime/entries/node/fileSource.js';
import { nodeCodecs } from '../../../../runtime/entries/node/platform.js';
import { bundledDataset } from '../../../helpers/datasets.js';

let dataset: Dataset;

beforeAll(async () => {
  dataset = await Dataset.open(new FileSource(await bundledDataset()), nodeCodecs);
});

const mods = (text: string) => (text === '' ? [] : parseModifications(text));
const use = (fixed: string, variable = '') => viewOf(dataset, { fixed: mods(fixed), variable: mods(variable) });

describe('viewOf', () => {
  it('reads the view when a fixed modification is its modification on its letters, wherever it is listed', () => {
    expect(dataset.views.map((v) => v.spec.modification.name + '@' + v.spec.site.letters)).toEqual([
      'Carbamidomethyl@C',
      'Carbamidomethyl@C',
    ]);
    expect(
      dataset.views.map(
        (v) => v.variable && [v.variable.spec.modification.name, v.variable.spec.site.letters, v.variable.max],
      ),
    ).toEqual([undefined, ['Oxidation', 'M', 2]]);
    expect(use('Carbamidomethyl@C', 'Oxidation@M')).toEqual({ view: 0, fixed: 0 });
    expect(use('TMT6plex@K,TMT6plex@N-term,Carbamidomethyl@C', 'Oxidation@M,Gln->pyro-Glu@Q@N-term')).toEqual({
      view: 0,
      fixed: 2,
    });
    expect(use('UNIMOD:4@C')).toEqual({ view: 0, fixed: 0 });
    expect(use('Carbamidomethyl:+57.021464@C')).toEqual({ view: 0, fixed: 0 }); // the same name and mass
  });

  it('does not when the modification, its mass or its letters differ, or another modification can sit on C', () => {
    expect(use('', 'Oxidation@M')).toBeUndefined();
    expect(use('Carbamidomethyl:+57.02@C')).toBeUndefined();
    expect(use('Carbamidomethyl@CM')).toBeUndefined();
    expect(use('Carbamyl@C')).toBeUndefined();
    expect(use('Carbamidomethyl@C', 'Oxidation@CM')).toBeUndefined();
    expect(use('Carbamidomethyl@C', 'Acetyl@C@N-term')).toBeUndefined();
    expect(use('Carbamidomethyl@C', 'Carbamidomethyl@C')).toBeUndefined();
  });
});

describe('a view of a custom modification', () => {
  it('is read back as the same modification: a query naming it, its mass and letters reads it', async () => {
    const { fixed } = parseView('Label:+12.5@KR');
    const views = [{ fixed, totals: { peptides: 0, massGroups: 0, shards: 0, bytes: 0 }, shards: [] }];
    const manifest = { ...dataset.manifest, views };
    const source = { description: 'memory', get: async () => new TextEncoder().encode(JSON.stringify(manifest)) };
    const custom = await Dataset.open(source, nodeCodecs);
    expect(custom.views).toHaveLength(1);
    expect(viewOf(custom, { fixed: mods('Label:+12.5@KR'), variable: [] })).toEqual({ view: 0, fixed: 0 });
    expect(viewOf(custom, { fixed: mods('Label:+12.6@KR'), variable: [] })).toBeUndefined();
  });
});

describe('hypothesesOf', () => {
  it('makes the count-0 hypotheses on the shards and one per variable count on the view, whose shift leaves the view’s modification out', () => {
    const fixed = mods('Carbamidomethyl@C');
    const variable = mods('Oxidation@M');
    const oxidation = variable[0].modification.deltaUnits;
    const all = hypothesesOf(dataset, { lowKey: 15_000_000, highKey: 15_000_300, fixed, variable, maxVariable: 2 });
    const onShards = all.filter((h) => h.view === undefined);
    const onView = all.filter((h) => h.view === 0);
    expect(onShards.length + onView.length).toBe(all.length);
    expect(onShards.map((h) => [h.fixedCounts, h.variableCounts, h.shiftUnits])).toEqual(
      [0, 1, 2].map((m) => [[0], [m], m * oxidation]),
    );
    expect(onView.map((h) => [h.fixedCounts, h.variableCounts, h.shiftUnits])).toEqual(
      [0, 1, 2].map((m) => [[VIEW_COUNT], [m], m * oxidation]),
    );
    for (const h of all)
      expect([h.baseLowKey, h.baseHighKey]).toEqual([
        Math.round((15_000_000 * 1e6 - 5e5 - h.shiftUnits) / 1e6),
        Math.round((15_000_300 * 1e6 + 5e5 - 1 - h.shiftUnits) / 1e6),
      ]);
    // Without the view, a count of C each: many more ranges for the same window.
    const plain = hypothesesOf(dataset, {
      lowKey: 15_000_000,
      highKey: 15_000_300,
      fixed: mods('Carbamidomethyl:+57.02146@C'),
      variable,
      maxVariable: 2,
    });
    expect(plain.every((h) => h.view === undefined)).toBe(true);
    expect(plain.length).toBeGreaterThan(3 * all.length);
  });
});

describe('completeHypotheses', () => {
  const window = { lowKey: 15_000_000, highKey: 15_000_300 };
  const complete = (fixed: string, variable: string, maxVariable: number) =>
    completeHypotheses(dataset, { ...window, fixed: mods(fixed), variable: mods(variable), maxVariable });

  it('reads the complete view for exactly its modifications and a maxVariable up to its own: one range of modified keys, a hypothesis per count', () => {
    for (const maxVariable of [0, 1, 2]) {
      const all = complete('Carbamidomethyl@C', 'Oxidation@M', maxVariable)!;
      expect(
        all.map((h) => [h.fixedCounts, h.variableCounts, h.shiftUnits, h.baseLowKey, h.baseHighKey, h.view]),
      ).toEqual(
        Array.from({ length: maxVariable + 1 }, (_, m) => [[VIEW_COUNT], [m], 0, window.lowKey, window.highKey, 1]),
      );
      expect(all.map((h) => [h.readsCounts, h.filed])).toEqual(
        Array.from({ length: maxVariable + 1 }, (_, m) => (m === 0 ? [maxVariable, undefined] : [undefined, true])),
      );
      expect(
        searchHypotheses(dataset, {
          ...window,
          fixed: mods('Carbamidomethyl@C'),
          variable: mods('Oxidation@M'),
          maxVariable,
        }),
      ).toEqual(all);
    }
    expect(complete('UNIMOD:4@C', 'UNIMOD:35@M', 2)).toHaveLength(3);
  });

  it('does not for other modifications, more of them, a higher maxVariable or other letters: those read as before', () => {
    expect(complete('Carbamidomethyl@C', 'Oxidation@M', 3)).toBeUndefined();
    expect(complete('Carbamidomethyl@C', 'Oxidation@MW', 2)).toBeUndefined();
    expect(complete('Carbamidomethyl@C', 'Oxidation@M,Phospho@STY', 2)).toBeUndefined();
    expect(complete('Carbamidomethyl@C,TMT6plex@K', 'Oxidation@M', 2)).toBeUndefined();
    expect(complete('', 'Oxidation@M', 2)).toBeUndefined();
    expect(complete('Carbamidomethyl@C', '', 0)).toBeUndefined();
    expect(complete('Carbamyl@C', 'Oxidation@M', 2)).toBeUndefined();
    const query = { ...window, fixed: mods('Carbamidomethyl@C'), variable: mods('Oxidation@M'), maxVariable: 3 };
    expect(searchHypotheses(dataset, query)).toEqual(hypothesesOf(dataset, query));
    expect(hypothesesOf(dataset, query).every((h) => h.view !== 1)).toBe(true); // the complete view is never read as a fixed one
  });
});

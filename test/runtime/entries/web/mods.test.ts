// The modification picker's lists (runtime/entries/web/mods.ts): fixed and variable items split into the common
// rows and the free-text rest and joined back, case-insensitively; every row's items are modifications the API reads.
import { describe, expect, it } from 'vitest';
import { parseModifications } from '../../../../runtime/model/modifications.js';
import { COMMON_MODS, joinMods, splitMods } from '../../../../runtime/entries/web/mods.js';

describe('the modification picker', () => {
  it('shows each common modification as off, fixed or variable, and keeps the rest for the free-text fields', () => {
    const split = splitMods(
      ['carbamidomethyl@c', 'TMT6plex@K', 'TMT6plex@N-term', 'Methyl@K'],
      ['Oxidation@M', 'Phospho@STY', 'Custom:+1.5@W', 'Acetyl@K'],
    );
    const names = COMMON_MODS.map((m) => m.name);
    expect(Object.fromEntries(names.map((n, i) => [n, split.choices[i]]))).toMatchObject({
      Carbamidomethyl: 'fixed',
      Oxidation: 'variable',
      Phospho: 'variable',
      TMT6plex: 'fixed',
      Acetyl: 'off',
      Deamidated: 'off',
    });
    expect(split.fixedMore).toEqual(['Methyl@K']);
    expect(split.variableMore).toEqual(['Custom:+1.5@W', 'Acetyl@K']);
  });

  it('a row of two items (TMT6plex on K and the N-terminus) is fixed only when both are', () => {
    const split = splitMods(['TMT6plex@K'], []);
    expect(split.choices[COMMON_MODS.findIndex((m) => m.name === 'TMT6plex')]).toBe('off');
    expect(split.fixedMore).toEqual(['TMT6plex@K']);
  });

  it('joins rows (in table order) and free items back into the same lists', () => {
    const fixed = ['Carbamidomethyl@C', 'Methyl@K'];
    const variable = ['Oxidation@M', 'Deamidated@NQ', 'Gln->pyro-Glu@Q@N-term', 'Dimethyl@K'];
    const { choices, fixedMore, variableMore } = splitMods(fixed, variable);
    expect(joinMods(choices, fixedMore, variableMore)).toEqual({ fixed, variable });
  });

  it("offers only items the API's modification parser reads", () => {
    for (const m of COMMON_MODS) expect(parseModifications(m.specs.join(',')).length).toBe(m.specs.length);
  });
});

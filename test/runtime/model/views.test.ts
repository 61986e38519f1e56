// Tests runtime/model/views.ts, the grammar of a view's text the build writes and the reader reads back: one fixed
// modification on residues, or a complete view's fixed, variable and maxVariable; normalised so that the manifest
// names a view one way; refused with a message saying what is wrong (the build prefixes it with `--view`; a reader
// ignores a view it cannot read). Deltas are checked against the reference Unimod table, not the code's.
import { describe, expect, it } from 'vitest';
import { ModificationError } from '../../../runtime/model/modifications.js';
import { parseViewText } from '../../../runtime/model/views.js';
import { findUnimod, unimodUnits } from '../../helpers/referenceUnimod.js';

const units = (title: string) => Number(unimodUnits(findUnimod(title)!));
const read = (text: string) => {
  const { text: normalised, fixed, variable } = parseViewText(text);
  return {
    text: normalised,
    fixed: [fixed.modification.name, fixed.site.letters, fixed.modification.deltaUnits],
    ...(variable
      ? {
          variable: [
            variable.spec.modification.name,
            variable.spec.site.letters,
            variable.spec.modification.deltaUnits,
            variable.max,
          ],
        }
      : {}),
  };
};

describe('parseViewText', () => {
  it('reads one fixed modification on residues, normalised to its Unimod title and sorted letters', () => {
    expect(read('carbamidomethyl@c')).toEqual({
      text: 'Carbamidomethyl@C',
      fixed: ['Carbamidomethyl', 'C', units('Carbamidomethyl')],
    });
    expect(read('UNIMOD:737@KS')).toEqual({ text: 'TMT6plex@KS', fixed: ['TMT6plex', 'KS', units('TMT6plex')] });
    expect(read('Label:+12.5@RK').text).toBe('Label:+12.5@KR');
  });

  it('reads a complete view in any field order into its two modifications and its most', () => {
    const expected = {
      text: 'fixed=Carbamidomethyl@C&variable=Oxidation@M&maxVariable=2',
      fixed: ['Carbamidomethyl', 'C', units('Carbamidomethyl')],
      variable: ['Oxidation', 'M', units('Oxidation'), 2],
    };
    expect(read('fixed=Carbamidomethyl@C&variable=Oxidation@M&maxVariable=2')).toEqual(expected);
    expect(read('maxVariable=02&fixed=UNIMOD:4@C&variable=oxidation@M')).toEqual(expected);
    expect(read('fixed=TMT6plex@K&variable=Phospho@YTS&maxVariable=4')).toMatchObject({
      text: 'fixed=TMT6plex@K&variable=Phospho@STY&maxVariable=4',
      variable: ['Phospho', 'STY', units('Phospho'), 4],
    });
    // A custom variable delta may be negative; its sign is kept, a positive one written with +.
    expect(read('fixed=X:+1@C&variable=Y:-18.0106@DE&maxVariable=1').text).toBe(
      'fixed=X:+1@C&variable=Y:-18.0106@DE&maxVariable=1',
    );
  });

  it('refuses anything else with a ModificationError saying what is wrong', () => {
    const refused: [string, RegExp][] = [
      ['Oxidation@N-term', /takes one modification on residue letters as its fixed modification/],
      ['Deamidated@NQ,Oxidation@M', /takes one modification on residue letters/],
      ['Gln->pyro-Glu@Q', /the modification must add mass/],
      ['fixed=Carbamidomethyl@C', /has no variable/],
      ['fixed=Carbamidomethyl@C&variable=Oxidation@M&maxVariable=2&', /is not a complete view's/],
      ['fixed=Carbamidomethyl@C&=Oxidation@M&maxVariable=2', /is not a complete view's/],
      ['fixed=Carbamidomethyl@C&variable=Oxidation@M&maxVariable=-1', /maxVariable must be a whole number from 1 to 4/],
      ['fixed=Carbamidomethyl@C&variable=Oxidation@MC&maxVariable=1', /share a site/],
      ['fixed=Carbamidomethyl@C&variable=Oxidation@M&maxVariable=1.5', /whole number/],
      ['fixed=Carbamidomethyl@C&variable=Small:+0.0099@M&maxVariable=1', /at least 0.01 Da from 0/],
    ];
    for (const [text, message] of refused) {
      expect(() => parseViewText(text), text).toThrow(ModificationError);
      expect(() => parseViewText(text), text).toThrow(message);
    }
    // At 0.01 Da exactly, each count still has a key of its own.
    expect(read('fixed=Carbamidomethyl@C&variable=Small:+0.01@M&maxVariable=1').variable).toEqual([
      'Small',
      'M',
      100_000_000,
      1,
    ]);
  });
});

// Tests runtime/api/identifyColumns.ts's `peptide` text: what massAnnotated writes, parseMassAnnotated reads back to
// the same sequence and units on random forms; text that is not one is refused.
import { describe, expect, it } from 'vitest';
import { massAnnotated, parseMassAnnotated } from '../../../runtime/api/identifyColumns.js';
import { localisedForms } from '../../../runtime/core/identify/forms.js';
import { parseModifications } from '../../../runtime/model/modifications.js';
import { prng } from '../../helpers/prng.js';

describe('the peptide column', () => {
  it('reads back what it writes', () => {
    const random = prng(4506);
    const fixed = parseModifications('Carbamidomethyl@C');
    const variable = parseModifications('Acetyl@N-term,Oxidation@M,Amidated@C-term,Deamidated@NQ');
    for (let trial = 0; trial < 300; trial++) {
      const sequence = Array.from(
        { length: 5 + Math.floor(random() * 15) },
        () => 'CMNQKAGL'[Math.floor(random() * 8)],
      ).join('');
      const counts = variable.map(() => Math.floor(random() * 2));
      for (const form of localisedForms(sequence, fixed, variable, counts).forms) {
        const text = massAnnotated({ sequence, form });
        expect(parseMassAnnotated(text), text).toEqual({
          sequence,
          carried: { residues: form.residues, nTerm: form.nTerm, cTerm: form.cTerm },
        });
      }
    }
    expect(
      massAnnotated({
        sequence: 'ACK',
        form: { residues: [0, 570214640000, 0], nTerm: 420105646837, cTerm: 0, placed: [] },
      }),
    ).toBe('[+42.0105646837]-AC[+57.021464]K');
    for (const text of ['', 'pep', 'AC[57.02]K', 'AC[+57.02', '[+1]-', 'A-[+1]-[+2]'])
      expect(parseMassAnnotated(text), text).toBeUndefined();
  });
});

// Tests runtime/core/identify/forms.ts and its ProForma (runtime/model/proforma.ts localisedProforma) against a brute
// force written from the definitions: every way of giving each slot (N-terminus, each residue, C-terminus) nothing
// or one variable modification whose site takes it, kept when each modification's count is met, alike forms merged.
import { describe, expect, it } from 'vitest';
import { localisedForms, N_TERM } from '../../../../runtime/core/identify/forms.js';
import { parseModifications, type ModSpec } from '../../../../runtime/model/modifications.js';
import { localisedProforma } from '../../../../runtime/model/proforma.js';
import { prng } from '../../../helpers/prng.js';

/** Whether `spec`'s site takes slot `slot` of `sequence` (-1 N-terminus, n C-terminus), from the site's definition. */
function takes(spec: ModSpec, sequence: string, slot: number): boolean {
  const { site } = spec;
  const n = sequence.length;
  if (site.kind === 'terminus') return slot === (site.end === 'N' ? -1 : n);
  if (slot < 0 || slot >= n) return false;
  if (site.kind === 'residues') return site.letters.includes(sequence[slot]);
  if (site.kind === 'protein terminus') return false;
  return sequence[slot] === site.letter && slot === (site.end === 'N' ? 0 : n - 1);
}

/** Every form as `slot:name` lists (sorted by slot), by brute force over all assignments of slots. */
function bruteForms(sequence: string, variable: ModSpec[], counts: number[]): Set<string> {
  const slots = Array.from({ length: sequence.length + 2 }, (_, i) => i - 1);
  const forms = new Set<string>();
  const given: number[] = []; // per slot: -1 or a spec index
  const walk = (k: number) => {
    if (k === slots.length) {
      const got = variable.map((_, i) => given.filter((g) => g === i).length);
      if (got.every((c, i) => c === counts[i]))
        forms.add(
          slots
            .flatMap((slot, j) => (given[j] >= 0 ? [`${slot}:${variable[given[j]].modification.name}`] : []))
            .join(','),
        );
      return;
    }
    given[k] = -1;
    walk(k + 1);
    variable.forEach((spec, i) => {
      if (!takes(spec, sequence, slots[k])) return;
      given[k] = i;
      walk(k + 1);
    });
  };
  walk(0);
  return forms;
}

const SPEC_SETS = [
  'Oxidation@M',
  'Phospho@STY',
  'Phospho@S,Phospho@T',
  'Oxidation@M,Deamidated@NQ',
  'Acetyl@N-term,Oxidation@M',
  'Gln->pyro-Glu@Q@N-term,Deamidated@NQ',
  'Amidated@C-term,Phospho@STY,Oxidation@M',
  'Acetyl@N-term,Acetyl@K',
];

describe('localisedForms', () => {
  it('equals the brute force on random peptides, counts and sites', () => {
    const random = prng(45);
    let compared = 0;
    for (let trial = 0; trial < 600; trial++) {
      const variable = parseModifications(SPEC_SETS[trial % SPEC_SETS.length]);
      const sequence = Array.from(
        { length: 4 + Math.floor(random() * 9) },
        () => 'MSTYNQKAGLQM'[Math.floor(random() * 12)],
      ).join('');
      const counts = variable.map(() => Math.floor(random() * 3));
      const { forms, cut } = localisedForms(sequence, [], variable, counts);
      expect(cut).toBe(false);
      const ours = forms.map((f) => f.placed.map((p) => `${p.slot}:${variable[p.spec].modification.name}`).join(','));
      expect(new Set(ours).size).toBe(ours.length); // each form once
      expect(new Set(ours)).toEqual(bruteForms(sequence, variable, counts));
      // What each form carries is its placements' deltas, on their slots.
      for (const form of forms) {
        const expected = { n: 0, c: 0, residues: new Array(sequence.length).fill(0) };
        for (const p of form.placed) {
          const delta = variable[p.spec].modification.deltaUnits;
          if (p.slot === N_TERM) expected.n += delta;
          else if (p.slot === sequence.length) expected.c += delta;
          else expected.residues[p.slot] += delta;
        }
        expect([form.nTerm, form.cTerm, form.residues]).toEqual([expected.n, expected.c, expected.residues]);
      }
      compared += forms.length;
    }
    expect(compared).toBeGreaterThan(500);
  });

  it('puts fixed modifications on every slot of theirs, and stops at the limit saying so', () => {
    const fixed = parseModifications('Carbamidomethyl@C,TMT6plex@N-term');
    const { forms } = localisedForms('ACDCK', fixed, [], []);
    expect(forms).toHaveLength(1);
    const cam = fixed[0].modification.deltaUnits;
    expect(forms[0].residues).toEqual([0, cam, 0, cam, 0]);
    expect(forms[0].nTerm).toBe(fixed[1].modification.deltaUnits);
    const phospho = parseModifications('Phospho@STY');
    const all = localisedForms('STSTSTSTSTK', [], phospho, [3]);
    expect([all.forms.length, all.cut]).toEqual([120, false]); // 10 choose 3
    const some = localisedForms('STSTSTSTSTK', [], phospho, [3], 50);
    expect([some.forms.length, some.cut]).toEqual([50, true]);
    expect(some.forms).toEqual(all.forms.slice(0, 50));
  });
});

describe('localisedProforma', () => {
  it('writes fixed modifications as global tags and each variable one on its slot', () => {
    const fixed = parseModifications('Carbamidomethyl@C');
    const variable = parseModifications('Acetyl@N-term,Oxidation@M,Amidated@C-term');
    const write = (sequence: string, counts: number[]) =>
      localisedForms(sequence, fixed, variable, counts).forms.map((f) =>
        localisedProforma(sequence, fixed, variable, f.placed),
      );
    expect(write('MCMK', [1, 1, 1])).toEqual([
      '<[Carbamidomethyl]@C>[Acetyl]-M[Oxidation]CMK-[Amidated]',
      '<[Carbamidomethyl]@C>[Acetyl]-MCM[Oxidation]K-[Amidated]',
    ]);
    expect(write('PEPTIDEK', [0, 0, 0])).toEqual(['PEPTIDEK']);
  });
});

describe('the protein N-terminus', () => {
  const [acetyl] = parseModifications('Acetyl@Protein N-term');
  const units = acetyl.modification.deltaUnits;

  it('is the N-terminus slot of a peptide taken as its protein’s first, and no slot otherwise', () => {
    const variable = localisedForms('SAGGHK', [], [acetyl], [1], undefined, true);
    expect(variable.forms.map((f) => [f.nTerm, f.placed])).toEqual([[units, [{ spec: 0, slot: N_TERM }]]]);
    expect(localisedForms('SAGGHK', [], [acetyl], [1], undefined, false).forms).toEqual([]);
    expect(localisedForms('SAGGHK', [acetyl], [], [], undefined, true).forms[0].nTerm).toBe(units);
    expect(localisedForms('SAGGHK', [acetyl], [], [], undefined, false).forms[0].nTerm).toBe(0);
  });

  it('is written in place in the ProForma, fixed or variable', () => {
    expect(localisedProforma('SAGGHK', [acetyl], [], [], true)).toBe('[Acetyl]-SAGGHK');
    expect(localisedProforma('SAGGHK', [acetyl], [], [], false)).toBe('SAGGHK');
    expect(localisedProforma('SAGGHK', [], [acetyl], [{ spec: 0, slot: N_TERM }], true)).toBe('[Acetyl]-SAGGHK');
  });
});

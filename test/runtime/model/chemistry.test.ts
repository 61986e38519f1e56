// Residue masses, peptide masses and mass keys of runtime/model/chemistry.ts against published values, elemental
// compositions and exact integer arithmetic.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  daTextToUnits,
  peptideMass,
  RESIDUE_MASS_DA,
  RESIDUE_UNITS,
  UNDEFINED_MASS_RESIDUES,
  UNITS_PER_DA,
  WATER_UNITS,
} from '../../../runtime/model/chemistry.js';
import { massKey } from '../../../runtime/model/massKey.js';
import { decimalToUnits, REFERENCE_RESIDUE_MASS, REFERENCE_WATER } from '../../helpers/reference.js';

function unitsOf(sequence: string): number {
  const mass = peptideMass(sequence);
  if (!('units' in mass)) throw new Error(`${sequence}: ${mass.error}`);
  return mass.units;
}

describe('published peptide masses', () => {
  // Monoisotopic [M] masses as published (e.g. by peptide mass calculators), 6 decimals.
  const published: [string, string, number][] = [
    ['PEPTIDE', '799.359964', 7993600],
    ['SAMPLER', '802.400724', 8024007],
    ['ACDEFGHIKLMNPQRSTVWY', '2394.124907', 23941249],
  ];
  for (const [sequence, da, key] of published) {
    it(`${sequence} weighs ${da} Da, key ${key}`, () => {
      const units = unitsOf(sequence);
      expect(Number.isSafeInteger(units)).toBe(true);
      expect((units / UNITS_PER_DA).toFixed(6)).toBe(da);
      expect(massKey(units)).toBe(key);
    });
  }

  it('PEPTIDE has key 799.3600 exactly', () => {
    expect(massKey(unitsOf('PEPTIDE')) / 10_000).toBe(799.36);
  });
});

describe('residue masses', () => {
  // Monoisotopic element masses (Audi/Wapstra 2003, as used by common peptide tools), 1e-11 Da resolution.
  const ELEMENT: Record<string, bigint> = {
    H: 100782503207n,
    C: 1200000000000n,
    N: 1400307400480n,
    O: 1599491461956n,
    S: 3197207100000n,
    Se: 7991652130000n,
  };
  const FORMULA: Record<string, string> = {
    G: 'C2H3NO',
    A: 'C3H5NO',
    S: 'C3H5NO2',
    P: 'C5H7NO',
    V: 'C5H9NO',
    T: 'C4H7NO2',
    C: 'C3H5NOS',
    L: 'C6H11NO',
    I: 'C6H11NO',
    J: 'C6H11NO',
    N: 'C4H6N2O2',
    D: 'C4H5NO3',
    Q: 'C5H8N2O2',
    K: 'C6H12N2O',
    E: 'C5H7NO3',
    M: 'C5H9NOS',
    H: 'C6H7N3O',
    F: 'C9H9NO',
    R: 'C6H12N4O',
    Y: 'C9H9NO2',
    W: 'C11H10N2O',
    U: 'C3H5NOSe',
    O: 'C12H19N3O2',
  };
  /** Formula mass in 1e-11 Da. */
  const formulaMass = (formula: string) => {
    let sum = 0n;
    for (const [, element, count] of formula.matchAll(/([A-Z][a-z]?)(\d*)/g))
      sum += ELEMENT[element] * BigInt(count || '1');
    return sum;
  };
  /** Formula mass rounded half-up to 8 decimals, in 1e-10 Da units. */
  const formulaUnits = (formula: string) => Number(((formulaMass(formula) + 500n) / 1000n) * 100n);

  it('defines exactly the 20 standard residues plus J, U and O; B, X and Z have no mass', () => {
    expect(Object.keys(RESIDUE_MASS_DA).sort()).toEqual(Object.keys(FORMULA).sort());
    const defined = [];
    for (let code = 0; code < 128; code++) if (RESIDUE_UNITS[code] >= 0) defined.push(String.fromCharCode(code));
    expect(defined.sort()).toEqual(Object.keys(FORMULA).sort());
    expect([...UNDEFINED_MASS_RESIDUES].sort()).toEqual(['B', 'X', 'Z']);
    for (const letter of 'BXZ') expect(RESIDUE_UNITS[letter.charCodeAt(0)]).toBe(-1);
  });

  for (const [letter, formula] of Object.entries(FORMULA)) {
    it(`${letter} (${formula}) is its elemental mass to 8 decimals`, () => {
      expect(daTextToUnits(RESIDUE_MASS_DA[letter])).toBe(formulaUnits(formula));
      expect(RESIDUE_UNITS[letter.charCodeAt(0)]).toBe(formulaUnits(formula));
      // The test reference table agrees too.
      expect(Number(decimalToUnits(REFERENCE_RESIDUE_MASS[letter]))).toBe(formulaUnits(formula));
    });
  }

  it('water is H2O to 10 decimals', () => {
    expect(WATER_UNITS * 10).toBe(Number(formulaMass('H2O')));
    expect(Number(decimalToUnits(REFERENCE_WATER))).toBe(WATER_UNITS);
  });

  it('J weighs as I and L', () => {
    expect(unitsOf('PEPTJDE')).toBe(unitsOf('PEPTIDE'));
    expect(unitsOf('PEPTLDE')).toBe(unitsOf('PEPTIDE'));
  });

  it('U (selenocysteine) and O (pyrrolysine) have their published residue masses', () => {
    // Published monoisotopic residue masses: Sec 150.953636, Pyl 237.147727 (to 6 decimals).
    expect(Math.abs((unitsOf('U') - WATER_UNITS) / UNITS_PER_DA - 150.953636)).toBeLessThan(2e-6);
    expect(((unitsOf('O') - WATER_UNITS) / UNITS_PER_DA).toFixed(6)).toBe('237.147727');
    expect(unitsOf('AUOA') - unitsOf('AA')).toBe(unitsOf('U') + unitsOf('O') - 2 * WATER_UNITS);
  });

  it('daTextToUnits converts decimal text exactly', () => {
    expect(daTextToUnits('57.02146372')).toBe(570_214_637_200);
    expect(daTextToUnits('18.0105646837')).toBe(180_105_646_837);
    expect(daTextToUnits('1')).toBe(10_000_000_000);
    expect(daTextToUnits('0.0000000001')).toBe(1);
  });
});

describe('peptideMass', () => {
  it('is water plus the sum of residues, exactly', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(...Object.keys(REFERENCE_RESIDUE_MASS)), minLength: 0, maxLength: 60 }),
        (sequence) => {
          let expected = decimalToUnits(REFERENCE_WATER);
          for (const residue of sequence) expected += decimalToUnits(REFERENCE_RESIDUE_MASS[residue]);
          expect(unitsOf(sequence)).toBe(Number(expected));
        },
      ),
    );
  });

  it('reports the first letter without a mass, 1-based', () => {
    expect(peptideMass('PEPTBDE')).toEqual({ error: 'has no defined mass', position: 5, character: 'B' });
    expect(peptideMass('XA')).toMatchObject({ position: 1, character: 'X' });
    expect(peptideMass('AAZ')).toMatchObject({ position: 3, character: 'Z' });
    expect(peptideMass('pEPTIDE')).toEqual({ error: 'is not an amino-acid letter', position: 1, character: 'p' });
    expect(peptideMass('PEP1')).toMatchObject({ position: 4, character: '1' });
  });
});

describe('massKey rounds half-up to 0.0001 Da', () => {
  it('at exact boundaries', () => {
    expect(massKey(0)).toBe(0);
    expect(massKey(499_999)).toBe(0);
    expect(massKey(500_000)).toBe(1);
    expect(massKey(1_000_000)).toBe(1);
    expect(massKey(7_993_600 * 1_000_000 - 500_000)).toBe(7_993_600);
    expect(massKey(7_993_600 * 1_000_000 + 499_999)).toBe(7_993_600);
    expect(massKey(7_993_600 * 1_000_000 + 500_000)).toBe(7_993_601);
  });

  it('for any key x: x*1e6 + 0..499999 → x, x*1e6 + 500000..999999 → x+1', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 200_000_000 }), fc.integer({ min: 0, max: 999_999 }), (x, r) => {
        expect(massKey(x * 1_000_000 + r)).toBe(r >= 500_000 ? x + 1 : x);
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 200_000_000 }), (x) => {
        expect(massKey(x * 1_000_000 + 500_000)).toBe(x + 1);
        expect(massKey(x * 1_000_000 + 499_999)).toBe(x);
      }),
    );
  });
});

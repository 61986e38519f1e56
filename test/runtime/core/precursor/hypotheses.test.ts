// Tests runtime/core/hypotheses.ts: keyWindowUnits at its edges; hypotheses on hand-derived cases (counts,
// shifts and base key windows worked out by hand), its bounds (a fixed terminus always 1, a variable terminus or
// terminal residue at most 1, variable counts summing to at most maxVariable, residue counts at most maxLength),
// the MAX_HYPOTHESES guard; and soundness by brute force: for random peptides and modifications, every
// (peptide, placement of variable modifications) whose modified key lies in the window has its counts among the
// hypotheses and its unmodified key inside that hypothesis's [baseLowKey, baseHighKey] — also with residue counts
// bounded by the peptides' own maxima (mostResidues), as a dataset's index bounds them.
import { prng } from '../../../helpers/prng.js';
import { describe, expect, it } from 'vitest';
import {
  hypotheses,
  keyWindowUnits,
  MAX_HYPOTHESES,
  TooManyHypotheses,
  type Hypothesis,
} from '../../../../runtime/core/precursor/hypotheses.js';
import type { Modification, ModSpec, Site } from '../../../../runtime/model/modifications.js';

// ---- An independent model: residue masses in units of 1e-10 Da (chemistry.ts's decimal texts, typed by hand),
// keys rounded half-up, slots of a peptide.

const UNITS = 10_000_000_000;
const WATER = 180_105_646_837; // 18.0105646837
const RESIDUE: Record<string, number> = {
  G: 570_214_637_200,
  A: 710_371_137_800,
  S: 870_320_284_000,
  T: 1_010_476_784_700,
  C: 1_030_091_847_800,
  N: 1_140_429_274_400,
  Q: 1_280_585_775_100,
  K: 1_280_949_630_100,
  E: 1_290_425_930_900,
  M: 1_310_404_849_100,
  Y: 1_630_633_285_300,
  W: 1_860_793_129_500,
};
const baseUnits = (sequence: string) => [...sequence].reduce((sum, c) => sum + RESIDUE[c], WATER);
/** Key of a mass in units: rounded half-up to 0.0001 Da (units >= 0). */
const keyOf = (units: number) => Math.floor((units + 500_000) / 1_000_000);

const residues = (letters: string): Site => ({ kind: 'residues', letters });
const terminus = (end: 'N' | 'C'): Site => ({ kind: 'terminus', end });
const terminalResidue = (letter: string, end: 'N' | 'C'): Site => ({ kind: 'terminal residue', end, letter });
const mod = (name: string, deltaUnits: number, accession?: number): Modification => ({
  name,
  accession,
  delta: String(deltaUnits / UNITS),
  deltaUnits,
});
const at = (modification: Modification, site: Site): ModSpec => ({ modification, site });

const CAM = mod('Carbamidomethyl', 570_214_640_000, 4);
const OX = mod('Oxidation', 159_949_150_000, 35);
const PHOSPHO = mod('Phospho', 799_663_310_000, 21);
const ACETYL = mod('Acetyl', 420_105_650_000, 1);
const TMT = mod('TMT6plex', 2_291_629_320_000, 737);
const PYRO = mod('Gln->pyro-Glu', -170_265_490_000, 28);
const AMIDATED = mod('Amidated', -9_840_160_000, 2);
const DEHYDRATED = mod('Dehydrated', -180_105_650_000, 23);
const DEAMIDATED = mod('Deamidated', 9_840_160_000, 7);
const METHYL = mod('Methyl', 140_156_500_000, 34);

const LIMITS = { minLength: 6, maxLength: 50 };
const sortByCounts = (hs: Hypothesis[]) =>
  [...hs].sort((a, b) =>
    JSON.stringify([a.fixedCounts, a.variableCounts]).localeCompare(JSON.stringify([b.fixedCounts, b.variableCounts])),
  );

describe('keyWindowUnits', () => {
  it('is the inclusive range of units whose half-up key lies in [lowKey, highKey]', () => {
    expect(keyWindowUnits(10_000_000, 10_000_100)).toEqual([9_999_999_500_000, 10_000_100_499_999]);
    for (const [lowKey, highKey] of [
      [1, 1],
      [12_986_103, 12_986_111],
      [4_990_000, 5_010_000],
      [99_999_999, 100_000_000],
    ]) {
      const [low, high] = keyWindowUnits(lowKey, highKey);
      expect(keyOf(low)).toBe(lowKey);
      expect(keyOf(low - 1)).toBe(lowKey - 1);
      expect(keyOf(high)).toBe(highKey);
      expect(keyOf(high + 1)).toBe(highKey + 1);
    }
  });
});

describe('hypotheses: hand-derived cases', () => {
  it('gives no modification one hypothesis: the window itself', () => {
    expect(hypotheses([], [], 2, keyWindowUnits(10_000_000, 10_000_100), LIMITS)).toEqual([
      { fixedCounts: [], variableCounts: [], shiftUnits: 0, baseLowKey: 10_000_000, baseHighKey: 10_000_100 },
    ]);
  });

  it('counts a variable residue modification from 0 to maxVariable, shifting the base window by each count', () => {
    // Window 1000.0000..1000.0100 Da = units [9999999500000, 10000100499999]; Oxidation = 159949150000 units. One:
    // [9840050350000, 9840151349999] → keys 9840050..9840151. Two: [9680101200000, 9680202199999] → 9680101..9680202.
    const window = keyWindowUnits(10_000_000, 10_000_100);
    expect(sortByCounts(hypotheses([], [at(OX, residues('M'))], 2, window, LIMITS))).toEqual([
      { fixedCounts: [], variableCounts: [0], shiftUnits: 0, baseLowKey: 10_000_000, baseHighKey: 10_000_100 },
      {
        fixedCounts: [],
        variableCounts: [1],
        shiftUnits: 159_949_150_000,
        baseLowKey: 9_840_050,
        baseHighKey: 9_840_151,
      },
      {
        fixedCounts: [],
        variableCounts: [2],
        shiftUnits: 319_898_300_000,
        baseLowKey: 9_680_101,
        baseHighKey: 9_680_202,
      },
    ]);
    expect(
      hypotheses([], [at(OX, residues('M'))], 1, window, LIMITS)
        .map((h) => h.variableCounts)
        .sort(),
    ).toEqual([[0], [1]]);
    expect(hypotheses([], [at(OX, residues('M'))], 0, window, LIMITS).map((h) => h.variableCounts)).toEqual([[0]]);
  });

  it("skips fixed counts no peptide of the dataset's lengths can reach", () => {
    // Window 499..501 Da, peptides of 6..50 residues. Least mass with n Carbamidomethyl-C (160.0306487800 Da each)
    // and 6 − n glycines (57.02146372): n = 0: 360.1393470037; n = 1: 463.1485320637; n = 2: 566.1577171237 > 501.
    // n = 1 shifts the window by 57.021464: units [4419784860000, 4439785859999] → keys 4419785..4439786.
    const hs = hypotheses([at(CAM, residues('C'))], [], 2, keyWindowUnits(4_990_000, 5_010_000), LIMITS);
    expect(sortByCounts(hs)).toEqual([
      { fixedCounts: [0], variableCounts: [], shiftUnits: 0, baseLowKey: 4_990_000, baseHighKey: 5_010_000 },
      {
        fixedCounts: [1],
        variableCounts: [],
        shiftUnits: 570_214_640_000,
        baseLowKey: 4_419_785,
        baseHighKey: 4_439_786,
      },
    ]);
  });

  it('gives nothing for a window below the lightest peptide of the minimum length', () => {
    // Six glycines weigh 360.1393 Da.
    expect(hypotheses([], [], 2, keyWindowUnits(3_601_000, 3_601_392), LIMITS)).toEqual([]);
    expect(hypotheses([], [], 2, keyWindowUnits(3_601_000, 3_601_393), LIMITS)).toHaveLength(1);
    // One glycine (75.0320 Da) is reachable when the dataset holds peptides of length 1.
    expect(hypotheses([], [], 2, keyWindowUnits(1_000_000, 1_000_001), { minLength: 1, maxLength: 50 })).toHaveLength(
      1,
    );
    expect(hypotheses([], [], 2, keyWindowUnits(700_000, 750_000), { minLength: 1, maxLength: 50 })).toEqual([]);
  });

  it('gives a fixed terminus modification on every hypothesis, once', () => {
    const hs = hypotheses(
      [at(TMT, terminus('N'))],
      [at(OX, residues('M'))],
      3,
      keyWindowUnits(10_000_000, 10_010_000),
      LIMITS,
    );
    expect(hs.map((h) => h.fixedCounts)).toEqual(hs.map(() => [1]));
    expect(hs.map((h) => h.variableCounts[0]).sort()).toEqual([0, 1, 2, 3]);
    for (const h of hs) expect(h.shiftUnits).toBe(2_291_629_320_000 + h.variableCounts[0] * 159_949_150_000);
  });

  it('counts a variable terminus or terminal residue at most once, whatever maxVariable', () => {
    const hs = hypotheses(
      [],
      [at(ACETYL, terminus('N')), at(PYRO, terminalResidue('Q', 'N')), at(AMIDATED, terminalResidue('K', 'C'))],
      4,
      keyWindowUnits(10_000_000, 10_010_000),
      LIMITS,
    );
    expect(hs.map((h) => h.variableCounts.join('')).sort()).toEqual([
      '000',
      '001',
      '010',
      '011',
      '100',
      '101',
      '110',
      '111',
    ]);
  });

  it('counts residues at most maxLength', () => {
    const wide = keyWindowUnits(0, 1_000_000_000);
    expect(
      hypotheses([at(CAM, residues('C'))], [], 2, wide, { minLength: 1, maxLength: 3 })
        .map((h) => h.fixedCounts[0])
        .sort(),
    ).toEqual([0, 1, 2, 3]);
    expect(
      hypotheses([], [at(OX, residues('M'))], 4, wide, { minLength: 1, maxLength: 2 })
        .map((h) => h.variableCounts[0])
        .sort(),
    ).toEqual([0, 1, 2]);
    // Two fixed residue sites share the peptide's residues: a + b <= 3.
    const pairs = hypotheses([at(CAM, residues('C')), at(OX, residues('M'))], [], 2, wide, {
      minLength: 1,
      maxLength: 3,
    }).map((h) => h.fixedCounts.join(''));
    expect(pairs.sort()).toEqual(['00', '01', '02', '03', '10', '11', '12', '20', '21', '30']);
  });

  it('gives every count vector of fixed residue sites within the length when the window holds every mass', () => {
    // a + b <= 50 has 51·52/2 = 1326 solutions.
    const hs = hypotheses([at(CAM, residues('C')), at(OX, residues('M'))], [], 2, keyWindowUnits(0, 1_000_000_000), {
      minLength: 1,
      maxLength: 50,
    });
    expect(hs).toHaveLength(1326);
    expect(new Set(hs.map((h) => h.fixedCounts.join(','))).size).toBe(1326);
  });

  it(`refuses more than MAX_HYPOTHESES (${MAX_HYPOTHESES}) with TooManyHypotheses`, () => {
    expect(MAX_HYPOTHESES).toBe(20_000);
    // a + b + c <= 50 has C(53, 3) = 23426 solutions.
    const fixed = [at(CAM, residues('C')), at(OX, residues('M')), at(METHYL, residues('W'))];
    expect(() => hypotheses(fixed, [], 2, keyWindowUnits(0, 1_000_000_000), { minLength: 1, maxLength: 50 })).toThrow(
      TooManyHypotheses,
    );
    expect(() => hypotheses(fixed, [], 2, keyWindowUnits(0, 1_000_000_000), { minLength: 1, maxLength: 50 })).toThrow(
      /more than 20,000 mass hypotheses in this window/,
    );
    // With at most 37 residues, C(40, 3) = 9880 solutions: accepted.
    expect(hypotheses(fixed, [], 2, keyWindowUnits(0, 1_000_000_000), { minLength: 1, maxLength: 37 })).toHaveLength(
      9880,
    );
  });
});

// ---- Brute force.

const random = prng;

/** Residue slots of a site in a peptide, and whether it takes a terminus. */
const slotsOf = (site: Site, sequence: string): number[] => {
  if (site.kind === 'terminus' || site.kind === 'protein terminus') return [];
  if (site.kind === 'residues') return [...sequence].flatMap((c, i) => (site.letters.includes(c) ? [i] : []));
  const i = site.end === 'N' ? 0 : sequence.length - 1;
  return sequence[i] === site.letter ? [i] : [];
};
/** Slot ids: residue i is i, the N-terminus is -1, the C-terminus is -2. */
const slotIds = (site: Site, sequence: string): number[] =>
  site.kind === 'terminus' ? [site.end === 'N' ? -1 : -2] : slotsOf(site, sequence);
const letters = (site: Site) =>
  site.kind === 'terminus' || site.kind === 'protein terminus'
    ? ''
    : site.kind === 'residues'
      ? site.letters
      : site.letter;
const conflict = (a: Site, b: Site) =>
  a.kind === 'terminus' || b.kind === 'terminus'
    ? a.kind === 'terminus' && b.kind === 'terminus' && a.end === b.end
    : [...letters(a)].some((c) => letters(b).includes(c));

/** Every distinct vector of variable counts a peptide can carry: each slot takes at most one, maxVariable in all. */
function variablePlacements(variable: readonly ModSpec[], sequence: string, maxVariable: number): number[][] {
  const slots = [-1, ...[...sequence].map((_, i) => i), -2];
  const takers = slots.map((slot) =>
    variable.flatMap((spec, j) => (slotIds(spec.site, sequence).includes(slot) ? [j] : [])),
  );
  const found = new Map<string, number[]>();
  const counts = variable.map(() => 0);
  const walk = (s: number, left: number): void => {
    if (s === slots.length) {
      found.set(counts.join(','), [...counts]);
      return;
    }
    walk(s + 1, left);
    if (left === 0) return;
    for (const j of takers[s]) {
      counts[j]++;
      walk(s + 1, left - 1);
      counts[j]--;
    }
  };
  walk(0, maxVariable);
  return [...found.values()];
}

const FIXED_POOL: ModSpec[] = [
  at(CAM, residues('C')),
  at(TMT, terminus('N')),
  at(mod('Heavy loss', -1_000_000_000_000), residues('K')), // −100 Da on K: a slot lighter than a glycine
  at(PYRO, terminalResidue('Q', 'N')),
  at(METHYL, residues('E')),
];
const VARIABLE_POOL: ModSpec[] = [
  at(OX, residues('M')),
  at(PHOSPHO, residues('ST')),
  at(AMIDATED, terminus('C')),
  at(DEHYDRATED, terminus('C')),
  at(DEAMIDATED, residues('NQ')),
  at(mod('Big loss', -1_500_000_000_000), residues('E')), // −150 Da on E: a slot of negative mass
  at(ACETYL, terminus('N')),
  at(PYRO, terminalResidue('Q', 'N')),
  at(METHYL, terminalResidue('K', 'C')),
  at(mod('Tiny', 1), residues('A')),
  at(PHOSPHO, residues('Y')),
];
const ALPHABET = 'GASTCNQKEMYW';

describe('hypotheses: soundness by brute force', () => {
  it('holds every in-window (peptide, counts) with its unmodified key in the hypothesis window; bounds hold', () => {
    const next = random(20240611);
    const pick = <T>(items: ArrayLike<T>) => items[Math.floor(next() * items.length)];
    let hits = 0;
    let trials = 0;
    let dropped = 0;
    for (let trial = 0; trial < 400; trial++) {
      const fixed = FIXED_POOL.filter(() => next() < 0.35); // the pool's sites are pairwise apart
      const variable = VARIABLE_POOL.filter((v) => next() < 0.4 && !fixed.some((f) => conflict(f.site, v.site)));
      const maxVariable = Math.floor(next() * 5);
      const minLength = 1 + Math.floor(next() * 3);
      const maxLength = minLength + Math.floor(next() * 4);
      const peptides = Array.from({ length: 120 }, () => {
        const length = minLength + Math.floor(next() * (maxLength - minLength + 1));
        return Array.from({ length }, () => pick(ALPHABET)).join('');
      });
      const fixedCounts = (sequence: string) =>
        fixed.map((s) => (s.site.kind === 'terminus' ? 1 : slotsOf(s.site, sequence).length));
      const modifiedUnits = (sequence: string, counts: number[]) =>
        baseUnits(sequence) +
        fixedCounts(sequence).reduce((sum, n, i) => sum + n * fixed[i].modification.deltaUnits, 0) +
        counts.reduce((sum, n, j) => sum + n * variable[j].modification.deltaUnits, 0);

      // A window around one real candidate (0 to 0.3 Da either side), or now and then a wide one (up to 40 Da).
      const target = pick(peptides);
      const targetKey = keyOf(modifiedUnits(target, pick(variablePlacements(variable, target, maxVariable))));
      const spread = next() < 0.2 ? 400_000 : 3_000;
      const lowKey = Math.max(0, targetKey - Math.floor(next() * spread));
      const highKey = targetKey + Math.floor(next() * spread);
      const [low, high] = [lowKey * 1_000_000 - 500_000, highKey * 1_000_000 + 499_999];

      // Every other trial bounds residue counts as a dataset's index would: each letter's most in one of these
      // peptides, summed over a site's letters.
      const mostOf = (letter: string) => Math.max(...peptides.map((p) => p.split(letter).length - 1));
      const bounded = trial % 2 === 1;
      const mostResidues = bounded
        ? (letters: string) => [...letters].reduce((sum, letter) => sum + mostOf(letter), 0)
        : undefined;
      const hs = hypotheses(fixed, variable, maxVariable, keyWindowUnits(lowKey, highKey), {
        minLength,
        maxLength,
        mostResidues,
      });
      const context = JSON.stringify({
        trial,
        fixed: fixed.map((s) => s.modification.name),
        variable: variable.map((s) => s.modification.name),
        maxVariable,
        minLength,
        maxLength,
        lowKey,
        highKey,
        bounded,
      });
      const byCounts = new Map(hs.map((h) => [`${h.fixedCounts.join(',')}|${h.variableCounts.join(',')}`, h]));
      expect(byCounts.size, `duplicate hypotheses ${context}`).toBe(hs.length);

      const problems: string[] = [];
      const check = (ok: boolean, what: string) => {
        if (!ok) problems.push(what);
      };
      for (const h of hs) {
        const name = `${h.fixedCounts}|${h.variableCounts}`;
        check(h.fixedCounts.length === fixed.length && h.variableCounts.length === variable.length, `${name}: lengths`);
        fixed.forEach((s, i) => {
          const n = h.fixedCounts[i];
          const max = s.site.kind === 'residues' ? Math.min(maxLength, mostResidues?.(s.site.letters) ?? Infinity) : 1;
          check(
            s.site.kind === 'terminus' ? n === 1 : n >= 0 && n <= max,
            `${name}: fixed ${s.modification.name} count ${n}`,
          );
        });
        variable.forEach((s, j) => {
          const n = h.variableCounts[j];
          const max = s.site.kind === 'residues' ? (mostResidues?.(s.site.letters) ?? Infinity) : 1;
          check(n >= 0 && n <= max, `${name}: variable ${s.modification.name} count ${n}`);
        });
        check(h.variableCounts.reduce((a, b) => a + b, 0) <= maxVariable, `${name}: more than maxVariable`);
        const shift =
          h.fixedCounts.reduce((sum, n, i) => sum + n * fixed[i].modification.deltaUnits, 0) +
          h.variableCounts.reduce((sum, n, j) => sum + n * variable[j].modification.deltaUnits, 0);
        check(h.shiftUnits === shift, `${name}: shift ${h.shiftUnits}, expected ${shift}`);
        // The tightest key bounds of an unmodified mass in [low − shift, high − shift].
        check(
          h.baseLowKey === keyOf(Math.max(0, low - shift)) && h.baseHighKey === keyOf(high - shift),
          `${name}: base keys ${h.baseLowKey}..${h.baseHighKey}`,
        );
      }

      for (const sequence of peptides) {
        const fc = fixedCounts(sequence);
        for (const counts of variablePlacements(variable, sequence, maxVariable)) {
          const key = keyOf(modifiedUnits(sequence, counts));
          if (key < lowKey || key > highKey) continue;
          hits++;
          const h = byCounts.get(`${fc.join(',')}|${counts.join(',')}`);
          const base = keyOf(baseUnits(sequence));
          if (!h) problems.push(`${sequence} ${fc}|${counts} (key ${key}) has no hypothesis`);
          else
            check(
              base >= h.baseLowKey && base <= h.baseHighKey,
              `${sequence} ${fc}|${counts}: base key ${base} outside ${h.baseLowKey}..${h.baseHighKey}`,
            );
        }
      }
      expect(problems.slice(0, 5), context).toEqual([]);
      if (bounded)
        dropped +=
          hypotheses(fixed, variable, maxVariable, keyWindowUnits(lowKey, highKey), { minLength, maxLength }).length -
          hs.length;
      trials++;
    }
    expect(trials).toBe(400);
    expect(dropped).toBeGreaterThan(100); // the bound does cut hypotheses
    expect(hits).toBeGreaterThan(2_000); // the windows do catch candidates
  });
});

// Tests runtime/api/precursorParams.ts: parsePrecursorQuery over a ParamSource built from URLSearchParams — the
// precursor as mass, mz with charge (M = (mz − 1.007276466621) × charge) or mass1/mass2 (exact keys); the key
// window ⌈(M − low)·10^4⌉ .. ⌊(M + high)·10^4⌋ for ppm and Da, symmetric or not; defaults; modifications; and every
// refusal docs/api.md names, each a 400 whose message names the parameter. PRECURSOR_PARAMS' limits.
import { describe, expect, it } from 'vitest';
import { QueryError, type ParamSource } from '../../../runtime/api/params.js';
import {
  MAX_RANGE_DA,
  MAX_TOLERANCE,
  MAX_VARIABLE,
  parsePrecursorQuery,
  PRECURSOR_PARAMS,
} from '../../../runtime/api/precursorParams.js';
import { specText } from '../../../runtime/model/modifications.js';

const source = (query: string): ParamSource => {
  const params = new URLSearchParams(query);
  return (name) => params.getAll(name);
};
const parse = (query: string) => parsePrecursorQuery(source(query));

/** The QueryError a query is refused with, as plain data. */
function refusal(query: string): { status: number; message: string } {
  try {
    parse(query);
  } catch (e) {
    if (!(e instanceof QueryError)) throw e;
    return { status: e.status, message: e.message };
  }
  throw new Error(`no refusal for ${query}`);
}

const PROTON = 1.007276466621; // CODATA 2018

/** docs/api.md's window, evaluated in doubles: ⌈(M − low)·10^4⌉ .. ⌊(M + high)·10^4⌋, tolerances in Da. */
const keys = (centre: number, low: number, high: number) => ({
  lowKey: Math.ceil((centre - low) * 1e4),
  highKey: Math.floor((centre + high) * 1e4),
});

describe('parsePrecursorQuery: the precursor and its window', () => {
  it('takes a neutral mass with the default 10 ppm tolerance and the default paging and modifications', () => {
    // 1000 Da × 10 ppm = 0.01 Da: 999.99 .. 1000.01.
    expect(parse('mass=1000')).toEqual({
      lowKey: 9_999_900,
      highKey: 10_000_100,
      centre: 1000,
      fixed: [],
      variable: [],
      maxVariable: 2,
      filter: { taxa: [] },
      page: 1,
      pageSize: 100,
    });
  });

  it('turns mz and charge into M = (mz − proton) × charge', () => {
    const q = parse('mz=650.3188&charge=2');
    expect(q.centre).toBe((650.3188 - PROTON) * 2);
    expect(q.centre).toBeCloseTo(1298.623047066758, 9); // by hand: (650.3188 − 1.007276466621) × 2
    const t = (q.centre! * 10) / 1e6;
    expect(q).toMatchObject(keys(q.centre!, t, t));
    expect(q).toMatchObject({ lowKey: 12_986_101, highKey: 12_986_360 }); // 1298.6101..1298.6360
    expect(parse('mz=1001.007276466621&charge=1').centre).toBeCloseTo(1000, 9);
    expect(parse('mz=300.5&charge=10').centre).toBe((300.5 - PROTON) * 10);
  });

  it('computes ppm windows as M × t / 10^6 on each side', () => {
    expect(parse('mass=1000&tolerance=500')).toMatchObject({ lowKey: 9_995_000, highKey: 10_005_000 }); // ±0.5 Da
    expect(parse('mass=2000&tolerance=1000')).toMatchObject({ lowKey: 19_980_000, highKey: 20_020_000 }); // ±2 Da
    for (const [mass, ppm] of [
      [1234.5678, 7],
      [850.4321, 3.3],
      [3021.00005, 20],
      [99999.5, 1],
    ]) {
      const t = (mass * ppm) / 1e6;
      expect(parse(`mass=${mass}&tolerance=${ppm}`), `${mass} ${ppm}`).toMatchObject({
        centre: mass,
        ...keys(mass, t, t),
      });
    }
  });

  it('takes a tolerance in Da', () => {
    expect(parse('mass=1024&tolerance=0.5&unit=Da')).toMatchObject({
      lowKey: 10_235_000,
      highKey: 10_245_000,
      centre: 1024,
    });
    expect(parse('mass=1000&tolerance=0.0625&unit=Da')).toMatchObject({ lowKey: 9_999_375, highKey: 10_000_625 });
    expect(parse('mass=1000&tolerance=5&unit=da')).toMatchObject({ lowKey: 9_950_000, highKey: 10_050_000 }); // unit is case-insensitive
    expect(parse('mass=1234.56789&tolerance=0.02&unit=Da')).toMatchObject(keys(1234.56789, 0.02, 0.02));
  });

  it('takes asymmetric windows: toleranceLow below, toleranceHigh above, each defaulting to tolerance', () => {
    expect(parse('mass=1000&toleranceLow=20&toleranceHigh=5')).toMatchObject({
      lowKey: 9_999_800,
      highKey: 10_000_050,
    }); // −0.02, +0.005 Da
    expect(parse('mass=1000&toleranceLow=0')).toMatchObject({ lowKey: 10_000_000, highKey: 10_000_100 });
    expect(parse('mass=1000&tolerance=50&toleranceHigh=0')).toMatchObject({ lowKey: 9_999_500, highKey: 10_000_000 });
    expect(parse('mass=1024&unit=Da&tolerance=1&toleranceLow=0.25')).toMatchObject({
      lowKey: 10_237_500,
      highKey: 10_250_000,
    });
  });

  // BUG (runtime/core/precursorQuery.ts:83-85): with unit=Da the code accepts toleranceLow and toleranceHigh without
  // tolerance (line 77), but then checks tolerance's *default* (10, meant as ppm) against the 5 Da limit and refuses
  // the query with "tolerance must be at most 5 Da, got 10" — a value the user never gave.
  it('takes unit=Da with toleranceLow and toleranceHigh and no tolerance', () => {
    expect(parse('mass=1024&unit=Da&toleranceLow=0.25&toleranceHigh=0.5')).toMatchObject({
      lowKey: 10_237_500,
      highKey: 10_245_000,
    });
  });

  it('clamps the low key at 0', () => {
    expect(parse('mass=0.5&tolerance=1&unit=Da')).toMatchObject({ lowKey: 0, highKey: 15_000 });
  });

  it('takes mass1/mass2 as exact keys (ceil of the low end, floor of the high end), with no centre', () => {
    const q = parse('mass1=1000.00005&mass2=1000.00015');
    expect(q).toEqual({
      lowKey: 10_000_001,
      highKey: 10_000_001,
      fixed: [],
      variable: [],
      maxVariable: 2,
      filter: { taxa: [] },
      page: 1,
      pageSize: 100,
    });
    expect(q.centre).toBeUndefined();
    expect(parse('mass1=1460.6&mass2=1460.62')).toMatchObject({ lowKey: 14_606_000, highKey: 14_606_200 });
    expect(parse('mass1=1000&mass2=1010')).toMatchObject({ lowKey: 10_000_000, highKey: 10_100_000 }); // exactly 10 Da
    expect(parse('mass1=0.00001&mass2=0.99999')).toMatchObject({ lowKey: 1, highKey: 9_999 });
  });

  // BUG (runtime/core/precursorQuery.ts:73): the width is compared as a double difference, so some exactly 10 Da
  // windows are refused: 1024.0005 − 1014.0005 = 10.000000000000114 in doubles → "spans 10.000000000000114 Da;
  // at most 10 Da". docs/api.md: mass1/mass2 are "at most 10 Da wide" and compared exactly.
  it('takes a mass1/mass2 window exactly 10 Da wide whatever its decimals', () => {
    expect(parse('mass1=1014.0005&mass2=1024.0005')).toMatchObject({ lowKey: 10_140_005, highKey: 10_240_005 });
  });

  it('reads modifications, maxVariable, page and pageSize', () => {
    const q = parse(
      'mass=1000&fixed=Carbamidomethyl@C,TMT6plex@K,TMT6plex@N-term&variable=Oxidation@M,Phospho@S,Phospho@T&maxVariable=4&page=3&pageSize=1000',
    );
    expect(q.fixed.map(specText)).toEqual(['Carbamidomethyl@C', 'TMT6plex@K', 'TMT6plex@N-term']);
    expect(q.variable.map(specText)).toEqual(['Oxidation@M', 'Phospho@ST']);
    expect(q).toMatchObject({ maxVariable: 4, page: 3, pageSize: 1000 });
    expect(parse('mass=1000&maxVariable=0').maxVariable).toBe(0);
    expect(parse('mass=1000&fixed=&variable=').fixed).toEqual([]);
  });

  it('reads a custom modification whose + is sent as %2B (a raw + in a query string is a space)', () => {
    expect(parse('mass=1000&variable=Tag:%2B12.3456@K').variable[0].modification).toEqual({
      name: 'Tag',
      delta: '12.3456',
      deltaUnits: 123_456_000_000,
    });
    expect(parse('mass=1000&variable=Tag:-12.3456@K').variable[0].modification.deltaUnits).toBe(-123_456_000_000);
    expect(refusal('mass=1000&variable=Tag:+12.3456@K').message).toBe(
      'variable: "Tag: 12.3456@K" reads as "Tag: 12.3456": a + in a URL\'s query is a space; write it as %2B (Name:%2B12.3456)',
    );
  });

  it('lets variable modifications share a site (Deamidated@Q with Gln->pyro-Glu@Q@N-term)', () => {
    expect(parse('mass=1000&variable=Deamidated@Q,Gln->pyro-Glu@Q@N-term').variable.map(specText)).toEqual([
      'Deamidated@Q',
      'Gln->pyro-Glu@Q@N-term',
    ]);
    expect(parse('mass=1000&variable=Oxidation@M,Dioxidation@M').variable.map(specText)).toEqual([
      'Oxidation@M',
      'Dioxidation@M',
    ]);
  });

  it('lets a fixed terminus and a fixed residue at that terminus coexist (different slots)', () => {
    expect(parse('mass=1000&fixed=Acetyl@N-term,Gln->pyro-Glu@Q@N-term').fixed.map(specText)).toEqual([
      'Acetyl@N-term',
      'Gln->pyro-Glu@Q@N-term',
    ]);
  });
});

describe('parsePrecursorQuery: isotope errors', () => {
  it('gives each error its own window, in the order given, each once: the mass less n spacings, ppm of that mass', () => {
    const q = parse('mz=650.3188&charge=2&tolerance=20&isotopeErrors=1,0,-1,1');
    const M = (650.3188 - PROTON) * 2;
    expect({ lowKey: q.lowKey, highKey: q.highKey, centre: q.centre }).toEqual({
      ...keys(M, (M * 20) / 1e6, (M * 20) / 1e6),
      centre: M,
    });
    expect(q.isotopes).toEqual(
      [1, 0, -1].map((n) => {
        const centre = M - n * 1.0033548378;
        return { isotopeError: n, centre, ...keys(centre, (centre * 20) / 1e6, (centre * 20) / 1e6) };
      }),
    );
    expect(parse('mass=1000&tolerance=0.5&unit=Da&isotopeErrors= 2 ').isotopes).toEqual([
      { isotopeError: 2, centre: 1000 - 2 * 1.0033548378, ...keys(1000 - 2 * 1.0033548378, 0.5, 0.5) },
    ]);
  });

  it('leaves the query as it was when not given (or given empty)', () => {
    expect(parse('mass=1000')).not.toHaveProperty('isotopes');
    expect(parse('mass=1000&isotopeErrors=')).toEqual(parse('mass=1000'));
  });
});

describe('parsePrecursorQuery: refusals (400, naming the parameter)', () => {
  const cases: [string, string][] = [
    // The precursor.
    ['', 'a precursor is required: mass, or mz with charge, or mass1 and mass2'],
    ['tolerance=5', 'a precursor is required: mass, or mz with charge, or mass1 and mass2'],
    [
      'mass=1000&mz=500&charge=2',
      'give the precursor once: mass and mz are both given (use mass, or mz with charge, or mass1 and mass2)',
    ],
    [
      'mass=1000&mass1=999&mass2=1001',
      'give the precursor once: mass and mass1/mass2 are both given (use mass, or mz with charge, or mass1 and mass2)',
    ],
    [
      'mz=500&charge=2&mass1=999&mass2=1001',
      'give the precursor once: mz and mass1/mass2 are both given (use mass, or mz with charge, or mass1 and mass2)',
    ],
    ['mz=500', 'charge is required with mz (1 to 10)'],
    ['mass=1000&charge=2', 'charge goes with mz; with mass or mass1/mass2 leave it out'],
    ['mass1=999&mass2=1001&charge=2', 'charge goes with mz; with mass or mass1/mass2 leave it out'],
    ['mz=500&charge=0', 'charge must be from 1 to 10, got 0'],
    ['mz=500&charge=11', 'charge must be from 1 to 10, got 11'],
    ['mz=500&charge=1.5', 'charge must be an integer, got "1.5"'],
    ['mz=1&charge=1', 'mz 1 with charge 1 gives no positive neutral mass'],
    ['mass=0', 'mass must be greater than 0, got 0'],
    ['mass=-5', 'mass must be greater than 0, got -5'],
    ['mass=100001', 'mass must be at most 100000, got 100001'],
    ['mz=0&charge=2', 'mz must be greater than 0, got 0'],
    ['mass1=1000', 'mass2 is missing: mass1 and mass2 are required as doubles (Da), e.g. mass1=1000.5&mass2=1001.5'],
    ['mass2=1000', 'mass1 is missing: mass1 and mass2 are required as doubles (Da), e.g. mass1=1000.5&mass2=1001.5'],
    ['mass1=1001&mass2=1000', 'mass1 (1001) must not be greater than mass2 (1000)'],
    ['mass1=1000&mass2=1010.5', 'mass1 to mass2 spans more than 10 Da (1000 to 1010.5)'],
    ['mass1=1000&mass2=1020', 'mass1 to mass2 spans more than 10 Da (1000 to 1020)'],
    ['mass1=1000&mass2=1010.0001', 'mass1 to mass2 spans more than 10 Da (1000 to 1010.0001)'],
    // Numbers that are not finite.
    ['mass=NaN', 'mass must be a number, got "NaN"'],
    ['mass=Infinity', 'mass must be a number, got "Infinity"'],
    ['mass=abc', 'mass must be a number, got "abc"'],
    ['mass=1e999', 'mass must be a number, got "1e999"'],
    ['mass=', 'mass must be a number, got ""'],
    ['mz=NaN&charge=2', 'mz must be a number, got "NaN"'],
    ['mz=-Infinity&charge=2', 'mz must be a number, got "-Infinity"'],
    ['mass=1000&tolerance=abc', 'tolerance must be a number, got "abc"'],
    ['mass=1000&tolerance=NaN', 'tolerance must be a number, got "NaN"'],
    ['mass=1000&toleranceLow=Infinity', 'toleranceLow must be a number, got "Infinity"'],
    [
      'mass1=abc&mass2=1',
      'mass1 is not a finite number ("abc"): mass1 and mass2 are required as doubles (Da), e.g. mass1=1000.5&mass2=1001.5',
    ],
    [
      'mass1=1&mass2=Infinity',
      'mass2 is not a finite number ("Infinity"): mass1 and mass2 are required as doubles (Da), e.g. mass1=1000.5&mass2=1001.5',
    ],
    // Tolerances.
    ['mass=1000&tolerance=0', 'tolerance must be greater than 0, got 0'],
    ['mass=1000&tolerance=-1', 'tolerance must be greater than 0, got -1'],
    ['mass=1000&toleranceLow=-1', 'toleranceLow must be at least 0, got -1'],
    ['mass=1000&toleranceHigh=-0.5', 'toleranceHigh must be at least 0, got -0.5'],
    ['mass=1000&tolerance=1001', 'tolerance must be at most 1000 ppm, got 1001'],
    ['mass=1000&toleranceLow=1000.5', 'toleranceLow must be at most 1000 ppm, got 1000.5'],
    ['mass=1000&toleranceHigh=2000', 'toleranceHigh must be at most 1000 ppm, got 2000'],
    ['mass=1000&tolerance=5.5&unit=Da', 'tolerance must be at most 5 Da, got 5.5'],
    ['mass=1000&tolerance=1&toleranceHigh=6&unit=Da', 'toleranceHigh must be at most 5 Da, got 6'],
    ['mass=1000&unit=Da', 'tolerance is required with unit=Da (its default, 10, is in ppm)'],
    ['mass=1000&unit=Da&toleranceLow=0.5', 'tolerance is required with unit=Da (its default, 10, is in ppm)'],
    ['mass=1000&unit=mDa&tolerance=1', 'unit must be one of ppm, Da, got "mDa"'],
    ['mass1=1000&mass2=1001&tolerance=5', 'tolerance applies to mass or mz; mass1 and mass2 are the window itself'],
    [
      'mass1=1000&mass2=1001&toleranceHigh=5',
      'toleranceHigh applies to mass or mz; mass1 and mass2 are the window itself',
    ],
    ['mass1=1000&mass2=1001&unit=Da', 'unit applies to mass or mz; mass1 and mass2 are the window itself'],
    // Modifications.
    [
      'mass=1000&fixed=Carbamidomethy@C',
      'fixed: unknown modification "Carbamidomethy" in "Carbamidomethy@C": use a Unimod title (e.g. Carbamidomethyl, Oxidation, Phospho), UNIMOD:<accession>, or Name:+12.3456 for a custom mass',
    ],
    [
      'mass=1000&variable=Oxidatio@M',
      'variable: unknown modification "Oxidatio" in "Oxidatio@M": use a Unimod title (e.g. Carbamidomethyl, Oxidation, Phospho), UNIMOD:<accession>, or Name:+12.3456 for a custom mass',
    ],
    [
      'mass=1000&variable=Phospho@B',
      'variable: site "B" in "Phospho@B" is not residue letters (e.g. STY), N-term, C-term, Protein N-term or a residue at a terminus (Q@N-term)',
    ],
    [
      'mass=1000&fixed=Carbamidomethyl',
      'fixed: "Carbamidomethyl" is not Name@Sites (e.g. Carbamidomethyl@C, Oxidation@M, TMT6plex@N-term)',
    ],
    [
      'mass=1000&fixed=Carbamidomethyl@C&variable=Oxidation@C',
      'variable: Oxidation@C shares a site with fixed Carbamidomethyl@C; a site is either fixed or variable',
    ],
    [
      'mass=1000&fixed=Acetyl@N-term&variable=TMT6plex@N-term',
      'variable: TMT6plex@N-term shares a site with fixed Acetyl@N-term; a site is either fixed or variable',
    ],
    [
      'mass=1000&fixed=Gln->pyro-Glu@Q@N-term&variable=Deamidated@NQ',
      'variable: Deamidated@NQ shares a site with fixed Gln->pyro-Glu@Q@N-term; a site is either fixed or variable',
    ],
    [
      'mass=1000&fixed=Carbamidomethyl@C,Carbamyl@C',
      'fixed: Carbamidomethyl@C and Carbamyl@C share a site; a site carries at most one fixed modification',
    ],
    [
      'mass=1000&fixed=Phospho@STY,Sulfo@Y',
      'fixed: Phospho@STY and Sulfo@Y share a site; a site carries at most one fixed modification',
    ],
    [
      'mass=1000&fixed=Acetyl@N-term,TMT6plex@N-term',
      'fixed: Acetyl@N-term and TMT6plex@N-term share a site; a site carries at most one fixed modification',
    ],
    ['mass=1000&variable=Acetyl@N-term,Acetyl@N-term', 'variable: "Acetyl@N-term" is given twice'],
    [
      'mass=1000&variable=' + Array.from({ length: 9 }, (_, i) => `T${i}:%2B1@K`).join(','),
      'variable: 9 modifications given; at most 8',
    ],
    ['mass=1000&maxVariable=5', 'maxVariable must be from 0 to 4, got 5'],
    ['mass=1000&maxVariable=-1', 'maxVariable must be from 0 to 4, got -1'],
    // Paging.
    ['mass=1000&page=0', 'page must be at least 1, got 0'],
    ['mass=1000&pageSize=1001', 'pageSize must be from 1 to 1000, got 1001'],
    ['mass=1000&page=', 'page must be an integer, got ""'],
    // Given twice.
    ['mass=1000&mass=1001', 'mass is given 2 times; give it once'],
    ['mz=500&mz=501&charge=2', 'mz is given 2 times; give it once'],
    ['mz=500&charge=2&charge=3', 'charge is given 2 times; give it once'],
    ['mass1=1&mass1=2&mass2=3', 'mass1 is given 2 times; give it once'],
    ['mass=1000&tolerance=1&tolerance=2', 'tolerance is given 2 times; give it once'],
    ['mass=1000&fixed=Carbamidomethyl@C&fixed=Oxidation@M', 'fixed is given 2 times; give it once'],
    ['mass=1000&variable=Oxidation@M&variable=Phospho@S&variable=Acetyl@K', 'variable is given 3 times; give it once'],
    // Isotope errors.
    ['mass=1000&isotopeErrors=x', 'isotopeErrors must be whole numbers from -1 to 3, comma-separated, got "x"'],
    ['mass=1000&isotopeErrors=9', 'isotopeErrors must be whole numbers from -1 to 3, comma-separated, got "9"'],
    ['mass=1000&isotopeErrors=0,,1', 'isotopeErrors must be whole numbers from -1 to 3, comma-separated, got "0,,1"'],
    ['mass=1000&isotopeErrors=0.5', 'isotopeErrors must be whole numbers from -1 to 3, comma-separated, got "0.5"'],
    [
      'mass1=1000&mass2=1001&isotopeErrors=0,1',
      'isotopeErrors applies to mass or mz; mass1 and mass2 are the window itself',
    ],
    ['mass=1.5&isotopeErrors=0,2', 'isotopeErrors: neutral mass 1.5 less 2 isotope spacings is not positive'],
    ['mass=1000&isotopeErrors=0&isotopeErrors=1', 'isotopeErrors is given 2 times; give it once'],
  ];

  it.each(cases)('%s → %s', (query, message) => {
    expect(refusal(query)).toEqual({ status: 400, message });
  });

  it('names the parameter in every message', () => {
    const names = [...PRECURSOR_PARAMS.map((p) => p.name), 'precursor'];
    for (const [query, message] of cases)
      expect(
        names.some((name) => message.includes(name)),
        `${query}: ${message}`,
      ).toBe(true);
  });
});

describe('PRECURSOR_PARAMS', () => {
  it("lists the parameters in checking order with docs/api.md's limits and defaults", () => {
    expect(PRECURSOR_PARAMS.map((p) => p.name)).toEqual([
      'mass',
      'mz',
      'charge',
      'mass1',
      'mass2',
      'tolerance',
      'toleranceLow',
      'toleranceHigh',
      'unit',
      'isotopeErrors',
      'fixed',
      'variable',
      'maxVariable',
      'taxon',
      'reviewed',
      'page',
      'pageSize',
    ]);
    const row = (name: string) => PRECURSOR_PARAMS.find((p) => p.name === name)!;
    expect(row('taxon')).toMatchObject({ kind: 'taxa', max: 100 });
    expect(row('reviewed')).toMatchObject({ kind: 'choice', choices: ['true', 'false'] });
    expect(row('charge')).toMatchObject({ kind: 'integer', min: 1, max: 10 });
    expect(row('tolerance')).toMatchObject({ kind: 'number', default: 10, min: 0, exclusiveMin: true });
    expect(row('unit')).toMatchObject({ kind: 'choice', choices: ['ppm', 'Da'], default: 'ppm' });
    expect(row('maxVariable')).toMatchObject({ default: 2, min: 0, max: 4 });
    expect(row('pageSize')).toMatchObject({ default: 100, min: 1, max: 1000 });
    expect(row('page')).toMatchObject({ default: 1, min: 1 });
    expect(PRECURSOR_PARAMS.every((p) => !p.required)).toBe(true);
    expect(MAX_TOLERANCE).toEqual({ ppm: 1000, Da: 5 });
    expect(MAX_RANGE_DA).toBe(10);
    expect(MAX_VARIABLE).toBe(4);
  });

  it('accepts the limits themselves', () => {
    expect(parse('mass=1000&tolerance=1000')).toMatchObject({ lowKey: 9_990_000, highKey: 10_010_000 });
    expect(parse('mass=1000&tolerance=5&unit=Da')).toMatchObject({ lowKey: 9_950_000, highKey: 10_050_000 });
    expect(parse('mz=100.5&charge=10').centre).toBe((100.5 - PROTON) * 10);
    expect(parse('mz=1000&charge=1').centre).toBe(1000 - PROTON);
    expect(parse('mass=100000').centre).toBe(100000);
    expect(parse('mass=1000&maxVariable=4').maxVariable).toBe(4);
    expect(parse('mass=1000&pageSize=1').pageSize).toBe(1);
    expect(
      parse('mass=1000&variable=' + Array.from({ length: 8 }, (_, i) => `T${i}:%2B1@K`).join(',')).variable,
    ).toHaveLength(8);
  });
});

// Isotope errors (runtime/core/precursor/isotopeSearch.ts, isotopeErrors.ts) against the brute-force precursor reference
// (test/helpers/referenceIsotopes.ts over referencePrecursor.ts, which import nothing from runtime/), reached only
// through the HTTP handler: /api/v1/search with isotopeErrors, every page walked at random page sizes, equals the
// reference's windows in the order given (which n each candidate matched at, its ppm of that window's mass, the
// total over all windows), windows overlapping or not; POST /api/v1/match with isotopeErrors and an MGF body whose
// records give no CHARGE (each tried at every one of `charges`) or their own, equals the reference search by search.
// On the bundled dataset, whose complete view answers its own pages, the windows equal the plain searches of their
// masses.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Handler } from '../../../../runtime/api/handler.js';
import { nodeCodecs } from '../../../../runtime/entries/node/platform.js';
import { call, folderHandler, stable, stableText } from '../../../helpers/api.js';
import { bundledDataset, sampleSubset, smallShardsDataset } from '../../../helpers/datasets.js';
import { walkPages, type Mismatch } from '../../../helpers/pageWalk.js';
import { prng } from '../../../helpers/prng.js';
import {
  parseRefMods,
  REFERENCE_PROTON,
  referencePeptides,
  ReferencePrecursor,
} from '../../../helpers/referencePrecursor.js';
import {
  REFERENCE_ISOTOPE_SPACING,
  referenceIsotopeAnswer,
  referenceIsotopeGroups,
  referenceIsotopeWindows,
  referencePageOf,
  type RefTolerance,
} from '../../../helpers/referenceIsotopes.js';

/** The small-shards dataset's records (the sample's first 3,000, 2 KB shards, a two-level index). */
const RECORDS = 3000;
const MODS = 'fixed=Carbamidomethyl@C&variable=Oxidation@M';

/** Read with Node's codecs, as the Node server reads a folder: the walks read thousands of small shards. */
let handler: Handler;
let reference: ReferencePrecursor;

beforeAll(async () => {
  const building = smallShardsDataset();
  reference = new ReferencePrecursor(referencePeptides(readFileSync(sampleSubset(RECORDS))), {
    fixed: parseRefMods('Carbamidomethyl@C'),
    variable: parseRefMods('Oxidation@M'),
    maxVariable: 2,
  });
  handler = folderHandler(await building, nodeCodecs);
});

const totals = { pages: 0, groups: 0, entries: 0 };
afterAll(() =>
  console.log(
    `isotope errors differential: ${totals.pages} pages, ${totals.groups} mass groups, ${totals.entries} entries compared`,
  ),
);

/** The isotope errors a parameter's text asks for, as docs/api.md says: each once, in the order given. */
const errorsOf = (text: string) => [...new Set(text.split(',').map(Number))];

/** Tolerances as query text and as the reference takes them: ppm and Da, symmetric or not, some wide enough to overlap. */
const TOLERANCES: [string, RefTolerance][] = [
  ['tolerance=10', { below: 10, above: 10, unit: 'ppm' }],
  ['tolerance=20', { below: 20, above: 20, unit: 'ppm' }],
  ['toleranceLow=5&toleranceHigh=15', { below: 5, above: 15, unit: 'ppm' }],
  ['tolerance=0.02&unit=Da', { below: 0.02, above: 0.02, unit: 'Da' }],
  // Windows 1.2 Da wide, 1.0034 Da apart: a peptide may match at two isotope errors.
  ['tolerance=0.6&unit=Da', { below: 0.6, above: 0.6, unit: 'Da' }],
];
const ERROR_LISTS = ['0,1', '1,0', '0,1,2', '-1,0,1,2,3', '2', '0', '3,-1,3', ' 1 , 0 '];

/** A precursor near a stored form's mass, picked `shift` isotope peaks up (so that some window finds it), or anywhere. */
function precursorMass(random: () => number, shift: number): number {
  if (random() < 0.15) return 700 + random() * 2500;
  const form = Math.floor(random() * reference.formCount);
  return reference.massOf(form) + shift * REFERENCE_ISOTOPE_SPACING + (random() - 0.5) * 2e-5 * 1000;
}

describe('/api/v1/search with isotopeErrors equals the brute-force reference', () => {
  it('every page of 100 seeded precursors (m/z with charge 1 to 4, or a mass), five tolerances, eight error lists', async () => {
    const random = prng(46);
    const mismatches: Mismatch[] = [];
    let found = 0;
    for (let q = 0; q < 100; q++) {
      const text = ERROR_LISTS[q % ERROR_LISTS.length];
      const errors = errorsOf(text);
      const mass = precursorMass(random, errors[Math.floor(random() * errors.length)]);
      const [toleranceText, tolerance] = TOLERANCES[Math.floor(random() * TOLERANCES.length)];
      const charge = 1 + Math.floor(random() * 4);
      const [precursor, M] =
        random() < 0.3
          ? [`mass=${mass}`, mass]
          : (() => {
              const mz = mass / charge + REFERENCE_PROTON;
              return [`mz=${mz}&charge=${charge}`, (mz - REFERENCE_PROTON) * charge];
            })();
      const size = 1 + Math.floor(random() * 20);
      const query = `${precursor}&${toleranceText}&isotopeErrors=${encodeURIComponent(text)}&${MODS}&pageSize=${size}`;
      // The reference's answer over all pages, worked out once for the query; each page is a slice of it.
      const groups = referenceIsotopeGroups(reference, M, tolerance, errors);
      found += groups.length;
      const expected = (page: number) => referencePageOf(groups, page, size);
      await walkPages(handler, (page) => `/api/v1/search?${query}&page=${page}`, expected, size, totals, mismatches);
    }
    expect(mismatches).toEqual([]);
    expect(found).toBeGreaterThan(300); // most precursors find candidates, in some window
  }, 120_000);

  it('says which n each candidate matched at: a peptide found at two isotope errors is listed in both windows', async () => {
    // Half a spacing above a form's mass: ±0.6 Da around it (n = 0) and around one spacing less (n = 1) both hold it.
    const form = Math.floor(reference.formCount / 2);
    const M = reference.massOf(form) + REFERENCE_ISOTOPE_SPACING / 2;
    const got = await call(
      handler,
      `/api/v1/search?mass=${M}&tolerance=0.6&unit=Da&isotopeErrors=0,1&${MODS}&pageSize=1000`,
    );
    expect(got.body.totalResult).toBeLessThanOrEqual(1000);
    const matched = (got.body.result as Record<string, { proforma: string; isotopeError: number; ppm: number }[]>[])
      .flatMap((group) => Object.values(group)[0])
      .filter((e) => e.proforma === reference.proformaOf(form));
    expect(matched.map((e) => e.isotopeError)).toEqual([0, 1]);
    expect(matched.map((e) => Math.sign(e.ppm))).toEqual([1, -1]); // the precursor above the form, then below it
    expect(stable(got.body)).toEqual(referenceIsotopeAnswer(reference, M, TOLERANCES[4][1], [0, 1], 1, 1000));
  });

  it('isotopeErrors=0 answers as the search without it, each candidate with isotopeError 0 after its ppm', async () => {
    for (const precursor of [
      'mz=650.3188&charge=2',
      'mass=1500.7&tolerance=20',
      'mass=2001.9&tolerance=0.05&unit=Da',
    ]) {
      const plain = await call(handler, `/api/v1/search?${precursor}&${MODS}`);
      const zero = await call(handler, `/api/v1/search?${precursor}&${MODS}&isotopeErrors=0`);
      expect(plain.body.totalResult).toBeGreaterThan(0);
      expect(stableText(zero.text)).toBe(
        stableText(plain.text).replace(/(,"ppm":[^,]+)(,"accsTax")/g, '$1,"isotopeError":0$2'),
      );
    }
  });

  it('with proteins=true, the same candidates in the same order, each accession with its protein', async () => {
    const query = `mz=650.3188&charge=2&isotopeErrors=1,0&tolerance=20&${MODS}&pageSize=3&page=2`;
    const [plain, proteins] = await Promise.all([
      call(handler, `/api/v1/search?${query}`),
      call(handler, `/api/v1/search?${query}&proteins=true`),
    ]);
    type Entry = { isotopeError: number; accsTax: { acc: string; taxId: number; protein?: string }[] };
    const entries = (body: { result: Record<string, Entry[]>[] }) => body.result.flatMap((g) => Object.values(g)[0]);
    const withProteins = entries(proteins.body);
    expect(withProteins.length).toBeGreaterThan(0);
    expect(
      withProteins.map(({ accsTax, ...e }) => ({ ...e, accsTax: accsTax.map(({ acc, taxId }) => ({ acc, taxId })) })),
    ).toEqual(entries(plain.body));
    for (const e of withProteins) for (const a of e.accsTax) expect(typeof a.protein).toBe('string');
  });
});

describe('POST /api/v1/match with isotopeErrors equals the reference, search by search', () => {
  it('an MGF file whose records without CHARGE are tried at each of `charges`, each at each isotope error', async () => {
    const random = prng(4646);
    const records: { mz: number; charges: number[] }[] = [];
    for (let i = 0; i < 60; i++) {
      const charge = 1 + Math.floor(random() * 4);
      const mz = precursorMass(random, Math.floor(random() * 3) - 1) / charge + REFERENCE_PROTON;
      records.push({ mz, charges: random() < 0.5 ? [] : [charge] });
    }
    const mgf = records
      .map(
        (r, i) =>
          `BEGIN IONS\nTITLE=precursor ${i + 1}\nPEPMASS=${r.mz}\n${r.charges.length ? `CHARGE=${r.charges[0]}+\n` : ''}END IONS\n`,
      )
      .join('');
    const got = await call(handler, `/api/v1/match?charges=2,3&isotopeErrors=-1,0,1&tolerance=10&${MODS}`, {
      method: 'POST',
      body: mgf,
    });
    expect(got.status, got.text).toBe(200);
    const tolerance: RefTolerance = { below: 10, above: 10, unit: 'ppm' };
    let compared = 0;
    for (const [i, r] of records.entries()) {
      const result = got.body.result[i];
      expect(result.charges).toEqual(r.charges);
      const expected = (r.charges.length ? r.charges : [2, 3]).flatMap((charge) =>
        referenceIsotopeWindows(reference, (r.mz - REFERENCE_PROTON) * charge, tolerance, [-1, 0, 1]).map((w) => ({
          charge,
          isotopeError: w.isotopeError,
          mass: w.centre,
          // A search lists its candidates as /api/v1/search does, without the isotope error it gives once for all.
          candidates: w.groups.flatMap((g) => Object.values(g)[0].map(({ isotopeError: _n, ...entry }) => entry)),
        })),
      );
      expect(JSON.stringify(result.searches), `precursor ${i + 1}`).toBe(JSON.stringify(expected));
      compared += expected.reduce((n, s) => n + s.candidates.length, 0);
    }
    expect(records.filter((r) => r.charges.length === 0).length).toBeGreaterThan(10);
    expect(compared).toBeGreaterThan(100);
  });
});

describe('on the bundled dataset, whose complete view pages its own answers', () => {
  it('each page is the windows’ plain searches in order, paged over all of them', async () => {
    const bundled = folderHandler(await bundledDataset(), nodeCodecs);
    /** Every group of a plain search of one mass, all pages. */
    const plainGroups = async (query: string) => {
      const got = await call(bundled, `/api/v1/search?${query}&pageSize=1000`);
      expect(got.body.totalResult).toBeLessThanOrEqual(1000);
      return got.body.result as Record<string, { ppm: number; accsTax: unknown }[]>[];
    };
    const random = prng(9);
    for (const [mods, errors] of [
      [MODS, [1, 0, 2]], // the complete view alone
      ['fixed=Carbamidomethyl@C', [0, -1]], // the Carbamidomethyl@C view and the shards
      ['variable=Phospho@STY&maxVariable=1', [2, 0]], // the shards
    ] as const) {
      for (let q = 0; q < 4; q++) {
        // Near a stored mass (peptides weigh near whole Daltons plus about 0.05 %: most masses have none).
        const low = Math.floor(900 + random() * 1800);
        const keys = (await call(bundled, `/search.php?mass1=${low}&mass2=${low + 1}&pageSize=1000`)).body.result;
        const M = Number(Object.keys(keys[Math.floor(random() * keys.length)])[0]) + random() * 1e-4;
        const all: Record<string, object[]>[] = [];
        for (const n of errors) {
          const groups = await plainGroups(`mass=${M - n * REFERENCE_ISOTOPE_SPACING}&tolerance=15&${mods}`);
          all.push(
            ...groups.map((g) =>
              Object.fromEntries(
                Object.entries(g).map(([key, list]) => [
                  key,
                  list.map(({ accsTax, ...head }) => ({ ...head, isotopeError: n, accsTax })),
                ]),
              ),
            ),
          );
        }
        expect(all.length).toBeGreaterThan(0);
        for (const size of [1, 7, 50]) {
          for (let page = 1; (page - 1) * size <= all.length; page++) {
            const got = await call(
              bundled,
              `/api/v1/search?mass=${M}&tolerance=15&${mods}&isotopeErrors=${errors.join(',')}&pageSize=${size}&page=${page}`,
            );
            const expected = {
              totalResult: all.length,
              page,
              pageSize: size,
              result: all.slice((page - 1) * size, page * size),
            };
            // Equal JSON is equal values; toEqual (slow over many pages) only to say how they differ.
            if (JSON.stringify(stable(got.body)) !== JSON.stringify(expected))
              expect(stable(got.body), `${mods} ${M} page ${page} of ${size}`).toEqual(expected);
          }
        }
      }
    }
  }, 120_000);
});

// Differential test of /api/v1/search (precursor search with modifications) against an independent brute-force
// reference written from docs/api.md's specification (test/helpers/referencePrecursor.ts, which imports nothing
// from builder/ or runtime/). The code under test is reached only through the HTTP handler.
//
// On a multi-shard build of the bundled sample's first records, for each modification setting of the issue's acceptance
// list, thousands of seeded random precursors (m/z with charge 1..4 at ±5/±10/±20 ppm and ±0.02 Da, mostly centred near
// real modified masses, some random; a few mass=, asymmetric and mass1/mass2 queries) are asked — in turn of the plain
// build and of one with a Carbamidomethyl@C view and a complete view, each with its default cache and under a cache
// of a few shards — and EVERY page of each (random pageSize 1..50, up to the first page past the end) is compared
// whole with the reference: totalResult, page, pageSize, keys, and each entry's seq, proforma, mass, ppm and accsTax,
// in order. Plus hand-checked cases whose expected text is derived from docs/api.md's rules by hand.
import { prng } from '../../../helpers/prng.js';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Handler } from '../../../../runtime/api/handler.js';
import { nodeCodecs } from '../../../../runtime/entries/node/platform.js';
import { call, expectEnvelope, folderHandler, stable } from '../../../helpers/api.js';
import { walkPages, type Mismatch } from '../../../helpers/pageWalk.js';
import { removeTempDirs, sampleSubset, subsetDataset } from '../../../helpers/datasets.js';
import {
  parseRefMods,
  REFERENCE_PROTON,
  referenceKeyText,
  referencePeptides,
  ReferencePrecursor,
  referenceTextBounds,
  referenceWindow,
  type RefPeptide,
} from '../../../helpers/referencePrecursor.js';
import { derivedMicro, microText, REFERENCE_UNIMOD, unimodDisagreements } from '../../../helpers/referenceUnimod.js';

/** The sample's first RECORDS records, cut into many small shards. */
const RECORDS = 1500;
const SHARD_BYTES = 16_384;
/** Random precursors per setting of the acceptance list (8 settings). */
const QUERIES_PER_SETTING = 200;

/** The plain dataset, read with the platform's Web codecs (DecompressionStream, Web Crypto), as edge runtimes read it. */
let handler: Handler;
/**
 * The same dataset under a cache of a few shards: shards are often scanned after the cache let them go (no lanes kept).
 * It and the view handlers read with Node's codecs, as the Node server does: they read shards again and again, and
 * which codec reads them is no concern of the search (the default-cache handler keeps the Web codecs' path).
 */
let smallCacheHandler: Handler;
/**
 * The records built with a view for Carbamidomethyl@C and the complete view of Carbamidomethyl@C with up to two
 * oxidised M (docs/format.md "Views"): the settings that fix Carbamidomethyl@C with no other modification on C read
 * their peptides holding a C from the first, one range a hypothesis; those of exactly Carbamidomethyl@C and
 * Oxidation@M with maxVariable up to 2 read the complete view alone, one range in all.
 */
let viewHandlers: Handler[];
let peptides: RefPeptide[];

beforeAll(async () => {
  const building = Promise.all([
    subsetDataset(RECORDS, SHARD_BYTES),
    subsetDataset(RECORDS, SHARD_BYTES, [
      'Carbamidomethyl@C',
      'fixed=Carbamidomethyl@C&variable=Oxidation@M&maxVariable=2',
    ]),
  ]);
  peptides = referencePeptides(readFileSync(sampleSubset(RECORDS)));
  const [dir, viewDir] = await building;
  handler = folderHandler(dir);
  smallCacheHandler = folderHandler(dir, { cacheBytes: 4 * SHARD_BYTES, ...nodeCodecs });
  viewHandlers = [
    folderHandler(viewDir, nodeCodecs),
    folderHandler(viewDir, { cacheBytes: 4 * SHARD_BYTES, ...nodeCodecs }),
  ];
});

const totals = { queries: 0, pages: 0, groups: 0, entries: 0, mismatches: 0 };

afterAll(() => {
  removeTempDirs();
  console.log(
    `precursor differential: ${totals.queries} queries, ${totals.pages} pages, ${totals.groups} mass groups, ${totals.entries} entries compared; ${totals.mismatches} pages differ`,
  );
});

describe('the reference Unimod table', () => {
  it('derives every delta from its elemental composition and own isotope masses, equal to the published 6 decimals', () => {
    expect(unimodDisagreements()).toEqual([]);
    const derived = Object.fromEntries(REFERENCE_UNIMOD.map((e) => [e.title, microText(derivedMicro(e.composition))]));
    expect(derived).toMatchObject({
      Carbamidomethyl: '57.021464',
      Oxidation: '15.994915',
      Phospho: '79.966331',
      TMT6plex: '229.162932',
      'Gln->pyro-Glu': '-17.026549',
      Acetyl: '42.010565',
      Deamidated: '0.984016',
    });
  });
});

// ---------------------------------------------------------------- hand-checked cases

/** The answer to a query, less memory and duration. */
async function ask(query: string): Promise<Record<string, unknown>> {
  const got = await call(handler, `/api/v1/search?${query}`);
  expect(got.status, got.text).toBe(200);
  expectEnvelope(got.body);
  return stable(got.body);
}

const e = encodeURIComponent;
const CAM_OX = 'fixed=Carbamidomethyl@C&variable=Oxidation@M';
const one = (key: string, entries: unknown[]) => ({
  totalResult: 1,
  page: 1,
  pageSize: 100,
  result: [{ [key]: entries }],
});
const NONE = { totalResult: 0, page: 1, pageSize: 100, result: [] };
// Peptides of the sample's first records used below (accessions and taxIds from their FASTA headers).
const MQEANMLYRK = [{ acc: 'M0ZLJ1', taxId: 4113 }];
const KGPWVPEEDDK = [{ acc: 'A0A0D3A3W4', taxId: 109376 }];

describe('hand-checked answers (expected text derived by hand from the rules of docs/api.md)', () => {
  // MQEANMLYRK: two M, no C. Unmodified 1282.616213 Da; + Oxidation 15.994915 = 1298.611128; + 2 × = 1314.606043.
  it('one oxidation of two M is unlocalised, [Oxidation]?; two are localised on both M', async () => {
    expect(await ask(`mass1=1298.6111&mass2=1298.6111&${CAM_OX}`)).toEqual(
      one('1298.6111', [
        { seq: 'MQEANMLYRK', proforma: '[Oxidation]?MQEANMLYRK', mass: 1298.611128, accsTax: MQEANMLYRK },
      ]),
    );
    expect(await ask(`mass1=1314.606&mass2=1314.606&${CAM_OX}`)).toEqual(
      one('1314.606', [
        { seq: 'MQEANMLYRK', proforma: 'M[Oxidation]QEANM[Oxidation]LYRK', mass: 1314.606043, accsTax: MQEANMLYRK },
      ]),
    );
  });

  it('maxVariable bounds the variable modifications: 1 drops the doubly oxidised form, 0 keeps only the plain peptide', async () => {
    expect(await ask(`mass1=1314.606&mass2=1314.606&${CAM_OX}&maxVariable=1`)).toEqual(NONE);
    expect(await ask(`mass1=1298.6111&mass2=1298.6111&${CAM_OX}&maxVariable=0`)).toEqual(NONE);
    expect(await ask(`mass1=1282.6162&mass2=1282.6162&${CAM_OX}&maxVariable=0`)).toEqual(
      one('1282.6162', [{ seq: 'MQEANMLYRK', proforma: 'MQEANMLYRK', mass: 1282.616213, accsTax: MQEANMLYRK }]),
    );
  });

  it('the example query of docs/api.md on this subset: ppm = (M − mass) / mass × 10^6 with M = (mz − proton) × charge', async () => {
    // M = (650.3188 − 1.007276466621) × 2 = 1298.623047066758.
    // (M − 1298.611128) / 1298.611128 × 10^6 = 9.178… → 9.18; (M − 1298.614281) / 1298.614281 × 10^6 = 6.750… → 6.75.
    expect(await ask(`mz=650.3188&charge=2&${CAM_OX}&pageSize=2`)).toEqual({
      totalResult: 6,
      page: 1,
      pageSize: 2,
      result: [
        {
          '1298.6111': [
            {
              seq: 'MQEANMLYRK',
              proforma: '[Oxidation]?MQEANMLYRK',
              mass: 1298.611128,
              ppm: 9.18,
              accsTax: MQEANMLYRK,
            },
          ],
        },
        {
          '1298.6143': [
            { seq: 'KGPWVPEEDDK', proforma: 'KGPWVPEEDDK', mass: 1298.614281, ppm: 6.75, accsTax: KGPWVPEEDDK },
          ],
        },
      ],
    });
    // mass= is the neutral mass itself: (1298.6231 − 1298.611128) / 1298.611128 × 10^6 = 9.219… → 9.22.
    expect(await ask(`mass=1298.6231&${CAM_OX}&pageSize=1`)).toEqual({
      totalResult: 6,
      page: 1,
      pageSize: 1,
      result: [
        {
          '1298.6111': [
            {
              seq: 'MQEANMLYRK',
              proforma: '[Oxidation]?MQEANMLYRK',
              mass: 1298.611128,
              ppm: 9.22,
              accsTax: MQEANMLYRK,
            },
          ],
        },
      ],
    });
  });

  it('Phospho@STY: localised on the only S, unlocalised over S, T, Y; fixed Phospho@STY lists all its sites', async () => {
    // MAEPPPDDSAPVR has one S and no T or Y; AFYDDFSIFTR has Y, S and T.
    expect(await ask('mass1=1460.6&mass2=1460.62&variable=Phospho@STY&maxVariable=1&pageSize=2')).toEqual({
      totalResult: 6,
      page: 1,
      pageSize: 2,
      result: [
        {
          '1460.6007': [
            {
              seq: 'MAEPPPDDSAPVR',
              proforma: 'MAEPPPDDS[Phospho]APVR',
              mass: 1460.600696,
              accsTax: [{ acc: 'E3LUP7', taxId: 31234 }],
            },
          ],
        },
        {
          '1460.6013': [
            {
              seq: 'AFYDDFSIFTR',
              proforma: '[Phospho]?AFYDDFSIFTR',
              mass: 1460.601348,
              accsTax: [{ acc: 'C5WYB9', taxId: 4558 }],
            },
          ],
        },
      ],
    });
    expect(await ask('mass1=1460.6007&mass2=1460.6007&fixed=Phospho@STY')).toEqual(
      one('1460.6007', [
        {
          seq: 'MAEPPPDDSAPVR',
          proforma: '<[Phospho]@S,T,Y>MAEPPPDDSAPVR',
          mass: 1460.600696,
          accsTax: [{ acc: 'E3LUP7', taxId: 31234 }],
        },
      ]),
    );
    // Fixed: all three sites of AFYDDFSIFTR carry it: 1460.601348 + 2 × 79.966331 = 1620.53401.
    expect(await ask('mass1=1620.534&mass2=1620.534&fixed=Phospho@STY')).toEqual(
      one('1620.534', [
        {
          seq: 'AFYDDFSIFTR',
          proforma: '<[Phospho]@S,T,Y>AFYDDFSIFTR',
          mass: 1620.53401,
          accsTax: [{ acc: 'C5WYB9', taxId: 4558 }],
        },
      ]),
    );
  });

  it('Gln->pyro-Glu on an N-terminal Q is written as an N-terminal modification, whatever the order given', async () => {
    const expected = one('1298.586', [
      {
        seq: 'QPAQGKNCPMAR',
        proforma: '[Gln->pyro-Glu]-QPAQGKNCPM[Oxidation]AR',
        mass: 1298.585976,
        accsTax: [{ acc: 'A0A0H3WHH9', taxId: 4932 }],
      },
    ]);
    expect(await ask(`mass1=1298.586&mass2=1298.586&variable=${e('Gln->pyro-Glu@Q@N-term,Oxidation@M')}`)).toEqual(
      expected,
    );
    expect(await ask(`mass1=1298.586&mass2=1298.586&variable=${e('Oxidation@M,Gln->pyro-Glu@Q@N-term')}`)).toEqual(
      expected,
    );
  });

  it('a fixed N-term TMT6plex is on every peptide; on one without K its tag still lists all the sites given', async () => {
    expect(
      await ask(`mass1=1298.6207&mass2=1298.6207&fixed=${e('TMT6plex@K,TMT6plex@N-term,Carbamidomethyl@C')}`),
    ).toEqual(
      one('1298.6207', [
        {
          seq: 'HWDDEAAAR',
          proforma: '<[TMT6plex]@K,N-term>HWDDEAAAR',
          mass: 1298.620653,
          accsTax: [
            { acc: 'A0A154TQ04', taxId: 484 },
            { acc: 'A9LZH6', taxId: 374833 },
          ],
        },
      ]),
    );
  });

  it('fixed TMT6plex@K and TMT6plex@N-term: one global tag per modification name listing all its sites (docs/api.md)', async () => {
    // ALLESDKFDESK and DDEDKVIGSLYK: 1380.677275 Da, two K each; + 3 × 229.162932 = 2068.166071. The two items of
    // one name make one tag, <[TMT6plex]@K,N-term>; Carbamidomethyl@C is absent (no C).
    expect(
      await ask(`mass1=2068.1661&mass2=2068.1661&fixed=${e('TMT6plex@K,TMT6plex@N-term,Carbamidomethyl@C')}`),
    ).toEqual(
      one('2068.1661', [
        {
          seq: 'ALLESDKFDESK',
          proforma: '<[TMT6plex]@K,N-term>ALLESDKFDESK',
          mass: 2068.166071,
          accsTax: [{ acc: 'U2GEC3', taxId: 1242967 }],
        },
        {
          seq: 'DDEDKVIGSLYK',
          proforma: '<[TMT6plex]@K,N-term>DDEDKVIGSLYK',
          mass: 2068.166071,
          accsTax: [{ acc: 'A9BKA9', taxId: 464988 }],
        },
      ]),
    );
  });

  it('a Unimod title holding a colon gets a U: prefix; one label on two K is unlocalised, two are localised', async () => {
    // KGPWVPEEDDK: 1298.614281 Da, two K. + 8.014199 = 1306.62848; + 2 × = 1314.642679.
    const label = `variable=${e('Label:13C(6)15N(2)@K')}`;
    expect(await ask(`mass1=1306.6285&mass2=1306.6285&${label}`)).toEqual(
      one('1306.6285', [
        { seq: 'KGPWVPEEDDK', proforma: '[U:Label:13C(6)15N(2)]?KGPWVPEEDDK', mass: 1306.62848, accsTax: KGPWVPEEDDK },
      ]),
    );
    expect(await ask(`mass1=1314.6427&mass2=1314.6427&${label}`)).toEqual(
      one('1314.6427', [
        {
          seq: 'KGPWVPEEDDK',
          proforma: 'K[U:Label:13C(6)15N(2)]GPWVPEEDDK[U:Label:13C(6)15N(2)]',
          mass: 1314.642679,
          accsTax: KGPWVPEEDDK,
        },
      ]),
    );
  });

  it('custom modifications are written as their signed mass', async () => {
    // KGPWVPEEDDK has one W: 1298.614281 + 12.3456 = 1310.959881; − 1.5 = 1297.114281.
    expect(await ask(`mass1=1310.9599&mass2=1310.9599&variable=${e('Heavy:+12.3456@W')}`)).toEqual(
      one('1310.9599', [
        { seq: 'KGPWVPEEDDK', proforma: 'KGPW[+12.3456]VPEEDDK', mass: 1310.959881, accsTax: KGPWVPEEDDK },
      ]),
    );
    expect(await ask(`mass1=1297.1143&mass2=1297.1143&variable=${e('Loss:-1.5@W')}`)).toEqual(
      one('1297.1143', [
        { seq: 'KGPWVPEEDDK', proforma: 'KGPW[-1.5]VPEEDDK', mass: 1297.114281, accsTax: KGPWVPEEDDK },
      ]),
    );
  });

  it('a C-terminal modification is written SEQ-[Name]; entries of a group are ordered by sequence', async () => {
    // KGPWVPEEDDK + Methyl 14.01565 = 1312.629931, the unmodified mass of FVNNVYSVEDK and NIDGVNDYLYK.
    expect(await ask(`mass1=1312.6299&mass2=1312.6299&variable=${e('Methyl@C-term')}`)).toEqual(
      one('1312.6299', [
        {
          seq: 'FVNNVYSVEDK',
          proforma: 'FVNNVYSVEDK',
          mass: 1312.629931,
          accsTax: [{ acc: 'A0A151RUR6', taxId: 3821 }],
        },
        { seq: 'KGPWVPEEDDK', proforma: 'KGPWVPEEDDK-[Methyl]', mass: 1312.629931, accsTax: KGPWVPEEDDK },
        { seq: 'NIDGVNDYLYK', proforma: 'NIDGVNDYLYK', mass: 1312.629931, accsTax: [{ acc: 'H9UDE6', taxId: 771875 }] },
      ]),
    );
  });

  it('names are case-insensitive and UNIMOD:<accession> names the same modification', async () => {
    const expected = await ask(`mz=650.3188&charge=2&${CAM_OX}&tolerance=20`);
    expect(await ask(`mz=650.3188&charge=2&fixed=CARBAMIDOMETHYL@C&variable=oxidation@M&tolerance=20`)).toEqual(
      expected,
    );
    expect(await ask(`mz=650.3188&charge=2&fixed=UNIMOD:4@C&variable=UNIMOD:35@M&tolerance=20`)).toEqual(expected);
  });
});

// ---------------------------------------------------------------- the differential

interface Setting {
  label: string;
  fixed: string;
  variable: string;
  /** undefined: the parameter is left out (the default, 2). */
  maxVariable?: number;
  /** Random precursors asked (default QUERIES_PER_SETTING). */
  queries?: number;
}

const SETTINGS: Setting[] = [
  {
    label: 'fixed Carbamidomethyl@C, variable Oxidation@M, maxVariable 0',
    fixed: 'Carbamidomethyl@C',
    variable: 'Oxidation@M',
    maxVariable: 0,
  },
  {
    label: 'fixed Carbamidomethyl@C, variable Oxidation@M, maxVariable 1',
    fixed: 'Carbamidomethyl@C',
    variable: 'Oxidation@M',
    maxVariable: 1,
  },
  {
    label: 'fixed Carbamidomethyl@C, variable Oxidation@M, maxVariable 2',
    fixed: 'Carbamidomethyl@C',
    variable: 'Oxidation@M',
    maxVariable: 2,
  },
  {
    label: 'fixed Carbamidomethyl@C, variable Oxidation@M, maxVariable 3',
    fixed: 'Carbamidomethyl@C',
    variable: 'Oxidation@M',
    maxVariable: 3,
  },
  {
    label: 'variable Phospho@STY and Oxidation@M, maxVariable 2',
    fixed: '',
    variable: 'Phospho@STY,Oxidation@M',
    maxVariable: 2,
  },
  {
    label: 'fixed TMT6plex@K, TMT6plex@N-term and Carbamidomethyl@C',
    fixed: 'TMT6plex@K,TMT6plex@N-term,Carbamidomethyl@C',
    variable: '',
  },
  {
    label: 'variable Gln->pyro-Glu@Q@N-term and Oxidation@M (default maxVariable)',
    fixed: '',
    variable: 'Gln->pyro-Glu@Q@N-term,Oxidation@M',
  },
  { label: 'no modifications', fixed: '', variable: '' },
  // Beyond the acceptance list: variable modifications sharing slots (Deamidated and pyro-Glu on an N-terminal Q,
  // each slot taking one) next to a bare N-terminus one.
  {
    label: 'variable Deamidated@NQ, Gln->pyro-Glu@Q@N-term and Acetyl@N-term, maxVariable 3',
    fixed: '',
    variable: 'Deamidated@NQ,Gln->pyro-Glu@Q@N-term,Acetyl@N-term',
    maxVariable: 3,
    queries: 300,
  },
];

/** A query: its path less paging, the key window the reference answers, and the centre (for ppm). */
interface Query {
  path: string;
  lowKey: number;
  highKey: number;
  centre?: number;
  /** undefined: pageSize left out (the default, 100). */
  pageSize?: number;
  /** Leave `page` out of the first page's path (the default, 1). */
  defaultFirstPage: boolean;
}

const modParams = (s: Setting): string =>
  (s.fixed ? `&fixed=${encodeURIComponent(s.fixed)}` : '') +
  (s.variable ? `&variable=${encodeURIComponent(s.variable)}` : '') +
  (s.maxVariable === undefined ? '' : `&maxVariable=${s.maxVariable}`);

/** A tolerance choice: its query text and the window's widths below and above, in its unit. */
interface Tolerance {
  text: string;
  below: number;
  above: number;
  unit: 'ppm' | 'Da';
}

const TOLERANCES: Tolerance[] = [
  { text: '&tolerance=5', below: 5, above: 5, unit: 'ppm' },
  { text: '&tolerance=10', below: 10, above: 10, unit: 'ppm' },
  { text: '', below: 10, above: 10, unit: 'ppm' }, // the default: 10 ppm
  { text: '&tolerance=20&unit=ppm', below: 20, above: 20, unit: 'ppm' },
  { text: '&tolerance=0.02&unit=Da', below: 0.02, above: 0.02, unit: 'Da' },
];
const ASYMMETRIC: Tolerance[] = [
  { text: '&toleranceLow=3&toleranceHigh=12', below: 3, above: 12, unit: 'ppm' },
  { text: '&tolerance=20&toleranceHigh=0', below: 20, above: 0, unit: 'ppm' },
  { text: '&tolerance=0.01&toleranceLow=0.03&unit=Da', below: 0.03, above: 0.01, unit: 'Da' },
];

/** Seeded random precursors for one setting, most near the masses of the reference's own modified forms. */
function makeQueries(reference: ReferencePrecursor, setting: Setting, seed: number, count: number): Query[] {
  const random = prng(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  const mods = modParams(setting);
  const realMass = () => reference.massOf(Math.floor(random() * reference.formCount));
  const daWidth = (t: Tolerance, M: number) =>
    t.unit === 'ppm' ? (M * Math.max(t.below, t.above)) / 1e6 : Math.max(t.below, t.above);
  const queries: Query[] = [];
  for (let q = 0; q < count; q++) {
    const roll = random();
    const pageSize = random() < 0.03 ? undefined : int(1, 50);
    if (roll < 0.06) {
      // mass1/mass2: an explicit window, inclusive, exact on the decimal text; sometimes one key exactly.
      const at = realMass();
      let mass1: string;
      let mass2: string;
      if (random() < 0.3) {
        mass1 = mass2 = referenceKeyText(Math.floor(at * 10_000 + 0.5));
      } else {
        const width = random() * 0.3;
        const decimals = int(3, 6);
        mass1 = (at - random() * width).toFixed(decimals);
        mass2 = (Number(mass1) + width).toFixed(decimals);
      }
      const lowKey = referenceTextBounds(mass1).ceilKey;
      const highKey = referenceTextBounds(mass2).floorKey;
      queries.push({
        path: `/api/v1/search?mass1=${mass1}&mass2=${mass2}${mods}`,
        lowKey,
        highKey,
        pageSize,
        defaultFirstPage: random() < 0.2,
      });
      continue;
    }
    const tolerance = roll < 0.1 ? pick(ASYMMETRIC) : pick(TOLERANCES);
    const uniformMass = roll >= 0.1 && roll < 0.2;
    const target = uniformMass ? 500 + random() * 4000 : realMass();
    const M0 = uniformMass ? target : target + (random() * 2 - 1) * 1.3 * daWidth(tolerance, target);
    let precursor: string;
    let centre: number;
    if (roll >= 0.2 && roll < 0.25) {
      precursor = `mass=${M0.toFixed(int(3, 6))}`;
      centre = Number(precursor.slice(5));
    } else {
      const charge = int(1, 4);
      const mz = (M0 / charge + REFERENCE_PROTON).toFixed(int(4, 6));
      precursor = `mz=${mz}&charge=${charge}`;
      centre = (Number(mz) - REFERENCE_PROTON) * charge;
    }
    const { lowKey, highKey } = referenceWindow(centre, tolerance.below, tolerance.above, tolerance.unit);
    queries.push({
      path: `/api/v1/search?${precursor}${tolerance.text}${mods}`,
      lowKey,
      highKey,
      centre,
      pageSize,
      defaultFirstPage: random() < 0.2,
    });
  }
  return queries;
}

/**
 * Asks every page of a query (up to the first past the end) and compares each with the reference; a difference ends the
 * walk.
 */
async function walk(reference: ReferencePrecursor, query: Query, mismatches: Mismatch[]): Promise<void> {
  const size = query.pageSize ?? 100;
  totals.queries++;
  await walkPages(
    [handler, smallCacheHandler, ...viewHandlers][totals.queries % 4],
    (page) =>
      `${query.path}${page === 1 && query.defaultFirstPage ? '' : `&page=${page}`}${query.pageSize === undefined ? '' : `&pageSize=${query.pageSize}`}`,
    (page) => reference.answer(query.lowKey, query.highKey, page, size, query.centre),
    size,
    totals,
    mismatches,
  );
}

function report(mismatches: Mismatch[]): string {
  const lines = [`${mismatches.length} pages differ from the reference`];
  for (const m of mismatches.slice(0, 6)) lines.push(`GET ${m.path}\n    ${m.difference}`);
  return lines.join('\n');
}

describe('/api/v1/search against the brute-force reference: every page of random precursors', () => {
  SETTINGS.forEach((setting, index) => {
    it(setting.label, { timeout: 120_000 }, async () => {
      const reference = new ReferencePrecursor(peptides, {
        fixed: parseRefMods(setting.fixed),
        variable: parseRefMods(setting.variable),
        maxVariable: setting.maxVariable ?? 2,
      });
      const queries = makeQueries(reference, setting, 0x5eed + index * 7919, setting.queries ?? QUERIES_PER_SETTING);
      const mismatches: Mismatch[] = [];
      let nonEmpty = 0;
      for (const query of queries) {
        if (reference.countKeys(query.lowKey, query.highKey) > 0) nonEmpty++;
        await walk(reference, query, mismatches);
      }
      totals.mismatches += mismatches.length;
      expect(mismatches.length, report(mismatches)).toBe(0);
      // The queries are mostly meant to hit: most windows hold modified masses of the data.
      expect(nonEmpty).toBeGreaterThan(queries.length / 2);
    });
  });
});

// Differential test of the organism filters of /api/v1/search (`taxon`, `reviewed`) against an
// independent reference (test/helpers/referenceTaxonomy.ts: reads nodes.dmp, names.dmp and the FASTA headers
// itself; the unfiltered candidates come from test/helpers/referencePrecursor.ts). Nothing from builder/ or runtime/
// is imported by the references; the code under test is reached only through the HTTP handler.
//
// On a multi-shard build of the sample's first records with the bundled taxdump, thousands of seeded random
// (window, taxon set, reviewed) queries — a taxon of every rank (superkingdom … species, and no-rank nodes), taken
// from the lineages of accessions in the window or at random, sets of several taxa (some nested, some repeated),
// taxa with nothing in the window, reviewed true/false, and unfiltered queries — are asked without and with
// modifications, and EVERY page of each is compared whole with the reference (totalResult, page, pageSize, keys,
// entries and their accsTax, in order). Then the bad-input cases of the issue.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Handler } from '../../../../runtime/api/handler.js';
import { call, expectErrorBody, folderHandler, stable } from '../../../helpers/api.js';
import { cachedBuild, noTaxonomyDataset, sampleSubset } from '../../../helpers/datasets.js';
import { walkPages, type Mismatch } from '../../../helpers/pageWalk.js';
import { REPO } from '../../../helpers/process.js';
import { prng } from '../../../helpers/prng.js';
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
import {
  filteredAnswer,
  filteredWindow,
  keepsAnyGroup,
  pagedAnswer,
  readTaxdump,
  referenceAccessions,
  ReferenceTaxonomy,
  type RefFilter,
} from '../../../helpers/referenceTaxonomy.js';

/** A dataset built without --taxdump (the sample's first records): no taxonomy. */

/** The sample's first RECORDS records, cut into many small shards, with the bundled taxdump. */
const RECORDS = 3000;
const TAXDUMP = join(REPO, 'data/taxdump');
/** Random queries per modification setting. */
const SETTINGS = [
  { label: 'no modifications', fixed: '', variable: '', queries: 2000 },
  {
    label: 'fixed Carbamidomethyl@C, variable Oxidation@M',
    fixed: 'Carbamidomethyl@C',
    variable: 'Oxidation@M',
    queries: 1200,
  },
];
/** Ranks every query set covers (a no-rank node counts as `no rank`). */
const RANKS = ['superkingdom', 'phylum', 'class', 'order', 'family', 'genus', 'species', 'no rank'] as const;
/** Most pages walked per query: a larger pageSize is used when a window holds more groups. */
const MAX_PAGES = 40;

let handler: Handler;
/** The dataset, built while the reference is computed; awaited by the tests that ask the API. */
let building: Promise<string>;
const ready = async () => void (handler ??= folderHandler(await building));
let peptides: RefPeptide[];
let taxonomy: ReferenceTaxonomy;
/** The dataset's taxonomy nodes of each rank. */
const byRank = new Map<string, number[]>();

beforeAll(async () => {
  const fasta = sampleSubset(RECORDS);
  building = cachedBuild('taxon-subset', fasta, ['--shard-bytes', '16384', '--taxdump', 'data/taxdump']);
  building.catch(() => undefined); // reported by the tests that await it
  const bytes = readFileSync(fasta);
  peptides = referencePeptides(bytes);
  taxonomy = new ReferenceTaxonomy(readTaxdump(TAXDUMP), referenceAccessions(bytes), peptides);
  for (const node of taxonomy.nodes.values()) {
    const list = byRank.get(node.rank) ?? [];
    list.push(node.taxId);
    byRank.set(node.rank, list);
  }
});

const totals = { queries: 0, pages: 0, groups: 0, entries: 0, mismatches: 0, unfiltered: 0, emptyTaxon: 0, multi: 0 };
const perRank = new Map<string, { queries: number; nonEmpty: number }>();

afterAll(() => {
  console.log(
    `taxon filter differential: ${totals.queries} queries (${totals.unfiltered} unfiltered, ${totals.multi} multi-taxon, ${totals.emptyTaxon} with a taxon having nothing in the window), ` +
      `${totals.pages} pages, ${totals.groups} mass groups, ${totals.entries} entries compared; ${totals.mismatches} pages differ; per rank ${JSON.stringify(Object.fromEntries(perRank))}`,
  );
});

describe('the reference taxonomy of the subset', () => {
  it('covers every rank the queries draw from, and lineages end at the root', () => {
    for (const rank of RANKS) expect(byRank.get(rank)?.length ?? 0, rank).toBeGreaterThan(0);
    for (const node of taxonomy.nodes.values()) expect(node.lineage[0]).toBe(1);
    expect(taxonomy.taxIdsWithoutLineage.size).toBeGreaterThan(0); // organisms of the 137 the taxdump does not place
  });
});

// ---------------------------------------------------------------- the differential

interface Query {
  path: string;
  lowKey: number;
  highKey: number;
  centre?: number;
  pageSize?: number;
  defaultFirstPage: boolean;
  filter: RefFilter;
  /** The rank the taxon set was drawn for ('unfiltered', 'reviewed only', 'multi' otherwise). */
  kind: string;
}

function makeQueries(reference: ReferencePrecursor, mods: string, seed: number, count: number): Query[] {
  const random = prng(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  const forms = reference.forms;
  const queries: Query[] = [];

  /** A taxon of `rank`: mostly on the lineage of an accession of a form near `at`, else any node of that rank. */
  const taxonOf = (rank: string, near: number): number => {
    if (random() < 0.75) {
      const start = Math.max(0, near - 30);
      for (let tries = 0; tries < 8; tries++) {
        const form = forms[Math.min(forms.length - 1, start + int(0, 60))];
        const acc = pick(form.peptide.accsTax);
        const node = taxonomy.nodes.get(acc.taxId);
        const onRank = node?.lineage.filter((t) => taxonomy.nodes.get(t)!.rank === rank) ?? [];
        if (onRank.length > 0) return pick(onRank);
      }
    }
    return pick(byRank.get(rank)!);
  };

  for (let q = 0; q < count; q++) {
    const index = Math.floor(random() * forms.length);
    const form = forms[index];
    const M = Number(form.units) / 1e10;
    let path: string;
    let lowKey: number;
    let highKey: number;
    let centre: number | undefined;
    const roll = random();
    if (roll < 0.15) {
      // mass1/mass2 up to 10 Da wide: many groups, so filters thin several pages.
      const width = random() < 0.5 ? random() * 0.5 : random() * 10;
      const mass1 = (M - random() * width).toFixed(int(3, 5));
      const mass2 = (Number(mass1) + width).toFixed(int(3, 5));
      lowKey = referenceTextBounds(mass1).ceilKey;
      highKey = referenceTextBounds(mass2).floorKey;
      path = `/api/v1/search?mass1=${mass1}&mass2=${mass2}`;
    } else {
      const ppm = pick([5, 10, 20, 50, 200]);
      const M0 = M + (random() * 2 - 1) * ((M * ppm) / 1e6);
      if (roll < 0.3) {
        const text = M0.toFixed(int(3, 6));
        centre = Number(text);
        path = `/api/v1/search?mass=${text}&tolerance=${ppm}`;
      } else {
        const charge = int(1, 4);
        const mz = (M0 / charge + REFERENCE_PROTON).toFixed(int(4, 6));
        centre = (Number(mz) - REFERENCE_PROTON) * charge;
        path = `/api/v1/search?mz=${mz}&charge=${charge}&tolerance=${ppm}`;
      }
      ({ lowKey, highKey } = referenceWindow(centre, ppm, ppm, 'ppm'));
    }
    path += mods;

    // The filter.
    const filter: RefFilter = {};
    let kind: string;
    const f = random();
    if (f < 0.08) kind = 'unfiltered';
    else if (f < 0.16) kind = 'reviewed only';
    else if (f < 0.3) {
      kind = 'multi';
      const n = int(2, 4);
      const taxa: number[] = [];
      for (let i = 0; i < n; i++) taxa.push(taxonOf(pick(RANKS), index));
      if (random() < 0.3) {
        // an ancestor of one of them too, or the same one twice
        const node = taxonomy.nodes.get(taxa[0])!;
        taxa.push(random() < 0.5 ? pick(node.lineage) : taxa[0]);
      }
      filter.taxa = taxa;
    } else {
      kind = RANKS[q % RANKS.length];
      filter.taxa = [taxonOf(kind, index)];
    }
    if (kind === 'reviewed only' || (kind !== 'unfiltered' && random() < 0.35)) filter.reviewed = random() < 0.5;
    if (filter.taxa) {
      const sep = () => pick(['', '', '', ' ', '  ']);
      path += `&taxon=${encodeURIComponent(filter.taxa.map((t) => `${sep()}${t}${sep()}`).join(','))}`;
    }
    if (filter.reviewed !== undefined) {
      const word = String(filter.reviewed);
      path += `&reviewed=${pick([word, word, word.toUpperCase(), word[0].toUpperCase() + word.slice(1)])}`;
    }
    queries.push({
      path,
      lowKey,
      highKey,
      centre,
      pageSize: random() < 0.05 ? undefined : int(1, 50),
      defaultFirstPage: random() < 0.2,
      filter,
      kind,
    });
  }
  return queries;
}

/** The reference of each modification setting, made once (the fixed cases ask the unmodified one again). */
const references = new Map<string, ReferencePrecursor>();
function referenceOf(setting: { fixed: string; variable: string }): ReferencePrecursor {
  const id = `${setting.fixed}|${setting.variable}`;
  let reference = references.get(id);
  if (!reference) {
    reference = new ReferencePrecursor(peptides, {
      fixed: parseRefMods(setting.fixed),
      variable: parseRefMods(setting.variable),
      maxVariable: 2,
    });
    references.set(id, reference);
  }
  return reference;
}
afterAll(() => references.clear());

/** Asks every page of a query (up to the first past the end) and compares each whole with the reference. */
async function walk(reference: ReferencePrecursor, query: Query, mismatches: Mismatch[]): Promise<void> {
  const { lowKey, highKey, centre, filter } = query;
  const kept = filteredWindow(taxonomy, reference, lowKey, highKey, filter, centre);
  const total = kept.length;
  let size = query.pageSize ?? 100;
  let sizeText = query.pageSize === undefined ? '' : `&pageSize=${size}`;
  if (Math.ceil(total / size) > MAX_PAGES) {
    size = Math.min(1000, Math.ceil(total / MAX_PAGES));
    sizeText = `&pageSize=${size}`;
  }
  totals.queries++;
  if (filter.taxa === undefined && filter.reviewed === undefined) totals.unfiltered++;
  if (query.kind === 'multi') totals.multi++;
  if (filter.taxa?.some((t) => !keepsAnyGroup(taxonomy, reference, lowKey, highKey, { taxa: [t] })))
    totals.emptyTaxon++;
  const rank = perRank.get(query.kind) ?? { queries: 0, nonEmpty: 0 };
  rank.queries++;
  if (total > 0) rank.nonEmpty++;
  perRank.set(query.kind, rank);
  await walkPages(
    handler,
    (page) => `${query.path}${page === 1 && query.defaultFirstPage ? '' : `&page=${page}`}${sizeText}`,
    (page) => pagedAnswer(kept, page, size),
    size,
    totals,
    mismatches,
  );
}

function report(mismatches: Mismatch[]): string {
  const lines = [`${mismatches.length} pages differ from the reference`];
  for (const m of mismatches.slice(0, 8)) lines.push(`GET ${m.path}\n    ${m.difference}`);
  return lines.join('\n');
}

describe('/api/v1/search with taxon and reviewed against the reference: every page of random queries', () => {
  SETTINGS.forEach((setting, index) => {
    it(setting.label, { timeout: 120_000 }, async () => {
      const reference = referenceOf(setting);
      const mods =
        (setting.fixed ? `&fixed=${encodeURIComponent(setting.fixed)}` : '') +
        (setting.variable ? `&variable=${encodeURIComponent(setting.variable)}` : '');
      await ready();
      const queries = makeQueries(reference, mods, 0x7a0 + index * 7919, setting.queries);
      const mismatches: Mismatch[] = [];
      for (const query of queries) await walk(reference, query, mismatches);
      totals.mismatches += mismatches.length;
      expect(mismatches.length, report(mismatches)).toBe(0);
    });
  });

  it('covered every rank with hits and misses, multi-taxon sets, unfiltered queries and taxa with nothing in the window', () => {
    expect(totals.queries).toBeGreaterThanOrEqual(3000);
    for (const rank of RANKS) {
      const r = perRank.get(rank);
      expect(r?.nonEmpty ?? 0, rank).toBeGreaterThan(20);
      expect((r?.queries ?? 0) - (r?.nonEmpty ?? 0), rank).toBeGreaterThan(5);
    }
    expect(totals.unfiltered).toBeGreaterThan(200);
    expect(totals.multi).toBeGreaterThan(300);
    expect(totals.emptyTaxon).toBeGreaterThan(100);
  });
});

// ---------------------------------------------------------------- fixed cases and bad input

describe('taxon and reviewed: fixed cases', () => {
  it('a taxon in the taxonomy with nothing in the window is a 200 with an empty result', async () => {
    await ready();
    // A species node whose subtree has no peptide in a narrow window around some real mass.
    const reference = referenceOf({ fixed: '', variable: '' });
    const form = reference.forms[Math.floor(reference.forms.length / 2)];
    const key = form.key;
    const all = reference.answer(key, key, 1, 1e9);
    const species = byRank
      .get('species')!
      .find((t) => filteredAnswer(taxonomy, all, { taxa: [t] }, 1, 1).totalResult === 0)!;
    const got = await call(
      handler,
      `/api/v1/search?mass1=${referenceKeyText(key)}&mass2=${referenceKeyText(key)}&taxon=${species}`,
    );
    expect(got.status, got.text).toBe(200);
    expect(stable(got.body)).toEqual({ totalResult: 0, page: 1, pageSize: 100, result: [] });
    // ...and the same window with the taxon of one of its accessions is not empty.
    const own = taxonomy.nodes.get(form.peptide.accsTax.find((a) => taxonomy.nodes.has(a.taxId))?.taxId ?? 1)!.taxId;
    const hit = await call(
      handler,
      `/api/v1/search?mass1=${referenceKeyText(key)}&mass2=${referenceKeyText(key)}&taxon=${own}`,
    );
    expect(stable(hit.body)).toEqual(filteredAnswer(taxonomy, all, { taxa: [own] }, 1, 100));
    expect(hit.body.totalResult).toBe(1);
  });

  const window = 'mass1=1000&mass2=1010';
  it.each([
    ['taxon=', /taxon/],
    ['taxon=9606,abc', /taxon/],
    ['taxon=0', /taxon/],
    ['taxon=-5', /taxon/],
    ['taxon=1.5', /taxon/],
    ['taxon=2,', /taxon/],
    ['taxon=abc', /taxon/],
    ['reviewed=maybe', /reviewed/],
    ['reviewed=', /reviewed/],
    ['reviewed=1', /reviewed/],
  ])('%s is a 400 naming the parameter', async (param, message) => {
    await ready();
    expectErrorBody(await call(handler, `/api/v1/search?${window}&${param}`), 400, message);
  });

  it('a taxId not in the dataset taxonomy is a 400 that names it (never in the dump; in the full dump but not this subset; an OX= the dump lacks)', async () => {
    await ready();
    const full = readTaxdump(TAXDUMP);
    const notHere = [...full.keys()].find((t) => !taxonomy.nodes.has(t))!;
    const withoutLineage = [...taxonomy.taxIdsWithoutLineage][0];
    for (const taxId of [999999999, notHere, withoutLineage, 2147483647]) {
      expectErrorBody(
        await call(handler, `/api/v1/search?${window}&taxon=${taxId}`),
        400,
        new RegExp(`\\b${taxId}\\b`),
      );
      expectErrorBody(
        await call(handler, `/api/v1/search?${window}&taxon=2,${taxId}`),
        400,
        new RegExp(`\\b${taxId}\\b`),
      );
    }
  });

  it('a dataset built without a taxonomy refuses taxon (400) but still filters by reviewed', async () => {
    const plain = folderHandler(await noTaxonomyDataset());
    expectErrorBody(await call(plain, `/api/v1/search?${window}&taxon=2`), 400, /taxonom/i);
    // reviewed still works there: every page of a 10 Da window, both ways, equal to the reference of those records.
    const bytes = readFileSync(sampleSubset(1000));
    const few = referencePeptides(bytes);
    const own = new ReferenceTaxonomy(readTaxdump(TAXDUMP), referenceAccessions(bytes), few);
    // Without modifications a peptide's one form weighs what the peptide does: the window (1000 to 1010 Da) holds
    // only peptides within 0.1 Da of it (units of 1e-10 Da), and the reference of those answers it alike.
    const near = few.filter((p) => p.units >= 9_999_000_000_000n && p.units <= 10_101_000_000_000n);
    const all = new ReferencePrecursor(near, { fixed: [], variable: [], maxVariable: 2 }).answer(
      10_000_000,
      10_100_000,
      1,
      1e9,
    );
    for (const reviewed of [true, false]) {
      for (let page = 1; ; page++) {
        const expected = filteredAnswer(own, all, { reviewed }, page, 40);
        const got = await call(plain, `/api/v1/search?${window}&reviewed=${reviewed}&page=${page}&pageSize=40`);
        expect(got.status, got.text).toBe(200);
        expect(stable(got.body)).toEqual(expected);
        if ((page - 1) * 40 >= expected.totalResult) break;
      }
    }
  });
});

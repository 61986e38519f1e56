// Batch matching (runtime/core/match.ts) against two independent answers: /api/v1/search through the HTTP handler
// — every search of every spectrum of a real 1,000-spectrum MGF file (the acceptance), all pages walked —
// and the brute-force reference of test/helpers/referencePrecursor.ts (its own digest, chemistry and ProForma),
// with `top` checked against the reference's exact masses; plus filters, neutral masses, negative charges, refused
// searches, a batch's budget, and batching (the answer does not depend on the batch size or the precursors' order).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandler, type Handler } from '../../../../runtime/api/handler.js';
import { precursorJson } from '../../../../runtime/api/matchJson.js';
import { Dataset } from '../../../../runtime/core/storage/dataset.js';
import { matchPrecursors, matchSpectra, type MatchBatch } from '../../../../runtime/core/match/match.js';
import { parseMatchQuery } from '../../../../runtime/api/matchParams.js';
import { InvalidQuery } from '../../../../runtime/core/errors.js';
import { searchesOf, type Precursor } from '../../../../runtime/core/match/matchQuery.js';
import { findCandidates } from '../../../../runtime/core/precursor/precursor.js';
import { hypothesesOf } from '../../../../runtime/core/precursor/searchPlan.js';
import { readMgf, type Spectrum } from '../../../../runtime/core/match/mgf.js';
import { FileSource } from '../../../../runtime/entries/node/fileSource.js';
import { nodeCodecs } from '../../../../runtime/entries/node/platform.js';
import { call } from '../../../helpers/api.js';
import { CountingSource } from '../../../helpers/countingSource.js';
import {
  buildOnce,
  bundledDataset,
  noTaxonomyDataset,
  removeTempDirs,
  sampleSubset,
} from '../../../helpers/datasets.js';
import { prng } from '../../../helpers/prng.js';
import {
  parseRefMods,
  REFERENCE_PROTON,
  referencePeptides,
  ReferencePrecursor,
  referenceWindow,
  type RefEntry,
} from '../../../helpers/referencePrecursor.js';
import { REPO } from '../../../helpers/process.js';

const MGF = join(REPO, 'test/fixtures/mgf');
const MODS = { fixed: 'Carbamidomethyl@C', variable: 'Oxidation@M' };

type Params = Record<string, string>;
const queryOf = (params: Params) => parseMatchQuery((name) => (params[name] === undefined ? [] : [params[name]]));

async function spectraOf(file: string): Promise<Spectrum[]> {
  const spectra: Spectrum[] = [];
  for await (const item of readMgf([readFileSync(join(MGF, file))])) {
    if (!('spectrum' in item)) throw new Error(`${file}: ${item.malformed.error}`);
    spectra.push(item.spectrum);
  }
  return spectra;
}

/** A value as JSON carries it (the reference's -0 ppm is written 0). */
const asJson = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** Every precursor of the batches as the answer lists it. */
const jsonOf = (batches: MatchBatch[]) =>
  batches.flatMap((batch) => batch.precursors.map((_, i) => precursorJson(batch, i)));

/** All entries of /api/v1/search for `params`, every page walked, in order; or its error. */
async function searchAll(
  handler: Handler,
  params: Params,
): Promise<{ entries?: RefEntry[]; error?: string; status: number }> {
  const entries: RefEntry[] = [];
  for (let page = 1; ; page++) {
    const got = await call(
      handler,
      `/api/v1/search?${new URLSearchParams({ ...params, page: String(page), pageSize: '1000' })}`,
    );
    if (got.status !== 200) return { error: got.body.error, status: got.status };
    for (const group of got.body.result as Record<string, RefEntry[]>[]) entries.push(...Object.values(group)[0]);
    if (page * 1000 >= got.body.totalResult) return { entries, status: 200 };
  }
}

let bundled: Dataset;
let handler: Handler;

beforeAll(async () => {
  const dir = await bundledDataset();
  bundled = await Dataset.open(new FileSource(dir), nodeCodecs);
  // The API over the same opened dataset: shards are read and decoded once for both, and a match that altered a
  // decoded shard would show in the searches asked after it.
  handler = createHandler(() => Promise.resolve(bundled));
});
afterAll(removeTempDirs);

describe('every spectrum of a real 1,000-spectrum file equals /api/v1/search', () => {
  it('mpa_Test1000Ecoli.mgf (Bruker; 384 spectra without CHARGE, tried as 2+ and 3+), ±10 ppm, Carbamidomethyl@C fixed, Oxidation@M variable', async () => {
    const spectra = await spectraOf('mpa_Test1000Ecoli.mgf');
    expect(spectra).toHaveLength(1000);
    const params = { tolerance: '10', ...MODS };
    // Small batches, so batching and the mass order inside a batch are part of what is compared.
    const results: ReturnType<typeof jsonOf> = [];
    // Each batch read as it comes: the next one reuses its memory.
    for await (const batch of matchSpectra(
      bundled,
      queryOf(params),
      (async function* () {
        yield* spectra.map((spectrum) => ({ spectrum }));
      })(),
      { batch: 137 },
    ))
      results.push(...jsonOf([batch]));
    expect(results.map((r) => r.index)).toEqual(spectra.map((s) => s.index));
    let searches = 0;
    let candidates = 0;
    for (const [i, result] of results.entries()) {
      const spectrum = spectra[i];
      const charges = spectrum.charges.length > 0 ? spectrum.charges : [2, 3];
      expect(
        result.searches.map((s) => s.charge),
        `spectrum ${spectrum.index}`,
      ).toEqual(charges);
      for (const search of result.searches) {
        const api = await searchAll(handler, { mz: String(spectrum.mz), charge: String(search.charge), ...params });
        expect(api.status, `spectrum ${spectrum.index} charge ${search.charge}`).toBe(200);
        expect(search.candidates, `spectrum ${spectrum.index} charge ${search.charge}`).toEqual(api.entries);
        expect(search.mass).toBe((spectrum.mz - REFERENCE_PROTON) * search.charge!);
        searches++;
        candidates += search.candidates.length;
      }
    }
    expect(searches).toBe(1000 + 384);
    // The comparison has substance: most searches find something on the bundled sample at 10 ppm.
    expect(candidates).toBeGreaterThan(10_000);
  }, 600_000);
});

describe('against the brute-force reference (a subset of the sample, many shards)', () => {
  /**
   * The sample's first records in 16 KB shards, the shared build of them without a taxonomy (these searches filter by
   * no taxon): enough that the precursors below find thousands of candidates, read well over 50 shards and cut well
   * over 20 answers to their top N, the floors the tests assert.
   */
  const RECORDS = 1000;
  let subset: Dataset;
  let subsetDir: string;
  /**
   * The same records built with a Carbamidomethyl@C view (docs/format.md "Views"): its C-holding peptides come from
   * the view.
   */
  let viewed: Dataset;
  let viewedDir: string;
  let reference: ReferencePrecursor;
  let referencePlain: ReferencePrecursor;

  beforeAll(async () => {
    [subsetDir, viewedDir] = await Promise.all([
      noTaxonomyDataset(),
      buildOnce('match-viewed', [sampleSubset(RECORDS)], 16_384, undefined, [MODS.fixed]),
    ]);
    subset = await Dataset.open(new FileSource(subsetDir), { cacheBytes: 4 << 20, ...nodeCodecs });
    viewed = await Dataset.open(new FileSource(viewedDir), { cacheBytes: 4 << 20, ...nodeCodecs });
    expect(viewed.views.map((v) => v.spec.modification.name)).toEqual(['Carbamidomethyl']);
    const peptides = referencePeptides(readFileSync(sampleSubset(RECORDS)));
    reference = new ReferencePrecursor(peptides, {
      fixed: parseRefMods(MODS.fixed),
      variable: parseRefMods(MODS.variable),
      maxVariable: 2,
    });
    referencePlain = new ReferencePrecursor(peptides, { fixed: [], variable: [], maxVariable: 2 });
  }, 300_000);

  /** Precursors near the reference's own modified masses (so most find candidates), and some anywhere. */
  function precursors(seed: number, count: number, forms: ReferencePrecursor['forms']): Precursor[] {
    const random = prng(seed);
    return Array.from({ length: count }, (_, i): Precursor => {
      const near = random() < 0.8;
      const mass = near
        ? Number(forms[Math.floor(random() * forms.length)].units) / 1e10 + (random() - 0.5) * 0.01
        : 600 + random() * 3000;
      const form = random();
      if (form < 0.2) return { index: i + 1, mass };
      const charge = 1 + Math.floor(random() * 4);
      const sign = form < 0.3 ? -1 : 1; // negative mode: (m/z + proton) × |z|
      const mz = sign > 0 ? mass / charge + REFERENCE_PROTON : mass / charge - REFERENCE_PROTON;
      return { index: i + 1, mz, charges: random() < 0.15 ? [] : [sign * charge] };
    });
  }

  it('every search of 600 precursors (m/z with and without charge, negative charges, neutral masses) equals the reference, whole (with and without the view)', async () => {
    const list = precursors(11, 600, reference.forms);
    const params = { tolerance: '10', ...MODS, charges: '2,3' };
    for (const dataset of [subset, viewed])
      await expectReference(await matchPrecursors(dataset, queryOf(params), list, { concurrency: 3 }), list);
  }, 300_000);

  /**
   * The reference's candidates at ±`ppm` around M, as JSON carries them: asked once per reference and precursor (the
   * same searches are compared on both datasets, and for each top N).
   */
  const answers = new Map<ReferencePrecursor, Map<string, RefEntry[]>>();
  function answerOf(ref: ReferencePrecursor, M: number, ppm: number): RefEntry[] {
    const known = answers.get(ref) ?? new Map<string, RefEntry[]>();
    answers.set(ref, known);
    const id = `${M} ${ppm}`;
    let entries = known.get(id);
    if (!entries) {
      const { lowKey, highKey } = referenceWindow(M, ppm, ppm, 'ppm');
      entries = asJson(ref.answer(lowKey, highKey, 1, 1e9, M).result.flatMap((g) => Object.values(g)[0]));
      known.set(id, entries);
    }
    return entries;
  }
  afterAll(() => answers.clear());

  /** Every search of the batch of `list` equals the reference's answer for its window, whole. */
  async function expectReference(batch: MatchBatch, list: Precursor[]): Promise<void> {
    let compared = 0;
    for (const [i, p] of list.entries()) {
      const json = precursorJson(batch, i);
      const charges = 'mass' in p ? [undefined] : p.charges.length > 0 ? p.charges : [2, 3];
      expect(json.searches.map((s) => s.charge)).toEqual(charges);
      for (const search of json.searches) {
        const M =
          'mass' in p
            ? p.mass
            : search.charge! > 0
              ? (p.mz - REFERENCE_PROTON) * search.charge!
              : (p.mz + REFERENCE_PROTON) * -search.charge!;
        expect(search.mass).toBe(M);
        const expected = answerOf(reference, M, 10);
        expect(search.candidates, `precursor ${i + 1} charge ${search.charge}`).toEqual(expected);
        compared += expected.length;
      }
    }
    expect(compared).toBeGreaterThan(1000);
  }

  it('reads each shard once, in a sweep over the masses, whatever the order of the precursors and under a cache of a few shards', async () => {
    const list = precursors(13, 400, reference.forms).reverse();
    const query = queryOf({ tolerance: '10', ...MODS, charges: '2,3' });
    const whole = jsonOf([await matchPrecursors(subset, query, list)]);
    for (const dir of [subsetDir, viewedDir]) {
      const source = new CountingSource(new FileSource(dir));
      const small = await Dataset.open(source, { cacheBytes: 64 << 10, ...nodeCodecs });
      const batch = await matchPrecursors(small, query, list);
      const reads = source.shardReads;
      expect(reads.length).toBeGreaterThan(50); // the batch reads many of the subset's shards (and of the view's)...
      expect(new Set(reads).size).toBe(reads.length); // ...each once
      expect(jsonOf([batch])).toEqual(whole);
    }
  }, 300_000);

  it('top N keeps the N candidates with the smallest exact mass error (ties in the answer’s order), in the answer’s order', async () => {
    for (const top of [1, 3]) await checkTop(top, subset, referencePlain, {});
    await checkTop(3, viewed, reference, MODS); // the view's candidates weigh their Carbamidomethyl too
  }, 300_000);

  /** The forms with keys in [low, high]: `forms` is sorted by key, so a binary search finds where they start. */
  function formsIn(forms: ReferencePrecursor['forms'], low: number, high: number): ReferencePrecursor['forms'] {
    let [from, to] = [0, forms.length];
    while (from < to) {
      const mid = (from + to) >> 1;
      if (forms[mid].key < low) from = mid + 1;
      else to = mid;
    }
    let end = from;
    while (end < forms.length && forms[end].key <= high) end++;
    return forms.slice(from, end);
  }

  async function checkTop(top: number, dataset: Dataset, ref: ReferencePrecursor, mods: Params): Promise<void> {
    const list = precursors(12, 300, ref.forms).filter((p) => 'mass' in p || p.charges.length > 0);
    const batch = await matchPrecursors(dataset, queryOf({ tolerance: '50', top: String(top), ...mods }), list);
    let cut = 0;
    for (const [i, p] of list.entries()) {
      for (const search of precursorJson(batch, i).searches) {
        const M = search.mass;
        const { lowKey, highKey } = referenceWindow(M, 50, 50, 'ppm');
        const all = answerOf(ref, M, 50);
        const forms = formsIn(ref.forms, lowKey, highKey); // same order as `all`
        expect(forms.map((f) => f.proforma)).toEqual(all.map((e) => e.proforma));
        const kept = forms
          .map((f, at) => ({ at, error: Math.abs(Number(f.units) / 1e10 - M) }))
          .sort((a, b) => a.error - b.error || a.at - b.at)
          .slice(0, top)
          .map((k) => k.at)
          .sort((a, b) => a - b);
        if (all.length > top) cut++;
        expect(search.candidates, `top ${top}, precursor ${i + 1} (${'mass' in p ? 'mass' : 'mz'})`).toEqual(
          kept.map((at) => all[at]),
        );
      }
    }
    expect(cut).toBeGreaterThan(20);
  }
});

describe('filters, refused searches and batching', () => {
  it('taxon and reviewed filters and another modification set equal /api/v1/search (ms2pip MassIVE-KB spectra)', async () => {
    const spectra = (await spectraOf('ms2pip_massivekb_selected_500.mgf')).slice(0, 150);
    const settings: Params[] = [
      { tolerance: '20', variable: 'Phospho@STY', maxVariable: '1', taxon: '2' },
      { tolerance: '0.02', unit: 'Da', fixed: 'Carbamidomethyl@C', reviewed: 'true' },
      {
        toleranceLow: '5',
        toleranceHigh: '15',
        variable: 'Deamidated@NQ,Acetyl@N-term',
        taxon: '9606,10090',
        reviewed: 'false',
      },
    ];
    for (const params of settings) {
      const batch = await matchPrecursors(bundled, queryOf(params), spectra);
      let found = 0;
      for (const [i, spectrum] of spectra.entries()) {
        for (const search of precursorJson(batch, i).searches) {
          const api = await searchAll(handler, { mz: String(spectrum.mz), charge: String(search.charge), ...params });
          expect(search.candidates, `${JSON.stringify(params)} spectrum ${spectrum.index}`).toEqual(api.entries);
          found += search.candidates.length;
        }
      }
      expect(found, JSON.stringify(params)).toBeGreaterThan(20);
    }
  }, 300_000);

  it('a search /api/v1/search refuses carries its error and no candidates; the precursor’s other searches are answered', async () => {
    // Eight fixed modifications on residues: too many hypotheses in a 1 Da window at 6,000 Da.
    const open = {
      tolerance: '0.5',
      unit: 'Da',
      fixed: 'Carbamidomethyl@C,Methyl@K,Dimethyl@R,Acetyl@S,Phospho@T,Oxidation@M,Deamidated@N,Carbamyl@Y',
    };
    const api = await searchAll(handler, { mass: '6000.5', ...open });
    expect(api.status).toBe(400);
    expect(api.error).toMatch(/mass hypotheses/);
    const [result] = jsonOf([
      await matchPrecursors(bundled, queryOf(open), [
        { index: 1, mass: 6000.5 },
        { index: 2, mass: 1500 },
      ]),
    ]);
    expect(result.searches).toEqual([{ mass: 6000.5, candidates: [], error: api.error }]);

    const [low] = jsonOf([
      await matchPrecursors(bundled, queryOf({ tolerance: '10' }), [{ index: 1, mz: 0.9, charges: [2, -2] }]),
    ]);
    const apiLow = await searchAll(handler, { mz: '0.9', charge: '2', tolerance: '10' });
    expect(low.searches[0]).toEqual({
      charge: 2,
      mass: (0.9 - REFERENCE_PROTON) * 2,
      candidates: [],
      error: apiLow.error,
    });
    expect(low.searches[1].error).toBeUndefined(); // (0.9 + proton) × 2: a real (if tiny) mass, searched
  }, 120_000);

  it('a batch over its budget of peptides examined (a server’s bound on one request) is refused whole (InvalidQuery)', async () => {
    const spectra = (await spectraOf('mpa_Test_100.mgf')).slice(0, 40);
    const query = queryOf({ tolerance: '10', ...MODS });
    // What the batch examines, from /api/v1/search's own count over the hypotheses the match reads (hypothesesOf: not
    // the complete view, which the search would read for these modifications): a budget just below it is refused, at it
    // answered.
    let total = 0;
    for (const spectrum of spectra) {
      for (const search of searchesOf(query, spectrum)) {
        const window = { ...search, fixed: query.fixed, variable: query.variable, maxVariable: query.maxVariable };
        const { found } = await findCandidates(bundled, window, undefined, hypothesesOf(bundled, window));
        total += found.scanned;
      }
    }
    expect(total).toBeGreaterThan(1000);
    const refused = matchPrecursors(bundled, query, spectra, { maxScanned: total - 1 });
    await expect(refused).rejects.toBeInstanceOf(InvalidQuery);
    await expect(refused).rejects.toMatchObject({
      message: expect.stringMatching(/would examine more than .* stored peptides in all/),
    });
    const within = jsonOf([await matchPrecursors(bundled, query, spectra, { maxScanned: total })]);
    expect(within).toEqual(jsonOf([await matchPrecursors(bundled, query, spectra)]));
  });

  it('the answer does not depend on the batch size, the concurrency or the order of the precursors', async () => {
    const spectra = await spectraOf('mpa_BGA04F14.mgf');
    const query = queryOf({ tolerance: '10', ...MODS });
    const whole = jsonOf([await matchPrecursors(bundled, query, spectra)]);
    const reversed = [...spectra].reverse();
    const backwards = jsonOf([await matchPrecursors(bundled, query, reversed, { concurrency: 1 })]).reverse();
    expect(backwards).toEqual(whole);
    const batched: ReturnType<typeof jsonOf> = [];
    const kept: MatchBatch[] = [];
    for await (const b of matchSpectra(
      bundled,
      query,
      (async function* () {
        yield* spectra.map((spectrum) => ({ spectrum }));
      })(),
      { batch: 7, concurrency: 16 },
    )) {
      batched.push(...jsonOf([b])); // read before the next batch, which reuses its memory
      kept.push(b);
    }
    expect(kept).toHaveLength(Math.ceil(spectra.length / 7));
    expect(batched).toEqual(whole);
    // A batch read after the next one was asked for is refused, not read from the columns the next one filled.
    expect(() => jsonOf([kept[0]])).toThrow(/read after the next one was asked for/);
    expect(jsonOf([kept.at(-1)!])).toEqual(whole.slice(7 * (kept.length - 1)));
  }, 120_000);
});

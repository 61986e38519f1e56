// Differential test of GET /api/v1/peptide (peptide → proteins, I/L equated, LCA) against an
// independent reference (test/helpers/referenceTaxonomy.ts: reads nodes.dmp, names.dmp and the FASTA headers
// itself; digestion and masses from test/helpers/reference.ts). Nothing from builder/ or runtime/ is imported by the
// references; the code under test is reached only through the HTTP handler.
//
// On the bundled dataset (built with the bundled taxdump), thousands of seeded random look-ups — stored peptides,
// the same with equateIL, I/L variants of stored peptides with equateIL true and false, absent sequences, and
// sequences the enzyme cannot produce (no cleavage site, too short, too long) — each asked in random case, a share
// with a taxon set (from the peptide's own lineages or elsewhere) and/or reviewed, are compared whole with the
// reference: sequence, mass, every peptide with its exact accession set (taxId, reviewed, protein, organism) in
// order, and the LCA. Then the bad-input cases of the issue.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Handler } from '../../../runtime/api/handler.js';
import { call, expectErrorBody, folderHandler } from '../../helpers/api.js';
import { bundledDataset, noTaxonomyDataset, SAMPLE_FASTA } from '../../helpers/datasets.js';
import { REPO } from '../../helpers/process.js';
import { prng } from '../../helpers/prng.js';
import { referenceBoundaries, REFERENCE_ENZYMES, referenceFasta } from '../../helpers/reference.js';
import { firstDifference, referencePeptides, type RefPeptide } from '../../helpers/referencePrecursor.js';
import {
  readTaxdump,
  referenceAccessions,
  ReferencePeptideLookup,
  ReferenceTaxonomy,
  type RefFilter,
} from '../../helpers/referenceTaxonomy.js';

/** A dataset built without --taxdump (the sample's first records): no taxonomy. */

const TAXDUMP = join(REPO, 'data/taxdump');
const RANKS = ['superkingdom', 'phylum', 'class', 'order', 'family', 'genus', 'species', 'no rank'];

let handler: Handler;
/** The dataset, built while the reference is computed; awaited by the tests that ask the API. */
let building: Promise<string>;
const ready = async () => void (handler ??= folderHandler(await building));
let peptides: RefPeptide[];
let proteins: string[];
let taxonomy: ReferenceTaxonomy;
let lookup: ReferencePeptideLookup;

beforeAll(async () => {
  building = bundledDataset();
  building.catch(() => undefined); // reported by the tests that await it
  const bytes = readFileSync(SAMPLE_FASTA);
  peptides = referencePeptides(bytes);
  proteins = referenceFasta(bytes)
    .map((p) => p.sequence)
    .filter((s) => /^[A-Z]+$/.test(s) && !/[BXZJ]/.test(s));
  taxonomy = new ReferenceTaxonomy(readTaxdump(TAXDUMP), referenceAccessions(bytes), peptides);
  lookup = new ReferencePeptideLookup(peptides, taxonomy);
});

const totals = { lookups: 0, found: 0, withLca: 0, mismatches: 0, byKind: {} as Record<string, number> };

afterAll(() => {
  console.log(
    `peptide differential: ${totals.lookups} look-ups (${JSON.stringify(totals.byKind)}), ${totals.found} with peptides, ${totals.withLca} with an LCA; ${totals.mismatches} differ`,
  );
});

interface Lookup {
  kind: string;
  sequence: string;
  /** undefined: the parameter is left out (false). */
  il?: boolean;
  filter: RefFilter;
}

/** The query path of a look-up. */
function pathOf(l: Lookup): string {
  let path = `/api/v1/peptide?sequence=${encodeURIComponent(l.sequence)}`;
  if (l.il !== undefined) path += `&equateIL=${l.il}`;
  if (l.filter.taxa) path += `&taxon=${l.filter.taxa.join(',')}`;
  if (l.filter.reviewed !== undefined) path += `&reviewed=${l.filter.reviewed}`;
  return path;
}

function makeLookups(seed: number): Lookup[] {
  const random = prng(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  const stored = () => pick(peptides).sequence;
  const withIL = peptides.filter((p) => /[IL]/.test(p.sequence));
  const nodes = [...taxonomy.nodes.values()];
  const randomCase = (s: string) =>
    random() < 0.3 ? [...s].map((c) => (random() < 0.5 ? c.toLowerCase() : c)).join('') : s;
  const flipIL = (s: string) => {
    const out = [...s];
    let flipped = false;
    for (let i = 0; i < out.length; i++) {
      if (
        (out[i] === 'I' || out[i] === 'L') &&
        (random() < 0.5 || (!flipped && !out.slice(i + 1).some((c) => c === 'I' || c === 'L')))
      ) {
        out[i] = out[i] === 'I' ? 'L' : 'I';
        flipped = true;
      }
    }
    return out.join('');
  };
  /**
   * A sequence the enzyme cannot produce: a protein piece not ending at a cleavage site, or of a length out of bounds.
   */
  const unproducible = (): string => {
    const protein = pick(proteins);
    const roll = random();
    if (roll < 0.2) return protein.slice(0, int(1, 5)); // too short
    if (roll < 0.3 && protein.length > 60) return protein.slice(0, int(51, 60)); // too long
    const cuts = new Set(referenceBoundaries(protein, REFERENCE_ENZYMES.trypsin));
    for (let tries = 0; tries < 20; tries++) {
      const start = int(0, Math.max(0, protein.length - 8));
      const end = Math.min(protein.length, start + int(6, 30));
      if (!cuts.has(start) || !cuts.has(end)) return protein.slice(start, end);
    }
    return protein.slice(1, 9);
  };
  /** A filter: mostly a taxon on the lineage of one of the peptide's accessions (any rank), sometimes elsewhere. */
  const filterFor = (sequence: string): RefFilter => {
    const filter: RefFilter = {};
    if (random() < 0.6) {
      const found = lookup.variants(sequence.toUpperCase());
      const taxa: number[] = [];
      const n = random() < 0.25 ? int(2, 3) : 1;
      for (let i = 0; i < n; i++) {
        const acc = found.length > 0 && random() < 0.8 ? pick(pick(found).accsTax) : undefined;
        const lineage = acc ? taxonomy.nodes.get(acc.taxId)?.lineage : undefined;
        if (lineage) {
          const rank = pick(RANKS);
          const onRank = lineage.filter((t) => taxonomy.nodes.get(t)!.rank === rank);
          taxa.push(onRank.length > 0 ? pick(onRank) : pick(lineage));
        } else taxa.push(pick(nodes).taxId);
      }
      filter.taxa = taxa;
    }
    if (!filter.taxa || random() < 0.4) filter.reviewed = random() < 0.5;
    return filter;
  };

  const lookups: Lookup[] = [];
  const add = (kind: string, sequence: string, il: boolean | undefined) => {
    const filtered = random() < 0.3;
    lookups.push({
      kind: filtered ? `${kind}, filtered` : kind,
      sequence: randomCase(sequence),
      il,
      filter: filtered ? filterFor(sequence) : {},
    });
  };
  for (let i = 0; i < 600; i++) add('present', stored(), pick([undefined, false]));
  for (let i = 0; i < 300; i++) add('present, equateIL', stored(), true);
  for (let i = 0; i < 350; i++) add('I/L variant, equateIL', flipIL(pick(withIL).sequence), true);
  for (let i = 0; i < 350; i++) add('I/L variant, exact', flipIL(pick(withIL).sequence), pick([undefined, false]));
  for (let i = 0; i < 250; i++) {
    // absent: a stored peptide with one residue changed, or shuffled
    const s = [...stored()];
    if (random() < 0.5) s[int(0, s.length - 1)] = pick([...'ACDEFGHIKLMNPQRSTVWY']);
    else s.sort(() => random() - 0.5);
    add('absent', s.join(''), pick([undefined, false, true]));
  }
  for (let i = 0; i < 300; i++) add('not producible', unproducible(), pick([undefined, false, true]));
  return lookups;
}

describe('/api/v1/peptide against the reference', () => {
  it('answers every random look-up exactly as the reference does', { timeout: 120_000 }, async () => {
    await ready();
    const lookups = makeLookups(0x9e971de);
    const mismatches: { path: string; difference: string }[] = [];
    for (const l of lookups) {
      const path = pathOf(l);
      const expected = lookup.answer(l.sequence, l.il ?? false, l.filter);
      totals.lookups++;
      totals.byKind[l.kind] = (totals.byKind[l.kind] ?? 0) + 1;
      if (expected.peptides.length > 0) totals.found++;
      if (expected.lca) totals.withLca++;
      const got = await call(handler, path);
      if (got.status !== 200) mismatches.push({ path, difference: `status ${got.status}: ${got.text}` });
      else if (JSON.stringify(got.body) !== JSON.stringify(expected)) {
        mismatches.push({
          path,
          difference: firstDifference(expected, got.body) ?? 'same values, different JSON text',
        });
      }
    }
    totals.mismatches = mismatches.length;
    const lines = [
      `${mismatches.length} look-ups differ from the reference`,
      ...mismatches.slice(0, 8).map((m) => `GET ${m.path}\n    ${m.difference}`),
    ];
    expect(mismatches.length, lines.join('\n')).toBe(0);
    expect(totals.lookups).toBeGreaterThanOrEqual(2000);
    // The look-ups meant to hit mostly hit, and with more than one organism some LCAs are above species.
    expect(totals.found).toBeGreaterThan(1000);
    expect(totals.withLca).toBeGreaterThan(900);
  });

  it('I/L: equateIL finds every stored variant, exact look-up only the one asked (hand-picked from the reference)', async () => {
    await ready();
    // A stored peptide that has another stored I/L variant.
    const many = peptides.find((p) => lookup.variants(p.sequence).length >= 2)!;
    const variants = lookup
      .variants(many.sequence)
      .map((p) => p.sequence)
      .sort();
    const got = await call(handler, `/api/v1/peptide?sequence=${many.sequence}&equateIL=true`);
    expect(got.status, got.text).toBe(200);
    expect(got.body.peptides.map((p: { seq: string }) => p.seq)).toEqual(variants);
    const exact = await call(handler, `/api/v1/peptide?sequence=${many.sequence}`);
    expect(exact.body.peptides.map((p: { seq: string }) => p.seq)).toEqual([many.sequence]);
  });

  it('the LCA of a peptide of several organisms is the deepest node on all their lineages', async () => {
    await ready();
    const shared = peptides.find(
      (p) => new Set(p.accsTax.map((a) => a.taxId).filter((t) => taxonomy.nodes.has(t))).size >= 3,
    )!;
    const expected = lookup.answer(shared.sequence, false, {});
    const lineages = shared.accsTax
      .filter((a) => taxonomy.nodes.has(a.taxId))
      .map((a) => taxonomy.nodes.get(a.taxId)!.lineage);
    const common = lineages[0].filter((t) => lineages.every((l) => l.includes(t)));
    expect(expected.lca?.taxId).toBe(common[common.length - 1]);
    const got = await call(handler, `/api/v1/peptide?sequence=${shared.sequence}`);
    expect(got.body).toEqual(expected);
  });
});

describe('/api/v1/peptide: bad input', () => {
  it.each([
    ['', /sequence/],
    ['sequence=', /sequence/],
    ['sequence=PEPTBDE', /sequence/],
    ['sequence=PEPTXDE', /sequence/],
    ['sequence=PEPTZDE', /sequence/],
    ['sequence=PEP1TIDE', /sequence/],
    ['sequence=PEP-TIDE', /sequence/],
    ['sequence=PEP*', /sequence/],
    [`sequence=${'A'.repeat(1001)}`, /sequence/],
    ['sequence=PEPTIDE&taxon=', /taxon/],
    ['sequence=PEPTIDE&taxon=abc', /taxon/],
    ['sequence=PEPTIDE&taxon=0', /taxon/],
    ['sequence=PEPTIDE&taxon=9606,-5', /taxon/],
    ['sequence=PEPTIDE&taxon=1.5', /taxon/],
    ['sequence=PEPTIDE&reviewed=maybe', /reviewed/],
  ])('%s is a 400 naming the parameter', async (query, message) => {
    await ready();
    expectErrorBody(await call(handler, `/api/v1/peptide?${query}`), 400, message);
  });

  it('a taxId not in the dataset taxonomy is a 400 that names it', async () => {
    await ready();
    const withoutLineage = [...taxonomy.taxIdsWithoutLineage][0];
    for (const taxId of [999999999, withoutLineage]) {
      expectErrorBody(
        await call(handler, `/api/v1/peptide?sequence=PEPTIDE&taxon=${taxId}`),
        400,
        new RegExp(`\\b${taxId}\\b`),
      );
    }
  });

  it('an absent peptide is a 200 with no peptides and no LCA; at most 1,000 residues are accepted', async () => {
    await ready();
    const absent = 'WWWWWWWWWWWWWWWWWWWW';
    expect(lookup.has(absent)).toBe(false);
    const got = await call(handler, `/api/v1/peptide?sequence=${absent.toLowerCase()}`);
    expect(got.status, got.text).toBe(200);
    expect(got.body).toEqual(lookup.answer(absent, false, {}));
    expect(got.body.peptides).toEqual([]);
    expect(got.body.lca).toBeNull();
    const long = await call(handler, `/api/v1/peptide?sequence=${'G'.repeat(1000)}`);
    expect(long.status, long.text).toBe(200);
    expect(long.body).toEqual(lookup.answer('G'.repeat(1000), false, {}));
  });

  it('a dataset built without a taxonomy: lca null, taxon refused', async () => {
    await ready();
    const plain = folderHandler(await noTaxonomyDataset());
    const sequence = peptides[0].sequence;
    const got = await call(plain, `/api/v1/peptide?sequence=${sequence}`);
    expect(got.status, got.text).toBe(200);
    expect(got.body.lca).toBeNull();
    expectErrorBody(await call(plain, `/api/v1/peptide?sequence=${sequence}&taxon=2`), 400, /taxonom/i);
  });
});

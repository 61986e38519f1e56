// Differential test of GET /api/v1/taxa (type-ahead over the dataset's taxonomy, with peptide counts)
// against an independent brute-force reference (test/helpers/referenceTaxonomy.ts: reads nodes.dmp, names.dmp and
// the FASTA itself, counts each node's distinct peptides over the union of their accessions' lineages, and tries
// every node's name for every query). Nothing from builder/ or runtime/ is imported by the references; the code under
// test is reached only through the HTTP handler.
//
// On the bundled dataset (built with the bundled taxdump): every node of the taxonomy is asked by its own full name
// (the answer compared whole, and the node itself found in it with its peptide count), then thousands of seeded
// random prefixes drawn from real names (at the name's start and at word starts, any case, padded with spaces, and
// some that match nothing or start inside a word), compared whole. Plus a self-check of the reference and of the
// dataset's totals, and the bad-input cases.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Handler } from '../../../runtime/api/handler.js';
import { call, expectErrorBody, folderHandler } from '../../helpers/api.js';
import { noTaxonomyDataset, bundledDataset, readJsonFile, readManifest, SAMPLE_FASTA } from '../../helpers/datasets.js';
import { REPO } from '../../helpers/process.js';
import { prng } from '../../helpers/prng.js';
import type { ReferencePeptide } from '../../helpers/reference.js';
import { firstDifference } from '../../helpers/referencePrecursor.js';
import {
  readTaxdump,
  referenceAccessions,
  referencePeptideTaxIds,
  ReferenceTaxonomy,
  type RefNode,
} from '../../helpers/referenceTaxonomy.js';

/** A dataset built without --taxdump (the sample's first records): no taxonomy. */

const TAXDUMP = join(REPO, 'data/taxdump');
/** Taxa without a lineage in the bundled taxdump (data/README.md): organisms of the sample it could not place. */
const UNPLACED_TAXIDS = 137;

let dir: string;
let handler: Handler;
/**
 * The dataset, built while the reference is computed; awaited by the tests that ask the API (not the reference's own).
 */
let building: Promise<string>;
async function ready(): Promise<void> {
  dir ??= await building;
  handler ??= folderHandler(dir);
}
/** The reference digest's peptides: each with its accessions and their taxIds. */
let peptides: ReferencePeptide[];
let dump: Map<number, RefNode>;
let taxonomy: ReferenceTaxonomy;

beforeAll(async () => {
  building = bundledDataset();
  building.catch(() => undefined); // reported by the tests that await it
  const bytes = readFileSync(SAMPLE_FASTA);
  peptides = referencePeptideTaxIds(bytes);
  dump = readTaxdump(TAXDUMP);
  taxonomy = new ReferenceTaxonomy(dump, referenceAccessions(bytes), peptides);
});

const totals = { queries: 0, nodesChecked: 0, nodesBeyondTop20: 0, nonEmpty: 0, mismatches: 0 };

afterAll(() => {
  console.log(
    `taxa differential: ${totals.queries} queries (${totals.nonEmpty} non-empty), ${totals.nodesChecked} node counts checked (${totals.nodesBeyondTop20} nodes not in the top 20 of their own name); ${totals.mismatches} differ`,
  );
});

describe('the reference itself', () => {
  it('every lineage runs from the root (taxId 1) to its node through parents; the OX= taxIds without one are the 137', () => {
    // Every broken lineage and unknown taxId is listed (one assertion each, not one per link).
    const broken: string[] = [];
    for (const node of taxonomy.nodes.values()) {
      if (node.lineage[0] !== 1) broken.push(`${node.taxId}: lineage starts at ${node.lineage[0]}`);
      if (node.lineage[node.lineage.length - 1] !== node.taxId) broken.push(`${node.taxId}: lineage ends elsewhere`);
      for (let i = 1; i < node.lineage.length; i++)
        if (dump.get(node.lineage[i])!.parent !== node.lineage[i - 1])
          broken.push(`${node.taxId}: ${node.lineage[i]} is not a child of ${node.lineage[i - 1]}`);
    }
    expect(broken).toEqual([]);
    const ox = new Set([...taxonomy.accessions.values()].map((a) => a.taxId).filter((t) => t !== -1));
    const unknown = [...ox].filter((taxId) => !taxonomy.nodes.has(taxId) && !taxonomy.taxIdsWithoutLineage.has(taxId));
    expect(unknown).toEqual([]);
    expect(taxonomy.taxIdsWithoutLineage.size).toBe(UNPLACED_TAXIDS);
    // The bundled taxdump is pruned to the sample's lineages: the dataset's taxonomy is all of it.
    expect(taxonomy.nodes.size).toBe(dump.size);
  });

  it('counts are consistent: the root counts every peptide with a placed accession; a node counts at most its parent and at least each child', () => {
    const placed = peptides.filter((p) => p.taxIds.some((t) => taxonomy.nodes.has(t))).length;
    expect(taxonomy.nodes.get(1)!.peptides).toBe(placed);
    // Peptides with an accession of exactly this taxId.
    const direct = new Map<number, number>();
    for (const p of peptides) for (const t of new Set(p.taxIds)) direct.set(t, (direct.get(t) ?? 0) + 1);
    const children = new Map<number, number[]>();
    // Every node breaking a bound is listed (one assertion each, not one per node).
    const wrong: string[] = [];
    for (const node of taxonomy.nodes.values()) {
      if (node.taxId === 1) continue;
      if (node.peptides > taxonomy.nodes.get(node.parent)!.peptides) wrong.push(`${node.taxId}: above its parent`);
      const siblings = children.get(node.parent);
      if (siblings) siblings.push(node.taxId);
      else children.set(node.parent, [node.taxId]);
    }
    let leaves = 0;
    for (const node of taxonomy.nodes.values()) {
      const kids = children.get(node.taxId) ?? [];
      const own = direct.get(node.taxId) ?? 0;
      if (kids.length === 0) {
        leaves++;
        if (node.peptides !== own) wrong.push(`${node.taxId}: a leaf not counting its own peptides`); // a leaf is an organism of the sample
        continue;
      }
      const counts = kids.map((k) => taxonomy.nodes.get(k)!.peptides);
      if (node.peptides < Math.max(own, ...counts)) wrong.push(`${node.taxId}: below its own or a child's count`);
      if (node.peptides > own + counts.reduce((s, c) => s + c, 0)) wrong.push(`${node.taxId}: above the sum`);
    }
    expect(wrong).toEqual([]);
    expect(leaves).toBeGreaterThan(1000);
    // One species by direct counting.
    const human = peptides.filter((p) => p.taxIds.some((t) => taxonomy.isWithin(t, 9606))).length;
    expect(taxonomy.nodes.get(9606)!.peptides).toBe(human);
  });

  it('the LCA is the deepest common node (spot checks on the bundled taxdump)', () => {
    expect(taxonomy.lca([9606])!.taxId).toBe(9606);
    expect(taxonomy.lca([9606, 9606])!.taxId).toBe(9606);
    expect(taxonomy.lca([9606, 9605])!.taxId).toBe(9605);
    expect(taxonomy.lca([9606, 562])!.taxId).toBe(131567); // cellular organisms
    expect(taxonomy.lca([9606, ...taxonomy.taxIdsWithoutLineage])!.taxId).toBe(9606);
    expect(taxonomy.lca([...taxonomy.taxIdsWithoutLineage])).toBeNull();
  });

  it('the taxonomy file holds exactly the reference nodes (ascending taxId) with their parents, ranks, names and peptide counts', async () => {
    await ready();
    const entry = readManifest(dir).taxonomy!;
    const file = readJsonFile<Record<string, unknown[]>>(dir, entry.file);
    const nodes = [...taxonomy.nodes.values()].sort((a, b) => a.taxId - b.taxId);
    expect(file.taxIds).toEqual(nodes.map((n) => n.taxId));
    expect(file.parents).toEqual(nodes.map((n) => n.parent));
    expect(file.ranks).toEqual(nodes.map((n) => n.rank));
    expect(file.names).toEqual(nodes.map((n) => n.name));
    const wrong = nodes
      .filter((n, i) => file.peptides[i] !== n.peptides)
      .map((n) => `${n.taxId} ${n.name}: ${n.peptides} expected`);
    expect(wrong.slice(0, 10), `${wrong.length} nodes with a wrong peptide count`).toEqual([]);
  });

  it('the dataset totals agree: taxonomy nodes, accessions without lineage, reviewed accessions', async () => {
    await ready();
    const manifest = readManifest(dir);
    expect(manifest.taxonomy?.nodes).toBe(taxonomy.nodes.size);
    expect(manifest.totals.taxonomyNodes).toBe(taxonomy.nodes.size);
    expect(manifest.totals.accessionsWithoutLineage).toBe(taxonomy.accessionsWithoutLineage);
    expect(manifest.totals.reviewedAccessions).toBe([...taxonomy.accessions.values()].filter((a) => a.reviewed).length);
  });
});

/** Asks the handler for `query` and records any difference from the reference; the answer and the reference's. */
async function compare(
  query: string,
  mismatches: { path: string; difference: string }[],
): Promise<{ body: unknown; expected: ReturnType<typeof taxonomy.searchNames> }> {
  await ready();
  const path = `/api/v1/taxa?name=${encodeURIComponent(query)}`;
  const expected = { taxa: taxonomy.searchNames(query) };
  totals.queries++;
  if (expected.taxa.length > 0) totals.nonEmpty++;
  const got = await call(handler, path);
  if (got.status !== 200) mismatches.push({ path, difference: `status ${got.status}: ${got.text}` });
  else if (JSON.stringify(got.body) !== JSON.stringify(expected))
    mismatches.push({ path, difference: firstDifference(expected, got.body) ?? 'same values, different JSON text' });
  return { body: got.body, expected: expected.taxa };
}

const report = (mismatches: { path: string; difference: string }[]) =>
  [
    `${mismatches.length} queries differ from the reference`,
    ...mismatches.slice(0, 8).map((m) => `GET ${m.path}\n    ${m.difference}`),
  ].join('\n');

describe('/api/v1/taxa against the brute-force name search', () => {
  it('every node asked by its full name: whole answer equal, and the node in it with its peptide count', {
    timeout: 120_000,
  }, async () => {
    const mismatches: { path: string; difference: string }[] = [];
    const wrongCounts: string[] = [];
    for (const node of taxonomy.nodes.values()) {
      const compared = await compare(node.name, mismatches);
      const body = compared.body as { taxa?: { taxId: number; peptides: number }[] } | undefined;
      const expectedHere = compared.expected.some((t) => t.taxId === node.taxId);
      if (!expectedHere) {
        totals.nodesBeyondTop20++;
        continue;
      }
      totals.nodesChecked++;
      const found = body?.taxa?.find((t) => t.taxId === node.taxId);
      if (found?.peptides !== node.peptides)
        wrongCounts.push(`${node.taxId} ${node.name}: expected ${node.peptides} peptides, got ${found?.peptides}`);
    }
    totals.mismatches += mismatches.length;
    expect(wrongCounts.slice(0, 10), `${wrongCounts.length} nodes with a wrong or missing count`).toEqual([]);
    expect(mismatches.length, report(mismatches)).toBe(0);
    // Every node was checked, except those sharing their exact name with more than 20 others of higher rank in the
    // order (41 nodes are named "environmental samples"); the taxonomy file's count of those is checked below.
    expect(totals.nodesChecked + totals.nodesBeyondTop20).toBe(taxonomy.nodes.size);
    const homonyms = new Map<string, number>();
    for (const node of taxonomy.nodes.values())
      homonyms.set(node.name.toLowerCase(), (homonyms.get(node.name.toLowerCase()) ?? 0) + 1);
    expect(totals.nodesBeyondTop20).toBe([...homonyms.values()].filter((n) => n > 20).reduce((s, n) => s + n - 20, 0));
  });

  it('random prefixes from real names (start and word starts, any case, padded), mid-word pieces and misses', {
    timeout: 60_000,
  }, async () => {
    const random = prng(0x7a4a);
    const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
    const nodes = [...taxonomy.nodes.values()];
    const names = nodes.map((n) => n.name);
    const queries: string[] = [];
    for (let i = 0; i < 3000; i++) {
      const name = names[Math.floor(random() * names.length)];
      const roll = random();
      let q: string;
      if (roll < 0.45) q = name.slice(0, int(1, Math.min(name.length, 12)));
      else if (roll < 0.8) {
        const starts = [...name.matchAll(/[^\p{L}\p{N}](?=[\p{L}\p{N}])/gu)].map((m) => m.index! + 1);
        const at = starts.length > 0 ? starts[Math.floor(random() * starts.length)] : 0;
        q = name.slice(at, at + int(1, 14));
      } else if (roll < 0.9) {
        const at = int(1, Math.max(1, name.length - 2));
        q = name.slice(at, at + int(2, 6)); // may start inside a word
      } else q = Array.from({ length: int(3, 8) }, () => 'qxzjkvw'[int(0, 6)]).join('');
      if (q.trim() === '') q = name;
      const c = random();
      if (c < 0.2) q = q.toUpperCase();
      else if (c < 0.4) q = q.toLowerCase();
      if (random() < 0.1) q = ` ${q}  `;
      queries.push(q);
    }
    queries.push('homo', 'Homo sapiens', 'bacteria', 'coli', 'virus', 'sp.', '(strain', 'K-12', 'a', 'e');
    const mismatches: { path: string; difference: string }[] = [];
    for (const q of queries) await compare(q, mismatches);
    totals.mismatches += mismatches.length;
    expect(mismatches.length, report(mismatches)).toBe(0);
  });

  it('a 100-character name is accepted; the answer for "homo" is Homo then Homo sapiens (as in docs/api.md)', async () => {
    await ready();
    const got = await call(handler, `/api/v1/taxa?name=${'a'.repeat(100)}`);
    expect(got.status, got.text).toBe(200);
    expect(got.body).toEqual({ taxa: [] });
    const homo = await call(handler, '/api/v1/taxa?name=homo');
    expect(homo.body.taxa.slice(0, 2).map((t: { taxId: number }) => t.taxId)).toEqual([9605, 9606]);
  });
});

describe('/api/v1/taxa: bad input', () => {
  it.each([
    ['', /name/],
    ['name=', /name/],
    ['name=%20%20%20', /name/],
    [`name=${'a'.repeat(101)}`, /name/],
    [`name=${'%20'.repeat(3)}${'b'.repeat(101)}`, /name/],
  ])('%s is a 400 naming the parameter', async (query, message) => {
    await ready();
    expectErrorBody(await call(handler, `/api/v1/taxa?${query}`), 400, message);
  });

  it('a dataset built without a taxonomy is a 400 saying so', async () => {
    const plain = folderHandler(await noTaxonomyDataset());
    expectErrorBody(await call(plain, '/api/v1/taxa?name=homo'), 400, /taxonomy/i);
  });
});

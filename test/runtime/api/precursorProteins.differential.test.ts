// /api/v1/search with proteins=true (what the web page's results table shows) against two independent answers of
// the same handler: the answer without the parameter (identical once each accession's reviewed, protein and
// organism are removed), and /api/v1/peptide for each candidate's stored sequence with the same filter (its
// accessions, in order, with the same reviewed flag and names). Seeded random precursor, m/z, mass-range and
// filtered queries on the bundled dataset; the answers validate against the OpenAPI document.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Handler } from '../../../runtime/api/handler.js';
import { openapiDocument } from '../../../runtime/api/openapi.js';
import { call, expectErrorBody, folderHandler, stableText } from '../../helpers/api.js';
import { bundledDataset } from '../../helpers/datasets.js';
import { prng } from '../../helpers/prng.js';

interface Protein {
  acc: string;
  taxId: number;
  reviewed?: boolean;
  protein?: string | null;
  organism?: string | null;
}
type Entry = { seq: string; proforma: string; accsTax: Protein[] };
type Body = { totalResult: number; result: Record<string, Entry[]>[] };

const MODS = [
  '',
  '&fixed=Carbamidomethyl@C',
  '&fixed=Carbamidomethyl@C&variable=Oxidation@M',
  '&variable=Phospho@STY&maxVariable=1',
  '&variable=Deamidated@NQ,Acetyl@N-term',
];
const FILTERS = [
  '',
  '',
  '&reviewed=true',
  '&reviewed=false',
  '&taxon=2',
  '&taxon=9606,10090',
  '&taxon=33208&reviewed=false',
];

let handler: Handler;
beforeAll(async () => {
  handler = folderHandler(await bundledDataset());
});

/** Seeded queries: neutral masses, m/z with charge, explicit windows; modifications and filters mixed. */
function queries(count: number): string[] {
  const random = prng(20261124);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  return Array.from({ length: count }, (_, i) => {
    const mass = 700 + random() * 2300;
    const precursor = [
      `mass=${mass.toFixed(4)}&tolerance=${pick([5, 10, 20, 50])}`,
      `mz=${(mass / 2 + 1.007276).toFixed(4)}&charge=2`,
      `mass1=${mass.toFixed(3)}&mass2=${(mass + pick([0.01, 0.05, 0.2])).toFixed(3)}`,
    ][i % 3];
    return `/api/v1/search?${precursor}${pick(MODS)}${pick(FILTERS)}&pageSize=${pick([5, 20, 100])}`;
  });
}

/** The filter part of a query, as /api/v1/peptide takes it. */
const filterOf = (path: string) =>
  [...new URL(path, 'http://x').searchParams]
    .filter(([k]) => k === 'taxon' || k === 'reviewed')
    .map(([k, v]) => `&${k}=${v}`)
    .join('');

describe('/api/v1/search?proteins=true', () => {
  it('adds reviewed, protein and organism to each accession, as /api/v1/peptide gives them, and changes nothing else', async () => {
    const lookups = new Map<string, Protein[]>();
    let entries = 0;
    let named = 0;
    let reviewed = 0;
    let nonEmpty = 0;
    for (const path of queries(90)) {
      const plain = await call(handler, path);
      const rich = await call(handler, `${path}&proteins=true`);
      expect(plain.status, `${path}: ${plain.text}`).toBe(200);
      expect(rich.status).toBe(200);
      const body = rich.body as Body;
      // Without the new fields, the answer is the plain one byte for byte (less memory and duration).
      const stripped = JSON.stringify({
        ...body,
        result: body.result.map((g) =>
          Object.fromEntries(
            Object.entries(g).map(([k, list]) => [
              k,
              list.map((e) => ({ ...e, accsTax: e.accsTax.map(({ acc, taxId }) => ({ acc, taxId })) })),
            ]),
          ),
        ),
      });
      expect(stableText(stripped)).toBe(stableText(plain.text));
      if (body.result.length > 0) nonEmpty++;
      for (const group of body.result) {
        for (const entry of Object.values(group)[0]) {
          const key = `${entry.seq}${filterOf(path)}`;
          if (!lookups.has(key)) {
            const peptide = await call(handler, `/api/v1/peptide?sequence=${entry.seq}${filterOf(path)}`);
            lookups.set(
              key,
              (peptide.body.peptides as { seq: string; accsTax: Protein[] }[]).find((p) => p.seq === entry.seq)
                ?.accsTax ?? [],
            );
          }
          expect(entry.accsTax, `${path}: ${entry.seq}`).toEqual(lookups.get(key));
          entries++;
          named += entry.accsTax.filter((p) => p.protein && p.organism).length;
          reviewed += entry.accsTax.filter((p) => p.reviewed).length;
        }
      }
    }
    // The comparison saw real data: many entries, names and reviewed accessions among them.
    expect(nonEmpty).toBeGreaterThan(40);
    expect(entries).toBeGreaterThan(1000);
    expect(named).toBeGreaterThan(entries / 2);
    expect(reviewed).toBeGreaterThan(10);
  });

  it('validates against the OpenAPI document, and refuses a value other than true or false naming the parameter', async () => {
    const ajv = new Ajv2020({ strict: false });
    ajv.addSchema({ ...openapiDocument(), $id: 'doc' });
    const validate = ajv.getSchema('doc#/components/schemas/EnvelopePrecursor')!;
    const rich = await call(
      handler,
      '/api/v1/search?mz=650.3188&charge=2&fixed=Carbamidomethyl@C&variable=Oxidation@M&proteins=true',
    );
    expect(validate(rich.body), JSON.stringify(validate.errors)).toBe(true);
    expect(rich.body.result.length).toBeGreaterThan(5);
    const plain = await call(handler, '/api/v1/search?mz=650.3188&charge=2&proteins=false');
    expect(validate(plain.body)).toBe(true);
    expectErrorBody(await call(handler, '/api/v1/search?mass=1000&proteins=yes'), 400, /^proteins\b/);
  });
});

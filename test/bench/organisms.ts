// Organism and protein benchmark queries: /api/v1/search at the ±10 ppm windows' centres (no modifications)
// filtered to Bacteria (taxon=2) and to one species (Homo sapiens, 9606), and /api/v1/peptide look-ups of
// stored peptides (exact, and with I/L equated); and their section of BENCHMARKS.md.
import type { QueryRun } from './queries.js';

export const BACTERIA = 2;
export const SPECIES = 9606;

/** Warm targets: filtered search p50/p99, and peptide look-up p50, in ms. */
export const ORGANISM_TARGETS = { searchP50: 0.3, searchP99: 3, lookupP50: 0.05 };

export const taxonSearchUrl = (taxon: number) => (centre: number) =>
  `http://bench/api/v1/search?mass=${centre.toFixed(4)}&tolerance=10&taxon=${taxon}`;
export const lookupUrl = (equateIL: boolean) => (sequence: string) =>
  `http://bench/api/v1/peptide?sequence=${sequence}${equateIL ? '&equateIL=true' : ''}`;

export interface OrganismRuns {
  unfiltered: QueryRun;
  bacteria: QueryRun;
  species: QueryRun;
  lookup: QueryRun;
  lookupIL: QueryRun;
  lookupBudget: QueryRun;
}

const met = (ok: boolean) => (ok ? 'met' : '**missed**');

export function organismSection(o: OrganismRuns, lat: (q: QueryRun) => string): string[] {
  const t = ORGANISM_TARGETS;
  const search = (q: QueryRun) =>
    `p50 ≤ ${t.searchP50}: ${met(q.latency.p50 <= t.searchP50)}, p99 ≤ ${t.searchP99}: ${met(q.latency.p99 <= t.searchP99)}`;
  return [
    '## Organisms and proteins (/api/v1/search with taxon, /api/v1/peptide)',
    '',
    'Built with the bundled NCBI taxonomy (`--taxdump data/taxdump`); synthetic proteins carry taxIds drawn from the real',
    "sample, so a taxon keeps roughly its share of the sample. Search: the ±10 ppm windows' centres as neutral masses, no",
    'modifications, default page; warm (every shard decoded, its filter mask built). Look-up: stored peptides, warm.',
    '',
    '| query | p50 | p95 | p99 | max | mean hits | target |',
    '|---|---|---|---|---|---|---|',
    `| ±10 ppm, no filter | ${lat(o.unfiltered)} | ${o.unfiltered.hitsMean.toFixed(1)} | reported |`,
    `| ±10 ppm, taxon=${BACTERIA} (Bacteria) | ${lat(o.bacteria)} | ${o.bacteria.hitsMean.toFixed(1)} | ${search(o.bacteria)} |`,
    `| ±10 ppm, taxon=${SPECIES} (Homo sapiens) | ${lat(o.species)} | ${o.species.hitsMean.toFixed(1)} | ${search(o.species)} |`,
    `| peptide look-up | ${lat(o.lookup)} | ${o.lookup.hitsMean.toFixed(2)} | p50 ≤ ${t.lookupP50}: ${met(o.lookup.latency.p50 <= t.lookupP50)} |`,
    `| peptide look-up, equateIL=true | ${lat(o.lookupIL)} | ${o.lookupIL.hitsMean.toFixed(2)} | reported |`,
    `| peptide look-up, 256 MB budget | ${lat(o.lookupBudget)} | ${o.lookupBudget.hitsMean.toFixed(2)} | reported |`,
    '',
  ];
}

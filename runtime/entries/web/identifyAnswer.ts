// An identification's answer as Identify mode reads it (the JSON of POST /api/v1/identify, of the page's worker and
// of `npm run query -- identify --format json`): the PSMs its table shows, the score histograms, the organisms, and
// the TSV download in the command line's columns. No DOM: tested in Node.
import { PSM_COLUMNS } from '../../api/identifyColumns.js';
import type { identificationJson } from '../../api/identifyJson.js';
import { tsvRow } from '../../api/tsv.js';
import type { TaxonRow } from '../../core/identify/organisms.js';
import type { Bins } from './charts.js';

/** A PSM as the answer writes it: the TSV's columns (numbers as numbers; `lca` is '' for none). */
export interface PsmRow {
  psm_id: number;
  peptide: string;
  proteins: string;
  scannr: string;
  rank: number;
  label: number;
  charge: number;
  precursor_ppm: number;
  hyperscore: number;
  matched_peaks: number;
  spectrum_q: number;
  peptide_q: number;
  protein_q: number;
  proforma: string;
  lca: number | '';
  organism: string;
  [column: string]: string | number;
}

/** The answer: identificationJson's document (the API adds memory and duration). */
export type IdentifyAnswer = Omit<ReturnType<typeof identificationJson>, 'psms'> & {
  psms: PsmRow[];
  memory?: string;
  duration?: string;
};

/** Target PSMs shown when none passes the FDR: the best by hyperscore. */
export const BEST_SHOWN = 50;

const best = (a: PsmRow, b: PsmRow) => b.hyperscore - a.hyperscore || a.psm_id - b.psm_id;
const isTarget = (psm: PsmRow) => psm.rank === 1 && psm.label === 1;

/**
 * The table's PSMs, best first: each spectrum's best target passing the FDR by its spectrum q-value; when none
 * does, the BEST_SHOWN best targets, which do not pass (`passing` false).
 */
export function shownPsms(answer: IdentifyAnswer): { psms: PsmRow[]; passing: boolean } {
  const targets = answer.psms.filter(isTarget);
  const passing = targets.filter((psm) => psm.spectrum_q <= answer.fdr);
  if (passing.length) return { psms: passing.sort(best), passing: true };
  return { psms: targets.sort(best).slice(0, BEST_SHOWN), passing: false };
}

/** The TSV of `npm run query -- identify`: a header of the columns, then one row per PSM in answer order. */
export const identifyTsv = (answer: IdentifyAnswer): string =>
  tsvRow(PSM_COLUMNS.map((c) => c.name)) +
  answer.psms.map((psm) => tsvRow(PSM_COLUMNS.map((c) => psm[c.name]))).join('');

/** Rank-1 hyperscores of targets and decoys in the same `bins` equal bins from 0 to the highest score. */
export function scoreHistograms(answer: IdentifyAnswer, bins = 30): Bins & { decoys: number[] } {
  const best = answer.psms.filter((psm) => psm.rank === 1);
  const high = Math.max(1, ...best.map((psm) => psm.hyperscore));
  const width = high / bins;
  const counts = new Array<number>(bins).fill(0);
  const decoys = new Array<number>(bins).fill(0);
  for (const psm of best) (psm.label === 1 ? counts : decoys)[Math.min(bins - 1, Math.floor(psm.hyperscore / width))]++;
  return { starts: counts.map((_, i) => i * width), counts, decoys, width };
}

/**
 * Organisms of the table's peptides when none passes the FDR (the answer then has no taxon table): distinct
 * peptides per lowest common ancestor, most first. Unranked: it is a hint, not the sample's taxon table.
 */
export function organismsOf(psms: readonly PsmRow[]): TaxonRow[] {
  const peptides = new Map<string, { name: string; seen: Set<string> }>();
  for (const psm of psms) {
    if (psm.lca === '') continue;
    const key = String(psm.lca);
    if (!peptides.has(key)) peptides.set(key, { name: psm.organism, seen: new Set<string>() });
    peptides.get(key)!.seen.add(psm.peptide);
  }
  return [...peptides]
    .map(([taxId, { name, seen }]) => ({
      taxId: Number(taxId),
      name,
      rank: '',
      parent: Number(taxId),
      assigned: seen.size,
      within: seen.size,
    }))
    .sort((a, b) => b.within - a.within || a.taxId - b.taxId);
}

/** Ranks the taxon chart shows first: where a sample's organisms are named. */
const CHART_RANKS = ['species', 'genus'];

/** The taxa the chart draws: the `top` with most peptides at species or genus rank, else the `top` of all. */
export function chartTaxa(taxa: readonly TaxonRow[], top = 15): TaxonRow[] {
  const ranked = taxa.filter((t) => CHART_RANKS.includes(t.rank));
  return (ranked.length ? ranked : taxa).slice(0, top);
}

// Peptide mass fingerprinting: which proteins, and which organisms, explain a list of MS1 peaks. Each peak is
// matched as a precursor without fragments (match.ts: the window, modifications and views of a precursor search),
// and every protein and taxon that explains some peaks is scored by the chance of doing so at random
// (contenders.ts), given how many of the dataset's peptides fill each peak's window.
import { neutralMass, PROTON_MASS_DA, UNITS_PER_DA } from '../../model/chemistry.js';
import type { ModSpec } from '../../model/modifications.js';
import type { Taxonomy } from '../../model/taxonomy.js';
import { InvalidQuery } from '../errors.js';
import { matchPrecursors, type MatchBatch, type MatchOptions } from '../match/match.js';
import type { Precursor } from '../match/matchQuery.js';
import { NO_FILTER, resolveFilter, type AccessionFilter, type FilterSpec } from '../range/accessionFilter.js';
import type { Tolerance } from '../precursor/window.js';
import type { Dataset } from '../storage/dataset.js';
import { expectOf, scoreOf } from './chance.js';
import { contenderChances } from './contenders.js';
import { topPeaksOf, type PeakList } from './peakText.js';

/** What a peak's m/z is: a singly protonated peptide (MALDI), a neutral mass, or an ion of this charge. */
export type PeakIon = 'mh' | 'neutral' | number;

/** What a fingerprint asks. */
export interface FingerprintQuery {
  tolerance: Tolerance;
  fixed: ModSpec[];
  variable: ModSpec[];
  maxVariable: number;
  filter: FilterSpec;
  ion: PeakIon;
  /** Only the most intense peaks of each list (all when it gives no intensities). */
  topPeaks?: number;
  /** The taxon rank organisms are scored at (`species`). */
  rank: string;
  /** How many proteins and organisms each answer lists. */
  proteins: number;
  organisms: number;
}

/** A peak list to fingerprint, with a title when its file gives one. */
export interface NamedPeakList extends PeakList {
  title?: string;
}

/** A peak of an answer: as given, the neutral mass searched, and how many of the dataset's peptides fill its window. */
export interface FingerprintPeak {
  mz: number;
  intensity?: number;
  mass: number;
  inWindow: number;
  /** Why the peak was not searched (no positive mass, or too many peptides to examine). */
  error?: string;
  /** The peptide of the best-ranked listed protein that explains it. */
  explainedBy?: { accession: string; proforma: string };
}

/** A peptide explaining a peak: its modified mass and the peak's error from it. */
export interface PeptideMatch {
  peak: number;
  sequence: string;
  proforma: string;
  mass: number;
  errorPpm: number;
  errorDa: number;
}

/** A protein's score against a peak list. */
export interface ProteinHit {
  accession: string;
  taxId: number;
  reviewed: boolean;
  /** Its peptides in the dataset, and the peaks they explain. */
  peptides: number;
  matched: number;
  /** −10·log10 of the chance of matching so many peaks at random, and the proteins expected to by chance. */
  score: number;
  expect: number;
  matches: PeptideMatch[];
  /** The peaks it does not explain (indexes into the answer's peaks). */
  unmatched: number[];
}

/** A taxon's score: the peaks explained by peptides found only at or below it. */
export interface TaxonHit {
  taxId: number;
  name: string;
  rank: string;
  peptides: number;
  matched: number;
  score: number;
  expect: number;
  /** The peaks its own peptides explain, and its best-scored proteins. */
  peaks: number[];
  proteins: string[];
}

/** The answer for one peak list. */
export interface Fingerprint {
  title?: string;
  peaks: FingerprintPeak[];
  /** The proteins and taxa (at the query's rank) a match was possible for: what E-values count. */
  tested: { proteins: number; taxa?: number };
  proteins: ProteinHit[];
  /** Absent when the dataset has no taxonomy. */
  organisms?: TaxonHit[];
}

/** Proteins of a taxon its answer lists. */
const TAXON_PROTEINS = 5;

/** The neutral mass a peak's m/z stands for. */
export function peakMass(mz: number, ion: PeakIon): number {
  if (ion === 'neutral') return mz;
  return ion === 'mh' ? mz - PROTON_MASS_DA : neutralMass(mz, ion);
}

/**
 * The fingerprints of `lists`, matched as one batch (a shard is read once for all their peaks). Refused with
 * InvalidQuery when the dataset does not count its peptides per protein.
 */
export async function fingerprint(
  dataset: Dataset,
  query: FingerprintQuery,
  lists: readonly NamedPeakList[],
  options: MatchOptions = {},
): Promise<Fingerprint[]> {
  if (!dataset.manifest.peptideCounts)
    throw new InvalidQuery('fingerprint: this dataset does not count peptides per protein (rebuild it to score them)');
  const used = lists.map((list) => (query.topPeaks === undefined ? list : topPeaksOf(list, query.topPeaks)));
  const precursors: Precursor[] = [];
  for (const list of used)
    for (const mz of list.mz) precursors.push({ index: precursors.length, mass: peakMass(mz, query.ion) });
  // Every peptide in a window counts for its density, whatever the filter: the filter only says which proteins compete.
  const batch = await matchPrecursors(dataset, { ...query, filter: NO_FILTER, charges: [] }, precursors, options);
  const filter = await resolveFilter(dataset, query.filter);
  const taxonomy = await dataset.taxonomy();
  let first = 0;
  const found = used.map((list) => {
    const peaks = peaksOf(batch, query, list, first, filter, taxonomy);
    first += list.mz.length;
    return peaks;
  });
  const ranks = new Set<number>();
  for (const { byRank } of found) for (const rank of byRank.keys()) ranks.add(rank);
  const { totals, accessions } = dataset.manifest;
  const context: Context = {
    batch,
    query,
    peptidesOf: (await dataset.peptideCounts(ranks))!,
    total: totals.peptides,
    tested: {
      proteins: filter?.kept ?? accessions.count,
      ...(taxonomy && { taxa: taxaTested(taxonomy, query) }),
    },
    taxonomy,
    reviewedTotal: totals.reviewedAccessions ?? 0,
  };
  return found.map((peaks, i) => answer(context, lists[i].title, peaks));
}

/** What a list's peaks found: by protein rank, the peaks and candidates; by taxon node, the peaks. */
interface Found {
  peaks: FingerprintPeak[];
  byRank: Map<number, Hits>;
  byTaxon: Map<number, Hits>;
}

/** A contender's matched peaks (distinct, ascending) and the candidate ids that matched them (a protein's). */
interface Hits {
  peaks: number[];
  candidates: number[];
}

function hit(map: Map<number, Hits>, key: number, peak: number, candidate?: number): void {
  let hits = map.get(key);
  if (!hits) map.set(key, (hits = { peaks: [], candidates: [] }));
  if (hits.peaks[hits.peaks.length - 1] !== peak) hits.peaks.push(peak);
  if (candidate !== undefined) hits.candidates.push(peak, candidate);
}

/** The peaks of `list` (its precursors from `first` in `batch`) and what each explains. */
function peaksOf(
  batch: MatchBatch,
  query: FingerprintQuery,
  list: PeakList,
  first: number,
  filter: AccessionFilter | undefined,
  taxonomy: Taxonomy | undefined,
): Found {
  const { columns, accessions } = batch;
  const byRank = new Map<number, Hits>();
  const byTaxon = new Map<number, Hits>();
  const nodeOfRank = new Map<number, number>();
  const atRank = new Map<number, number>();
  const peaks = Array.from(list.mz, (mz, i): FingerprintPeak => {
    const [search] = batch.searchIds(first + i);
    const peak: FingerprintPeak = {
      mz,
      ...(list.intensity && { intensity: list.intensity[i] }),
      mass: search.mass,
      inWindow: distinctPeptides(batch, search.candidates, query.variable.length > 0),
      ...(search.error && { error: search.error }),
    };
    for (const id of search.candidates) {
      const nodes: number[] = [];
      for (const rank of columns.accessionsOf(id)) {
        if (filter && !filter.keeps(rank)) continue;
        hit(byRank, rank, i, id);
        if (!taxonomy) continue;
        let node = nodeOfRank.get(rank);
        if (node === undefined) nodeOfRank.set(rank, (node = taxonomy.nodeOf(accessions.taxId(rank))));
        if (node >= 0) nodes.push(node);
      }
      if (!taxonomy || nodes.length === 0) continue;
      // The peptide speaks for the taxon at the query's rank above its proteins' lowest common ancestor, if any.
      const lca = taxonomy.lca(nodes);
      let taxon = atRank.get(lca);
      if (taxon === undefined) atRank.set(lca, (taxon = ancestorAt(taxonomy, lca, query.rank)));
      if (taxon >= 0) hit(byTaxon, taxon, i);
    }
    return peak;
  });
  return { peaks, byRank, byTaxon };
}

/** The candidates' distinct peptides: a peptide may fill a window in two modified forms. */
function distinctPeptides(batch: MatchBatch, ids: readonly number[], modified: boolean): number {
  if (!modified || ids.length < 2) return ids.length;
  const sorted = [...ids].sort((a, b) => batch.columns.compareSequences(a, b));
  let distinct = 1;
  for (let k = 1; k < sorted.length; k++)
    if (batch.columns.compareSequences(sorted[k - 1], sorted[k]) !== 0) distinct++;
  return distinct;
}

/** The node of rank `rank` on `node`'s lineage (itself included), or -1 when its lineage has none. */
function ancestorAt(taxonomy: Taxonomy, node: number, rank: string): number {
  for (let n = node; ; n = taxonomy.parents[n]) {
    if (taxonomy.taxon(n).rank === rank) return n;
    if (taxonomy.parents[n] === n) return -1;
  }
}

/** The taxa of the query's rank a match was possible for: those with peptides, below the filter's taxa if any. */
function taxaTested(taxonomy: Taxonomy, query: FingerprintQuery): number {
  const within = query.filter.taxa.map((taxId) => taxonomy.nodeOf(taxId)).filter((node) => node >= 0);
  let count = 0;
  for (let node = 0; node < taxonomy.size; node++) {
    const { rank, peptides } = taxonomy.taxon(node);
    if (rank === query.rank && peptides > 0 && (within.length === 0 || within.some((t) => taxonomy.within(node, t))))
      count++;
  }
  return count;
}

/** What every list's answer is scored against. */
interface Context {
  batch: MatchBatch;
  query: FingerprintQuery;
  peptidesOf: (rank: number) => number;
  /** The dataset's peptides, and the proteins and taxa a match was possible for. */
  total: number;
  tested: { proteins: number; taxa?: number };
  taxonomy: Taxonomy | undefined;
  reviewedTotal: number;
}

/** The answer of one list: its proteins and taxa scored, ranked and cut to the query's counts. */
function answer(context: Context, title: string | undefined, { peaks, byRank, byTaxon }: Found): Fingerprint {
  const { batch, query, peptidesOf, total, tested, taxonomy } = context;
  const { accessions } = batch;
  const inWindow = peaks.map((p) => (p.error ? 0 : p.inWindow));
  const ranks = [...byRank.keys()];
  const matchedOf = (rank: number) => byRank.get(rank)!.peaks.length;
  const chances = contenderChances(
    inWindow,
    total,
    ranks.map((rank) => ({ peptides: peptidesOf(rank), matched: matchedOf(rank) })),
  );
  // Most likely first: least chance, then most peaks, then the accession order answers use.
  const order = ranks
    .map((_, k) => k)
    .sort(
      (a, b) =>
        chances[a] - chances[b] ||
        matchedOf(ranks[b]) - matchedOf(ranks[a]) ||
        (accessions.before(ranks[a], ranks[b]) ? -1 : 1),
    );
  const proteins = order
    .slice(0, query.proteins)
    .map((k) => proteinHit(context, peaks, ranks[k], byRank.get(ranks[k])!, chances[k]));
  for (const protein of proteins)
    for (const match of protein.matches)
      peaks[match.peak].explainedBy ??= { accession: protein.accession, proforma: match.proforma };
  const ranked = order.map((k) => ranks[k]);
  return {
    ...(title !== undefined && { title }),
    peaks,
    tested,
    proteins,
    ...(taxonomy && { organisms: taxonHits(context, taxonomy, inWindow, byTaxon, ranked) }),
  };
}

/** A protein's hit: its matched peptides (by peak, then mass) with their errors, and the peaks it leaves. */
function proteinHit(
  { batch, peptidesOf, tested }: Context,
  peaks: readonly FingerprintPeak[],
  rank: number,
  hits: Hits,
  chance: number,
): ProteinHit {
  const { columns, accessions } = batch;
  const matches: PeptideMatch[] = [];
  for (let k = 0; k < hits.candidates.length; k += 2) {
    const [peak, id] = [hits.candidates[k], hits.candidates[k + 1]];
    const sequence = columns.sequence(id);
    const mass = columns.units(id) / UNITS_PER_DA;
    const errorDa = peaks[peak].mass - mass;
    matches.push({
      peak,
      sequence,
      proforma: batch.proforma(sequence, id),
      mass,
      errorPpm: (errorDa / mass) * 1e6,
      errorDa,
    });
  }
  const matched = new Set(hits.peaks);
  return {
    accession: accessions.accession(rank),
    taxId: accessions.taxId(rank),
    reviewed: accessions.reviewed(rank),
    peptides: peptidesOf(rank),
    matched: hits.peaks.length,
    score: scoreOf(chance),
    expect: expectOf(chance, tested.proteins),
    matches,
    unmatched: peaks.flatMap((_, i) => (matched.has(i) ? [] : [i])),
  };
}

/** The taxa of a list ranked like its proteins, each with its best-ranked proteins (`ranked`: every protein, ranked). */
function taxonHits(
  { batch, query, total, tested, reviewedTotal }: Context,
  taxonomy: Taxonomy,
  inWindow: readonly number[],
  byTaxon: Map<number, Hits>,
  ranked: readonly number[],
): TaxonHit[] {
  const nodes = [...byTaxon.keys()];
  const matchedOf = (node: number) => byTaxon.get(node)!.peaks.length;
  const chances = contenderChances(
    inWindow,
    total,
    nodes.map((node) => ({ peptides: taxonomy.taxon(node).peptides, matched: matchedOf(node) })),
  );
  return nodes
    .map((_, k) => k)
    .sort(
      (a, b) =>
        chances[a] - chances[b] ||
        matchedOf(nodes[b]) - matchedOf(nodes[a]) ||
        taxonomy.taxIds[nodes[a]] - taxonomy.taxIds[nodes[b]],
    )
    .slice(0, query.organisms)
    .map((k): TaxonHit => {
      const node = nodes[k];
      const { reviewed, unreviewed } = taxonomy.subtreeRanks(node, reviewedTotal);
      const inside = (rank: number) =>
        (reviewed[0] <= rank && rank < reviewed[1]) || (unreviewed[0] <= rank && rank < unreviewed[1]);
      const proteins: string[] = [];
      for (let i = 0; i < ranked.length && proteins.length < TAXON_PROTEINS; i++)
        if (inside(ranked[i])) proteins.push(batch.accessions.accession(ranked[i]));
      return {
        ...taxonomy.taxon(node),
        matched: matchedOf(node),
        score: scoreOf(chances[k]),
        expect: expectOf(chances[k], tested.taxa ?? 0),
        peaks: byTaxon.get(node)!.peaks,
        proteins,
      };
    });
}

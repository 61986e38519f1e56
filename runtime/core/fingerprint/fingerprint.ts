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
import { IntMap, MISSING, PeakTally } from './tally.js';

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
  for (const { proteins } of found) for (const rank of proteins.counted()) ranks.add(rank);
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

/** What a list's peaks found: each peak's candidates, the peaks each protein and taxon matched. */
interface Found {
  peaks: FingerprintPeak[];
  /** Candidate ids of each peak (the batch's). */
  ids: number[][];
  proteins: PeakTally;
  taxa: PeakTally;
  /** The taxa (nodes at the query's rank) each peak counts for. */
  peakTaxa: number[][];
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
  const proteins = new PeakTally();
  const taxa = new PeakTally();
  const nodeOfRank = new IntMap();
  const atRank = new IntMap();
  const nodes: number[] = [];
  const ids: number[][] = [];
  const peakTaxa: number[][] = [];
  const peaks = Array.from(list.mz, (mz, i): FingerprintPeak => {
    const [search] = batch.searchIds(first + i, false);
    ids.push(search.candidates);
    const counted: number[] = [];
    peakTaxa.push(counted);
    for (const id of search.candidates) {
      nodes.length = 0;
      for (let r = columns.accessionEnd(id - 1), end = columns.accessionEnd(id); r < end; r++) {
        const rank = columns.accession(r);
        if (filter && !filter.keeps(rank)) continue;
        proteins.add(rank, i);
        if (!taxonomy) continue;
        let node = nodeOfRank.get(rank);
        if (node === MISSING) nodeOfRank.set(rank, (node = taxonomy.nodeOf(accessions.taxId(rank))));
        if (node >= 0 && node !== nodes[nodes.length - 1]) nodes.push(node);
      }
      if (!taxonomy || nodes.length === 0) continue;
      // The peptide speaks for the taxon at the query's rank above its proteins' lowest common ancestor, if any.
      const lca = nodes.length === 1 ? nodes[0] : taxonomy.lca(nodes);
      let taxon = atRank.get(lca);
      if (taxon === MISSING) atRank.set(lca, (taxon = ancestorAt(taxonomy, lca, query.rank)));
      if (taxon >= 0 && taxa.add(taxon, i)) counted.push(taxon);
    }
    return {
      mz,
      ...(list.intensity && { intensity: list.intensity[i] }),
      mass: search.mass,
      inWindow: distinctPeptides(batch, search.candidates, query.variable.length > 0),
      ...(search.error && { error: search.error }),
    };
  });
  return { peaks, ids, proteins, taxa, peakTaxa };
}

/** The `count` best of items 0..n-1 by `better` (a strict total order), best first. */
function bestOf(n: number, count: number, better: (a: number, b: number) => boolean): number[] {
  const kept: number[] = [];
  if (count <= 0) return kept;
  for (let i = 0; i < n; i++) {
    if (kept.length === count && !better(i, kept[count - 1])) continue;
    let [low, high] = [0, kept.length];
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (better(kept[mid], i)) low = mid + 1;
      else high = mid;
    }
    kept.splice(low, 0, i);
    if (kept.length > count) kept.pop();
  }
  return kept;
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
function answer(context: Context, title: string | undefined, found: Found): Fingerprint {
  const { batch, query, peptidesOf, total, tested, taxonomy } = context;
  const { accessions } = batch;
  const { peaks, proteins } = found;
  const inWindow = peaks.map((p) => (p.error ? 0 : p.inWindow));
  const ranks = proteins.counted();
  const matched = Int32Array.from(ranks, (rank) => proteins.matched(rank));
  const chances = contenderChances(inWindow, total, Int32Array.from(ranks, peptidesOf), matched);
  // Most likely first: least chance, then most peaks, then the accession order answers use.
  const better = (a: number, b: number) =>
    chances[a] !== chances[b]
      ? chances[a] < chances[b]
      : matched[a] !== matched[b]
        ? matched[a] > matched[b]
        : accessions.before(ranks[a], ranks[b]);
  const listed = bestOf(ranks.length, query.proteins, better);
  const matches = matchesOf(batch, found, new Set(listed.map((k) => ranks[k])));
  const hits = listed.map((k): ProteinHit => {
    const rank = ranks[k];
    const explained = new Set(matches.get(rank)!.map((m) => m.peak));
    return {
      accession: accessions.accession(rank),
      taxId: accessions.taxId(rank),
      reviewed: accessions.reviewed(rank),
      peptides: peptidesOf(rank),
      matched: matched[k],
      score: scoreOf(chances[k]),
      expect: expectOf(chances[k], tested.proteins),
      matches: matches.get(rank)!,
      unmatched: peaks.flatMap((_, i) => (explained.has(i) ? [] : [i])),
    };
  });
  for (const hit of hits)
    for (const match of hit.matches)
      peaks[match.peak].explainedBy ??= { accession: hit.accession, proforma: match.proforma };
  return {
    ...(title !== undefined && { title }),
    peaks,
    tested,
    proteins: hits,
    ...(taxonomy && { organisms: taxonHits(context, taxonomy, inWindow, found, ranks, better) }),
  };
}

/** The peptides explaining each peak for each of `ranks`: by peak, then mass, then ProForma. */
function matchesOf(batch: MatchBatch, { peaks, ids }: Found, ranks: Set<number>): Map<number, PeptideMatch[]> {
  const { columns } = batch;
  const matches = new Map<number, PeptideMatch[]>(Array.from(ranks, (rank) => [rank, []]));
  ids.forEach((candidates, peak) => {
    for (const id of candidates) {
      let match: PeptideMatch | undefined;
      for (let r = columns.accessionEnd(id - 1), end = columns.accessionEnd(id); r < end; r++) {
        const rank = columns.accession(r);
        if (!ranks.has(rank)) continue;
        if (!match) {
          const sequence = columns.sequence(id);
          const mass = columns.units(id) / UNITS_PER_DA;
          const errorDa = peaks[peak].mass - mass;
          match = {
            peak,
            sequence,
            proforma: batch.proforma(sequence, id),
            mass,
            errorPpm: (errorDa / mass) * 1e6,
            errorDa,
          };
        }
        matches.get(rank)!.push(match);
      }
    }
  });
  for (const list of matches.values())
    list.sort((a, b) => a.peak - b.peak || a.mass - b.mass || (a.proforma < b.proforma ? -1 : 1));
  return matches;
}

/**
 * The taxa of a list ranked like its proteins, each with its best proteins: of the list's proteins (`ranks`, ordered
 * by `better`), those in its subtree.
 */
function taxonHits(
  { batch, query, total, tested, reviewedTotal }: Context,
  taxonomy: Taxonomy,
  inWindow: readonly number[],
  { taxa, peakTaxa }: Found,
  ranks: Int32Array,
  betterProtein: (a: number, b: number) => boolean,
): TaxonHit[] {
  const nodes = taxa.counted();
  const matched = Int32Array.from(nodes, (node) => taxa.matched(node));
  const peptides = Float64Array.from(nodes, (node) => taxonomy.taxon(node).peptides);
  const chances = contenderChances(inWindow, total, peptides, matched);
  const better = (a: number, b: number) =>
    chances[a] !== chances[b]
      ? chances[a] < chances[b]
      : matched[a] !== matched[b]
        ? matched[a] > matched[b]
        : taxonomy.taxIds[nodes[a]] < taxonomy.taxIds[nodes[b]];
  const listed = bestOf(nodes.length, query.organisms, better);
  // Each listed taxon's best proteins, in one pass over the proteins: a taxon's ranks are two intervals.
  const intervals = Int32Array.from(
    listed.flatMap((k) => {
      const { reviewed, unreviewed } = taxonomy.subtreeRanks(nodes[k], reviewedTotal);
      return [...reviewed, ...unreviewed];
    }),
  );
  const best: number[][] = listed.map(() => []);
  for (let k = 0; k < ranks.length; k++) {
    const rank = ranks[k];
    for (let t = 0; t < listed.length; t++) {
      const i = 4 * t;
      if (!((intervals[i] <= rank && rank < intervals[i + 1]) || (intervals[i + 2] <= rank && rank < intervals[i + 3])))
        continue;
      const kept = best[t];
      if (kept.length === TAXON_PROTEINS && !betterProtein(k, kept[TAXON_PROTEINS - 1])) continue;
      let at = kept.length;
      while (at > 0 && betterProtein(k, kept[at - 1])) at--;
      kept.splice(at, 0, k);
      if (kept.length > TAXON_PROTEINS) kept.pop();
    }
  }
  return listed.map((k, t): TaxonHit => {
    const node = nodes[k];
    return {
      ...taxonomy.taxon(node),
      matched: matched[k],
      score: scoreOf(chances[k]),
      expect: expectOf(chances[k], tested.taxa ?? 0),
      peaks: peakTaxa.flatMap((counted, i) => (counted.includes(node) ? [i] : [])),
      proteins: best[t].map((p) => batch.accessions.accession(ranks[p])),
    };
  });
}

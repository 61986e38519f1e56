// Peptide mass fingerprinting: which proteins, and which organisms, explain a list of MS1 peaks. Each peak is
// searched as a batch match searches a neutral mass (finds.ts: the window, modifications and views of a precursor
// search), and every protein and taxon that explains some peaks is scored by the chance of doing so at random
// (ranking.ts), given how many of the dataset's peptides fill each peak's window; a listed protein carries its
// sequence coverage when the dataset holds sequences (coverage.ts). Its types are types.ts's,
// exported here too: this module is the capability's entry point.
import { neutralMass, PROTON_MASS_DA } from '../../model/chemistry.js';
import { lowestCommonAncestor, type Taxonomy } from '../../model/taxonomy.js';
import type { Fingerprint, FingerprintPeak, FingerprintQuery, NamedPeakList, PeakIon } from './types.js';
import { InvalidQuery } from '../errors.js';
import type { MatchOptions } from '../match/sweep.js';
import { resolveFilter, type AccessionFilter } from '../range/accessionFilter.js';
import type { Dataset } from '../storage/dataset.js';
import { addCoverage } from './coverage.js';
import { findPeaks, type Finds } from './finds.js';
import { topPeaksOf, type PeakList } from './peakText.js';
import { answer, type Context, type ListFinds } from './ranking.js';
import { DenseMap, IntMap, MISSING, PeakTally, type IntLookup } from './tally.js';

export type {
  Fingerprint,
  FingerprintPeak,
  FingerprintQuery,
  NamedPeakList,
  PeakIon,
  PeptideMatch,
  ProteinHit,
  TaxonHit,
} from './types.js';

/** The neutral mass a peak's m/z stands for. */
export function peakMass(mz: number, ion: PeakIon): number {
  if (ion === 'neutral') return mz;
  return ion === 'mh' ? mz - PROTON_MASS_DA : neutralMass(mz, ion);
}

/**
 * Peaks searched in one sweep, about: a sweep holds every peptide its peaks find (thousands a peak in a
 * Swiss-Prot-sized dataset at ±50 ppm), so lists are searched a few at a time, whatever their number.
 */
export const SWEEP_PEAKS = 1000;

/**
 * The fingerprints of `lists`, in order, their peaks searched in sweeps of about SWEEP_PEAKS (a shard is read once
 * a sweep). options.maxScanned bounds the peptides examined over all of them. Refused with InvalidQuery when the
 * dataset does not count its peptides per protein.
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
  const answers: Fingerprint[] = [];
  const lookups = lookupsOf(dataset, query.rank);
  let scanned = 0;
  for (let start = 0, end = 0; start < used.length; start = end) {
    for (let peaks = 0; end < used.length && (end === start || peaks + used[end].mz.length <= SWEEP_PEAKS); end++)
      peaks += used[end].mz.length;
    const maxScanned = options.maxScanned === undefined ? undefined : options.maxScanned - scanned;
    const sweep = await fingerprintSweep(dataset, query, lists.slice(start, end), used.slice(start, end), lookups, {
      ...options,
      maxScanned,
    });
    answers.push(...sweep.answers);
    scanned += sweep.scanned;
  }
  return answers;
}

/**
 * What is worked out once for many lists (their candidates share proteins and taxa): each rank's taxonomy node, and
 * the node of the query's rank above a node (-1 for none).
 */
interface Lookups {
  nodeOfRank: IntLookup;
  atRank: IntMap;
}

/** Entries the lookups of a dataset may hold before they are started afresh: memory bounded whatever its size. */
const LOOKUPS_KEPT = 1 << 22;
const kept = new WeakMap<Dataset, { nodeOfRank: IntLookup; atRank: Map<string, IntMap> }>();

/**
 * A lookup by rank: an array over all of them when they are few enough (each find's ranks land anywhere in it, and an
 * array is the smallest for the caches), else a hash map holding only those looked up.
 */
const rankLookup = (ranks: number): IntLookup => (ranks <= LOOKUPS_KEPT ? new DenseMap(ranks) : new IntMap());

/** The lookups of `dataset` at taxon rank `rank`, kept between calls (a server fingerprints many lists of one dataset). */
function lookupsOf(dataset: Dataset, rank: string): Lookups {
  let lookups = kept.get(dataset);
  if (!lookups || lookups.nodeOfRank.size > LOOKUPS_KEPT)
    kept.set(dataset, (lookups = { nodeOfRank: rankLookup(dataset.manifest.accessions.count), atRank: new Map() }));
  // A node's taxon at a rank: one entry per taxonomy node at most, bounded by the taxonomy file.
  let atRank = lookups.atRank.get(rank);
  if (!atRank) lookups.atRank.set(rank, (atRank = new IntMap()));
  return { nodeOfRank: lookups.nodeOfRank, atRank };
}

/** The fingerprints of `lists` (their peaks `used`), searched in one sweep, and the peptides it examined. */
async function fingerprintSweep(
  dataset: Dataset,
  query: FingerprintQuery,
  lists: readonly NamedPeakList[],
  used: readonly PeakList[],
  lookups: Lookups,
  options: MatchOptions,
): Promise<{ answers: Fingerprint[]; scanned: number }> {
  const masses = Float64Array.from(
    used.flatMap((list) => Array.from(list.mz)),
    (mz) => peakMass(mz, query.ion),
  );
  const { finds, errors, scanned } = await findPeaks(dataset, query, masses, options);
  const filter = await resolveFilter(dataset, query.filter);
  const taxonomy = await dataset.taxonomy();
  const accessions = await dataset.accessionSet((add) => {
    for (let f = 0; f < finds.shards.length; f++) finds.ranks(f, add);
  });
  let first = 0;
  const found = used.map((list) => {
    const peaks = listFinds(finds, errors, query, list, first, filter, taxonomy, lookups, (rank) =>
      accessions.taxId(rank),
    );
    first += list.mz.length;
    return peaks;
  });
  // The lists' proteins, each once (a tally of one peak: a set in flat arrays); a lone list's are its own.
  let ranks = found[0]?.proteins ?? new PeakTally();
  if (found.length > 1) {
    ranks = new PeakTally();
    for (const { proteins } of found) for (const rank of proteins.counted()) ranks.add(rank, 0);
  }
  const { totals } = dataset.manifest;
  const context: Context = {
    finds,
    accessions,
    query,
    peptidesOf: (await dataset.peptideCounts(ranks.counted()))!,
    total: totals.peptides,
    tested: {
      proteins: filter?.kept ?? dataset.manifest.accessions.count,
      ...(taxonomy && { taxa: taxaTested(taxonomy, query) }),
    },
    taxonomy,
    reviewedTotal: totals.reviewedAccessions ?? 0,
  };
  const answers = found.map((peaks, i) => answer(context, lists[i].title, peaks));
  await addCoverage(dataset, answers);
  return { answers, scanned };
}

/** The peaks of `list` (peaks `first` on of `finds`) and the peaks each protein and taxon explains. */
function listFinds(
  finds: Finds,
  errors: readonly (string | undefined)[],
  query: FingerprintQuery,
  list: PeakList,
  first: number,
  filter: AccessionFilter | undefined,
  taxonomy: Taxonomy | undefined,
  { nodeOfRank, atRank }: Lookups,
  taxIdOf: (rank: number) => number,
): ListFinds {
  // Its proteins are about as many as its peaks' finds (most peptides are of one protein): their tally is made that
  // large at once.
  let found = 0;
  for (let s = first; s < first + list.mz.length; s++) found += finds.of(s).length;
  const proteins = new PeakTally(found);
  const taxa = new PeakTally();
  const peakTaxa: number[][] = [];
  let peak = 0;
  /** The lowest common ancestor of the taxonomy nodes of the find's proteins visited so far (-1 before any). */
  let lca = -1;
  const visit = (rank: number) => {
    if (filter && !filter.keeps(rank)) return;
    proteins.add(rank, peak);
    if (!taxonomy) return;
    let node = nodeOfRank.get(rank);
    if (node === MISSING) nodeOfRank.set(rank, (node = taxonomy.nodeOf(taxIdOf(rank))));
    if (node >= 0 && node !== lca)
      lca = lca < 0 ? node : lowestCommonAncestor(taxonomy.parents, taxonomy.depths, node, lca);
  };
  const peaks = Array.from(list.mz, (mz, i): FingerprintPeak => {
    const s = first + i;
    const counted: number[] = [];
    peakTaxa.push(counted);
    peak = i;
    for (const f of finds.of(s)) {
      lca = -1;
      finds.ranks(f, visit);
      // The peptide speaks for the taxon at the query's rank above its proteins' lowest common ancestor, if any.
      if (!taxonomy || lca < 0) continue;
      let taxon = atRank.get(lca);
      if (taxon === MISSING) atRank.set(lca, (taxon = ancestorAt(taxonomy, lca, query.rank)));
      if (taxon >= 0 && taxa.add(taxon, i)) counted.push(taxon);
    }
    return {
      mz,
      ...(list.intensity && { intensity: list.intensity[i] }),
      mass: finds.searches[s].mass,
      inWindow: finds.distinct(s),
      ...(errors[s] && { error: errors[s] }),
    };
  });
  return { peaks, first, proteins, taxa, peakTaxa };
}

/** The node of rank `rank` on `node`'s lineage (itself included), or -1 when its lineage has none. */
function ancestorAt(taxonomy: Taxonomy, node: number, rank: string): number {
  for (let n = node; ; n = taxonomy.parents[n]) {
    if (taxonomy.taxon(n).rank === rank) return n;
    if (taxonomy.parents[n] === n) return -1;
  }
}

/** Taxa tested, by taxonomy and (rank, filter taxa): a count over every node, made once. */
const testedTaxa = new WeakMap<Taxonomy, Map<string, number>>();

/** The taxa of the query's rank a match was possible for: those with peptides of their own, below the filter's taxa. */
function taxaTested(taxonomy: Taxonomy, query: FingerprintQuery): number {
  let counts = testedTaxa.get(taxonomy);
  if (!counts) testedTaxa.set(taxonomy, (counts = new Map()));
  const key = `${query.rank}|${query.filter.taxa}`;
  let count = counts.get(key);
  if (count !== undefined) return count;
  const within = query.filter.taxa.map((taxId) => taxonomy.nodeOf(taxId)).filter((node) => node >= 0);
  count = 0;
  for (let node = 0; node < taxonomy.size; node++)
    if (
      taxonomy.taxon(node).rank === query.rank &&
      taxonomy.specificPeptides(node) > 0 &&
      (within.length === 0 || within.some((t) => taxonomy.within(node, t)))
    )
      count++;
  counts.set(key, count);
  return count;
}

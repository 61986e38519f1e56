// A peak list's answer: its proteins and taxa scored by their chance of matching so many peaks at random
// (contenders.ts), the best listed, with the peptides that explain each listed protein's peaks.
import type { AccessionSet } from '../../model/accessionSet.js';
import { UNITS_PER_DA } from '../../model/chemistry.js';
import type { Taxonomy } from '../../model/taxonomy.js';
import { expectOf, scoreOf } from './chance.js';
import { Contenders, PeakChances } from './contenders.js';
import { listProteins } from './listing.js';
import type { Finds } from './finds.js';
import type { Fingerprint, FingerprintPeak, FingerprintQuery, PeptideMatch, ProteinHit, TaxonHit } from './types.js';
import { IntMap, MISSING, type PeakTally } from './tally.js';

/** Proteins of a taxon its answer lists. */
const TAXON_PROTEINS = 5;

/** Proteins a listing chooses from (listing.ts): the most significant on all the peaks. */
export const POOL = 200;

/** What a list's peaks found: the peaks each protein (rank) and taxon (node) explains. */
export interface ListFinds {
  peaks: FingerprintPeak[];
  /** Its first peak's index among the batch's. */
  first: number;
  proteins: PeakTally;
  taxa: PeakTally;
  /** The taxa (nodes at the query's rank) each peak counts for. */
  peakTaxa: number[][];
}

/** What every list's answer is scored against. */
export interface Context {
  finds: Finds;
  accessions: AccessionSet;
  query: FingerprintQuery;
  peptidesOf: (rank: number) => number;
  /** The dataset's peptides, and the proteins and taxa a match was possible for. */
  total: number;
  tested: { proteins: number; taxa?: number };
  taxonomy: Taxonomy | undefined;
  reviewedTotal: number;
}

/** The answer of one list: its proteins and taxa scored, ranked and cut to the query's counts. */
export function answer(context: Context, title: string | undefined, found: ListFinds): Fingerprint {
  const { accessions, query, peptidesOf, total, tested, taxonomy } = context;
  const { peaks, proteins } = found;
  const inWindow = peaks.map((p) => (p.error ? 0 : p.inWindow));
  const ranks = proteins.counted();
  const matched = proteins.matches();
  const chances = new PeakChances(inWindow, total);
  // Most likely first: least chance, then most peaks, then the accession order answers use.
  const contenders = new Contenders(chances, filled(Int32Array, ranks, peptidesOf), matched, (a, b) =>
    accessions.before(ranks[a], ranks[b]),
  );
  // The listing chooses among the proteins most significant on all the peaks.
  const pool = contenders.best(Math.max(POOL, query.proteins));
  const explaining = pooledFinds(context.finds, found, ranks, pool);
  const listed = listProteins(
    { peptides: filled(Int32Array, pool, (k) => peptidesOf(ranks[k])), peaks: explaining.peaks },
    chances,
    query.proteins,
  );
  const matches = matchesOf(
    context.finds,
    peaks,
    new Map(listed.map(({ index }) => [ranks[pool[index]], explaining.finds[index]])),
  );
  const hits = listed.map(({ index, distinct, distinctChance, sameSet }): ProteinHit => {
    const k = pool[index];
    const rank = ranks[k];
    const explained = new Set(matches.get(rank)!.map((m) => m.peak));
    return {
      accession: accessions.accession(rank),
      taxId: accessions.taxId(rank),
      reviewed: accessions.reviewed(rank),
      peptides: peptidesOf(rank),
      matched: matched[k],
      score: scoreOf(contenders.chance(k)),
      expect: expectOf(contenders.chance(k), tested.proteins),
      distinct,
      distinctScore: scoreOf(distinctChance),
      sameSet: sameSet.map((c) => accessions.accession(ranks[pool[c]])),
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
    ...(taxonomy && { organisms: taxonHits(context, taxonomy, chances, found, ranks, contenders) }),
  };
}

/**
 * `of` of each of `items`, in a typed array of their number, filled in a loop: a typed array's `from` calls a mapping
 * function through the iterator protocol, and lists map thousands of contenders.
 */
function filled<T extends Int32Array | Float64Array>(
  Type: new (length: number) => T,
  items: ArrayLike<number>,
  of: (item: number) => number,
): T {
  const values = new Type(items.length);
  for (let i = 0; i < items.length; i++) values[i] = of(items[i]);
  return values;
}

/**
 * The peaks (ascending) each protein of `pool` (indexes into `ranks`) explains, and its finds (pairs of peak and find,
 * flat), in one pass over the list's finds.
 */
function pooledFinds(
  finds: Finds,
  { peaks, first }: ListFinds,
  ranks: Int32Array,
  pool: readonly number[],
): { peaks: number[][]; finds: number[][] } {
  const slot = new IntMap();
  pool.forEach((k, c) => slot.set(ranks[k], c));
  const explained: number[][] = pool.map(() => []);
  const found: number[][] = pool.map(() => []);
  // One visitor for every find (one made per find would be an allocation each).
  let peak = 0;
  let f = 0;
  const visit = (rank: number) => {
    const c = slot.get(rank);
    if (c === MISSING) return;
    const list = explained[c];
    if (list[list.length - 1] !== peak) list.push(peak);
    found[c].push(peak, f);
  };
  for (; peak < peaks.length; peak++)
    for (const each of finds.of(first + peak)) {
      f = each;
      finds.ranks(f, visit);
    }
  return { peaks: explained, finds: found };
}

/**
 * The peptides explaining each peak for each of `proteins` (rank → its finds, pairs of peak and find): by peak, then
 * mass, then ProForma. A find two of them share is one match.
 */
function matchesOf(
  finds: Finds,
  peaks: readonly FingerprintPeak[],
  proteins: ReadonlyMap<number, readonly number[]>,
): Map<number, PeptideMatch[]> {
  const made = new Map<number, PeptideMatch>();
  const matchOf = (peak: number, f: number): PeptideMatch => {
    let match = made.get(f);
    if (!match) {
      const sequence = finds.sequence(f);
      const mass = finds.units.data[f] / UNITS_PER_DA;
      const errorDa = peaks[peak].mass - mass;
      match = {
        peak,
        sequence,
        proforma: finds.proformaOf(f, sequence),
        mass,
        errorPpm: (errorDa / mass) * 1e6,
        errorDa,
      };
      made.set(f, match);
    }
    return match;
  };
  const matches = new Map<number, PeptideMatch[]>();
  for (const [rank, found] of proteins) {
    const list: PeptideMatch[] = [];
    for (let i = 0; i < found.length; i += 2) list.push(matchOf(found[i], found[i + 1]));
    list.sort((a, b) => a.peak - b.peak || a.mass - b.mass || (a.proforma < b.proforma ? -1 : 1));
    matches.set(rank, list);
  }
  return matches;
}

/**
 * The taxa of a list ranked like its proteins, each with its best proteins: of the list's proteins (`ranks`, ordered
 * by `better`), those in its subtree.
 */
function taxonHits(
  { accessions, query, tested, reviewedTotal }: Context,
  taxonomy: Taxonomy,
  chances: PeakChances,
  { taxa, peakTaxa }: ListFinds,
  ranks: Int32Array,
  proteins: Contenders,
): TaxonHit[] {
  const nodes = taxa.counted();
  const matched = taxa.matches();
  const peptides = filled(Float64Array, nodes, (node) => taxonomy.specificPeptides(node));
  const contenders = new Contenders(
    chances,
    peptides,
    matched,
    (a, b) => taxonomy.taxIds[nodes[a]] < taxonomy.taxIds[nodes[b]],
  );
  const listed = contenders.best(query.organisms);
  // Each listed taxon's best proteins, of those in its subtree (two intervals of ranks), gathered in one pass.
  const intervals = Int32Array.from(
    listed.flatMap((k) => {
      const { reviewed, unreviewed } = taxonomy.subtreeRanks(nodes[k], reviewedTotal);
      return [...reviewed, ...unreviewed];
    }),
  );
  const inside: number[][] = listed.map(() => []);
  for (let c = 0; c < ranks.length; c++) {
    const rank = ranks[c];
    for (let t = 0, i = 0; t < listed.length; t++, i += 4)
      if ((intervals[i] <= rank && rank < intervals[i + 1]) || (intervals[i + 2] <= rank && rank < intervals[i + 3]))
        inside[t].push(c);
  }
  const best = inside.map((among) => proteins.best(TAXON_PROTEINS, among));
  return listed.map((k, t): TaxonHit => {
    const node = nodes[k];
    return {
      ...taxonomy.taxon(node),
      peptides: peptides[k],
      matched: matched[k],
      score: scoreOf(contenders.chance(k)),
      expect: expectOf(contenders.chance(k), tested.taxa ?? 0),
      peaks: peakTaxa.flatMap((counted, i) => (counted.includes(node) ? [i] : [])),
      proteins: best[t].map((p) => accessions.accession(ranks[p])),
    };
  });
}

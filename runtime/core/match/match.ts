// Batch precursor matching: every search of a batch of precursors (one per charge tried) answered as a
// precursor search answers it (its hypotheses and scans, precursor.ts), all its candidates over all pages. The
// hypotheses of all the searches run as one sweep (sweep.ts); candidates are copied into compact columns as they
// are found, so a batch holds no shard.
import { AT_PROTEIN_START } from '../../model/proteinStarts.js';
import { UNITS_PER_DA } from '../../model/chemistry.js';
import type { AccessionSet } from '../../model/accessionSet.js';
import type { Shard } from '../../model/format.js';
import { massKey } from '../../model/massKey.js';
import { letterTable } from '../../model/modifications.js';
import { proformaWriter, type TextOut } from '../../model/proforma.js';
import { resolveFilter, type AccessionFilter } from '../range/accessionFilter.js';
import type { Dataset } from '../storage/dataset.js';
import { searchesOf, type MatchQuery, type Precursor, type PrecursorSearch } from './matchQuery.js';
import type { Malformed, MgfItem, Spectrum } from './mgf.js';
import { Candidates, Tasks, type CountVectors } from './matchColumns.js';
import { sweepSearches, type MatchOptions } from './sweep.js';
import type { FoundSink } from '../precursor/precursor.js';

/** One candidate of a search: a stored peptide with its variable modifications, as a precursor search lists it. */
export interface MatchCandidate {
  sequence: string;
  proforma: string;
  /** Modified mass in units of 1e-10 Da, and its 4-decimal key. */
  units: number;
  key: number;
  /** Ranks in the accession table of the accessions the query keeps, in the order of their accessions. */
  accessions: Uint32Array;
}

/** A search of a precursor and its candidates in a precursor search's order (or why it was refused). */
export interface SearchMatch extends PrecursorSearch {
  candidates: MatchCandidate[];
}

/** A search of a precursor with its candidates as ids into the batch's columns, in a precursor search's order. */
export interface SearchIds extends PrecursorSearch {
  candidates: number[];
}

/** The matches of a batch: its precursors, and the searches of each with their candidates (made when asked for). */
export interface MatchBatch {
  precursors: readonly Precursor[];
  /** The accessions of the candidates' ranks. */
  accessions: AccessionSet;
  /** The candidates' columns, which SearchIds' ids index: for writers that need no object per candidate. */
  columns: Candidates;
  /** The ProForma of candidate `id`, whose sequence is `sequence`. */
  proforma(sequence: string, id: number): string;
  /** The same ProForma written into `out` (ASCII: Unimod titles and signed masses), no string made. */
  writeProforma(out: TextOut, sequence: string, id: number): void;
  /** The count of each variable spec of the query that candidate `id` carries (unlocalised, as its ProForma). */
  variableCounts(id: number): readonly number[];
  /** Whether candidate `id` is taken as its proteins' first peptide (its N-terminus takes protein N-term sites). */
  startsProtein(id: number): boolean;
  /** The searches of a precursor with their candidates; `ordered` false: in no particular order (no sort). */
  searchIds(precursor: number, ordered?: boolean): SearchIds[];
  searches(precursor: number): SearchMatch[];
}

const text = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Memory for decoded shards a match needs, unless told otherwise: its sweep reads each shard once, so a cache of a
 * few hundred shards serves it as well as a large one, and leaves the memory to the batch's candidates.
 */
export const MATCH_CACHE_BYTES = 8 * 2 ** 20;

/**
 * What a search keeps of what its scans find: every candidate, or with `top` those that may still be among its closest.
 */
class SearchSink implements FoundSink {
  scanned = 0;
  /** With `top`: errors (Da) of the candidates kept so far, and the largest one a candidate may have to be kept. */
  private errors: number[] = [];
  private cut = Infinity;

  constructor(
    readonly filter: AccessionFilter | undefined,
    private readonly candidates: Candidates,
    private readonly counts: readonly CountVectors[],
    private readonly search: number,
    private readonly mass: number,
    private readonly top: number | undefined,
  ) {}

  /** `hypothesis`: the id of the hypothesis's counts in the batch's Tasks.counts. */
  add(_key: number, units: number, shard: Shard, p: number, hypothesis: number): void {
    if (this.top !== undefined) {
      const error = Math.abs(units / UNITS_PER_DA - this.mass);
      if (error > this.cut) return; // `top` closer ones already kept
      if (this.errors.push(error) >= 2 * this.top) {
        this.errors.sort((a, b) => a - b);
        this.cut = this.errors[this.top - 1];
        this.errors = this.errors.filter((e) => e <= this.cut);
      }
    }
    const { shiftUnits, at } = this.counts[hypothesis];
    this.candidates.add(this.search, hypothesis, shiftUnits, shard, p, this.filter, at);
  }
}

/**
 * Every search of `precursors` (in their order; a precursor's searches in its charges' order), each with all
 * its candidates — grouped by modified key ascending, then by sequence, then ProForma, as a precursor search pages
 * them — or why a precursor search would refuse it (too many hypotheses or peptides to examine).
 * With `top`, a search keeps its candidates closest to its mass (ties in that order), still in that order.
 *
 * The hypotheses of all searches run as one sweep over the unmodified masses they read, in ascending order, a
 * few reads ahead: the hypotheses needing a shard come together, so each shard is read once while it is in use,
 * whatever the cache's size. Candidates are copied into compact columns as they are found: a batch holds no shard.
 */
export function matchPrecursors(
  dataset: Dataset,
  query: MatchQuery,
  precursors: readonly Precursor[],
  options: MatchOptions = {},
): Promise<MatchBatch> {
  return matchInto(new Candidates(), dataset, query, precursors, options);
}

/** matchPrecursors, its candidates kept in `candidates` (emptied first). */
async function matchInto(
  candidates: Candidates,
  dataset: Dataset,
  query: MatchQuery,
  precursors: readonly Precursor[],
  options: MatchOptions,
): Promise<MatchBatch> {
  candidates.clear();
  const searchLists = precursors.map((p) => searchesOf(query, p));
  const searches = searchLists.flat();
  const filter = await resolveFilter(dataset, query.filter);

  const tasks = new Tasks();
  const views = dataset.views.map(({ spec }) => ({
    member: letterTable(spec.site.letters),
    deltaUnits: spec.modification.deltaUnits,
  }));
  candidates.viewOf = (countsId) => {
    const view = tasks.counts[countsId].view;
    return view === undefined ? undefined : views[view];
  };
  const errors = await sweepSearches(
    dataset,
    query,
    searches,
    tasks,
    (s) => new SearchSink(filter, candidates, tasks.counts, s, searches[s].mass, query.top),
    options,
  );
  const accessions = await dataset.accessionSet((add) => candidates.addRanks(add));
  candidates.orderAccessions(accessions);

  const writer = proformaWriter(query.fixed, query.variable);
  const countsOf = (id: number) => tasks.counts[candidates.countsId(id)];
  const startsProtein = (id: number) => countsOf(id).at === AT_PROTEIN_START;
  const proformaOf = (sequence: string, id: number) =>
    writer.text(sequence, countsOf(id).variableCounts, startsProtein(id));
  const idsBySearch = candidates.bySearch(searches.length);
  const firstSearch: number[] = [];
  for (let i = 0, n = 0; i < searchLists.length; n += searchLists[i++].length) firstSearch.push(n);

  const generation = candidates.generation;
  /** The search's candidate ids in the answer's order (sorted when asked for: a batch keeps only its columns). */
  const idsOf = (s: number, ordered: boolean): number[] => {
    if (candidates.generation !== generation)
      throw new Error('a match batch was read after the next one was asked for: its columns hold that one now');
    let ids = idsBySearch(s);
    if (!ordered) return ids;
    if (query.top !== undefined) ids = closest(candidates, ids, searches[s].mass, query.top, proformaOf);
    return inAnswerOrder(candidates, ids, proformaOf);
  };
  const searchIds = (i: number, ordered = true): SearchIds[] =>
    searchLists[i].map((search, j) => {
      const s = firstSearch[i] + j;
      const error = errors[s];
      return error ? { ...search, error, candidates: [] } : { ...search, candidates: idsOf(s, ordered) };
    });
  return {
    precursors,
    accessions,
    columns: candidates,
    proforma: proformaOf,
    writeProforma: (out, sequence, id) => writer.write(out, sequence, countsOf(id).variableCounts, startsProtein(id)),
    variableCounts: (id) => countsOf(id).variableCounts,
    startsProtein,
    searchIds,
    searches: (i) =>
      searchIds(i).map((search) => ({
        ...search,
        candidates: search.candidates.map((id): MatchCandidate => {
          const sequence = candidates.sequence(id);
          const units = candidates.units(id);
          return {
            sequence,
            proforma: proformaOf(sequence, id),
            units,
            key: massKey(units),
            accessions: candidates.accessionsOf(id),
          };
        }),
      })),
  };
}

/**
 * Candidates `ids` in a precursor search's order: by mass key (its groups), then sequence, then ProForma — the
 * sequences compared as stored bytes, ProForma made only for candidates that tie on both.
 */
function inAnswerOrder(
  candidates: Candidates,
  ids: number[],
  proformaOf: (sequence: string, id: number) => string,
): number[] {
  const proforma = (id: number) => proformaOf(candidates.sequence(id), id);
  const keys = ids.map((id) => massKey(candidates.units(id))); // worked out once each, not per comparison
  const positions = ids
    .map((_, k) => k)
    .sort(
      (a, b) =>
        keys[a] - keys[b] || candidates.compareSequences(ids[a], ids[b]) || text(proforma(ids[a]), proforma(ids[b])),
    );
  return positions.map((k) => ids[k]);
}

/** Of candidates `ids`, the `top` closest to `mass`, ties in the answer's order (by key, sequence, ProForma). */
function closest(
  candidates: Candidates,
  ids: number[],
  mass: number,
  top: number,
  proformaOf: (sequence: string, id: number) => string,
): number[] {
  if (ids.length <= top) return ids;
  const errorOf = (id: number) => Math.abs(candidates.units(id) / UNITS_PER_DA - mass);
  const byError = ids.map((id) => ({ id, error: errorOf(id) })).sort((a, b) => a.error - b.error);
  // All closer than the last one kept; of those as close as it, the first in the answer's order.
  const cut = byError[top - 1].error;
  const closer = byError.filter(({ error }) => error < cut).map(({ id }) => id);
  const tied = byError.filter(({ error }) => error === cut).map(({ id }) => id);
  return [...closer, ...inAnswerOrder(candidates, tied, proformaOf).slice(0, top - closer.length)];
}

/** Precursors matched per batch unless told otherwise: memory grows with a batch's candidates, speed with its size. */
export const DEFAULT_BATCH = 10_000;

export interface StreamOptions extends MatchOptions {
  /** Precursors per batch. Default DEFAULT_BATCH. */
  batch?: number;
  /** Told of each malformed record as the file is read. */
  malformed?: (m: Malformed) => void;
}

/**
 * The spectra of an MGF file matched batch by batch, in file order: memory is bounded by one batch (its
 * precursors and their candidates) whatever the file's size — each batch's candidates are kept in the memory of
 * the one before, so **a batch must be read before the next is asked for**. Malformed records are told to `malformed`.
 */
export async function* matchSpectra(
  dataset: Dataset,
  query: MatchQuery,
  items: AsyncIterable<MgfItem>,
  options: StreamOptions = {},
): AsyncGenerator<MatchBatch> {
  const size = options.batch ?? DEFAULT_BATCH;
  const candidates = new Candidates(); // one batch's columns, reused: no batch waits for the collector to free the last
  let spectra: Spectrum[] = [];
  for await (const item of items) {
    if ('malformed' in item) options.malformed?.(item.malformed);
    else if (spectra.push(item.spectrum) === size) {
      yield await matchInto(candidates, dataset, query, spectra, options);
      spectra = [];
    }
  }
  if (spectra.length > 0) yield await matchInto(candidates, dataset, query, spectra, options);
}

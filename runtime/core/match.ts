// Batch precursor matching: every search of a batch of precursors (one per charge tried) answered by
// /api/v1/search's own search (findCandidates), all its candidates over all pages. The searches run in mass
// order, a few at a time, so neighbours share their shards (each read once while it stays cached) whatever the
// order of the precursors; their candidates are copied into compact columns, so a batch holds no shard.
import pLimit from 'p-limit';
import { UNITS_PER_DA } from '../model/chemistry.js';
import { accessionRefsOf, sequenceOf, type AccessionTable } from '../model/format.js';
import { Column } from '../model/column.js';
import { massKey } from '../model/massKey.js';
import { proformaWriter } from '../model/proforma.js';
import { resolveFilter } from './accessionFilter.js';
import type { Dataset } from './dataset.js';
import { searchesOf, type MatchQuery, type Precursor, type PrecursorSearch } from './matchQuery.js';
import type { Malformed, MgfItem, Spectrum } from './mgf.js';
import { QueryError } from './params.js';
import type { Hypothesis } from './hypotheses.js';
import { findCandidates, type Found } from './precursor.js';

/** One candidate of a search: a stored peptide with its variable modifications, as /api/v1/search lists it. */
export interface MatchCandidate {
  sequence: string;
  proforma: string;
  /** Modified mass in units of 1e-10 Da, and its 4-decimal key. */
  units: number;
  key: number;
  /** Ranks in the accession table of the accessions the query keeps. */
  accessions: Uint32Array;
}

/** A search of a precursor and its candidates in /api/v1/search's order (or the error it would answer). */
export interface SearchMatch extends PrecursorSearch {
  candidates: MatchCandidate[];
}

/** The matches of a batch: its precursors, and the searches of each with their candidates (made when asked for). */
export interface MatchBatch {
  precursors: readonly Precursor[];
  /** The accession table the candidates' ranks point into. */
  table: AccessionTable;
  searches(precursor: number): SearchMatch[];
}

export interface MatchOptions {
  /** Searches run at once (each reads its shards at once). Default 6. */
  concurrency?: number;
  /** Called after each search, with the searches done and to do in this batch. */
  progress?: (done: number, total: number) => void;
  /** Most stored peptides the whole batch may examine (a server's bound on one request); past it, QueryError 400. */
  maxScanned?: number;
}

/** The candidates of a batch, of all its searches, as columns: a few dozen bytes each whatever shard they came from. */
class Candidates {
  readonly search = new Column(new Uint32Array(1024));
  readonly units = new Column(new Float64Array(1024));
  /** Index of the candidate's variable counts in `counts`. */
  readonly countsId = new Column(new Uint32Array(1024));
  readonly sequenceEnds = new Column(new Uint32Array(1024));
  readonly letters = new Column(new Uint8Array(16384));
  readonly accessionEnds = new Column(new Uint32Array(1024));
  readonly accessions = new Column(new Uint32Array(1024));
  readonly counts: (readonly number[])[] = [];
  private countsIds = new Map<readonly number[], number>();

  get length(): number {
    return this.search.length;
  }

  add(search: number, units: number, countsOf: readonly number[], sequence: string, refs: Uint32Array, mask: Uint8Array | undefined): void {
    let id = this.countsIds.get(countsOf);
    if (id === undefined) this.countsIds.set(countsOf, (id = this.counts.push(countsOf) - 1));
    this.search.push(search);
    this.units.push(units);
    this.countsId.push(id);
    const letters = this.letters.reserve(sequence.length);
    for (let i = 0; i < sequence.length; i++) letters[this.letters.length++] = sequence.charCodeAt(i);
    this.sequenceEnds.push(this.letters.length);
    for (const a of refs) if (!mask || mask[a] === 1) this.accessions.push(a);
    this.accessionEnds.push(this.accessions.length);
  }

  sequence(i: number): string {
    return String.fromCharCode.apply(null, this.letters.data.subarray(i === 0 ? 0 : this.sequenceEnds.data[i - 1], this.sequenceEnds.data[i]) as unknown as number[]);
  }

  accessionsOf(i: number): Uint32Array {
    return this.accessions.data.slice(i === 0 ? 0 : this.accessionEnds.data[i - 1], this.accessionEnds.data[i]);
  }

  /** Candidate indexes by search: `order` holds them grouped, search s at [starts[s], starts[s + 1]). */
  bySearch(searches: number): { order: Uint32Array; starts: Uint32Array } {
    const starts = new Uint32Array(searches + 1);
    for (let i = 0; i < this.length; i++) starts[this.search.data[i] + 1]++;
    for (let s = 0; s < searches; s++) starts[s + 1] += starts[s];
    const next = starts.slice(0, searches);
    const order = new Uint32Array(this.length);
    for (let i = 0; i < this.length; i++) order[next[this.search.data[i]]++] = i;
    return { order, starts };
  }
}

const text = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** /api/v1/search's order of candidates: by mass key (its groups), then sequence, then ProForma. */
const inAnswerOrder = (a: { key: number; sequence: string; proforma: string }, b: { key: number; sequence: string; proforma: string }) =>
  a.key - b.key || text(a.sequence, b.sequence) || text(a.proforma, b.proforma);

/**
 * Every search of `precursors` (in their order; a precursor's searches in its charges' order), each with all
 * its candidates — grouped by modified key ascending, then by sequence, then ProForma, as /api/v1/search pages
 * them — or the error /api/v1/search would answer it with (400: too many hypotheses or peptides to examine).
 * With `top`, a search keeps its candidates closest to its mass (ties in that order), still in that order.
 */
export async function matchPrecursors(dataset: Dataset, query: MatchQuery, precursors: readonly Precursor[], options: MatchOptions = {}): Promise<MatchBatch> {
  const searchLists = precursors.map((p) => searchesOf(query, p));
  const searches = searchLists.flat();
  const errors: (string | undefined)[] = searches.map((s) => s.error);
  const [filter, table] = await Promise.all([resolveFilter(dataset, query.filter), dataset.accessionTable()]);

  const write = proformaWriter(query.fixed, query.variable);
  // In mass order, a few at a time: neighbours read the same shards, so each is read once while it stays cached.
  const candidates = new Candidates();
  const order = searches.map((_, i) => i).filter((i) => !errors[i]).sort((a, b) => searches[a].mass - searches[b].mass);
  const limit = pLimit(options.concurrency ?? 6);
  let done = 0;
  let scanned = 0;
  let over: QueryError | undefined;
  await Promise.all(
    order.map((s) =>
      limit(async () => {
        if (over) return; // the batch is refused: searches not yet started are not made
        const { lowKey, highKey, mass } = searches[s];
        try {
          const { found, hypotheses } = await findCandidates(dataset, { lowKey, highKey, fixed: query.fixed, variable: query.variable, maxVariable: query.maxVariable }, filter);
          if ((scanned += found.scanned) > (options.maxScanned ?? Infinity)) {
            over ??= new QueryError(400, `these precursors would examine more than ${options.maxScanned!.toLocaleString('en')} stored peptides in all; send fewer, or narrow the tolerance or the variable modifications`);
            throw over;
          }
          const kept = query.top === undefined ? found.keys.map((_, i) => i) : closest(found, hypotheses, mass, query.top, write);
          for (const i of kept) {
            const shard = found.shards[i];
            const p = found.peptides[i];
            candidates.add(s, found.units[i], hypotheses[found.hypotheses[i]].variableCounts, sequenceOf(shard, p), accessionRefsOf(shard, p), filter?.mask(shard));
          }
        } catch (e) {
          if (!(e instanceof QueryError) || e === over) throw e;
          errors[s] = e.message;
        }
        options.progress?.(++done, order.length);
      }),
    ),
  );

  const { order: bySearch, starts } = candidates.bySearch(searches.length);
  const firstSearch: number[] = [];
  for (let i = 0, n = 0; i < searchLists.length; n += searchLists[i++].length) firstSearch.push(n);

  /** The search's candidates as objects, sorted (made when asked for: a batch keeps only its columns). */
  const candidatesOf = (s: number): MatchCandidate[] => {
    const list = [...bySearch.subarray(starts[s], starts[s + 1])].map((id): MatchCandidate => {
      const sequence = candidates.sequence(id);
      const units = candidates.units.data[id];
      return { sequence, proforma: write(sequence, candidates.counts[candidates.countsId.data[id]]), units, key: massKey(units), accessions: candidates.accessionsOf(id) };
    });
    return list.sort(inAnswerOrder);
  };
  return {
    precursors,
    table,
    searches: (i) =>
      searchLists[i].map((search, j) => {
        const s = firstSearch[i] + j;
        const error = errors[s];
        return error ? { ...search, error, candidates: [] } : { ...search, candidates: candidatesOf(s) };
      }),
  };
}

/** Indexes of the `top` found candidates closest to `mass`, ties in the answer's order (by key, sequence, ProForma). */
function closest(found: Found, hypotheses: Hypothesis[], mass: number, top: number, write: (sequence: string, counts: readonly number[]) => string): number[] {
  const all = found.keys.map((_, i) => i);
  if (all.length <= top) return all;
  const errors = Float64Array.from(found.units, (units) => Math.abs(units / UNITS_PER_DA - mass));
  all.sort((a, b) => errors[a] - errors[b]);
  // All closer than the last one kept; of those as close as it, the first in the answer's order (their
  // sequences and ProForma made only for them).
  const cut = errors[all[top - 1]];
  const closer = all.filter((i) => errors[i] < cut);
  const tied = all
    .filter((i) => errors[i] === cut)
    .map((i) => {
      const sequence = sequenceOf(found.shards[i], found.peptides[i]);
      return { i, key: found.keys[i], sequence, proforma: write(sequence, hypotheses[found.hypotheses[i]].variableCounts) };
    })
    .sort(inAnswerOrder);
  return [...closer, ...tied.slice(0, top - closer.length).map(({ i }) => i)];
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
 * precursors and their candidates) whatever the file's size. Malformed records are told to `malformed`.
 */
export async function* matchSpectra(dataset: Dataset, query: MatchQuery, items: AsyncIterable<MgfItem>, options: StreamOptions = {}): AsyncGenerator<MatchBatch> {
  const size = options.batch ?? DEFAULT_BATCH;
  let spectra: Spectrum[] = [];
  for await (const item of items) {
    if ('malformed' in item) options.malformed?.(item.malformed);
    else if (spectra.push(item.spectrum) === size) {
      yield await matchPrecursors(dataset, query, spectra, options);
      spectra = [];
    }
  }
  if (spectra.length > 0) yield await matchPrecursors(dataset, query, spectra, options);
}

// Precursor search: the peptides whose modified mass has its key in a window, for every hypothesis of fixed and
// variable modifications — each hypothesis a range read of unmodified masses (or of a view's keys, which carry a
// fixed modification already), filtered by its site counts, weighed exactly in integer units, merged into mass
// groups by modified key and paged exactly. A complete view's hypotheses are one range of modified keys, each
// peptide filed under the hypothesis its key gives.
import { addPeptideRanks, type AccessionSet } from '../../model/accessionSet.js';
import { residueBound, type Shard } from '../../model/format.js';
import { massKey } from '../../model/massKey.js';
import { siteSlots, slotCount, slotSet, type ModSpec, type SlotSet } from '../../model/modifications.js';
import { keepsAny, resolveFilter, type AccessionFilter, type FilterSpec } from '../range/accessionFilter.js';
import { CompleteWeigher } from './completeWeigher.js';
import { compositionOf } from './composition.js';
import type { Dataset } from '../storage/dataset.js';
import { VIEW_COUNT, type Hypothesis } from './hypotheses.js';
import { indexOf, searchHypotheses, type SearchWindow } from './searchPlan.js';
import { KeySet } from '../storage/keySet.js';
import { keepsAnyAt, placesOf, type Place } from '../../model/proteinStarts.js';
import { InvalidQuery } from '../errors.js';
import { rangeEntries, rangeEntriesNow, runOf } from '../range/search.js';

/** An inclusive window on modified-mass keys. */
export interface KeyWindow {
  lowKey: number;
  highKey: number;
}

export interface PrecursorQuery {
  /** The window on modified-mass keys (inclusive). */
  lowKey: number;
  highKey: number;
  /** The precursor's neutral mass in Da, when the query has one (for each candidate's ppm error). */
  centre?: number;
  fixed: ModSpec[];
  variable: ModSpec[];
  maxVariable: number;
  /** Which accessions to keep (taxa, reviewed); a peptide keeping none is no candidate. */
  filter: FilterSpec;
  page: number;
  pageSize: number;
}

/** One modified peptide: a stored peptide with a count for each variable spec, and its exact modified mass. */
export interface Candidate {
  shard: Shard;
  /** Index of the peptide in its shard (its sequence: format.ts sequenceOf, or its letters in place). */
  peptide: number;
  /** Count of each variable spec of the query (same order). */
  variableCounts: number[];
  /** Modified mass in units of 1e-10 Da, and its key. */
  units: number;
  key: number;
  /** Where the peptide lies in the proteins it lists, when the query modifies the protein N-terminus (Hypothesis.at). */
  at?: Place;
}

export interface CandidateGroup {
  key: number;
  candidates: Candidate[];
}

export interface PrecursorResult {
  /** Mass groups (distinct modified keys) over all pages. */
  totalResult: number;
  page: number;
  pageSize: number;
  /** The page's groups, ascending; a group's candidates in the order the renderer sorts them. */
  groups: CandidateGroup[];
  /** Hypotheses searched: a range read each, but those of a complete view, read in one. */
  hypotheses: number;
  /** The complete view every candidate comes from (an index into Dataset.views), when the search read one. */
  completeView?: number;
  /** The accessions kept, when the query filters them: a candidate lists only those. */
  filter?: AccessionFilter;
  /** The accessions the page's candidates list. */
  accessions: AccessionSet;
}

/**
 * Whether `sequence` can carry `counts` of the variable specs, each on its own slot: Hall's condition — every
 * subset of the specs in use asks for no more slots than the union of their sites offers.
 */
export function variableFits(variable: readonly ModSpec[], counts: readonly number[], sequence: string): boolean {
  return hallChecks(counts).every(
    ({ mask, wanted }) =>
      wanted <=
      slotCount(
        variable.filter((_, i) => mask & (1 << i)).map((s) => s.site),
        sequence,
      ),
  );
}

/** Hall's condition as checks: for each non-empty subset of the specs in use (a bit mask), the slots it asks for. */
function hallChecks(counts: readonly number[]): { mask: number; wanted: number }[] {
  const used = counts.map((_, i) => i).filter((i) => counts[i] > 0);
  const checks = [];
  for (let subset = 1; subset < 1 << used.length; subset++) {
    const members = used.filter((_, b) => subset & (1 << b));
    checks.push({
      mask: members.reduce((m, i) => m | (1 << i), 0),
      wanted: members.reduce((sum, i) => sum + counts[i], 0),
    });
  }
  return checks;
}

/** The query's sites compiled once: each fixed spec's slots, and the slots of each subset of variable specs. */
export interface Compiled {
  fixed: SlotSet[];
  /** By bit mask of variable specs. */
  subsets: SlotSet[];
  /** Hall's checks by variable counts (`1,0`), as needsOf makes them. */
  hall: Map<string, Needs['variable']>;
  /**
   * The first fixed spec on residues alone (no terminus), whose count a scan reads by the count index; -1 when none is.
   */
  byCount: number;
}

export function compile(query: Pick<PrecursorQuery, 'fixed' | 'variable'>): Compiled {
  const subsets: SlotSet[] = [];
  for (let mask = 1; mask < 1 << query.variable.length; mask++)
    subsets[mask] = slotSet(query.variable.filter((_, i) => mask & (1 << i)).map((s) => s.site));
  const fixed = query.fixed.map((spec) => siteSlots(spec.site));
  const byCount = fixed.findIndex((set) => set.letters !== '' && set.termini === 0 && set.terminal.length === 0);
  return { fixed, subsets, hall: new Map(), byCount };
}

/**
 * What a peptide must offer for one hypothesis: exact fixed slot counts, and Hall's condition as (set, slots) checks.
 */
export interface Needs {
  fixed: { set: SlotSet; count: number }[];
  variable: { set: SlotSet; wanted: number }[];
  /**
   * A fixed need on residues alone (no terminus): its letters and count, so that a scan reads only the peptides with
   * that count.
   */
  byCount?: { letters: string; count: number };
  /** Where the peptide must lie (Hypothesis.at): a fixed modification of the protein N-terminus counts here. */
  at?: Place;
}

export function needsOf(compiled: Compiled, h: Hypothesis): Needs {
  // Hypotheses share their variable counts (one per fixed count): Hall's checks are worked out once per counts.
  const key = h.variableCounts.join(',');
  let variable = compiled.hall.get(key);
  if (!variable)
    compiled.hall.set(
      key,
      (variable = hallChecks(h.variableCounts).map(({ mask, wanted }) => ({ set: compiled.subsets[mask], wanted }))),
    );
  // A view's modification has no count to meet: the view's keys carry it on every site the peptide has.
  const fixed = compiled.fixed
    .map((set, i) => ({ set, count: h.fixedCounts[i] }))
    .filter((f) => f.count !== VIEW_COUNT && !f.set.proteinStart);
  const i = compiled.byCount;
  return {
    fixed,
    variable,
    ...(i >= 0 && h.fixedCounts[i] !== VIEW_COUNT
      ? { byCount: { letters: compiled.fixed[i].letters, count: h.fixedCounts[i] } }
      : {}),
    ...(h.at && { at: h.at }),
  };
}

/**
 * Whether a shard (or the shards below an index entry) can hold a peptide of the hypothesis, by the entry's residue
 * maxima (true without them).
 */
export function mayHold(c: Needs, entry: { residueMax?: string }): boolean {
  for (const f of c.fixed) if (f.count > 0 && mostSlots(f.set, entry) < f.count) return false;
  for (const v of c.variable) if (mostSlots(v.set, entry) < v.wanted) return false;
  return true;
}

/** Most slots of `set` one peptide of the shard can offer, by the entry's residue maxima. */
const mostSlots = (set: SlotSet, entry: { residueMax?: string }) =>
  set.termini + set.terminal.length + (set.proteinStart ? 1 : 0) + (set.letters ? residueBound(entry, set.letters) : 0);

/**
 * Stored peptides one query may examine over all its hypotheses: past this the query is refused rather
 * than left to run for minutes — a wide window with many variable modifications on a large dataset.
 */
export const MAX_SCANNED = 2_000_000;

/** Where scans of one search put what they find, and count the stored peptides they examine. */
export interface FoundSink {
  /** The accessions the search keeps (a peptide keeping none is not found). */
  readonly filter: AccessionFilter | undefined;
  scanned: number;
  /** Peptide p of `shard`, of hypothesis `hypothesis`, weighs `units` (key `key`, inside the search's window). */
  add(key: number, units: number, shard: Shard, p: number, hypothesis: number): void;
}

/** Found peptides of all hypotheses, as parallel columns (cheap to gather, sort and page). */
export class Found implements FoundSink {
  scanned = 0;
  constructor(readonly filter: AccessionFilter | undefined) {}
  readonly keys: number[] = [];
  readonly units: number[] = [];
  readonly peptides: number[] = [];
  readonly shards: Shard[] = [];
  readonly hypotheses: number[] = [];

  add(key: number, units: number, shard: Shard, p: number, hypothesis: number): void {
    this.keys.push(key);
    this.units.push(units);
    this.peptides.push(p);
    this.shards.push(shard);
    this.hypotheses.push(hypothesis);
  }

  /** Empties the columns (the count of peptides examined is the caller's to set). */
  clear(): void {
    for (const column of [this.keys, this.units, this.peptides, this.shards, this.hypotheses]) column.length = 0;
  }
}

/** Counts the peptides a scan examines into `found`; InvalidQuery past MAX_SCANNED. */
export function examine(found: { scanned: number }, peptides: number): void {
  found.scanned += peptides;
  if (found.scanned > MAX_SCANNED) {
    throw new InvalidQuery(
      `this search would examine more than ${MAX_SCANNED.toLocaleString('en')} peptides; narrow the window (tolerance, mass1/mass2) or the variable modifications (variable, maxVariable)`,
    );
  }
}

/** The candidates of one hypothesis in one shard (its groups inside the hypothesis's window of unmodified keys). */
export function scanShard(
  dataset: Dataset,
  query: KeyWindow,
  h: Hypothesis,
  needs: Needs,
  index: number,
  found: FoundSink,
  shard: Shard,
): void {
  if (h.readsCounts !== undefined) return scanComplete(dataset, h, index, found, shard);
  const { from, to } = runOf(shard, h.baseLowKey, h.baseHighKey);
  if (from >= to) return;
  let low = from === 0 ? 0 : shard.groupEnds[from - 1];
  let high = shard.groupEnds[to - 1];
  examine(found, high - low); // the window's peptides, whether or not the count index passes over some
  const comp = compositionOf(dataset, shard, low, high);
  const view = h.view === undefined ? undefined : dataset.views[h.view];
  // The window's peptides, or with a fixed need on residues only those holding its count: a run of the count index
  // (made once for the whole shard, so only for a composition kept with it: one made for this scan alone reads the
  // window).
  let ids: Uint32Array | undefined;
  if (needs.byCount && comp.kept) {
    const index = comp.byCount(needs.byCount.letters);
    ({ low, high } = index.run(needs.byCount.count, low, high));
    ids = index.ids;
  }
  next: for (let i = low; i < high; i++) {
    const p = ids === undefined ? i : ids[i];
    for (const f of needs.fixed) if (comp.slots(f.set, p) !== f.count) continue next;
    for (const v of needs.variable) if (comp.slots(v.set, p) < v.wanted) continue next;
    const units =
      comp.mass(p) + h.shiftUnits + (view ? comp.slots(view.slots, p) * view.spec.modification.deltaUnits : 0);
    const key = massKey(units);
    if (key < query.lowKey || key > query.highKey) continue;
    if (needs.at && !(placesOf(shard, p) & needs.at)) continue;
    if (found.filter && !(needs.at ? keepsAnyAt(shard, p, needs.at, found.filter) : keepsAny(shard, found.filter, p)))
      continue;
    found.add(key, units, shard, p, index);
  }
}

/**
 * The candidates of a complete view's hypotheses in one of its shards (searchPlan.ts completeHypotheses): each
 * peptide of the window is filed under hypothesis `index` + the count its key gives, up to the query's most.
 */
function scanComplete(dataset: Dataset, h: Hypothesis, index: number, found: FoundSink, shard: Shard): void {
  const { from, to } = runOf(shard, h.baseLowKey, h.baseHighKey);
  if (from >= to) return;
  let p = from === 0 ? 0 : shard.groupEnds[from - 1];
  examine(found, shard.groupEnds[to - 1] - p);
  const weigher = new CompleteWeigher(
    dataset.views[h.view!],
    compositionOf(dataset, shard, p, shard.groupEnds[to - 1]),
    shard,
  );
  for (let g = from; g < to; g++) {
    for (const end = shard.groupEnds[g]; p < end; p++) {
      weigher.weigh(g, p);
      if (weigher.count > h.readsCounts!) continue;
      if (found.filter && !keepsAny(shard, found.filter, p)) continue;
      found.add(shard.massKeys[g], weigher.units, shard, p, index + weigher.count);
    }
  }
}

/**
 * One hypothesis at once, when its index pages and every shard it needs are in memory (no promise made: a warm
 * query of a hundred hypotheses stays synchronous); false, having scanned nothing, when something must be read.
 */
function scanNow(
  dataset: Dataset,
  query: KeyWindow,
  h: Hypothesis,
  needs: Needs,
  index: number,
  found: FoundSink,
): boolean {
  const entries = rangeEntriesNow(indexOf(dataset, h), h.baseLowKey, h.baseHighKey);
  if (!entries) return false;
  const shards: Shard[] = [];
  for (const located of entries) {
    if (!mayHold(needs, located.entry)) continue; // skipped unread
    const shard = dataset.cachedShard(located.entry);
    if (!shard) return false;
    shards.push(shard);
  }
  for (const shard of shards) scanShard(dataset, query, h, needs, index, found, shard);
  return true;
}

/** One hypothesis, reading what it needs (its shards at once: one round trip), skipping shards that cannot hold it. */
async function scan(
  dataset: Dataset,
  query: KeyWindow,
  h: Hypothesis,
  needs: Needs,
  index: number,
  found: FoundSink,
): Promise<void> {
  const entries = (await rangeEntries(indexOf(dataset, h), h.baseLowKey, h.baseHighKey)).filter((located) =>
    mayHold(needs, located.entry),
  );
  for (const shard of await Promise.all(entries.map((located) => dataset.shard(located.entry))))
    scanShard(dataset, query, h, needs, index, found, shard);
}

/**
 * Hypothesis `index` of a search with window `query`, into `found`: at once when what it needs is in memory, else a
 * promise. Nothing is looked up for a hypothesis no peptide of the dataset can hold (say, more cysteines than any has).
 */
export function scanHypothesis(
  dataset: Dataset,
  query: KeyWindow,
  h: Hypothesis,
  needs: Needs,
  index: number,
  found: FoundSink,
): Promise<void> | undefined {
  if (h.filed || !mayHold(needs, indexOf(dataset, h).all)) return undefined;
  return scanNow(dataset, query, h, needs, index, found) ? undefined : scan(dataset, query, h, needs, index, found);
}

/**
 * Every candidate of every hypothesis of a window (searchHypotheses', unless `all` says which), as Found's columns
 * (unordered), with the hypotheses their indexes point to; `filter` (resolved from the query's) keeps accessions.
 * InvalidQuery past the bounds.
 */
export async function findCandidates(
  dataset: Dataset,
  query: SearchWindow,
  filter: AccessionFilter | undefined,
  all: Hypothesis[] = searchHypotheses(dataset, query),
): Promise<{ found: Found; hypotheses: Hypothesis[] }> {
  const found = new Found(filter);
  const compiled = compile(query);
  const reads: Promise<void>[] = [];
  all.forEach((h, i) => {
    const read = scanHypothesis(dataset, query, h, needsOf(compiled, h), i, found);
    if (read) reads.push(read);
  });
  await Promise.all(reads);
  return { found, hypotheses: all };
}

/**
 * Every candidate of every hypothesis (searchHypotheses', unless `all` says which), grouped by modified key
 * (ascending), counted, and the query's page: the general merge (precursorSearch.ts searchPrecursor picks it).
 */
export async function runPrecursorQuery(
  dataset: Dataset,
  query: PrecursorQuery,
  all: Hypothesis[] = searchHypotheses(dataset, query),
): Promise<PrecursorResult> {
  const filter = await resolveFilter(dataset, query.filter);
  const { found } = await findCandidates(dataset, query, filter, all);

  // Distinct keys in order: the groups. The page is a run of them; only its candidates become objects.
  const distinct = new KeySet(query.lowKey, query.highKey);
  for (let i = 0; i < found.keys.length; i++) distinct.add(found.keys[i]);
  const pageKeys = distinct.slice((query.page - 1) * query.pageSize, query.pageSize);
  const groups = new Map<number, Candidate[]>(pageKeys.map((k) => [k, []]));
  if (pageKeys.length > 0) {
    const [low, high] = [pageKeys[0], pageKeys[pageKeys.length - 1]];
    // Candidates of one key often come in a run (a complete view's always): its group is looked up once a run.
    let [runKey, run] = [-1, [] as Candidate[]];
    for (let i = 0; i < found.keys.length; i++) {
      const key = found.keys[i];
      if (key < low || key > high) continue;
      if (key !== runKey) [runKey, run] = [key, groups.get(key)!];
      run.push({
        shard: found.shards[i],
        peptide: found.peptides[i],
        variableCounts: all[found.hypotheses[i]].variableCounts,
        units: found.units[i],
        key,
        ...(all[found.hypotheses[i]].at && { at: all[found.hypotheses[i]].at }),
      });
    }
  }
  const accessions = await dataset.accessionSet((add) => {
    for (const candidates of groups.values())
      for (const c of candidates) addPeptideRanks(c.shard, c.peptide, c.peptide + 1, add, filter);
  });
  return {
    totalResult: distinct.size,
    page: query.page,
    pageSize: query.pageSize,
    groups: pageKeys.map((key) => ({ key, candidates: groups.get(key)! })),
    hypotheses: all.length,
    ...(all[0]?.readsCounts !== undefined ? { completeView: all[0].view } : {}),
    ...(filter ? { filter } : {}),
    accessions,
  };
}

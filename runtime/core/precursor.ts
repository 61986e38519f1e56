// Precursor search: the peptides whose modified mass has its key in a window, for every hypothesis of fixed and
// variable modifications — each hypothesis a range read of unmodified masses, filtered by its site counts,
// weighed exactly in integer units, merged into mass groups by modified key and paged exactly.
import { peptideMass } from '../model/chemistry.js';
import { sequenceOf, type Shard } from '../model/format.js';
import { massKey } from '../model/massKey.js';
import { slotCount, type ModSpec } from '../model/modifications.js';
import type { Dataset } from './dataset.js';
import { hypotheses, keyWindowUnits, type Hypothesis } from './hypotheses.js';
import { walkRange } from './search.js';

export interface PrecursorQuery {
  /** The window on modified-mass keys (inclusive). */
  lowKey: number;
  highKey: number;
  /** The precursor's neutral mass in Da, when the query has one (for each candidate's ppm error). */
  centre?: number;
  fixed: ModSpec[];
  variable: ModSpec[];
  maxVariable: number;
  page: number;
  pageSize: number;
}

/** One modified peptide: a stored peptide with a count for each variable spec, and its exact modified mass. */
export interface Candidate {
  shard: Shard;
  /** Index of the peptide in its shard. */
  peptide: number;
  sequence: string;
  /** Count of each variable spec of the query (same order). */
  variableCounts: number[];
  /** Modified mass in units of 1e-10 Da, and its key. */
  units: number;
  key: number;
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
  /** Hypotheses searched (range reads). */
  hypotheses: number;
}

/**
 * Whether `sequence` can carry `counts` of the variable specs, each on its own slot: Hall's condition — every
 * subset of the specs in use asks for no more slots than the union of their sites offers.
 */
export function variableFits(variable: readonly ModSpec[], counts: readonly number[], sequence: string): boolean {
  const used = counts.map((n, i) => i).filter((i) => counts[i] > 0);
  for (let subset = 1; subset < 1 << used.length; subset++) {
    let wanted = 0;
    const sites = [];
    for (let b = 0; b < used.length; b++) {
      if (subset & (1 << b)) {
        wanted += counts[used[b]];
        sites.push(variable[used[b]].site);
      }
    }
    if (wanted > slotCount(sites, sequence)) return false;
  }
  return true;
}

/** Whether a stored peptide is one of the hypothesis's: exactly its fixed counts, room for its variable ones. */
function matches(query: PrecursorQuery, h: Hypothesis, sequence: string): boolean {
  for (let i = 0; i < query.fixed.length; i++) if (slotCount([query.fixed[i].site], sequence) !== h.fixedCounts[i]) return false;
  return variableFits(query.variable, h.variableCounts, sequence);
}

/** The candidates of one hypothesis, read shard by shard over its window of unmodified keys. */
async function candidatesOf(dataset: Dataset, query: PrecursorQuery, h: Hypothesis, out: Candidate[]): Promise<void> {
  for await (const { shard, from, to } of walkRange(dataset, h.baseLowKey, h.baseHighKey)) {
    for (let p = from === 0 ? 0 : shard.groupEnds[from - 1]; p < shard.groupEnds[to - 1]; p++) {
      const sequence = sequenceOf(shard, p);
      if (!matches(query, h, sequence)) continue;
      const units = (peptideMass(sequence) as { units: number }).units + h.shiftUnits;
      const key = massKey(units);
      if (key >= query.lowKey && key <= query.highKey) out.push({ shard, peptide: p, sequence, variableCounts: h.variableCounts, units, key });
    }
  }
}

/** Every candidate of every hypothesis, grouped by modified key (ascending), counted, and the query's page. */
export async function runPrecursorQuery(dataset: Dataset, query: PrecursorQuery): Promise<PrecursorResult> {
  const { minLength, maxLength } = dataset.manifest.parameters;
  const all = hypotheses(query.fixed, query.variable, query.maxVariable, keyWindowUnits(query.lowKey, query.highKey), { minLength, maxLength });
  const found: Candidate[][] = all.map(() => []);
  await Promise.all(all.map((h, i) => candidatesOf(dataset, query, h, found[i])));
  const byKey = new Map<number, Candidate[]>();
  for (const list of found) {
    for (const c of list) {
      const group = byKey.get(c.key);
      if (group) group.push(c);
      else byKey.set(c.key, [c]);
    }
  }
  const keys = [...byKey.keys()].sort((a, b) => a - b);
  const from = (query.page - 1) * query.pageSize;
  const groups = keys.slice(from, from + query.pageSize).map((key) => ({ key, candidates: byKey.get(key)! }));
  return { totalResult: keys.length, page: query.page, pageSize: query.pageSize, groups, hypotheses: all.length };
}

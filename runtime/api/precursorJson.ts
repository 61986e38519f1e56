// Answers of /api/v1/search rendered from a precursor result: the seed's envelope, mass groups keyed by the
// modified mass's 4-decimal key, one entry per (sequence, modification composition) with its ProForma, exact
// mass, ppm error and accessions (with `proteins=true`, each accession with its protein as /api/v1/peptide gives
// it); and the same candidates as TSV rows.
import type { AccessionFilter } from '../core/range/accessionFilter.js';
import type { Dataset } from '../core/storage/dataset.js';
import type { Candidate, CandidateGroup, PrecursorQuery, PrecursorResult } from '../core/precursor/precursor.js';
import type { AccessionSet, RankFilter } from '../model/accessionSet.js';
import { AT_PROTEIN_START, placedFilter } from '../model/proteinStarts.js';
import { compareSequences, sequenceOf, sequenceStart, type Shard } from '../model/format.js';
import { formatMassKey } from '../model/massKey.js';
import { UNITS_PER_DA } from '../model/chemistry.js';
import { proformaWriter, type ProformaWriter } from '../model/proforma.js';
import { proteinsOf, type Protein } from '../core/lookup/proteins.js';
import { withWriter } from './asciiWriter.js';
import { HEAD_COMMA, HEAD_PPM_KEY } from './completeHeads.js';
import { writeAccessions, type EntryJson } from './entryJson.js';
import { envelopePrefix, formatDuration, HEADROOM } from './envelope.js';
import { ppmOf, writeMassKeyText, writeMassText, writePpmText } from './numberText.js';

/** One candidate as the answer lists it. */
export interface PrecursorEntry {
  seq: string;
  proforma: string;
  /** Modified monoisotopic mass in Da, 6 decimals. */
  mass: number;
  /**
   * (query mass − candidate mass) / candidate mass × 10^6, 2 decimals: observed minus theoretical; absent for
   * mass1/mass2.
   */
  ppm?: number;
  accsTax: { acc: string; taxId: number }[];
}

/**
 * A candidate's entry: its ProForma under the query's modifications, mass, ppm error and accessions (those `filter`
 * keeps).
 */
export function precursorEntry(
  query: PrecursorQuery,
  c: Candidate,
  accessions: AccessionSet,
  filter?: AccessionFilter,
  text = proformaOf(query, c),
): PrecursorEntry {
  const mass = c.units / UNITS_PER_DA;
  const ppm = query.centre === undefined ? {} : { ppm: ppmOf(query.centre, mass) };
  const accsTax = Array.from(accessions.listed(c.shard, c.peptide, candidateFilter(c, filter)), (a) => ({
    acc: accessions.accession(a),
    taxId: accessions.taxId(a),
  }));
  return { seq: sequenceOf(c.shard, c.peptide), proforma: text, mass: Number(mass.toFixed(6)), ...ppm, accsTax };
}

/** A group's entries of a result, ordered by sequence, then ProForma; accessions as the result's filter keeps them. */
export function groupEntries(
  query: PrecursorQuery,
  group: CandidateGroup,
  { accessions, filter }: Pick<PrecursorResult, 'accessions' | 'filter'>,
): PrecursorEntry[] {
  return ordered(query, group).map((c) => precursorEntry(query, c, accessions, filter));
}

/** The ProForma writer of a query's modifications, compiled once per query. */
const writers = new WeakMap<PrecursorQuery, ProformaWriter>();
function writerOf(query: PrecursorQuery): ProformaWriter {
  let writer = writers.get(query);
  if (!writer) writers.set(query, (writer = proformaWriter(query.fixed, query.variable)));
  return writer;
}

const proformaOf = (query: PrecursorQuery, c: Candidate) =>
  writerOf(query).text(sequenceOf(c.shard, c.peptide), c.variableCounts, c.at === AT_PROTEIN_START);

/** The accessions a candidate lists: those `filter` keeps, of the proteins it starts or lies inside when it says. */
const candidateFilter = (c: Candidate, filter?: AccessionFilter): RankFilter | undefined =>
  c.at ? placedFilter(c.shard, c.peptide, c.at, filter) : filter;

/**
 * A group's candidates ordered by sequence, then ProForma. Candidates of one hypothesis come in stored order (by
 * sequence), so most groups need no sort; sequences are compared as stored letters, and ProForma texts are made
 * only for candidates of one sequence.
 */
function ordered(query: PrecursorQuery, group: CandidateGroup): Candidate[] {
  const candidates = group.candidates;
  for (let i = 1; i < candidates.length; i++) {
    if (candidateOrder(query, candidates[i - 1], candidates[i]) > 0)
      return [...candidates].sort((a, b) => candidateOrder(query, a, b));
  }
  return candidates;
}

const textOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const candidateOrder = (query: PrecursorQuery, a: Candidate, b: Candidate) =>
  compareSequences(a.shard, a.peptide, b.shard, b.peptide) || textOrder(proformaOf(query, a), proformaOf(query, b));

/** Length of `{"seq":"` in an accsTax entry of entryJson.ts. */
const ENTRY_PREFIX = '{"seq":"'.length;

/**
 * `of(shard)` looked up once per shard of an answer (candidates come in runs of one shard, or alternate between
 * shards).
 */
function perShard<T>(of: (shard: Shard) => T | undefined): (shard: Shard) => T | undefined {
  const memo = new Map<Shard, T | undefined>();
  let [last, lastValue]: [Shard | undefined, T | undefined] = [undefined, undefined];
  return (shard) => {
    if (shard === last) return lastValue;
    let value = memo.get(shard);
    if (value === undefined && !memo.has(shard)) memo.set(shard, (value = of(shard)));
    [last, lastValue] = [shard, value];
    return value;
  };
}

/**
 * The success body: the envelope in the seed's field order, then `result` as `[{"<key>": [entries]}, ..]`,
 * each entry as precursorEntry gives it, written straight into bytes (accessions by the seed's own writer). A
 * shard's cached accession JSON (`accessions`) and, for a complete view's shard, its cached entry heads
 * (`heads`: completeHeads.ts) are copied instead of written again.
 */
export function renderPrecursorJson(
  query: PrecursorQuery,
  result: PrecursorResult,
  started: number,
  memory: () => string,
  accessions: (shard: Shard) => EntryJson | undefined = () => undefined,
  heads: (shard: Shard) => EntryJson | undefined = () => undefined,
): Uint8Array<ArrayBuffer> {
  const jsonOf = perShard((shard) => (result.filter ? undefined : accessions(shard)));
  const headsOf = perShard(heads);
  const proforma = writerOf(query);
  return withWriter((w) => {
    w.start(HEADROOM);
    w.write('[');
    for (let g = 0; g < result.groups.length; g++) {
      const group = result.groups[g];
      w.write(g > 0 ? ',{"' : '{"');
      writeMassKeyText(w, group.key);
      w.write('":[');
      // A complete view's group is one stored group: its peptides by sequence, each once (docs/format.md "Complete views").
      const candidates = result.completeView === undefined ? ordered(query, group) : group.candidates;
      for (let e = 0; e < candidates.length; e++) {
        const c = candidates[e];
        // A candidate listing only some of its peptide's proteins (Candidate.at) cannot copy the peptide's whole list.
        const json = c.at ? undefined : jsonOf(c.shard);
        const head = headsOf(c.shard);
        const start = sequenceStart(c.shard, c.peptide);
        const end = c.shard.sequenceEnds[c.peptide];
        if (head) {
          // `,{"seq":..,"mass":..,"ppm":` as cached, without its comma for a group's first entry and its ppm key
          // without a precursor mass.
          const from = (c.peptide === 0 ? 0 : head.ends[c.peptide - 1]) + (e === 0 ? HEAD_COMMA : 0);
          w.copyWords(head.words, from, head.ends[c.peptide] - (query.centre === undefined ? HEAD_PPM_KEY : 0));
          if (query.centre !== undefined) writePpmText(w, query.centre, c.units / UNITS_PER_DA);
        } else {
          w.write(e > 0 ? ',{"seq":"' : '{"seq":"');
          w.copy(c.shard.sequences, start, end);
          w.write('","proforma":"');
          proforma.writeLetters(w, c.shard.sequences, start, end, c.variableCounts, c.at === AT_PROTEIN_START);
          w.write('","mass":');
          writeMassText(w, c.units, true); // Number(mass.toFixed(6)), as precursorEntry gives it
          if (query.centre !== undefined) {
            w.write(',"ppm":');
            writePpmText(w, query.centre, c.units / UNITS_PER_DA);
          }
        }
        if (json) {
          // `,"accsTax":[..]}` out of the cached `{"seq":"<seq>","accsTax":[..]},` entry of this peptide, copied whole.
          const entry = c.peptide === 0 ? 0 : json.ends[c.peptide - 1];
          w.copyWords(json.words, entry + ENTRY_PREFIX + (end - start) + 1, json.ends[c.peptide] - 1);
        } else {
          w.write(',"accsTax":');
          writeAccessions(w, c.shard, result.accessions, 'accsTax', c.peptide, candidateFilter(c, result.filter));
          w.write('}');
        }
      }
      w.write(']}');
    }
    w.write(']}');
    const { totalResult, page, pageSize } = result;
    return w.take(
      envelopePrefix({
        totalResult,
        memory: memory(),
        duration: formatDuration(performance.now() - started),
        page,
        pageSize,
      }),
      HEADROOM,
    );
  });
}

/** An entry of /api/v1/search with `proteins=true`: each accession with its protein. */
export type PrecursorProteinsEntry = Omit<PrecursorEntry, 'accsTax'> & { accsTax: Protein[] };

/** A precursor result with the protein of every accession its page lists (`proteins=true`). */
export interface PrecursorProteinsResult extends PrecursorResult {
  proteins: Map<string, Protein>;
}

/** The result with the proteins of the accessions on its page, read from the protein table once each. */
export async function withProteins(dataset: Dataset, result: PrecursorResult): Promise<PrecursorProteinsResult> {
  const known = new Map<string, { acc: string; taxId: number; reviewed: boolean }>();
  const { accessions, filter } = result;
  for (const group of result.groups) {
    for (const c of group.candidates) {
      for (const a of accessions.listed(c.shard, c.peptide, candidateFilter(c, filter))) {
        const acc = accessions.accession(a);
        if (!known.has(acc)) known.set(acc, { acc, taxId: accessions.taxId(a), reviewed: accessions.reviewed(a) });
      }
    }
  }
  const proteins = await proteinsOf(dataset, [...known.values()]);
  return { ...result, proteins: new Map(proteins.map((p) => [p.acc, p])) };
}

/** The success body with proteins: precursorEntry's entries, each accession as its Protein, in the same envelope. */
export function renderPrecursorProteinsJson(
  query: PrecursorQuery,
  result: PrecursorProteinsResult,
  started: number,
  memory: () => string,
): string {
  const groups = result.groups.map((group) => ({
    [formatMassKey(group.key)]: groupEntries(query, group, result).map(
      (e): PrecursorProteinsEntry => ({
        ...e,
        accsTax: e.accsTax.map(({ acc }) => result.proteins.get(acc)!),
      }),
    ),
  }));
  const json = JSON.stringify(groups);
  const { totalResult, page, pageSize } = result;
  return `${envelopePrefix({ totalResult, memory: memory(), duration: formatDuration(performance.now() - started), page, pageSize })}${json}}`;
}

export const PRECURSOR_TSV_COLUMNS = [
  'mass',
  'sequence',
  'proforma',
  'modifiedMass',
  'ppm',
  'accession',
  'taxId',
] as const;
export const PRECURSOR_TSV_HEADER = PRECURSOR_TSV_COLUMNS.join('\t') + '\n';

/** TSV rows of a page: one per candidate–accession pair; `ppm` empty when the query has no centre. */
export function precursorRows(query: PrecursorQuery, result: PrecursorResult): string {
  let rows = '';
  for (const group of result.groups) {
    const mass = formatMassKey(group.key);
    for (const e of groupEntries(query, group, result)) {
      for (const { acc, taxId } of e.accsTax)
        rows += `${mass}\t${e.seq}\t${e.proforma}\t${e.mass.toFixed(6)}\t${e.ppm ?? ''}\t${acc}\t${taxId}\n`;
    }
  }
  return rows;
}

// An independent, deliberately plain reference for organisms and proteins, written from the specification alone
// (docs/api.md "Organisms and proteins", docs/format.md): its own taxdump and FASTA header reading, peptides from the
// other references. It answers by brute force: a dataset's taxonomy and peptide counts, descendant tests and LCAs
// (Unipept's "deepest node on every lineage"), the taxon / reviewed filter of /api/v1/search, /api/v1/peptide and
// /api/v1/taxa.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import {
  decimalToUnits,
  REFERENCE_RESIDUE_MASS,
  REFERENCE_WATER,
  referenceDataset,
  referenceFasta,
  type ReferencePeptide,
} from './reference.js';
import type { RefAnswer, RefEntry, RefPeptide, ReferencePrecursor } from './referencePrecursor.js';

// ---------------------------------------------------------------- the taxdump

export interface RefNode {
  taxId: number;
  parent: number;
  rank: string;
  name: string;
}

/** The fields of one .dmp line: separated by `\t|\t`, the line ending `\t|`. */
function dmpFields(line: string, file: string): string[] {
  if (!line.endsWith('\t|'))
    throw new Error(`reference taxonomy: ${file}: line does not end with "\\t|": ${JSON.stringify(line)}`);
  return line.slice(0, -2).split('\t|\t');
}

const positiveInt = (text: string, what: string): number => {
  if (!/^\d+$/.test(text) || Number(text) < 1)
    throw new Error(`reference taxonomy: bad ${what} ${JSON.stringify(text)}`);
  return Number(text);
};

/** Every node of a taxdump folder (nodes.dmp: taxId, parent, rank; names.dmp: the `scientific name` rows). */
export function readTaxdump(dir: string): Map<number, RefNode> {
  const nodes = new Map<number, RefNode>();
  for (const line of readFileSync(join(dir, 'nodes.dmp'), 'utf8').split('\n')) {
    if (line === '') continue;
    const f = dmpFields(line, 'nodes.dmp');
    const taxId = positiveInt(f[0], 'taxId');
    if (nodes.has(taxId)) throw new Error(`reference taxonomy: taxId ${taxId} twice in nodes.dmp`);
    nodes.set(taxId, { taxId, parent: positiveInt(f[1], 'parent'), rank: f[2], name: '' });
  }
  for (const line of readFileSync(join(dir, 'names.dmp'), 'utf8').split('\n')) {
    if (line === '') continue;
    const f = dmpFields(line, 'names.dmp');
    if (f[3] !== 'scientific name') continue;
    const node = nodes.get(positiveInt(f[0], 'taxId'));
    if (!node) throw new Error(`reference taxonomy: names.dmp names ${f[0]}, not in nodes.dmp`);
    node.name = f[1];
  }
  return nodes;
}

// ---------------------------------------------------------------- the FASTA headers

export interface RefAccession {
  accession: string;
  /** OX= (-1 when none). */
  taxId: number;
  /** A UniProtKB/Swiss-Prot `sp|` header. */
  reviewed: boolean;
  /** Protein name ("" when none). */
  protein: string;
  /** OS= organism name ("" when none). */
  organism: string;
}

/** Text up to the first ` XX=` field (two upper-case letters then `=`), trimmed. */
const upToField = (text: string): string => {
  const at = text.search(/ [A-Z]{2}=/);
  return (at < 0 ? text : text.slice(0, at)).trim();
};

/** What the contract records from one header (the text after `>`). */
export function referenceHeader(header: string): RefAccession {
  const parts = header.split('|');
  const uniprot = (parts[0] === 'sp' || parts[0] === 'tr') && parts.length >= 3;
  const accession = uniprot ? parts[1] : header.trim().split(/\s+/)[0];
  let protein: string;
  if (uniprot) {
    // db|ACC|ENTRY_NAME <protein name> OS=...: after the entry name (the first token of the third field).
    const rest = parts.slice(2).join('|');
    const space = rest.search(/\s/);
    protein = space < 0 ? '' : upToField(rest.slice(space));
  } else {
    const token = /^\s*\S+/.exec(header);
    protein = upToField(token ? header.slice(token[0].length) : '');
  }
  // OS= as a field (at the start or after a space), its value up to the next ` XX=` field.
  const os = /(?:^| )OS=(.*)$/.exec(header);
  const organism = os ? upToField(os[1]) : '';
  const ox = header.split(/\s+/).find((word) => word.startsWith('OX='));
  return { accession, taxId: ox ? Number(ox.slice(3)) : -1, reviewed: header.startsWith('sp|'), protein, organism };
}

/**
 * Every accession of a FASTA (gzip or plain) with its header fields; the first record of an accession wins.
 * Records the build skips (no sequence, or characters other than letters) are left out, as referencePeptides does.
 */
export function referenceAccessions(bytes: Uint8Array): Map<string, RefAccession> {
  const isGzip = bytes[0] === 0x1f && bytes[1] === 0x8b;
  const text = Buffer.from(isGzip ? gunzipSync(bytes) : bytes).toString('latin1');
  const accessions = new Map<string, RefAccession>();
  let header: string | null = null;
  let lines: string[] = [];
  const close = () => {
    if (header === null) return;
    const sequence = lines.join('').replace(/\s/g, '').toUpperCase().replace(/\*$/, '');
    if (/^[A-Z]+$/.test(sequence)) {
      const record = referenceHeader(header);
      if (!accessions.has(record.accession)) accessions.set(record.accession, record);
    }
  };
  for (const line of text.split('\n')) {
    if (line.startsWith('>')) {
      close();
      header = line.slice(1).replace(/\r$/, '');
      lines = [];
    } else if (header !== null) lines.push(line);
  }
  close();
  return accessions;
}

// ---------------------------------------------------------------- the dataset's taxonomy

export interface RefTaxon extends RefNode {
  /** Root first, the node itself last. */
  lineage: number[];
  /** Distinct peptides with an accession whose taxId is this node or a descendant. */
  peptides: number;
}

/**
 * What the peptide counts need of a peptide: its accessions' taxIds, in its accessions' order (a RefPeptide, or a
 * peptide of referenceDataset, which lists them alike).
 */
export type PeptideTaxIds = Pick<RefPeptide, 'accsTax'> | Pick<ReferencePeptide, 'taxIds'>;

const taxIdsOf = (peptide: PeptideTaxIds): readonly number[] =>
  'taxIds' in peptide ? peptide.taxIds : peptide.accsTax.map((a) => a.taxId);

/**
 * The peptides of a FASTA as referencePeptides (referencePrecursor.ts) digests them — the reference digest of the
 * records the build keeps (a sequence of letters) — without the exact masses a taxonomy does not need.
 */
export function referencePeptideTaxIds(fasta: Uint8Array): ReferencePeptide[] {
  const proteins = referenceFasta(fasta).filter((p) => /^[A-Z]+$/.test(p.sequence));
  return [...referenceDataset(proteins, 'trypsin', 2, 6, 50).values()];
}

/** A node as the name search reads it (ReferenceTaxonomy.searchNames). */
interface Word {
  node: RefTaxon;
  lower: string;
  starts: number[];
  order: number;
}

const byteOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The taxonomy a dataset built from `accessions` (and their `peptides`) with the taxdump `dump` must hold. */
export class ReferenceTaxonomy {
  /** The dataset's nodes by taxId. */
  readonly nodes = new Map<number, RefTaxon>();
  /** Distinct taxIds (≠ -1) of the accessions that are not in the dump, and the accessions that have them. */
  readonly taxIdsWithoutLineage = new Set<number>();
  accessionsWithoutLineage = 0;

  constructor(
    readonly dump: ReadonlyMap<number, RefNode>,
    readonly accessions: ReadonlyMap<string, RefAccession>,
    peptides: Iterable<PeptideTaxIds>,
  ) {
    for (const { taxId } of accessions.values()) {
      if (taxId === -1) continue;
      if (!dump.has(taxId)) {
        this.taxIdsWithoutLineage.add(taxId);
        this.accessionsWithoutLineage++;
        continue;
      }
      this.add(taxId);
    }
    // Counts: each peptide once for every node on the union of its accessions' lineages. Peptides whose accessions
    // have the same taxIds (in the same order) have the same union: counted together.
    const peptidesByTaxIds = new Map<string, number>();
    for (const peptide of peptides) {
      const taxIds = taxIdsOf(peptide);
      const key = taxIds.length === 1 ? String(taxIds[0]) : taxIds.join();
      peptidesByTaxIds.set(key, (peptidesByTaxIds.get(key) ?? 0) + 1);
    }
    const seen = new Set<number>();
    for (const [taxIds, count] of peptidesByTaxIds) {
      seen.clear();
      for (const taxId of taxIds.split(',')) {
        const node = this.nodes.get(Number(taxId));
        if (node) for (const t of node.lineage) seen.add(t);
      }
      for (const t of seen) this.nodes.get(t)!.peptides += count;
    }
  }

  /** Adds a taxId and its lineage (walking parents up to taxId 1, its own parent). */
  private add(taxId: number): RefTaxon {
    const known = this.nodes.get(taxId);
    if (known) return known;
    const node = this.dump.get(taxId);
    if (!node) throw new Error(`reference taxonomy: parent ${taxId} not in nodes.dmp`);
    let lineage: number[];
    if (taxId === 1) {
      if (node.parent !== 1) throw new Error('reference taxonomy: the root is not its own parent');
      lineage = [1];
    } else {
      if (node.parent === taxId) throw new Error(`reference taxonomy: ${taxId} is its own parent`);
      const parent = this.add(node.parent);
      if (parent.lineage.includes(taxId)) throw new Error(`reference taxonomy: cycle through ${taxId}`);
      lineage = [...parent.lineage, taxId];
    }
    const taxon: RefTaxon = { ...node, lineage, peptides: 0 };
    this.nodes.set(taxId, taxon);
    return taxon;
  }

  /** Whether `taxId` is `ancestor` or one of its descendants (false when taxId has no lineage). */
  isWithin(taxId: number, ancestor: number): boolean {
    return this.nodes.get(taxId)?.lineage.includes(ancestor) ?? false;
  }

  /** Whether an accession of taxId `taxId` matches a taxon set (any of them, or a descendant). */
  matchesTaxa(taxId: number, taxa: readonly number[]): boolean {
    return taxa.some((t) => this.isWithin(taxId, t));
  }

  /** The deepest node on every lineage of the taxIds that have one (null when none has). */
  lca(taxIds: Iterable<number>): RefTaxon | null {
    let common: Set<number> | null = null;
    for (const taxId of taxIds) {
      const node = this.nodes.get(taxId);
      if (!node) continue;
      common = common === null ? new Set(node.lineage) : new Set(node.lineage.filter((t) => common!.has(t)));
    }
    if (common === null) return null;
    let deepest: RefTaxon | null = null;
    for (const t of common) {
      const node = this.nodes.get(t)!;
      if (deepest === null || node.lineage.length > deepest.lineage.length) deepest = node;
    }
    return deepest;
  }

  /**
   * Per node: its lower-cased name, where a word starts in it (after a character not a letter or digit), and its
   * place in the order the contract gives matches of one tier (most peptides, then name, then taxId).
   */
  private words: Word[] | undefined;
  /**
   * Each node's name from its start and from each word start, sorted (code units): the names a query can match are
   * those with a piece starting with it, one run of this list.
   */
  private pieces: { text: string; word: Word }[] | undefined;

  /** /api/v1/taxa by brute force: every node's name tried, ordered as the contract says, at most `limit`. */
  searchNames(query: string, limit = 20): { taxId: number; name: string; rank: string; peptides: number }[] {
    if (!this.words) {
      this.words = [...this.nodes.values()].map((node) => {
        const lower = node.name.toLowerCase();
        const starts: number[] = [];
        for (let i = 1; i < lower.length; i++) if (!/[\p{L}\p{N}]/u.test(lower[i - 1])) starts.push(i);
        return { node, lower, starts, order: 0 };
      });
      // The order is total (taxIds differ): a node's place in it ranks it against any other of its tier.
      [...this.words]
        .sort(
          (a, b) =>
            b.node.peptides - a.node.peptides || byteOrder(a.node.name, b.node.name) || a.node.taxId - b.node.taxId,
        )
        .forEach((word, i) => (word.order = i));
      this.pieces = this.words
        .flatMap((word) => [0, ...word.starts].map((i) => ({ text: word.lower.slice(i), word })))
        .sort((a, b) => byteOrder(a.text, b.text));
    }
    const q = query.trim().toLowerCase();
    let candidates = this.words;
    if (q !== '') {
      const pieces = this.pieces!;
      let [lo, hi] = [0, pieces.length];
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (pieces[mid].text < q) lo = mid + 1;
        else hi = mid;
      }
      const found = new Set<(typeof candidates)[number]>();
      for (let i = lo; i < pieces.length && pieces[i].text.startsWith(q); i++) found.add(pieces[i].word);
      candidates = [...found];
    }
    const ranked: { tier: number; node: RefTaxon; order: number }[] = [];
    for (const { node, lower, starts, order } of candidates) {
      const tier = lower === q ? 0 : lower.startsWith(q) ? 1 : starts.some((i) => lower.startsWith(q, i)) ? 2 : -1;
      if (tier >= 0) ranked.push({ tier, node, order });
    }
    ranked.sort((a, b) => a.tier - b.tier || a.order - b.order);
    return ranked
      .slice(0, limit)
      .map(({ node }) => ({ taxId: node.taxId, name: node.name, rank: node.rank, peptides: node.peptides }));
  }
}

// ---------------------------------------------------------------- filters

export interface RefFilter {
  /** Taxon set (undefined: no taxon filter). */
  taxa?: readonly number[];
  /** Reviewed flag wanted (undefined: no reviewed filter). */
  reviewed?: boolean;
}

/** Whether an accession passes a filter. */
export function passes(taxonomy: ReferenceTaxonomy, acc: string, taxId: number, filter: RefFilter): boolean {
  if (filter.reviewed !== undefined) {
    const record = taxonomy.accessions.get(acc);
    if (!record) throw new Error(`reference: unknown accession ${acc}`);
    if (record.reviewed !== filter.reviewed) return false;
  }
  return filter.taxa === undefined || taxonomy.matchesTaxa(taxId, filter.taxa);
}

/**
 * /api/v1/search with a filter: `all` is the reference's answer for the whole window (page 1, every group);
 * accessions that fail are dropped from an entry, empty entries and then empty groups are dropped, and the
 * remaining groups are paged.
 */
export function filteredAnswer(
  taxonomy: ReferenceTaxonomy,
  all: RefAnswer,
  filter: RefFilter,
  page: number,
  pageSize: number,
): RefAnswer {
  const kept: RefGroup[] = [];
  for (const group of all.result) {
    const [key, entries] = Object.entries(group)[0];
    const left = filteredEntries(taxonomy, entries, filter);
    if (left.length > 0) kept.push({ [key]: left });
  }
  return pagedAnswer(kept, page, pageSize);
}

/** One mass group of an answer: its key text and its entries. */
export type RefGroup = Record<string, RefEntry[]>;

/** The entries of a group with the accessions that fail dropped, then the entries left with none. */
function filteredEntries(taxonomy: ReferenceTaxonomy, entries: readonly RefEntry[], filter: RefFilter): RefEntry[] {
  const left: RefEntry[] = [];
  for (const entry of entries) {
    const accsTax = entry.accsTax.filter((a) => passes(taxonomy, a.acc, a.taxId, filter));
    if (accsTax.length > 0) left.push({ ...entry, accsTax });
  }
  return left;
}

/** Page `page` of `pageSize` groups of the groups a filter kept. */
export function pagedAnswer(kept: readonly RefGroup[], page: number, pageSize: number): RefAnswer {
  return { totalResult: kept.length, page, pageSize, result: kept.slice((page - 1) * pageSize, page * pageSize) };
}

/**
 * Every group filteredAnswer keeps of the window [lowKey, highKey] of `reference` (`centre` as for its answer), in
 * order: the groups with a form holding an accession that passes, each asked of the reference alone and filtered.
 * The same list as filteredAnswer's of the whole window's answer; the entries of the groups the filter drops are
 * never written, and a query's pages are slices of one list.
 */
export function filteredWindow(
  taxonomy: ReferenceTaxonomy,
  reference: ReferencePrecursor,
  lowKey: number,
  highKey: number,
  filter: RefFilter,
  centre?: number,
): RefGroup[] {
  const kept: RefGroup[] = [];
  for (const key of keptKeys(taxonomy, reference, lowKey, highKey, filter)) {
    const [group] = reference.answer(key, key, 1, 1, centre).result;
    const [text, entries] = Object.entries(group)[0];
    kept.push({ [text]: filteredEntries(taxonomy, entries, filter) });
  }
  return kept;
}

/** Whether the filter keeps any group of the window [lowKey, highKey] of `reference`. */
export function keepsAnyGroup(
  taxonomy: ReferenceTaxonomy,
  reference: ReferencePrecursor,
  lowKey: number,
  highKey: number,
  filter: RefFilter,
): boolean {
  return !keptKeys(taxonomy, reference, lowKey, highKey, filter).next().done;
}

/** The keys in [lowKey, highKey] (ascending) with a form of the reference holding an accession that passes. */
function* keptKeys(
  taxonomy: ReferenceTaxonomy,
  reference: ReferencePrecursor,
  lowKey: number,
  highKey: number,
  filter: RefFilter,
): Generator<number> {
  const forms = reference.forms; // sorted by key
  let [lo, hi] = [0, forms.length];
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (forms[mid].key < lowKey) lo = mid + 1;
    else hi = mid;
  }
  // An accession's verdict is the same in every form that holds it: asked once.
  const verdicts = new Map<string, boolean>();
  const passing = ({ acc, taxId }: { acc: string; taxId: number }) => {
    let verdict = verdicts.get(acc);
    if (verdict === undefined) verdicts.set(acc, (verdict = passes(taxonomy, acc, taxId, filter)));
    return verdict;
  };
  for (let f = lo; f < forms.length && forms[f].key <= highKey; ) {
    const key = forms[f].key;
    let kept = false;
    for (; f < forms.length && forms[f].key === key; f++) kept ||= forms[f].peptide.accsTax.some(passing);
    if (kept) yield key;
  }
}

// ---------------------------------------------------------------- /api/v1/peptide

const RESIDUE_UNITS = new Map<string, bigint>(
  Object.entries(REFERENCE_RESIDUE_MASS).map(([r, m]) => [r, decimalToUnits(m)]),
);
const WATER_UNITS = decimalToUnits(REFERENCE_WATER);

/** Neutral monoisotopic mass with water, rounded half-up to 6 decimals (null when a letter has no mass). */
export function referenceMass6(sequence: string): number | null {
  let units = WATER_UNITS;
  for (const residue of sequence) {
    const r = RESIDUE_UNITS.get(residue);
    if (r === undefined) return null;
    units += r;
  }
  const q = units / 10_000n;
  return Number(units % 10_000n >= 5_000n ? q + 1n : q) / 1e6;
}

/** A sequence with every I and L read as the same letter. */
export const equateIL = (sequence: string) => sequence.replaceAll('I', 'L');

export interface RefPeptideAnswer {
  sequence: string;
  mass: number;
  peptides: {
    seq: string;
    accsTax: { acc: string; taxId: number; reviewed: boolean; protein: string | null; organism: string | null }[];
  }[];
  lca: { taxId: number; name: string; rank: string } | null;
}

/**
 * /api/v1/peptide over a dataset's peptides, by map look-up of the I/L-equated sequence (the exact sequence is one of
 * its variants).
 */
export class ReferencePeptideLookup {
  /** The stored peptides by I/L-equated sequence: the one peptide, or a list of two or more. */
  private readonly byIL = new Map<string, RefPeptide | RefPeptide[]>();

  constructor(
    peptides: readonly RefPeptide[],
    readonly taxonomy: ReferenceTaxonomy,
    /** Whether the dataset holds a taxonomy (without one, the LCA is always null). */
    readonly hasTaxonomy = true,
  ) {
    for (const peptide of peptides) {
      const key = equateIL(peptide.sequence);
      const known = this.byIL.get(key);
      if (known === undefined) this.byIL.set(key, peptide);
      else if (Array.isArray(known)) known.push(peptide);
      else this.byIL.set(key, [known, peptide]);
    }
  }

  /** The stored peptide of exactly this sequence, if any. */
  private exact(sequence: string): RefPeptide | undefined {
    return this.variants(sequence).find((p) => p.sequence === sequence);
  }

  has(sequence: string): boolean {
    return this.exact(sequence) !== undefined;
  }

  /** Stored peptides equal to SEQ once I and L are equated (empty when none). */
  variants(sequence: string): readonly RefPeptide[] {
    const found = this.byIL.get(equateIL(sequence));
    return found === undefined ? [] : Array.isArray(found) ? found : [found];
  }

  /** The answer for SEQ (any case; letters with a mass), with or without I/L equated, with a filter. */
  answer(sequence: string, il: boolean, filter: RefFilter): RefPeptideAnswer {
    const upper = sequence.toUpperCase();
    const mass = referenceMass6(upper);
    if (mass === null) throw new Error(`reference: ${sequence} has a letter without mass`);
    const exact = this.exact(upper);
    const found = il ? [...this.variants(upper)] : exact ? [exact] : [];
    found.sort((a, b) => byteOrder(a.sequence, b.sequence));
    const peptides: RefPeptideAnswer['peptides'] = [];
    const taxIds: number[] = [];
    for (const peptide of found) {
      const accsTax = peptide.accsTax
        .filter((a) => passes(this.taxonomy, a.acc, a.taxId, filter))
        .sort((a, b) => byteOrder(a.acc, b.acc))
        .map(({ acc, taxId }) => {
          const record = this.taxonomy.accessions.get(acc)!;
          taxIds.push(taxId);
          return {
            acc,
            taxId,
            reviewed: record.reviewed,
            protein: record.protein === '' ? null : record.protein,
            organism: record.organism === '' ? null : record.organism,
          };
        });
      if (accsTax.length > 0) peptides.push({ seq: peptide.sequence, accsTax });
    }
    const lca = this.hasTaxonomy ? this.taxonomy.lca(taxIds) : null;
    return {
      sequence: upper,
      mass,
      peptides,
      lca: lca === null ? null : { taxId: lca.taxId, name: lca.name, rank: lca.rank },
    };
  }
}

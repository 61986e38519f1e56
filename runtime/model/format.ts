// The dataset format, defined once for build and runtime (spec: docs/format.md): file names, manifest and
// shard types, and the tiling invariant of the shard index. Encoding and decoding: shardCodec.ts,
// shardEncoder.ts.
import type { Specificity } from './enzymes.js';

export const FORMAT_NAME = 'digested-peptides';
export const FORMAT_VERSION = 3;

/**
 * How every file but the manifest is stored: a gzip stream (the build's default: every standard library and
 * browser `DecompressionStream` reads it) or a brotli stream (smaller; Node and Python's `brotli` read it).
 */
export type Compression = 'br' | 'gzip';
export const COMPRESSIONS: readonly Compression[] = ['br', 'gzip'];
const SUFFIX: Record<Compression, string> = { br: '.br', gzip: '.gz' };

/** The dataset's root file: read first, replaced last. */
export const MANIFEST_FILE = 'manifest.json';

/** Hex digits of a file's sha256 in its name: files are named by their content. */
export const NAME_HASH_DIGITS = 20;
const named = (prefix: string, type: string) => (sha256: string, compression: Compression) =>
  `${prefix}${sha256.slice(0, NAME_HASH_DIGITS)}.${type}${SUFFIX[compression]}`;
export const shardFileName = named('', 'msgpack');
export const indexPageFileName = named('index-', 'json');
export const taxonomyFileName = named('taxonomy-', 'json');
export const proteinPageFileName = named('proteins-', 'json');
export const proteinIndexPageFileName = named('proteins-index-', 'json');
export const accessionPageFileName = named('accessions-', 'msgpack');
export const accessionIndexPageFileName = named('accessions-index-', 'json');
export const peptideCountsFileName = named('peptide-counts-', 'msgpack');
export const sequencePageFileName = named('sequences-', 'json');
export const sequenceIndexPageFileName = named('sequences-index-', 'json');

/** Ranks in a page of the peptide counts (the last page may hold fewer). */
export const PEPTIDE_COUNT_RANKS = 1 << 18;

/**
 * Where a content-named file lives in the dataset folder: at its name, or, in a dataset built with
 * `folderDigits` d > 0, in the folder named by the first d hex digits of its sha256 (`3f2/3f2a...msgpack.gz`),
 * so no folder holds more than ~files / 16^d files. The manifest and index pages list the path as `file`.
 */
export function placedFile(name: string, sha256: string, folderDigits: number): string {
  return folderDigits > 0 ? `${sha256.slice(0, folderDigits)}/${name}` : name;
}

/** Most hex digits a folder name takes (65,536 folders: ~3 billion files within the per-folder limit). */
export const MAX_FOLDER_DIGITS = 4;

/** Largest taxId the format holds (an int32 column). */
export const MAX_TAX_ID = 0x7fffffff;

/** One shard as the manifest lists it. Mass keys are integers in units of 0.0001 Da. */
export interface ShardEntry {
  file: string;
  firstKey: number;
  lastKey: number;
  massGroups: number;
  peptides: number;
  bytes: number;
  sha256: string;
  /** The most residues of each letter of RESIDUE_MAX_LETTERS one peptide of the shard holds, one base-36 digit
   * each (capped at 35): lets a precursor search skip shards that cannot hold a modification count. Optional. */
  residueMax?: string;
}

/** The letters of ShardEntry.residueMax, in order. */
export const RESIDUE_MAX_LETTERS = 'ACDEFGHIJKLMNOPQRSTUVWY';

/** What a residueMax is: a base-36 digit per letter. */
const RESIDUE_MAX_TEXT = new RegExp(`^[0-9a-z]{${RESIDUE_MAX_LETTERS.length}}$`);

/** residueMax of peptides (upper-case sequences). */
export function residueMaxOf(sequences: Iterable<string>): string {
  const max = new Uint16Array(128);
  const counts = new Uint16Array(128); // a peptide holds up to 1,000 residues: 8 bits would wrap
  for (const sequence of sequences) {
    counts.fill(0, 65, 91);
    for (let i = 0; i < sequence.length; i++) counts[sequence.charCodeAt(i) & 127]++;
    for (let c = 65; c < 91; c++) if (counts[c] > max[c]) max[c] = counts[c];
  }
  return Array.from(RESIDUE_MAX_LETTERS, (letter) => Math.min(35, max[letter.charCodeAt(0)]).toString(36)).join('');
}

/**
 * The residueMax of a run of shards from their entries' (shard entries, or index page entries over them): each
 * letter's largest digit; undefined when the run is empty or an entry has none (or not one of base-36 digits).
 */
export function combinedResidueMax(entries: readonly { residueMax?: string }[]): string | undefined {
  if (entries.length === 0) return undefined;
  // Lowercase base-36 digits sort by value as character codes do ('0'-'9' before 'a'-'z').
  const most = new Array<number>(RESIDUE_MAX_LETTERS.length).fill(0);
  for (const { residueMax } of entries) {
    if (residueMax === undefined || !RESIDUE_MAX_TEXT.test(residueMax)) return undefined;
    for (let l = 0; l < most.length; l++) most[l] = Math.max(most[l], residueMax.charCodeAt(l));
  }
  return String.fromCharCode(...most);
}

/**
 * Most residues of `letters` one peptide of the shard (or of the shards below an index page entry) can hold: the
 * sum of each letter's maximum, an upper bound; Infinity when the entry has no residueMax.
 */
export function residueBound(entry: { residueMax?: string }, letters: string): number {
  if (entry.residueMax === undefined) return Infinity;
  let most = decodedMax.get(entry);
  if (!most) {
    most = new Uint8Array(128);
    for (let l = 0; l < RESIDUE_MAX_LETTERS.length; l++)
      most[RESIDUE_MAX_LETTERS.charCodeAt(l)] = parseInt(entry.residueMax[l], 36);
    decodedMax.set(entry, most);
  }
  let bound = 0;
  for (let i = 0; i < letters.length; i++) bound += most[letters.charCodeAt(i) & 127];
  return bound;
}

/** residueMax of each entry read so far, by char code. */
const decodedMax = new WeakMap<object, Uint8Array>();

/**
 * One index page as the level above lists it (the manifest's root, or an inner index page): the page's file, and
 * what its whole subtree holds.
 */
export interface IndexPageEntry {
  file: string;
  sha256: string;
  bytes: number;
  /** Global index of the subtree's first shard; pages list consecutive shards. */
  firstShard: number;
  /** Shards in the subtree, and their first and last keys and summed groups and peptides. */
  shards: number;
  firstKey: number;
  lastKey: number;
  massGroups: number;
  peptides: number;
  /** residueMax of the subtree's shards (combinedResidueMax): lets a precursor search skip what none can hold. Optional. */
  residueMax?: string;
}

/** Content of a leaf index page file (JSON): consecutive shards. */
export interface IndexPage {
  formatVersion: number;
  firstShard: number;
  shards: ShardEntry[];
}

/** Content of an inner index page file (JSON): consecutive index pages of the level below. */
export interface InnerIndexPage {
  formatVersion: number;
  firstShard: number;
  pages: IndexPageEntry[];
}

/** Up to this many shards the manifest lists them itself; beyond, it lists index pages of this many shards. */
export const FLAT_INDEX_LIMIT = 128;
export const INDEX_PAGE_SHARDS = 256;
/**
 * Past this many pages in the manifest's root of the accession or protein table, inner index pages of up to
 * INDEX_INNER_PAGES pages of the level below are added, level upon level, until the root holds at most this many
 * (keeping the manifest small). 2 levels reach 100 × 1,024 pages: 200 M accessions and more.
 */
export const INDEX_ROOT_LIMIT = 100;
/**
 * The same for the shard index's root, wider: up to 256 leaf pages (65,536 shards, room for Swiss-Prot) a cold query
 * reads a single index page before its shard (2 round trips after the manifest); past that, inner pages keep the
 * manifest small at any size (2 levels reach 67 M shards).
 */
export const SHARD_INDEX_ROOT_LIMIT = 256;
export const INDEX_INNER_PAGES = 1024;
/** Most levels of pages below the manifest a reader accepts (`levels`; 2 already reach 67 M shards). */
export const MAX_INDEX_LEVELS = 4;

export interface SourceEntry {
  file: string;
  bytes: number;
  sha256: string;
}

export interface BuildParameters {
  enzyme: string;
  missedCleavages: number;
  minLength: number;
  maxLength: number;
  /**
   * Which ends of a peptide are cleavage sites or protein termini (`full`: both, `semi`: one at least, `none`) and
   * whether proteins were also digested without their initiator Met. Written by every build whose shards record
   * the peptides that start a protein (`proteinStarts`); a manifest without them is a fully specific build
   * that does not.
   */
  specificity?: Specificity;
  clipMet?: boolean;
  shardBytes: number;
  /** Hex digits of the folders files are placed in (placedFile); written only when > 0. */
  folderDigits?: number;
  /** The views built (as DatasetView.fixed: `Name@Letters`, or a complete view's text); written only when there are some. */
  views?: string[];
}

export interface Totals {
  proteins: number;
  /** Accessions from UniProtKB/Swiss-Prot (`sp|` headers). Optional: older datasets lack it. */
  reviewedAccessions?: number;
  /** With a taxonomy: its nodes, and the accessions whose taxId is not one of them (no lineage, no taxon match). */
  taxonomyNodes?: number;
  accessionsWithoutLineage?: number;
  peptides: number;
  massGroups: number;
  shards: number;
  bytes: number;
  accessions: number;
  accessionsWithoutTaxId: number;
  duplicateAccessions: number;
  skippedRecords: Record<string, number>;
}

export interface Manifest {
  format: string;
  formatVersion: number;
  /** How every file the manifest lists is stored (the hashes are of the stored bytes). */
  compression: Compression;
  /** Hash of format version, parameters and sources: changes exactly when the data can change. */
  datasetVersion: string;
  parameters: BuildParameters;
  sources: SourceEntry[];
  release?: Record<string, string>;
  totals: Totals;
  /** The shard index, when it has at most FLAT_INDEX_LIMIT shards... */
  shards?: ShardEntry[];
  /**
   * ...else the root of a tree of index pages (see docs/format.md): `levels` levels of pages below the manifest (absent:
   * 1, the root lists leaf pages of shards). Exactly one of the two is present.
   */
  shardIndex?: { pages: IndexPageEntry[]; levels?: number };
  /** Views of the dataset for fixed modifications (see DatasetView), when it was built with some (--view). */
  views?: DatasetView[];
  /** The NCBI taxonomy of the dataset's organisms, when it was built with one (--taxdump). */
  taxonomy?: FileEntry & { nodes: number };
  /**
   * How many of the dataset's peptides each accession has, by rank, in pages of `ranksPerPage` consecutive ranks
   * (msgpack `{ formatVersion, peptides }`, the counts as varints). Optional: datasets built before it lack it.
   */
  peptideCounts?: { ranksPerPage: number; pages: FileEntry[] };
  /**
   * The accession table: every accession with its taxId and reviewed flag, in rank order (shards refer to ranks), in
   * pages of consecutive ranks; with `levels` >= 2 the root lists inner pages (AccessionIndexPage) instead.
   */
  accessions: { count: number; pages: AccessionPageEntry[]; levels?: number };
  /**
   * The protein table: every accession's reviewed flag, protein and organism names, in pages by accession; with
   * `levels` >= 2 the root lists inner pages (ProteinIndexPage) instead.
   */
  proteins?: { pages: ProteinPageEntry[]; levels?: number };
  /**
   * The sequence table, when the dataset was built with `--sequences`: each accession's residues, in pages by
   * accession as the protein table (SequencePage); with `levels` >= 2 the root lists inner pages (ProteinIndexPage).
   */
  sequences?: { pages: ProteinPageEntry[]; levels?: number };
}

/** The shards of a dataset or of a view, as its manifest indexes them: a flat list or the root of index pages. */
export type ShardIndexRoot = Pick<Manifest, 'shards' | 'shardIndex'>;

/**
 * A view of the dataset for one fixed modification on residues (`Carbamidomethyl@C`): the dataset's peptides that
 * hold at least one residue of its letters, keyed by their mass with the modification on every such residue, in
 * shards and an index of their own (the same formats; ranks into the same accession table). A precursor search
 * with that fixed modification reads the peptides holding its residues here, in one range a hypothesis, instead
 * of one range per count of them (docs/format.md "Views"). Or a complete view: every peptide, once per count of a
 * variable modification up to a most, keyed by its modified mass (docs/format.md "Complete views"; model/views.ts).
 */
export interface DatasetView extends ShardIndexRoot {
  /**
   * The modification and its site: `Name@Letters`, a Unimod title (or UNIMOD accession) and residue letters; or a
   * complete view's `fixed=Name@Letters&variable=Name@Letters&maxVariable=n`.
   */
  fixed: string;
  /** What the view's shards hold, as the manifest's totals count the dataset's. */
  totals: Pick<Totals, 'peptides' | 'massGroups' | 'shards' | 'bytes'>;
}

/** A file of the dataset as the manifest points at it. */
export interface FileEntry {
  file: string;
  sha256: string;
  bytes: number;
}

/**
 * The taxonomy file (JSON): every node on the lineage of every taxId the dataset holds, as parallel columns
 * ordered by ascending taxId. The root is its own parent (NCBI's taxId 1). `peptides[i]`: distinct peptides of
 * the dataset with at least one accession whose taxId is node i or a descendant of it.
 */
export interface TaxonomyFile {
  formatVersion: number;
  taxIds: number[];
  parents: number[];
  ranks: string[];
  names: string[];
  peptides: number[];
  /**
   * Distinct peptides whose accessions' lowest common ancestor is node i or a descendant of it: those that are the
   * node's own, found nowhere else. Optional: datasets built before it lack it.
   */
  specificPeptides?: number[];
  /** Accessions whose taxId is node i itself (not a descendant): UniProtKB/Swiss-Prot ones, and the others. */
  reviewedAccessions: number[];
  unreviewedAccessions: number[];
}

/**
 * One page of the accession table as the level above lists it (the manifest, or an inner AccessionIndexPage):
 * `accessions` consecutive ranks; for an inner page, those of its whole subtree.
 */
export interface AccessionPageEntry extends FileEntry {
  accessions: number;
}

/** An inner page of the accession table (JSON): consecutive pages of the level below. */
export interface AccessionIndexPage {
  formatVersion: number;
  pages: AccessionPageEntry[];
}

/**
 * Accessions per page of the accession table: a table of at most WHOLE_ACCESSION_TABLE accessions is one page
 * (read whole, beside a query's first shard), a larger one pages of ACCESSION_PAGE_ACCESSIONS (read by the ranks a
 * page of results lists).
 */
export const WHOLE_ACCESSION_TABLE = 1 << 20;
export const ACCESSION_PAGE_ACCESSIONS = 2048;

/** Accessions per page of a table of `count` accessions, as the build writes it. */
export const accessionPageSize = (count: number) =>
  count <= WHOLE_ACCESSION_TABLE ? Math.max(count, 1) : ACCESSION_PAGE_ACCESSIONS;

/**
 * One page of the protein table as the level above lists it (the manifest, or an inner ProteinIndexPage):
 * consecutive accessions, ascending (byte order); for an inner page, those of its whole subtree.
 */
export interface ProteinPageEntry extends FileEntry {
  firstAccession: string;
  lastAccession: string;
  accessions: number;
}

/** Accessions per protein page (the last page may hold fewer). */
export const PROTEIN_PAGE_ACCESSIONS = 2048;

/** An inner page of the protein table (JSON): consecutive pages of the level below. */
export interface ProteinIndexPage {
  formatVersion: number;
  pages: ProteinPageEntry[];
}

/**
 * A protein page (JSON), parallel columns by accession, ascending and unique: taxId (-1 unknown), reviewed
 * (1: UniProtKB/Swiss-Prot `sp|`, else 0), the protein name and the organism name (`OS=`) of its header
 * ("" when the header has none).
 */
export interface ProteinPage {
  formatVersion: number;
  accessions: string[];
  taxIds: number[];
  reviewed: number[];
  proteins: string[];
  organisms: string[];
}

/** Accessions per page of the sequence table: a page of Swiss-Prot-sized proteins is some 50 KB compressed. */
export const SEQUENCE_PAGE_ACCESSIONS = 256;

/**
 * A page of the sequence table (JSON), parallel columns by accession, ascending and unique: the residues of the
 * accession's first record, as the build digested them (upper case, no white space).
 */
export interface SequencePage {
  formatVersion: number;
  accessions: string[];
  sequences: string[];
}

/**
 * The accession table decoded (or a run of it): accessions in rank order (accessionOrder.ts), unique; stored in
 * pages of consecutive ranks (docs/format.md; decodeAccessionPage in shardCodec.ts).
 */
export interface AccessionTable {
  /** All accessions concatenated; see accessionOf. */
  accessions: string;
  accessionEnds: Uint32Array;
  /** NCBI taxId of each accession; -1 when unknown. */
  taxIds: Int32Array;
  /** 1 when the accession is UniProtKB/Swiss-Prot (reviewed), else 0. */
  reviewed: Uint8Array;
}

/**
 * Running ends of a shard's column (each one past the last item of its run): 16-bit where every end fits, as in
 * any shard of the usual size (a smaller decoded shard, so a cache holds more), else 32-bit.
 */
export type Ends = Uint16Array | Uint32Array;

/** A decoded shard: columns of mass groups and peptides, whose accessions are ranks into the accession table. */
export interface Shard {
  /** Mass key of each group, ascending. */
  massKeys: Uint32Array;
  /** groupEnds[g] = index one past the last peptide of group g. */
  groupEnds: Ends;
  /**
   * All sequences' letters (ASCII A–Z) back to back: sequence p is bytes sequenceEnds[p-1] ?? 0 .. sequenceEnds[p].
   * Bytes, not a string: kept off the JS heap, so that a dataset cached whole does not make every young-generation
   * collection walk a heap that large.
   */
  sequences: Uint8Array;
  sequenceEnds: Ends;
  /** Accessions of peptide p are accessionRefs[accessionRefEnds[p-1] ?? 0 .. accessionRefEnds[p]). */
  accessionRefEnds: Ends;
  /**
   * Ranks into the dataset's accession table, ascending within a peptide (answers list them by accession:
   * AccessionSet.listed in accessionSet.ts orders them).
   */
  accessionRefs: Uint32Array;
  /**
   * The references (indices into accessionRefs, ascending) whose protein the peptide starts: at its first residue,
   * or at its second after the initiator Met when the build clipped it. Absent from shards that do not record it.
   */
  startRefs?: Uint32Array;
  /** For each of startRefs: 1 when the peptide also lies elsewhere in that protein, else 0. */
  startRefsInside?: Uint8Array;
}

/** Where peptide p's letters start in `shard.sequences` (they end at sequenceEnds[p]). */
export const sequenceStart = (shard: Shard, p: number): number => (p === 0 ? 0 : shard.sequenceEnds[p - 1]);

/** Sequence of peptide p. */
export const sequenceOf = (shard: Shard, p: number): string =>
  String.fromCharCode.apply(
    null,
    shard.sequences.subarray(sequenceStart(shard, p), shard.sequenceEnds[p]) as unknown as number[],
  );

/** Peptide p of `a` against peptide q of `b` by sequence, as strings compare (letters are ASCII): no string made. */
export function compareSequences(a: Shard, p: number, b: Shard, q: number): number {
  const aLetters = a.sequences;
  const bLetters = b.sequences;
  const aEnd = a.sequenceEnds[p];
  const bEnd = b.sequenceEnds[q];
  let i = sequenceStart(a, p);
  let j = sequenceStart(b, q);
  for (; i < aEnd && j < bEnd; i++, j++) if (aLetters[i] !== bLetters[j]) return aLetters[i] - bLetters[j];
  return aEnd - i - (bEnd - j);
}

/** The accession of rank a. */
export const accessionOf = (table: AccessionTable, a: number): string =>
  table.accessions.slice(a === 0 ? 0 : table.accessionEnds[a - 1], table.accessionEnds[a]);

/** Accession-table indexes of peptide p's accessions. */
export const accessionRefsOf = (shard: Shard, p: number): Uint32Array =>
  shard.accessionRefs.subarray(p === 0 ? 0 : shard.accessionRefEnds[p - 1], shard.accessionRefEnds[p]);

/**
 * The load-bearing invariant of the shard index: shards are listed by ascending mass, each non-empty with
 * firstKey <= lastKey, and each shard's keys lie strictly above the previous shard's. Shard i therefore owns
 * the key interval [firstKey_i, firstKey_{i+1}), and together the shards tile [firstKey_0, +inf) without
 * overlap, so every mass group lives in exactly one shard. Returns the first violation, or null; messages number
 * the shards from `firstIndex` (a run of a longer list).
 */
export function tilingViolation(
  shards: readonly Pick<ShardEntry, 'firstKey' | 'lastKey' | 'massGroups' | 'peptides'>[],
  firstIndex = 0,
): string | null {
  for (let k = 0; k < shards.length; k++) {
    const [s, i] = [shards[k], firstIndex + k];
    if (!(s.firstKey <= s.lastKey)) return `shard ${i} has firstKey ${s.firstKey} > lastKey ${s.lastKey}`;
    if (s.massGroups < 1 || s.peptides < s.massGroups)
      return `shard ${i} has ${s.massGroups} groups and ${s.peptides} peptides`;
    if (k > 0 && !(shards[k - 1].lastKey < s.firstKey))
      return `shard ${i} starts at ${s.firstKey}, not above shard ${i - 1}'s last key ${shards[k - 1].lastKey}`;
  }
  return null;
}

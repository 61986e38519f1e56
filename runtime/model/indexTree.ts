// The index trees of the format (docs/format.md, "The index tree", "Accession table", "Protein table"): how many
// levels of pages a manifest may name, and what a page read from storage must agree with in the entry that points at
// it — a reader refuses a page that does not (its sha256 and size are checked when it is fetched).
import {
  combinedResidueMax,
  MAX_INDEX_LEVELS,
  tilingViolation,
  type AccessionPageEntry,
  type IndexPageEntry,
  type ProteinPageEntry,
} from './format.js';

/** Levels of pages below the manifest of a shard index or protein table (`levels`, absent: 1), or null when out of 1..MAX_INDEX_LEVELS. */
export function levelsOf(tree: { levels?: unknown }): number | null {
  const levels = tree.levels === undefined ? 1 : tree.levels;
  return Number.isInteger(levels) && (levels as number) >= 1 && (levels as number) <= MAX_INDEX_LEVELS
    ? (levels as number)
    : null;
}

const sum = <T>(list: readonly T[], field: (item: T) => number) => list.reduce((total, item) => total + field(item), 0);

/**
 * What is wrong with an index page read for `entry` — a leaf (`shards`) or an inner page (`pages`) — or null: it
 * must start at the entry's firstShard, hold its shards (inner: pages listing consecutive shards from there),
 * tile the mass line, start and end at its keys, sum to its groups and peptides, and (when the entry gives one)
 * have its residueMax as their combined one.
 */
export function indexPageViolation(page: unknown, entry: IndexPageEntry, leaf: boolean): string | null {
  const content = page as { firstShard?: unknown; shards?: unknown; pages?: unknown } | null;
  const list = leaf ? content?.shards : content?.pages;
  if (!Array.isArray(list) || list.length === 0) return `no ${leaf ? 'shards' : 'pages'} listed`;
  if (content!.firstShard !== entry.firstShard)
    return `firstShard ${String(content!.firstShard)}, not ${entry.firstShard}`;
  const entries = list as IndexPageEntry[];
  const shards = leaf ? list.length : sum(entries, (p) => p.shards);
  if (shards !== entry.shards) return `wrong shard count: ${shards}, not ${entry.shards}`;
  if (!leaf) {
    for (let k = 0, next = entry.firstShard; k < entries.length; next += entries[k].shards, k++) {
      if (entries[k].firstShard !== next || !(entries[k].shards >= 1))
        return `page ${k} does not continue the shards before it`;
    }
  }
  const tiling = tilingViolation(entries);
  if (tiling) return tiling;
  if (entries[0].firstKey !== entry.firstKey || entries[entries.length - 1].lastKey !== entry.lastKey)
    return 'first or last key differs from its entry';
  if (sum(entries, (e) => e.massGroups) !== entry.massGroups || sum(entries, (e) => e.peptides) !== entry.peptides)
    return 'mass groups or peptides differ from its entry';
  if (entry.residueMax !== undefined && combinedResidueMax(entries) !== entry.residueMax)
    return `residueMax differs from its entry's ${JSON.stringify(entry.residueMax)}`;
  return null;
}

/** What is wrong with an inner page of the accession table read for `entry`, or null: pages of at least one accession each, summing to its count. */
export function accessionIndexPageViolation(page: unknown, entry: AccessionPageEntry): string | null {
  const pages = (page as { pages?: unknown } | null)?.pages as AccessionPageEntry[] | undefined;
  if (!Array.isArray(pages) || pages.length === 0) return 'no pages listed';
  if (!pages.every((p) => Number.isSafeInteger(p?.accessions) && p.accessions >= 1))
    return 'a page holds no accessions';
  if (sum(pages, (p) => p.accessions) !== entry.accessions) return 'accession count differs from its entry';
  return null;
}

/**
 * What is wrong with an inner page of the protein table read for `entry`, or null: pages of at least one
 * accession each, ascending and disjoint, from the entry's first to its last accession, summing to its count.
 */
export function proteinIndexPageViolation(page: unknown, entry: ProteinPageEntry): string | null {
  const pages = (page as { pages?: unknown } | null)?.pages as ProteinPageEntry[] | undefined;
  if (!Array.isArray(pages) || pages.length === 0) return 'no pages listed';
  for (let k = 0; k < pages.length; k++) {
    const p = pages[k];
    if (!(p.accessions >= 1) || !(p.firstAccession <= p.lastAccession)) return `page ${k} holds no accessions in order`;
    if (k > 0 && !(pages[k - 1].lastAccession < p.firstAccession)) return `page ${k} does not follow page ${k - 1}`;
  }
  if (pages[0].firstAccession !== entry.firstAccession || pages[pages.length - 1].lastAccession !== entry.lastAccession)
    return 'first or last accession differs from its entry';
  if (sum(pages, (p) => p.accessions) !== entry.accessions) return 'accession count differs from its entry';
  return null;
}

/** What is wrong with a leaf page of the protein table read for `entry`, or null: every column of its count, from its first to its last accession. */
export function proteinPageViolation(page: unknown, entry: ProteinPageEntry): string | null {
  const p = page as Record<string, unknown> | null;
  return accessionColumnsViolation(p, [p?.accessions, p?.taxIds, p?.reviewed, p?.proteins, p?.organisms], entry);
}

/** What is wrong with a leaf page of the sequence table read for `entry`, or null (as proteinPageViolation). */
export function sequencePageViolation(page: unknown, entry: ProteinPageEntry): string | null {
  const p = page as Record<string, unknown> | null;
  const violation = accessionColumnsViolation(p, [p?.accessions, p?.sequences], entry);
  if (violation) return violation;
  return (p!.sequences as unknown[]).every((s) => typeof s === 'string') ? null : 'a sequence is not a string';
}

function accessionColumnsViolation(
  p: Record<string, unknown> | null,
  columns: unknown[],
  entry: ProteinPageEntry,
): string | null {
  if (columns.some((c) => !Array.isArray(c) || c.length !== entry.accessions))
    return 'columns are missing or differ in length';
  const accessions = p!.accessions as string[];
  if (accessions[0] !== entry.firstAccession || accessions[accessions.length - 1] !== entry.lastAccession)
    return 'first or last accession differs from its entry';
  return null;
}

// The protein and sequence tables: what the dataset knows of an accession beyond its taxId (reviewed flag, protein
// and organism names; its residues, when built with them), looked up in the page of consecutive accessions that holds
// it — found from the manifest's root down through the inner pages of a large table (each read once, then cached).
import type { ProteinPageEntry } from '../../model/format.js';
import type { Dataset } from '../storage/dataset.js';
import { partitionPoint } from '../storage/shardIndex.js';

export interface Protein {
  acc: string;
  taxId: number;
  reviewed: boolean;
  /** Names from the header; null when it has none. */
  protein: string | null;
  organism: string | null;
}

/**
 * The last page whose first accession is <= acc (byte order, as the table is sorted: JavaScript's < on ASCII), or -1.
 */
const pageOf = (pages: readonly ProteinPageEntry[], acc: string) =>
  partitionPoint(pages.length, (i) => pages[i].firstAccession > acc) - 1;

/**
 * The entry of the leaf page of `table` whose range holds `acc`, reading inner pages on the way; undefined when no
 * page's range holds it.
 */
async function leafOf(
  dataset: Dataset,
  acc: string,
  table: 'protein' | 'sequence' = 'protein',
): Promise<ProteinPageEntry | undefined> {
  const root = table === 'protein' ? dataset.manifest.proteins : dataset.manifest.sequences;
  let pages = root?.pages ?? [];
  for (let level = root?.levels ?? 1; ; level--) {
    const p = pageOf(pages, acc);
    if (p < 0 || acc > pages[p].lastAccession) return undefined;
    if (level === 1) return pages[p];
    pages = await dataset.proteinIndexPage(pages[p], table);
  }
}

/** Where `acc` is in a page's ascending accessions, or -1. */
function indexIn(accessions: readonly string[], acc: string): number {
  const i = partitionPoint(accessions.length, (j) => accessions[j] >= acc);
  return accessions[i] === acc ? i : -1;
}

/**
 * The residues of each of `accessions` the sequence table holds (none for a dataset built without `--sequences`).
 */
export async function sequencesOf(dataset: Dataset, accessions: Iterable<string>): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  if (!dataset.manifest.sequences) return found;
  await Promise.all(
    [...new Set(accessions)].map(async (acc) => {
      const leaf = await leafOf(dataset, acc, 'sequence');
      const page = leaf && (await dataset.sequencePage(leaf));
      const i = page ? indexIn(page.accessions, acc) : -1;
      if (i >= 0) found.set(acc, page!.sequences[i]);
    }),
  );
  return found;
}

/**
 * Each accession's protein (in the order given): from the protein table, or — for a dataset built without one, or
 * an accession it lacks — only what the shard said (`known`: taxId and reviewed), names null.
 */
export async function proteinsOf(
  dataset: Dataset,
  known: readonly { acc: string; taxId: number; reviewed: boolean }[],
): Promise<Protein[]> {
  const pages = await Promise.all(
    known.map(async ({ acc }) => {
      const leaf = await leafOf(dataset, acc);
      return leaf && dataset.proteinPage(leaf);
    }),
  );
  return known.map((k, n) => {
    const page = pages[n];
    const i = page ? indexIn(page.accessions, k.acc) : -1;
    if (page && i >= 0) {
      return {
        acc: k.acc,
        taxId: page.taxIds[i],
        reviewed: page.reviewed[i] === 1,
        protein: page.proteins[i] || null,
        organism: page.organisms[i] || null,
      };
    }
    return { ...k, protein: null, organism: null };
  });
}

// The protein table: what the dataset knows of an accession beyond its taxId (reviewed flag, protein and organism
// names), looked up in the page of consecutive accessions that holds it.
import type { ProteinPageEntry } from '../model/format.js';
import type { Dataset } from './dataset.js';
import { partitionPoint } from './shardIndex.js';

export interface Protein {
  acc: string;
  taxId: number;
  reviewed: boolean;
  /** Names from the header; null when it has none. */
  protein: string | null;
  organism: string | null;
}

/** Byte-order comparison of accessions (as the table is sorted); JavaScript's < on these ASCII strings is it. */
const pageOf = (pages: readonly ProteinPageEntry[], acc: string) => partitionPoint(pages.length, (i) => pages[i].firstAccession > acc) - 1;

/**
 * Each accession's protein (in the order given): from the protein table, or — for a dataset built without one, or
 * an accession it lacks — only what the shard said (`known`: taxId and reviewed), names null.
 */
export async function proteinsOf(dataset: Dataset, known: readonly { acc: string; taxId: number; reviewed: boolean }[]): Promise<Protein[]> {
  const pages = dataset.manifest.proteins?.pages ?? [];
  const pageIndexes = known.map(({ acc }) => pageOf(pages, acc));
  const loaded = new Map<number, ReturnType<Dataset['proteinPage']>>();
  for (const p of pageIndexes) if (p >= 0 && !loaded.has(p)) loaded.set(p, dataset.proteinPage(pages[p]));
  const out: Protein[] = [];
  for (const [n, k] of known.entries()) {
    const p = pageIndexes[n];
    const page = p >= 0 ? await loaded.get(p)! : undefined;
    const i = page ? partitionPoint(page.accessions.length, (j) => page.accessions[j] >= k.acc) : -1;
    if (page && page.accessions[i] === k.acc) {
      out.push({ acc: k.acc, taxId: page.taxIds[i], reviewed: page.reviewed[i] === 1, protein: page.proteins[i] || null, organism: page.organisms[i] || null });
    } else {
      out.push({ ...k, protein: null, organism: null });
    }
  }
  return out;
}

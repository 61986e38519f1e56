// Peptide → proteins: the stored peptides equal to a sequence (optionally with I and L as one
// letter), found in the mass group of the sequence's own mass key, with their accessions (filtered as a search
// filters them), each accession's protein, and the lowest common ancestor of their organisms.
import { addPeptideRanks } from '../../model/accessionSet.js';
import { sequenceOf, type Shard } from '../../model/format.js';
import { massKey } from '../../model/massKey.js';
import type { Taxon } from '../../model/taxonomy.js';
import { resolveFilter, type FilterSpec } from '../range/accessionFilter.js';
import type { Dataset } from '../storage/dataset.js';
import { proteinsOf, type Protein } from './proteins.js';
import { rangeEntries, runOf } from '../range/search.js';

export interface PeptideQuery {
  sequence: string;
  /** Its mass in units of 1e-10 Da. */
  units: number;
  equateIL: boolean;
  filter: FilterSpec;
}

export interface PeptideMatch {
  seq: string;
  proteins: Protein[];
}

export interface PeptideResult {
  query: PeptideQuery;
  peptides: PeptideMatch[];
  /** Deepest taxon on the lineage of every listed accession that has one; null when none has. */
  lca: Omit<Taxon, 'peptides'> | null;
  totalResult: number;
  page: number;
  pageSize: number;
}

/** I and L (same mass) as one letter. */
const foldIL = (sequence: string) => sequence.replaceAll('I', 'L');

export async function runPeptideLookup(dataset: Dataset, query: PeptideQuery): Promise<PeptideResult> {
  const filter = await resolveFilter(dataset, query.filter);
  const key = massKey(query.units);
  const wanted = query.equateIL ? foldIL(query.sequence) : query.sequence;
  const equal: { shard: Shard; p: number; seq: string }[] = [];
  for (const located of await rangeEntries(dataset.index, key, key)) {
    const shard = await dataset.shard(located.entry);
    const { from, to } = runOf(shard, key, key);
    if (from >= to) continue;
    for (let p = from === 0 ? 0 : shard.groupEnds[from - 1]; p < shard.groupEnds[to - 1]; p++) {
      const seq = sequenceOf(shard, p);
      if ((query.equateIL ? foldIL(seq) : seq) === wanted) equal.push({ shard, p, seq });
    }
  }
  const set = await dataset.accessionSet((add) =>
    equal.forEach(({ shard, p }) => addPeptideRanks(shard, p, p + 1, add, filter)),
  );
  const found: { seq: string; accessions: { acc: string; taxId: number; reviewed: boolean }[] }[] = [];
  for (const { shard, p, seq } of equal) {
    const accessions = Array.from(set.listed(shard, p, filter), (a) => ({
      acc: set.accession(a),
      taxId: set.taxId(a),
      reviewed: set.reviewed(a),
    }));
    if (accessions.length > 0) found.push({ seq, accessions });
  }
  found.sort((a, b) => (a.seq < b.seq ? -1 : a.seq > b.seq ? 1 : 0));
  const peptides = await Promise.all(
    found.map(async ({ seq, accessions }) => ({ seq, proteins: await proteinsOf(dataset, accessions) })),
  );
  const taxonomy = await dataset.taxonomy();
  let lca: PeptideResult['lca'] = null;
  if (taxonomy) {
    const node = taxonomy.lca(
      found.flatMap((f) => f.accessions.map((a) => taxonomy.nodeOf(a.taxId)).filter((n) => n >= 0)),
    );
    if (node >= 0) {
      const { taxId, name, rank } = taxonomy.taxon(node);
      lca = { taxId, name, rank };
    }
  }
  return { query, peptides, lca, totalResult: peptides.length, page: 1, pageSize: peptides.length };
}

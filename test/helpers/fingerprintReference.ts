// Brute-force pieces the fingerprint tests build their references from: every stored peptide of a dataset as plain
// columns, the taxonomy file walked by its parents, and the chance of matching at least k of a list's peaks summed
// over every outcome of its peaks. Nothing here comes from runtime/core/fingerprint.
import type { TaxonomyFile } from '../../runtime/model/format.js';
import { decodeShard } from '../../runtime/model/shardCodec.js';
import { readManifest, readStored, shardEntries } from './datasets.js';

/** Every stored peptide of a dataset in stored (mass) order: its key, sequence and accession ranks. */
export interface StoredPeptides {
  keys: Uint32Array;
  sequences: string[];
  /** Ranks of peptide p: refs[refEnds[p − 1] ?? 0 .. refEnds[p]). */
  refEnds: Uint32Array;
  refs: Uint32Array;
}

/** The stored peptides of the dataset in `dir`, shard by shard, as docs/format.md lays them out. */
export function readStoredPeptides(dir: string): StoredPeptides {
  const manifest = readManifest(dir);
  const count = manifest.totals.peptides;
  const keys = new Uint32Array(count);
  const sequences = new Array<string>(count);
  const refEnds = new Uint32Array(count);
  // Each shard's refs, its peptides' in order: the dataset's are their concatenation.
  const shardRefs: Uint32Array[] = [];
  let [p, before] = [0, 0];
  for (const entry of shardEntries(dir)) {
    const shard = decodeShard(readStored(dir, entry.file, manifest.compression), manifest.accessions.count);
    const letters = Buffer.from(shard.sequences.buffer, shard.sequences.byteOffset, shard.sequences.byteLength);
    const text = letters.toString('latin1');
    let q = 0;
    for (let g = 0; g < shard.massKeys.length; g++)
      for (; q < shard.groupEnds[g]; q++, p++) {
        keys[p] = shard.massKeys[g];
        sequences[p] = text.slice(q === 0 ? 0 : shard.sequenceEnds[q - 1], shard.sequenceEnds[q]);
        refEnds[p] = before + shard.accessionRefEnds[q];
      }
    const used = q === 0 ? 0 : shard.accessionRefEnds[q - 1];
    shardRefs.push(shard.accessionRefs.slice(0, used));
    before += used;
  }
  if (p !== count) throw new Error(`read ${p} peptides, the manifest counts ${count}`);
  const refs = new Uint32Array(before);
  for (let s = 0, at = 0; s < shardRefs.length; at += shardRefs[s++].length) refs.set(shardRefs[s], at);
  return { keys, sequences, refEnds, refs };
}

/** The accession ranks of stored peptide `p`. */
export const ranksOf = (stored: StoredPeptides, p: number): Uint32Array =>
  stored.refs.subarray(p === 0 ? 0 : stored.refEnds[p - 1], stored.refEnds[p]);

/** The taxonomy file as a tree of taxIds, walked parent by parent. */
export class TaxonomyWalk {
  private index = new Map<number, number>();
  /** Lineages walked so far: a reference asks for the same taxa's lineages over and over. */
  private lineages = new Map<number, readonly number[]>();

  constructor(readonly file: TaxonomyFile) {
    file.taxIds.forEach((taxId, i) => this.index.set(taxId, i));
  }

  has(taxId: number): boolean {
    return this.index.has(taxId);
  }

  parent(taxId: number): number {
    return this.file.parents[this.index.get(taxId)!];
  }

  rank(taxId: number): string {
    return this.file.ranks[this.index.get(taxId)!];
  }

  name(taxId: number): string {
    return this.file.names[this.index.get(taxId)!];
  }

  peptides(taxId: number): number {
    return this.file.peptides[this.index.get(taxId)!];
  }

  /** The taxonomy file's count of peptides found at or below `taxId` only. */
  specificPeptides(taxId: number): number {
    return this.file.specificPeptides![this.index.get(taxId)!];
  }

  /** The taxIds from `taxId` up to the root, both included. */
  lineage(taxId: number): readonly number[] {
    let line = this.lineages.get(taxId);
    if (line) return line;
    const walked = [taxId];
    for (let t = taxId; this.parent(t) !== t; t = this.parent(t)) walked.push(this.parent(t));
    this.lineages.set(taxId, (line = walked));
    return line;
  }

  /** The taxId of rank `rank` on `taxId`'s lineage (itself included), or undefined. */
  ancestorAt(taxId: number, rank: string): number | undefined {
    return this.lineage(taxId).find((t) => this.rank(t) === rank);
  }

  /** Whether `taxId` is `ancestor` or lies below it. */
  within(taxId: number, ancestor: number): boolean {
    return this.lineage(taxId).includes(ancestor);
  }

  /** The deepest taxon on every lineage of `taxIds` (at least one). */
  lca(taxIds: readonly number[]): number {
    const others = taxIds.slice(1).map((t) => new Set(this.lineage(t)));
    return this.lineage(taxIds[0]).find((t) => others.every((line) => line.has(t)))!;
  }

  /** Every taxId of rank `rank`. */
  ofRank(rank: string): number[] {
    return this.file.taxIds.filter((_, i) => this.file.ranks[i] === rank);
  }
}

/**
 * P(exactly j of the peaks match) for every j, summed over all 2^n outcomes of n independent peaks matching with
 * chances `q`; its tail from k is the chance of matching at least k.
 */
export function outcomeDistribution(q: readonly number[]): Float64Array {
  const n = q.length;
  const exactly = new Float64Array(n + 1);
  const not = q.map((chance) => 1 - chance);
  // Depth first: each outcome's chance is the product of its peaks' chances on the way down. The last two peaks'
  // four outcomes are written out (in the same order, the same products): a call per outcome costs more than its sum.
  const walk = (i: number, chance: number, happened: number): void => {
    if (i >= n - 2) {
      if (i === n) {
        exactly[happened] += chance;
      } else if (i === n - 1) {
        exactly[happened] += chance * not[i];
        exactly[happened + 1] += chance * q[i];
      } else {
        const missed = chance * not[i];
        const matched = chance * q[i];
        exactly[happened] += missed * not[i + 1];
        exactly[happened + 1] += missed * q[i + 1];
        exactly[happened + 1] += matched * not[i + 1];
        exactly[happened + 2] += matched * q[i + 1];
      }
      return;
    }
    walk(i + 1, chance * not[i], happened);
    walk(i + 1, chance * q[i], happened + 1);
  };
  walk(0, 1, 0);
  return exactly;
}

/** P(at least k) from outcomeDistribution's exact counts, summed from the rare end. */
export function tailFrom(exactly: Float64Array, k: number): number {
  let tail = 0;
  for (let j = exactly.length - 1; j >= k; j--) tail += exactly[j];
  return Math.min(1, tail);
}

/**
 * The chance that at least one of a protein's m peptides lands in a window holding `inWindow` of the dataset's
 * `total` peptides: 1 − (1 − inWindow/total)^m, written with log1p and expm1 because the plain form loses the digits
 * of a small chance.
 */
export const windowChance = (inWindow: number, total: number, m: number): number =>
  inWindow <= 0 ? 0 : -Math.expm1(m * Math.log1p(-inWindow / total));

// Where a stored peptide lies in its proteins: at a protein's N-terminus (after its initiator Met, when the build
// clipped it), inside a protein, or both — read from a shard's protein starts (docs/format.md "Shard files"), for
// modifications of the protein N-terminus and the accessions a candidate carrying one lists.
import type { RankFilter } from './accessionSet.js';
import type { Shard } from './format.js';

/** A peptide's places in a protein, as bits: it starts the protein, it lies elsewhere in it. */
export const AT_PROTEIN_START = 1;
export const AT_INSIDE = 2;
export type Place = typeof AT_PROTEIN_START | typeof AT_INSIDE;

/** The first of startRefs at or past reference `r` (startRefs.length when none is). */
function firstStartFrom(starts: Uint32Array, r: number): number {
  let [low, high] = [0, starts.length];
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (starts[mid] < r) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Peptide p's places (AT_PROTEIN_START and/or AT_INSIDE); AT_INSIDE alone in a shard that records no starts. */
export function placesOf(shard: Shard, p: number): number {
  const [from, to] = [p === 0 ? 0 : shard.accessionRefEnds[p - 1], shard.accessionRefEnds[p]];
  const starts = shard.startRefs;
  if (!starts) return AT_INSIDE;
  let places = 0;
  let started = 0;
  for (let i = firstStartFrom(starts, from); i < starts.length && starts[i] < to; i++) {
    places |= AT_PROTEIN_START;
    started++;
    if (shard.startRefsInside![i]) places |= AT_INSIDE;
  }
  return started < to - from ? places | AT_INSIDE : places;
}

/** Peptide p's references at `place`: ranks of the accessions it starts (AT_PROTEIN_START) or lies inside. */
export function ranksAt(shard: Shard, p: number, place: Place): Set<number> {
  const [from, to] = [p === 0 ? 0 : shard.accessionRefEnds[p - 1], shard.accessionRefEnds[p]];
  const starts = shard.startRefs ?? new Uint32Array(0);
  const ranks = new Set<number>();
  let i = firstStartFrom(starts, from);
  for (let r = from; r < to; r++) {
    const starting = i < starts.length && starts[i] === r;
    const inside = !starting || shard.startRefsInside![i] === 1;
    if (place === AT_PROTEIN_START ? starting : inside) ranks.add(shard.accessionRefs[r]);
    if (starting) i++;
  }
  return ranks;
}

/** A filter keeping, of peptide p's accessions, those at `place` that `filter` keeps (all without one). */
export function placedFilter(shard: Shard, p: number, place: Place, filter?: RankFilter): RankFilter {
  const ranks = ranksAt(shard, p, place);
  return { keeps: (rank) => ranks.has(rank) && (!filter || filter.keeps(rank)) };
}

/** Whether `filter` keeps any of peptide p's accessions at `place`. */
export function keepsAnyAt(shard: Shard, p: number, place: Place, filter: RankFilter): boolean {
  for (const rank of ranksAt(shard, p, place)) if (filter.keeps(rank)) return true;
  return false;
}

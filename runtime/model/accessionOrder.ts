// The order of accession ranks (docs/format.md, "Accession order"), one definition for the build, which ranks, and
// readers, which filter: reviewed (UniProtKB/Swiss-Prot) accessions first, then the others; within each, accessions
// whose taxId is a node of the dataset's taxonomy by that node's depth-first position (a node before its
// descendants, children by ascending taxId), then those without a lineage; ties by accession (byte order). So the
// accessions of a taxon and of everything below it hold one interval of ranks among the reviewed and one among the
// others, and a taxon or reviewed filter is a test on a rank alone: no table is read to apply it.

/**
 * The rank of each accession of a list in accession (byte) order: `reviewed[a]` its flag, `position[a]` the
 * depth-first position of its taxonomy node among `positions` (-1: no lineage; no `position`: no taxonomy).
 */
export function rankOrder(reviewed: Uint8Array, position: Int32Array | undefined, positions: number): Uint32Array {
  const count = reviewed.length;
  const slots = positions + 1; // a position each, then "no lineage"
  const keyOf = (a: number) =>
    (reviewed[a] === 1 ? 0 : slots) + (position && position[a] >= 0 ? position[a] : positions);
  // A counting sort: stable, so accessions of one key keep their byte order.
  const starts = new Float64Array(2 * slots + 1);
  for (let a = 0; a < count; a++) starts[keyOf(a) + 1]++;
  for (let k = 1; k < starts.length; k++) starts[k] += starts[k - 1];
  const rankOf = new Uint32Array(count);
  for (let a = 0; a < count; a++) rankOf[a] = starts[keyOf(a)]++;
  return rankOf;
}

/** Rank intervals `[first, end)` of a taxon's subtree: among the reviewed accessions, and among the others. */
export interface SubtreeRanks {
  reviewed: [number, number];
  unreviewed: [number, number];
}

/**
 * The rank intervals of every subtree of a taxonomy, from what rankOrder sorted by: `enter[i]`/`exit[i]` node i's
 * depth-first interval (its subtree is the nodes whose `enter` lies in [enter[i], exit[i])), `reviewedOwn[i]` and
 * `unreviewedOwn[i]` the accessions whose taxId is node i itself, `reviewedTotal` the reviewed accessions (the
 * others start there). Throws when the counts cannot be the dataset's (more than its reviewed accessions).
 */
export function subtreeRanks(
  enter: Int32Array,
  exit: Int32Array,
  reviewedOwn: readonly number[],
  unreviewedOwn: readonly number[],
  reviewedTotal: number,
): (node: number) => SubtreeRanks {
  const n = enter.length;
  // Accessions of the nodes before each depth-first position, reviewed and not: running sums in that order.
  const reviewedBefore = new Float64Array(n + 1);
  const unreviewedBefore = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) {
    reviewedBefore[enter[i] + 1] = reviewedOwn[i];
    unreviewedBefore[enter[i] + 1] = unreviewedOwn[i];
  }
  for (let k = 1; k <= n; k++) {
    reviewedBefore[k] += reviewedBefore[k - 1];
    unreviewedBefore[k] += unreviewedBefore[k - 1];
  }
  if (reviewedBefore[n] > reviewedTotal)
    throw new Error(`taxonomy counts ${reviewedBefore[n]} reviewed accessions, the dataset ${reviewedTotal}`);
  return (node) => ({
    reviewed: [reviewedBefore[enter[node]], reviewedBefore[exit[node]]],
    unreviewed: [reviewedTotal + unreviewedBefore[enter[node]], reviewedTotal + unreviewedBefore[exit[node]]],
  });
}

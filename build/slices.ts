// The input's mass distribution, from a deterministic sample (every build reads it first), and what it decides:
// the partition plan (build/partitions.ts) and, for a partitioned build (`build:shards --part i/N`), N contiguous
// mass slices of 20 Da buckets balanced on it, so every part computes the same slices on its own machine.
//
// The partition invariant: part i keeps exactly the peptides whose mass key lies in [lowKey, highKey) of slice i;
// the slices tile the key line (slice 0 starts at 0, the last one ends at +inf), and a boundary is always a
// bucket boundary (a multiple of PARTITION_KEYS), hence a partition boundary, where a single build also cuts its
// shards (build/shardWriter.ts); single and part builds use the same plan. So the parts' shards, concatenated in
// slice order, are the single build's shards, byte for byte.
import { massKey } from '../runtime/model/massKey.js';
import { digest, type DigestOptions } from './digest.js';
import { BuildError, readFasta } from './fasta.js';
import { PARTITION_KEYS, type KeySlice } from './partitions.js';

/** One protein in this many (by input ordinal, the first included) is digested to estimate the mass distribution. */
export const SAMPLE_EVERY = 64;

/** `--part i/N`: part `index` (1-based) of `count`. */
export interface PartSpec {
  index: number;
  count: number;
}

/** Peptides of the sampled proteins per 20 Da bucket (repeats included: a proxy for the work and bytes). */
export async function sampleMassBuckets(files: readonly string[], options: DigestOptions): Promise<Map<number, number>> {
  const counts = new Map<number, number>();
  let ordinal = 0;
  for (const file of files) {
    for await (const record of readFasta(file, () => {})) {
      if (ordinal++ % SAMPLE_EVERY !== 0) continue;
      digest(record.sequence, options, ({ units }) => {
        const bucket = Math.floor(massKey(units) / PARTITION_KEYS);
        counts.set(bucket, (counts.get(bucket) ?? 0) + 1);
      });
    }
  }
  return counts;
}

/**
 * First bucket of each of `parts` slices (the first is 0): slice k starts at the first bucket before which the
 * sample holds at least k/parts of its peptides. Slices may be empty (tiny inputs, many parts).
 */
export function sliceStarts(counts: ReadonlyMap<number, number>, parts: number): number[] {
  const buckets = [...counts.keys()].sort((a, b) => a - b);
  const total = buckets.reduce((sum, b) => sum + counts.get(b)!, 0);
  const starts = [0];
  let before = 0;
  let next = 0;
  for (let k = 1; k < parts; k++) {
    while (next < buckets.length && before < (k * total) / parts) before += counts.get(buckets[next++])!;
    // The slice starts after the last bucket counted (past every sampled bucket when none is left).
    const start = next < buckets.length ? buckets[next] : (buckets[buckets.length - 1] ?? 0) + 1;
    starts.push(Math.max(start, starts[k - 1]));
  }
  return starts;
}

/** The keys of part `index` (1-based) given the slices' first buckets. */
export function keySliceOf(starts: readonly number[], index: number): KeySlice {
  return {
    lowKey: index === 1 ? 0 : starts[index - 1] * PARTITION_KEYS,
    highKey: index === starts.length ? Infinity : starts[index] * PARTITION_KEYS,
  };
}

/** `"2/4"` as a PartSpec; throws a message naming the flag otherwise. */
export function parsePart(text: string): PartSpec {
  const match = /^(\d+)\/(\d+)$/.exec(text);
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || count > 1000 || index < 1 || index > count) {
    throw new BuildError(`--part must be i/N with 1 <= i <= N <= 1000, got "${text}"`);
  }
  return { index, count };
}

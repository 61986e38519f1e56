// The input's mass distribution, from a deterministic sample (every build reads it first), and what it decides: the
// partition plan (builder/phases/partitions.ts), the cut keys, and for a partitioned build (`build:shards --part i/N`)
// N contiguous mass slices balanced on it, so every part computes the same slices on its own machine. Each view
// (builder/phases/views.ts) is a key line of its own: sampled by its keys, with a plan, cut keys and slices of its own.
//
// The partition invariant: part i keeps exactly the peptides whose mass key lies in [lowKey, highKey) of slice i (and,
// of each view, exactly those whose view key lies in that view's slice i); the slices tile the key line (slice 0 starts
// at 0, the last one ends at +inf), and every slice starts at a cut key, where a single build also cuts its shards
// (builder/writers/shardWriter.ts). Cut keys come from the sample alone, so single and part builds agree on them: the
// parts' shards, concatenated in slice order, are the single build's shards (and each view's), byte for byte.
// build:merge checks the slices join (builder/phases/merge.ts); test/builder/phases/merge.test.ts checks the invariant.
import { massKey } from '../../runtime/model/massKey.js';
import { digest, type DigestOptions } from '../inputs/digest.js';
import { BuildError } from '../errors.js';
import { readFasta } from '../inputs/fasta.js';
import { PARTITION_KEYS, planPartitions, RECORD_HEADER, type KeySlice, type PartitionPlan } from './partitions.js';
import type { ViewKeysOf } from './views.js';

/** One protein in this many (by input ordinal, the first included) is digested to estimate the mass distribution. */
export const SAMPLE_EVERY = 64;
/**
 * Records (digested peptides, repeats included, estimated from the sample) between two cut keys: hundreds of shards
 * of the default size, so that a Swiss-Prot-sized input has dozens of cut keys to balance parts on; an input under a
 * million records has none, and no shard is cut early.
 */
export const CUT_RECORDS = 1_000_000;

/** `--part i/N`: part `index` (1-based) of `count`. */
export interface PartSpec {
  index: number;
  count: number;
}

/**
 * What the sample found per 20 Da bucket: its peptides (repeats included) and the bytes their partition records take.
 */
export interface MassSample {
  /** A proxy for the work and the shards' bytes: cut keys and slices are balanced on it. */
  records: Map<number, number>;
  /** What merging a partition costs memory by: the partition plan is made on it. */
  bytes: Map<number, number>;
}

/** The sample of the dataset's keys, and of each view's keys (their peptides by their view keys). */
export interface DatasetSample extends MassSample {
  views: MassSample[];
}

const emptySample = (): MassSample => ({ records: new Map(), bytes: new Map() });

/** Counts one peptide of `bytes` record bytes at `key`. */
function count(sample: MassSample, key: number, bytes: number): void {
  const bucket = Math.floor(key / PARTITION_KEYS);
  sample.records.set(bucket, (sample.records.get(bucket) ?? 0) + 1);
  sample.bytes.set(bucket, (sample.bytes.get(bucket) ?? 0) + bytes);
}

/** The peptides of the sampled proteins (one in SAMPLE_EVERY) per 20 Da bucket: by mass key, and by each view's key. */
export async function sampleMassBuckets(
  files: readonly string[],
  options: DigestOptions,
  views: readonly ViewKeysOf[] = [],
): Promise<DatasetSample> {
  const sample: DatasetSample = { ...emptySample(), views: views.map(emptySample) };
  let ordinal = 0;
  for (const file of files) {
    for await (const record of readFasta(file, () => {})) {
      if (ordinal++ % SAMPLE_EVERY !== 0) continue;
      digest(record.sequence, options, ({ sequence, units }) => {
        count(sample, massKey(units), RECORD_HEADER + sequence.length);
        views.forEach((keysOf, v) => {
          for (const key of keysOf(sequence, units)) count(sample.views[v], key, RECORD_HEADER + sequence.length);
        });
      });
    }
  }
  return sample;
}

/** How a build lays out one key line (the dataset's or a view's): partition plan, cut keys, and the keys it keeps. */
export interface KeyLayout {
  plan: PartitionPlan;
  cuts: number[];
  keys: KeySlice;
}

/** The layout a sample decides: for part `part` of a partitioned build, its slice of the keys; else all of them. */
export function keyLayout(
  sample: MassSample,
  part?: PartSpec,
  partitionBytes?: number,
  cutRecords?: number,
): KeyLayout {
  const plan = planPartitions(sample.bytes, SAMPLE_EVERY, partitionBytes);
  const cuts = cutKeys(sample.records, SAMPLE_EVERY, cutRecords);
  const keys = part
    ? keySliceOf(sliceStarts(unitCounts(sample.records, cuts), part.count), part.index)
    : { lowKey: 0, highKey: Infinity };
  return { plan, cuts, keys };
}

/**
 * The cut keys of a sample (ascending, 0 first): the start of a bucket each time the records estimated since the
 * last cut reach `cutRecords`. Each cut key starts a unit; units hold whole buckets.
 */
export function cutKeys(
  sample: ReadonlyMap<number, number>,
  sampleEvery = SAMPLE_EVERY,
  cutRecords = CUT_RECORDS,
): number[] {
  const cuts = [0];
  let since = 0;
  for (const bucket of [...sample.keys()].sort((a, b) => a - b)) {
    if (since >= cutRecords && bucket > 0) {
      cuts.push(bucket * PARTITION_KEYS);
      since = 0;
    }
    since += sample.get(bucket)! * sampleEvery;
  }
  return cuts;
}

/** The sample's peptides in each unit, by the unit's cut key. */
export function unitCounts(sample: ReadonlyMap<number, number>, cuts: readonly number[]): Map<number, number> {
  const units = new Map(cuts.map((cut) => [cut, 0]));
  for (const [bucket, count] of sample) {
    const key = bucket * PARTITION_KEYS;
    let lo = 0;
    for (let hi = cuts.length; hi - lo > 1; ) {
      const mid = (lo + hi) >> 1;
      if (cuts[mid] <= key) lo = mid;
      else hi = mid;
    }
    units.set(cuts[lo], units.get(cuts[lo])! + count);
  }
  return units;
}

/**
 * First key of each of `parts` slices (the first is 0), among the units' cut keys: slice k starts at the first
 * unit before which the sample holds at least k/parts of its peptides. Slices may be empty (small inputs, many
 * parts): an empty slice starts where the next one does.
 */
export function sliceStarts(units: ReadonlyMap<number, number>, parts: number): number[] {
  const keys = [...units.keys()].sort((a, b) => a - b);
  const total = keys.reduce((sum, key) => sum + units.get(key)!, 0);
  const starts = [0];
  let before = 0;
  let next = 0;
  for (let k = 1; k < parts; k++) {
    while (next < keys.length && before < (k * total) / parts) before += units.get(keys[next++])!;
    // The slice starts at the unit after the last one counted (the last unit, when every one is counted).
    const start = next < keys.length ? keys[next] : (keys[keys.length - 1] ?? 0);
    starts.push(Math.max(start, starts[k - 1]));
  }
  return starts;
}

/** The keys of part `index` (1-based) given the slices' first keys. */
export function keySliceOf(starts: readonly number[], index: number): KeySlice {
  return { lowKey: index === 1 ? 0 : starts[index - 1], highKey: index === starts.length ? Infinity : starts[index] };
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

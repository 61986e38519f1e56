// The build's parallel work as plain jobs: digest protein batches into partitions, merge one partition.
// The same runner serves in-process (threads = 0) and inside worker threads (build/worker.ts).
import type { DigestOptions } from './digest.js';
import { mergePartition, PartitionPlan, PartitionWriter, type KeySlice, type PartitionPeptides } from './partitions.js';

export type Job =
  | { type: 'digest'; firstOrdinal: number; proteins: string[] }
  | { type: 'flush' }
  | { type: 'ranks'; rankOf: Uint32Array }
  /** `ranked`: the records hold accession ranks already (a view's), not protein ordinals. */
  | { type: 'merge'; partition: number; files: string[]; ranked?: boolean };

export interface RunnerConfig {
  dir: string;
  name: string;
  options: DigestOptions;
  /** A part's mass slice: peptides outside it are dropped as they are digested. */
  keys?: KeySlice;
  /** The partition plan's shifts (PartitionPlan); none: every partition is a whole 20 Da bucket. */
  shifts?: Uint8Array;
}

export type JobResult = number[] | PartitionPeptides | null;

/** A runner owns one partition writer (its own files) and answers jobs in the order given. */
export function createJobRunner(config: RunnerConfig): (job: Job) => JobResult {
  const plan = new PartitionPlan(config.shifts);
  const writer = new PartitionWriter(config.dir, config.name, plan, config.keys);
  let rankOf: Uint32Array = new Uint32Array(0);
  return (job) => {
    switch (job.type) {
      case 'digest':
        writer.digestProteins(job.firstOrdinal, job.proteins, config.options);
        return null;
      case 'flush':
        writer.flush();
        return [...writer.partitions];
      case 'ranks':
        rankOf = job.rankOf;
        return null;
      case 'merge':
        return mergePartition(job.files, job.partition, plan.widthOf(job.partition), job.ranked ? undefined : rankOf);
    }
  };
}

/** Typed-array buffers of a result, to transfer instead of copy. */
export function transferList(result: JobResult): ArrayBuffer[] {
  if (!result || Array.isArray(result)) return [];
  return [result.keys, result.sequenceEnds, result.rankEnds, result.ranks].map((a) => a.buffer as ArrayBuffer);
}

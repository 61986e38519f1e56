// The build's parallel work as plain jobs: digest protein batches into partitions, merge one partition.
// The same runner serves in-process (threads = 0) and inside worker threads (builder/phases/worker.ts).
import { massKey } from '../../runtime/model/massKey.js';
import { digest, type DigestOptions } from '../inputs/digest.js';
import {
  mergePartition,
  PartitionPlan,
  PartitionWriter,
  type KeySlice,
  type PartitionPeptides,
  type Segment,
} from './partitions.js';
import { viewKeysOf, type ViewSpec } from './views.js';

export type Job =
  | { type: 'digest'; firstOrdinal: number; proteins: string[] }
  | { type: 'flush' }
  | { type: 'ranks'; rankOf: Uint32Array }
  /** `line`: 0 the dataset's partitions, v + 1 those of view v. */
  | { type: 'merge'; line: number; partition: number; segments: Segment[] };

/** How one key line is written: the keys kept (a part's slice) and the partition plan's shifts (PartitionPlan). */
export interface LineConfig {
  keys?: KeySlice;
  shifts?: Uint8Array;
}

export interface RunnerConfig extends LineConfig {
  dir: string;
  name: string;
  options: DigestOptions;
  /** The views digested beside the dataset, each into partitions of its own (builder/phases/views.ts). */
  views?: (LineConfig & { view: ViewSpec })[];
}

/** Each partition's segments per key line (the dataset's first, then each view's), or a merged partition. */
export type JobResult = [number, Segment[]][][] | PartitionPeptides | null;

/** The name of a runner's partition writer of key line `line` (its files' prefix): `w0`, `w0v0`, ... */
export const lineWriterName = (runner: string, line: number) => (line === 0 ? runner : `${runner}v${line - 1}`);

/** A runner owns one partition writer per key line (its own files) and answers jobs in the order given. */
export function createJobRunner(config: RunnerConfig): (job: Job) => JobResult {
  const line = (
    name: string,
    { keys, shifts }: LineConfig,
    keysOf: (sequence: string, units: number) => readonly number[],
  ) => {
    const plan = new PartitionPlan(shifts);
    return { plan, writer: new PartitionWriter(config.dir, name, plan, keys), keysOf };
  };
  const lines = [
    line(config.name, config, (_, units) => [massKey(units)]),
    ...(config.views ?? []).map((v, i) => line(lineWriterName(config.name, i + 1), v, viewKeysOf(v.view))),
  ];
  let rankOf: Uint32Array = new Uint32Array(0);
  return (job) => {
    switch (job.type) {
      case 'digest':
        job.proteins.forEach((protein, i) => {
          digest(protein, config.options, ({ sequence, units, places }) => {
            for (const { writer, keysOf } of lines)
              for (const key of keysOf(sequence, units)) writer.add(key, job.firstOrdinal + i, sequence, places);
          });
        });
        return null;
      case 'flush':
        return lines.map(({ writer }) => {
          writer.flush();
          return [...writer.segments];
        });
      case 'ranks':
        rankOf = job.rankOf;
        return null;
      case 'merge':
        return mergePartition(job.segments, job.partition, lines[job.line].plan.widthOf(job.partition), rankOf);
    }
  };
}

/** Typed-array buffers of a result, to transfer instead of copy. */
export function transferList(result: JobResult): ArrayBuffer[] {
  if (!result || Array.isArray(result)) return [];
  return [result.keys, result.sequenceEnds, result.rankEnds, result.ranks, result.rankPlaces].map(
    (a) => a.buffer as ArrayBuffer,
  );
}

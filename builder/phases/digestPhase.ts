// Build phase 1, read and digest: every FASTA record in file order, its sequence digested (in batches, on
// the runners) into mass partitions on disk (one file per runner and key line: the dataset's and each view's);
// each protein's header fields (and its sequence, when the build keeps sequences) go to sorted runs on disk.
import { statSync } from 'node:fs';
import type { SourceEntry } from '../../runtime/model/format.js';
import { BuildError } from '../errors.js';
import { readFasta, type SkipReason } from '../inputs/fasta.js';
import { HeaderRuns } from '../inputs/headerRuns.js';
import { describeSource } from '../inputs/inputs.js';
import type { Segment } from './partitions.js';
import { leastBusy, settled, type Runner } from './pool.js';
import type { BuildProgress } from './progress.js';

const BATCH_PROTEINS = 1000;

export interface Digested {
  /**
   * What each protein's header says (accession, OX= taxId, sp|, names), with its ordinal (the order of the input) and,
   * when kept, its sequence.
   */
  headers: HeaderRuns;
  skipped: Record<SkipReason, number>;
  /** The FASTA files as the manifest lists them. */
  sources: SourceEntry[];
  /** Each partition's segments (of the runners that wrote into it), by partition number. */
  partitionSegments: Map<number, Segment[]>;
  /** The same for each view's partitions. */
  viewPartitionSegments: Map<number, Segment[]>[];
}

/**
 * Digests `files` on `runners` (which write the partitions); header runs go into `headerDir`, with each protein's
 * sequence when `keepSequences`.
 */
export async function readAndDigest(
  files: readonly string[],
  runners: readonly Runner[],
  headerDir: string,
  progress: BuildProgress,
  keepSequences = false,
): Promise<Digested> {
  const headers = new HeaderRuns(headerDir);
  const skipped: Record<SkipReason, number> = { noAccession: 0, noSequence: 0, invalidCharacters: 0 };
  const totalBytes = files.reduce((sum, f) => sum + statSync(f).size, 0);
  let doneBytes = 0;
  const inFlight: Promise<unknown>[] = [];
  let batch: string[] = [];
  const send = async () => {
    if (batch.length === 0) return;
    inFlight.push(
      settled(leastBusy(runners).run({ type: 'digest', firstOrdinal: headers.count - batch.length, proteins: batch })),
    );
    batch = [];
    while (inFlight.length > 2 * runners.length) await inFlight.shift();
  };
  const sourcePromises = files.map(describeSource);
  for (const file of files) {
    const onBytes = (fileBytes: number) => progress.reading(headers.count, doneBytes + fileBytes, totalBytes);
    for await (const record of readFasta(file, (reason) => skipped[reason]++, onBytes)) {
      headers.add(record, keepSequences ? record.sequence : '');
      batch.push(record.sequence);
      if (batch.length >= BATCH_PROTEINS) await send();
    }
    doneBytes += statSync(file).size;
  }
  // Input whose every record was skipped is a mistake, not an empty dataset to publish over the current one.
  if (headers.count === 0) {
    const reasons = Object.entries(skipped)
      .filter(([, n]) => n > 0)
      .map(([reason, n]) => `${reason} ${n}`);
    throw new BuildError(`no usable protein record in the input (skipped: ${reasons.join(', ') || 'none'})`);
  }
  await send();
  await Promise.all(inFlight);
  const sources = await Promise.all(sourcePromises);
  // Key line 0 is the dataset's, line v + 1 view v's (builder/phases/jobs.ts).
  const lines: Map<number, Segment[]>[] = [];
  for (const runner of runners) {
    ((await runner.run({ type: 'flush' })) as [number, Segment[]][][]).forEach((partitions, line) => {
      const segments = (lines[line] ??= new Map());
      for (const [p, runs] of partitions) segments.set(p, [...(segments.get(p) ?? []), ...runs]);
    });
  }
  const tempBytes = lines.flatMap((m) => [...m.values()].flat()).reduce((sum, s) => sum + s.length, 0);
  progress.digested(headers.count, tempBytes);
  const [partitionSegments, ...viewPartitionSegments] = lines;
  return { headers, skipped, sources, partitionSegments, viewPartitionSegments };
}

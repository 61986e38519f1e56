// Tab-separated output of search results: one row per peptide–accession pair, and the streaming export of
// a whole mass range, shard by shard, with no paging and without holding the range in memory.
import type { Writable } from 'node:stream';
import type { Dataset } from './dataset.js';
import { accessionOf, accessionRefsOf, sequenceOf } from './format.js';
import { formatMassKey } from './keys.js';
import { firstGroupAbove, firstGroupAtOrAbove, type GroupRef } from './search.js';

export const TSV_COLUMNS = ['mass', 'sequence', 'accession', 'taxId'] as const;
export const TSV_HEADER = TSV_COLUMNS.join('\t') + '\n';

/** Rows of one mass group: mass key as the API writes it, sequence, accession, taxId (-1 when unknown). */
export function groupRows({ shard, group }: GroupRef): string {
  const mass = formatMassKey(shard.massKeys[group]);
  let rows = '';
  for (let p = group === 0 ? 0 : shard.groupEnds[group - 1]; p < shard.groupEnds[group]; p++) {
    const seq = sequenceOf(shard, p);
    for (const a of accessionRefsOf(shard, p)) rows += `${mass}\t${seq}\t${accessionOf(shard, a)}\t${shard.taxIds[a]}\n`;
  }
  return rows;
}

/** Writes a chunk, waiting for 'drain' when the stream's buffer is full; rejects when the stream fails or closes. */
export async function write(out: Writable, chunk: string): Promise<void> {
  if (out.destroyed) throw out.errored ?? new Error('output closed');
  if (out.write(chunk)) return;
  await new Promise<void>((resolve, reject) => {
    const settle = (error?: Error | null) => {
      out.off('drain', onDrain).off('error', onError).off('close', onClose);
      if (error) reject(error);
      else resolve();
    };
    const onDrain = () => settle();
    const onError = (e: Error) => settle(e);
    const onClose = () => settle(out.errored ?? new Error('output closed'));
    out.on('drain', onDrain).on('error', onError).on('close', onClose);
  });
}

/** Flush the rows gathered so far once they pass this many characters. */
const CHUNK_CHARS = 64 * 1024;

/**
 * Writes the header and every row of the mass groups with lowKey <= key <= highKey, in ascending mass.
 * Visits the range's shards one at a time (the dataset should be opened with a small cache, so only the
 * current shard is held) and returns the number of mass groups written.
 */
export async function exportRange(dataset: Dataset, lowKey: number, highKey: number, out: Writable): Promise<number> {
  await write(out, TSV_HEADER);
  if (lowKey > highKey) return 0;
  const [first, last] = await Promise.all([dataset.index.firstEndingAtOrAbove(lowKey), dataset.index.lastStartingAtOrBelow(highKey)]);
  if (!first || !last || first.index > last.index) return 0;
  let groups = 0;
  for (let located = first; ; ) {
    const shard = await dataset.shard(located.entry);
    const from = located.index === first.index ? firstGroupAtOrAbove(shard, lowKey) : 0;
    const to = located.index === last.index ? firstGroupAbove(shard, highKey) : shard.massKeys.length;
    let chunk = '';
    for (let group = from; group < to; group++) {
      chunk += groupRows({ shard, group });
      if (chunk.length >= CHUNK_CHARS) {
        await write(out, chunk);
        chunk = '';
      }
    }
    if (chunk) await write(out, chunk);
    groups += Math.max(0, to - from);
    if (located.index >= last.index) return groups;
    located = await dataset.index.shardOfGroup(located.groupsBefore + located.entry.massGroups);
  }
}

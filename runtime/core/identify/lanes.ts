// Identification in lanes: a file's batches identified elsewhere (worker threads, say), several at once, and
// yielded in file order — a BatchSource for identifyAll. Only platforms with threads load it.
import type { MatchOptions } from '../match/sweep.js';
import type { Malformed, MgfItem, Spectrum } from '../match/mgf.js';
import type { Dataset } from '../storage/dataset.js';
import { identifySpectra, type BatchSource, type IdentifiedBatch, type IdentifyQuery } from './identify.js';

/** `spectra` identified as one batch (identifySpectra). */
export async function identifyBatch(
  dataset: Dataset,
  query: IdentifyQuery,
  spectra: readonly Spectrum[],
  options: MatchOptions = {},
): Promise<IdentifiedBatch> {
  const items = (async function* () {
    for (const spectrum of spectra) yield { spectrum };
  })();
  let identified: IdentifiedBatch = { spectra: 0, psms: [], refused: [], cut: 0 };
  for await (const batch of identifySpectra(dataset, query, items, { ...options, batch: spectra.length }))
    identified = batch;
  return identified;
}

/** Identifies a batch of spectra as identifyBatch does: in a worker, say. */
export type BatchIdentifier = (spectra: Spectrum[]) => Promise<IdentifiedBatch>;

/** Batches identified elsewhere: `identify` takes `size` spectra at a time, `count` batches at once. */
export interface Lanes {
  identify: BatchIdentifier;
  count: number;
  size: number;
}

/**
 * The spectra of `items` identified as identifySpectra does, in file order, but each batch by `lanes.identify`,
 * `lanes.count` of them at once. A file of fewer than `lanes.size` spectra is identified here (`here`): starting
 * lanes would cost it more than they save.
 */
export async function* identifyInLanes(
  items: AsyncIterable<MgfItem>,
  lanes: Lanes,
  here: BatchIdentifier,
  malformed: (m: Malformed) => void,
): AsyncGenerator<IdentifiedBatch> {
  const pending: Promise<IdentifiedBatch>[] = [];
  const send = (spectra: Spectrum[]) => {
    const batch = lanes.identify(spectra);
    batch.catch(() => {}); // awaited in turn below; a later batch failing first must not go unhandled
    pending.push(batch);
  };
  let spectra: Spectrum[] = [];
  let sent = 0;
  for await (const item of items) {
    if ('malformed' in item) malformed(item.malformed);
    else if (spectra.push(item.spectrum) === lanes.size) {
      send(spectra);
      sent++;
      spectra = [];
      if (pending.length === lanes.count) yield await pending.shift()!;
    }
  }
  if (spectra.length > 0 && sent === 0) yield await here(spectra);
  else if (spectra.length > 0) send(spectra);
  while (pending.length > 0) yield await pending.shift()!;
}

/** identifyAll's batches in `lanes`, a file smaller than one identified here over `dataset`. */
export const inLanes =
  (dataset: Dataset, query: IdentifyQuery, lanes: Lanes, options: MatchOptions = {}): BatchSource =>
  (items, malformed) =>
    identifyInLanes(items, lanes, (spectra) => identifyBatch(dataset, query, spectra, options), malformed);

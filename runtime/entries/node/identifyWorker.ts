// A worker thread of identifyWorkers.ts: opens the dataset itself and identifies each batch of spectra it is sent,
// one at a time, answering with the batch's PSMs or the error's message.
import { parentPort, workerData } from 'node:worker_threads';
import type { IdentifyQuery } from '../../core/identify/identify.js';
import { identifyBatch } from '../../core/identify/lanes.js';
import type { Spectrum } from '../../core/match/mgf.js';
import { Dataset } from '../../core/storage/dataset.js';
import { nodeCodecs, sourceFor } from './platform.js';

/** What the worker is started with. */
export interface WorkerSetup {
  location: string;
  cacheBytes: number;
  query: IdentifyQuery;
  concurrency: number;
}

/** A batch to identify. */
export interface WorkerAsk {
  id: number;
  spectra: Spectrum[];
}

const setup = workerData as WorkerSetup;
const dataset = Dataset.open(sourceFor(setup.location), { cacheBytes: setup.cacheBytes, ...nodeCodecs });
dataset.catch(() => {}); // told with the first batch
let previous: Promise<void> = Promise.resolve();

parentPort!.on('message', ({ id, spectra }: WorkerAsk) => {
  previous = previous.then(async () => {
    try {
      const batch = await identifyBatch(await dataset, setup.query, spectra, { concurrency: setup.concurrency });
      parentPort!.postMessage({ id, batch });
    } catch (e) {
      parentPort!.postMessage({ id, error: e instanceof Error ? e.message : String(e) });
    }
  });
});

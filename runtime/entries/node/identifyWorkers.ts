// Identification on every core: worker threads (identifyWorker.ts, on threadPool.ts) that each open the dataset and
// identify the batches they are sent, as lanes of the core's identifyAll.
import type { IdentifiedBatch, IdentifyQuery } from '../../core/identify/identify.js';
import type { Lanes } from '../../core/identify/lanes.js';
import type { Spectrum } from '../../core/match/mgf.js';
import { siblingModule, ThreadPool, type DatasetSetup } from './threadPool.js';

/**
 * Worker threads identifying batches for identifyAll, each batch to the worker with the fewest in hand. They start
 * with the first batch: a file smaller than a batch is identified where it is read.
 */
export class IdentifyWorkers {
  private readonly pool: ThreadPool<Spectrum[], IdentifiedBatch>;

  /** `threads` workers over the dataset `setup` says. */
  constructor(setup: DatasetSetup<IdentifyQuery>, threads: number) {
    this.pool = new ThreadPool(siblingModule('identifyWorker'), setup, threads, 'an identification thread');
  }

  /** identifyAll's lanes for batches of `batch` spectra: each worker takes its share, one at a time. */
  lanes(batch: number): Lanes {
    return {
      identify: (spectra) => this.identify(spectra),
      count: this.pool.threads,
      size: Math.ceil(batch / this.pool.threads),
    };
  }

  /** The batch identified by the worker with the fewest batches in hand. */
  identify(spectra: Spectrum[]): Promise<IdentifiedBatch> {
    return this.pool.run(spectra);
  }

  /** Stops the workers. */
  close(): Promise<void> {
    return this.pool.close();
  }
}

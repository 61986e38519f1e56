// Identification on every core: worker threads (identifyWorker.ts) that each open the dataset and identify the
// batches they are sent, as lanes of the core's identifyAll.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { IdentifiedBatch } from '../../core/identify/identify.js';
import type { Lanes } from '../../core/identify/lanes.js';
import type { Spectrum } from '../../core/match/mgf.js';
import type { WorkerAsk, WorkerSetup } from './identifyWorker.js';

/** Threads an identification uses unless told otherwise: one per core. */
export const defaultThreads = (): number => availableParallelism();

/** A worker's answer to a batch. */
type WorkerSays = { id: number; batch: IdentifiedBatch } | { id: number; error: string };

interface Pending {
  resolve: (batch: IdentifiedBatch) => void;
  reject: (e: Error) => void;
}

/**
 * A worker running `module`. Node entries run their TypeScript through tsx, whose hooks a worker thread does not
 * inherit: the worker registers them before it loads the module.
 */
function moduleWorker(module: URL, workerData: WorkerSetup): Worker {
  if (!module.pathname.endsWith('.ts')) return new Worker(module, { workerData });
  const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  const code = `import(${tsx}).then((api) => { api.register(); return import(${JSON.stringify(module.href)}); });`;
  return new Worker(code, { eval: true, workerData });
}

/**
 * Worker threads identifying batches for identifyAll, each batch to the worker with the fewest in hand. They start
 * with the first batch: a file smaller than a batch is identified where it is read.
 */
export class IdentifyWorkers {
  private readonly workers: { worker: Worker; pending: Map<number, Pending> }[] = [];
  private next = 0;

  /** `threads` workers over the dataset `setup` says. */
  constructor(
    private readonly setup: WorkerSetup,
    private readonly threads: number,
  ) {}

  private start(): void {
    const module = new URL(`./identifyWorker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);
    for (let i = 0; i < this.threads; i++) {
      const worker = moduleWorker(module, this.setup);
      const pending = new Map<number, Pending>();
      worker.on('message', (says: WorkerSays) => {
        const asked = pending.get(says.id)!;
        pending.delete(says.id);
        if ('error' in says) asked.reject(new Error(says.error));
        else asked.resolve(says.batch);
      });
      const fail = (e: Error) => {
        for (const asked of pending.values()) asked.reject(e);
        pending.clear();
      };
      worker.on('error', fail);
      worker.on('exit', (code) => fail(new Error(`an identification thread stopped (exit code ${code})`)));
      this.workers.push({ worker, pending });
    }
  }

  /** identifyAll's lanes for batches of `batch` spectra: each worker takes its share, one at a time. */
  lanes(batch: number): Lanes {
    return {
      identify: (spectra) => this.identify(spectra),
      count: this.threads,
      size: Math.ceil(batch / this.threads),
    };
  }

  /** The batch identified by the worker with the fewest batches in hand. */
  identify(spectra: Spectrum[]): Promise<IdentifiedBatch> {
    if (this.workers.length === 0) this.start();
    const { worker, pending } = this.workers.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
    const id = this.next++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      worker.postMessage({ id, spectra } satisfies WorkerAsk);
    });
  }

  /** Stops the workers. */
  async close(): Promise<void> {
    await Promise.all(this.workers.map(({ worker }) => worker.terminate()));
  }
}

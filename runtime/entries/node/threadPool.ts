// Worker threads for the commands that use every core: each thread runs a module that opens the dataset once and
// answers the asks it is sent one at a time (serveAsks); the pool sends each ask to the thread with the fewest in
// hand. Identification and fingerprinting run on it.
import { availableParallelism } from 'node:os';
import { parentPort, Worker, workerData } from 'node:worker_threads';
import { Dataset } from '../../core/storage/dataset.js';
import { nodeCodecs, sourceFor } from './platform.js';

/** Threads a command uses unless told otherwise: one per core. */
export const defaultThreads = (): number => availableParallelism();

/** An ask as it travels, and its answer or the error's message. */
type Sent<Ask> = { id: number; ask: Ask };
type Said<Answer> = { id: number; answer: Answer } | { id: number; error: string };

interface Pending<Answer> {
  resolve: (answer: Answer) => void;
  reject: (e: Error) => void;
}

/**
 * A worker running `module`. Node entries run their TypeScript through tsx, whose hooks a worker thread does not
 * inherit: the worker registers them before it loads the module.
 */
function moduleWorker(module: URL, workerData: unknown): Worker {
  if (!module.pathname.endsWith('.ts')) return new Worker(module, { workerData });
  const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  const code = `import(${tsx}).then((api) => { api.register(); return import(${JSON.stringify(module.href)}); });`;
  return new Worker(code, { eval: true, workerData });
}

/** `threads` workers running `module` (given `setup` as their workerData), started with the first ask. */
export class ThreadPool<Ask, Answer> {
  private readonly workers: { worker: Worker; pending: Map<number, Pending<Answer>> }[] = [];
  private next = 0;

  constructor(
    private readonly module: URL,
    private readonly setup: unknown,
    readonly threads: number,
    /** What a thread does, for the message when one stops: "an identification thread". */
    private readonly what: string,
  ) {}

  private start(): void {
    for (let i = 0; i < this.threads; i++) {
      const worker = moduleWorker(this.module, this.setup);
      const pending = new Map<number, Pending<Answer>>();
      worker.on('message', (said: Said<Answer>) => {
        const asked = pending.get(said.id)!;
        pending.delete(said.id);
        if ('error' in said) asked.reject(new Error(said.error));
        else asked.resolve(said.answer);
      });
      const fail = (e: Error) => {
        for (const asked of pending.values()) asked.reject(e);
        pending.clear();
      };
      worker.on('error', fail);
      worker.on('exit', (code) => fail(new Error(`${this.what} stopped (exit code ${code})`)));
      this.workers.push({ worker, pending });
    }
  }

  /** The answer of the thread with the fewest asks in hand. */
  run(ask: Ask): Promise<Answer> {
    if (this.workers.length === 0) this.start();
    const { worker, pending } = this.workers.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
    const id = this.next++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      worker.postMessage({ id, ask } satisfies Sent<Ask>);
    });
  }

  /** Stops the threads. */
  async close(): Promise<void> {
    await Promise.all(this.workers.map(({ worker }) => worker.terminate()));
  }
}

/** What a pool's thread is started with: the dataset to open, how, and the query it answers. */
export interface DatasetSetup<Query> {
  location: string;
  cacheBytes: number;
  query: Query;
  concurrency: number;
}

/**
 * In a pool's thread: opens the dataset its setup names, then answers each ask with `answer`, one at a time, an error
 * (the dataset's own included) by its message.
 */
export function serveAsks<Query, Ask, Answer>(
  answer: (dataset: Dataset, setup: DatasetSetup<Query>, ask: Ask) => Promise<Answer>,
): void {
  const setup = workerData as DatasetSetup<Query>;
  const dataset = Dataset.open(sourceFor(setup.location), { cacheBytes: setup.cacheBytes, ...nodeCodecs });
  dataset.catch(() => {}); // told with the first ask
  let previous: Promise<void> = Promise.resolve();
  parentPort!.on('message', ({ id, ask }: Sent<Ask>) => {
    previous = previous.then(async () => {
      try {
        parentPort!.postMessage({ id, answer: await answer(await dataset, setup, ask) } satisfies Said<Answer>);
      } catch (e) {
        parentPort!.postMessage({ id, error: e instanceof Error ? e.message : String(e) } satisfies Said<Answer>);
      }
    });
  });
}

/** A module of this folder by name, as tsx runs it (.ts) or as built (.js). */
export const siblingModule = (name: string): URL =>
  new URL(`./${name}${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);

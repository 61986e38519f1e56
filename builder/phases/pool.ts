// A fixed set of job runners, in worker threads or (threads = 0) in process, each answering in order.
import { Worker } from 'node:worker_threads';
import { createJobRunner, type Job, type JobResult, type RunnerConfig } from './jobs.js';

export interface Runner {
  run(job: Job): Promise<JobResult>;
  /** Jobs sent and not yet answered. */
  pending: number;
  close(): Promise<void>;
}

function inProcessRunner(config: RunnerConfig): Runner {
  const run = createJobRunner(config);
  return {
    pending: 0,
    run: async (job) => run(job),
    close: async () => {},
  };
}

function threadRunner(config: RunnerConfig): Runner {
  // The bootstrap runs the TypeScript worker through tsx, like the CLI itself.
  const worker = new Worker(new URL('./worker.mjs', import.meta.url), { workerData: config });
  const waiting: { resolve: (r: JobResult) => void; reject: (e: Error) => void }[] = [];
  let crashed: Error | undefined;
  worker.on('message', (message: { result?: JobResult; error?: string }) => {
    const next = waiting.shift()!;
    runner.pending--;
    if (message.error !== undefined) next.reject(new Error(message.error));
    else next.resolve(message.result ?? null);
  });
  worker.on('error', (e) => {
    crashed = e;
    for (const w of waiting.splice(0)) w.reject(e);
  });
  const runner: Runner = {
    pending: 0,
    run: (job) =>
      new Promise((resolve, reject) => {
        if (crashed) return reject(crashed);
        waiting.push({ resolve, reject });
        runner.pending++;
        worker.postMessage(job);
      }),
    close: async () => {
      await worker.terminate();
    },
  };
  return runner;
}

/** `threads` runners named w0, w1, ...; threads = 0 gives one in-process runner. */
export function createRunners(threads: number, config: Omit<RunnerConfig, 'name'>): Runner[] {
  if (threads === 0) return [inProcessRunner({ ...config, name: 'w0' })];
  return Array.from({ length: threads }, (_, i) => threadRunner({ ...config, name: `w${i}` }));
}

/** The runner with the fewest jobs waiting. */
export function leastBusy(runners: readonly Runner[]): Runner {
  return runners.reduce((best, r) => (r.pending < best.pending ? r : best));
}

/** The same promise, marked as handled: a failure surfaces where it is awaited, not as an unhandled rejection. */
export function settled<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => {});
  return promise;
}

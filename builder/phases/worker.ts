// Worker-thread entry: runs build jobs (builder/phases/jobs.ts) sent by the pool and posts each result back.
import { parentPort, workerData } from 'node:worker_threads';
import { createJobRunner, transferList, type Job, type RunnerConfig } from './jobs.js';

const run = createJobRunner(workerData as RunnerConfig);
parentPort!.on('message', (job: Job) => {
  try {
    const result = run(job);
    parentPort!.postMessage({ result }, transferList(result));
  } catch (e) {
    parentPort!.postMessage({ error: e instanceof Error ? e.message : String(e) });
  }
});

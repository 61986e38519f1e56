// Builds the datasets several test files share once per run, two at a time, before the test files start: each is
// then read from the content-keyed cache instead of one file building it while others wait for its lock. A run of
// chosen files (`vitest run <filter>`) skips this and builds only what those files ask for.
import { SHARED_DATASETS } from './helpers/datasets.js';

const chosenFiles = process.argv.slice(2).some((arg) => !arg.startsWith('-') && arg !== 'run');

export default async function setup(): Promise<void> {
  if (chosenFiles) return;
  const queue = [...SHARED_DATASETS];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) await next();
  };
  await Promise.all([worker(), worker()]);
}

// The sweep of a batch of precursor searches: every hypothesis of every search (precursor.ts), run in the order of
// the unmodified masses they read, a few reads ahead, so the hypotheses needing a shard come together and each shard
// is read once while it is in use, whatever the order of the searches and the cache's size. What each search finds
// goes to a sink of its own: a match batch's candidate columns, or a fingerprint's tallies.
import { InvalidQuery } from '../errors.js';
import { compile, needsOf, scanHypothesis, type FoundSink, type Needs } from '../precursor/precursor.js';
import { hypothesesOf } from '../precursor/searchPlan.js';
import type { Dataset } from '../storage/dataset.js';
import type { Tasks } from './matchColumns.js';
import type { MatchQuery, PrecursorSearch } from './matchQuery.js';

export interface MatchOptions {
  /** Shard reads in flight, about: the sweep runs HYPOTHESES_PER_READ times as many hypotheses at once. Default 6. */
  concurrency?: number;
  /** Called after each hypothesis, with the hypotheses done and to do in this batch (of all its searches). */
  progress?: (done: number, total: number) => void;
  /** Most stored peptides the whole batch may examine (a server's bound on one request); past it, InvalidQuery. */
  maxScanned?: number;
}

/**
 * About how many hypotheses of a sweep need one shard (in a large batch of narrow searches): how many run at once per
 * read.
 */
const HYPOTHESES_PER_READ = 16;

/**
 * Runs the hypotheses of `searches` (added to `tasks`) as one sweep, each search's finds going to the sink `sinkOf`
 * makes for it; returns why each search was refused (undefined for those that were not): its own error, too many
 * hypotheses, or too many peptides to examine. Past options.maxScanned in all, the whole batch is refused.
 */
export async function sweepSearches(
  dataset: Dataset,
  query: Pick<MatchQuery, 'fixed' | 'variable' | 'maxVariable'>,
  searches: readonly PrecursorSearch[],
  tasks: Tasks,
  sinkOf: (search: number) => FoundSink,
  options: MatchOptions,
): Promise<(string | undefined)[]> {
  const errors: (string | undefined)[] = searches.map((s) => s.error);
  const sinks: FoundSink[] = [];
  searches.forEach((search, s) => {
    if (errors[s]) return;
    try {
      for (const h of hypothesesOf(dataset, {
        ...search,
        fixed: query.fixed,
        variable: query.variable,
        maxVariable: query.maxVariable,
      }))
        tasks.add(s, h);
      sinks[s] = sinkOf(s);
    } catch (e) {
      if (!(e instanceof InvalidQuery)) throw e;
      errors[s] = e.message;
    }
  });
  const order = tasks.inSweepOrder();

  const compiled = compile(query);
  /** What a peptide must offer, by counts id: it depends on the counts alone, so it is worked out once per counts. */
  const needs: Needs[] = [];
  let next = 0;
  let scanned = 0;
  /** Takes the tasks in order, one at a time: at once while their shards are cached, else waiting for its reads. */
  const sweep = async (): Promise<void> => {
    while (next < order.length) {
      const t = order[next++];
      const s = tasks.search.data[t];
      if (errors[s] === undefined) {
        const sink = sinks[s];
        const before = sink.scanned;
        const h = tasks.hypothesis(t);
        const id = tasks.countsId.data[t];
        try {
          const read = scanHypothesis(dataset, searches[s], h, (needs[id] ??= needsOf(compiled, h)), id, sink);
          if (read) await read;
        } catch (e) {
          if (!(e instanceof InvalidQuery)) throw e;
          errors[s] = e.message; // this search is refused (too many peptides to examine); the others go on
        }
        if ((scanned += sink.scanned - before) > (options.maxScanned ?? Infinity)) {
          next = order.length; // the batch is refused: no task is started again
          throw new InvalidQuery(
            `these masses would examine more than ${options.maxScanned!.toLocaleString('en')} stored peptides in all; send fewer, or narrow the tolerance or the variable modifications`,
          );
        }
      }
      options.progress?.(next, order.length);
    }
  };
  await Promise.all(Array.from({ length: (options.concurrency ?? 6) * HYPOTHESES_PER_READ }, sweep));
  return errors;
}

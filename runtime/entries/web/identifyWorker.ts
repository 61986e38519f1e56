// The page's identification on the browser data path, in a Web Worker so that scoring a large file never freezes
// the page: the dataset under shards/ opened here (kept for the next file), the file read as a stream (gunzipped when
// it is gzip), identifyAll run batch by batch with its progress posted, and the answer posted as the same JSON
// POST /api/v1/identify and `npm run query -- identify --format json` write. Bundled as its own script (bundle.ts).
import { identificationJson } from '../../api/identifyJson.js';
import { identifyAll } from '../../core/identify/identification.js';
import type { IdentifyQuery } from '../../core/identify/identify.js';
import { MATCH_CACHE_BYTES } from '../../core/match/match.js';
import { Eta } from '../../model/eta.js';
import { Dataset } from '../../core/storage/dataset.js';
import { browserSource } from '../browser/source.js';
import { noSpectra, openPeakFile, PeakFileError, peakItems } from './peakFile.js';

/** What the page asks: identify `file` with `query` (/api/v1/identify's, parsed) over the dataset at `shards`. */
export interface IdentifyAsk {
  file: Blob;
  name: string;
  query: IdentifyQuery;
  /** The dataset's folder, an absolute URL (the worker's own location is its script's). */
  shards: string;
  /** Spectra scored per batch: progress moves after each. */
  batch: number;
}

/** Progress through the file: bytes of it read, spectra read and scored, and the seconds left when known. */
export interface IdentifyProgress {
  type: 'progress';
  bytes: number;
  size: number;
  read: number;
  scored: number;
  secondsLeft?: number;
}

/** What the worker says: progress, then the answer's JSON text or one message (`file`: the file is at fault). */
export type IdentifySays =
  | IdentifyProgress
  | { type: 'done'; json: string }
  | { type: 'error'; message: string; file?: boolean };

interface WorkerScope {
  postMessage(message: IdentifySays): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<IdentifyAsk>) => void): void;
}
const scope = self as unknown as WorkerScope;

/** Progress is posted at most this often (ms): scoring calls back after every hypothesis. */
const PROGRESS_EVERY = 150;

/** The dataset of the last file's folder, kept open: the next file reuses its index and decoded shards. */
let open: { shards: string; dataset: Promise<Dataset> } | undefined;

function datasetAt(shards: string): Promise<Dataset> {
  if (open?.shards !== shards) {
    const dataset = Dataset.open(browserSource(shards), { cacheBytes: MATCH_CACHE_BYTES });
    open = { shards, dataset };
    dataset.catch(() => (open = undefined));
  }
  return open.dataset;
}

async function identify(ask: IdentifyAsk): Promise<string> {
  const { query } = ask;
  const file = await openPeakFile(ask.file, ask.name);
  let dataset: Dataset;
  try {
    dataset = await datasetAt(ask.shards);
  } catch (e) {
    throw new Error(`the dataset under shards/ cannot be read (${(e as Error).message})`);
  }
  const started = performance.now();
  const eta = new Eta(started);
  const state: IdentifyProgress = { type: 'progress', bytes: 0, size: ask.file.size, read: 0, scored: 0 };
  let posted = 0;
  const post = (force = false) => {
    const now = performance.now();
    state.secondsLeft = eta.update(state.bytes, state.size, now);
    if (force || now - posted >= PROGRESS_EVERY) {
      posted = now;
      scope.postMessage(state);
    }
  };
  const items = async function* () {
    for await (const item of peakItems(file, true, (bytes) => (state.bytes = bytes))) {
      if ('spectrum' in item) state.read++;
      yield item;
    }
  };
  const result = await identifyAll(dataset, query, items(), {
    batch: ask.batch,
    progress: () => post(),
    onBatch: (done) => {
      state.scored = done;
      post(true);
    },
  });
  if (result.spectra === 0) {
    const first = result.malformed[0];
    throw new PeakFileError(
      first
        ? `${ask.name} holds no spectrum that can be read (${result.malformed.length} malformed; the first: ${first.error})`
        : noSpectra(ask.name),
    );
  }
  return JSON.stringify(identificationJson(result, ask.name));
}

scope.addEventListener('message', (event) => {
  identify(event.data).then(
    (json) => scope.postMessage({ type: 'done', json }),
    (e: unknown) =>
      scope.postMessage({
        type: 'error',
        message: e instanceof Error ? e.message : String(e),
        file: e instanceof PeakFileError || undefined,
      }),
  );
});

// How the page identifies a file on either data path: on the browser path in its worker (identifyWorker.ts, at the
// content-hashed name the build writes into index.html), on the API path by POST /api/v1/identify with the file as
// the body — after checking here what the API would refuse (not a peak list, over its limits), so the page never
// sends a request it knows to be refused. Both give the same JSON. A new run cancels the one before.
import { MAX_IDENTIFY_SPECTRA, parseIdentifyQuery } from '../../api/identifyParams.js';
import { MAX_MATCH_BODY_BYTES } from '../../api/matchParams.js';
import { durationText } from '../../model/eta.js';
import { here, isApi } from './dataPath.js';
import type { IdentifyAsk, IdentifySays } from './identifyWorker.js';
import { countSpectra, noSpectra, openPeakFile, PeakFileError, type PeakFile } from './peakFile.js';

/** Why a run failed, said once: `file` when the file is at fault, `overLimit` when it is over the API's limits. */
export class RunError extends Error {
  constructor(
    message: string,
    readonly file = false,
    readonly overLimit = false,
  ) {
    super(message);
  }
}

/** A run superseded by another: nobody shows it. */
export class Cancelled extends Error {}

/** Where a run stands, as shown: a line of text and how far through the file (0–1) when known. */
export interface RunProgress {
  text: string;
  fraction?: number;
}

/** Spectra the worker scores per batch: progress moves after each. */
const BATCH = 500;

const number = (n: number) => n.toLocaleString('en-US');
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

/** The worker's script, as index.html names it. */
const workerUrl = () => document.querySelector('meta[name="identify-worker"]')?.getAttribute('content');

export class IdentifyRunner {
  private worker: Worker | undefined;
  private working = false;
  private abort: AbortController | undefined;
  private fail: ((e: Error) => void) | undefined;

  /** Stops the run under way, if any (its worker is ended; an idle worker is kept with its dataset open). */
  cancel(): void {
    this.abort?.abort();
    if (this.working) {
      this.worker?.terminate();
      this.worker = undefined;
      this.working = false;
    }
    this.fail?.(new Cancelled());
    this.fail = undefined;
  }

  /** The answer's JSON text for `file` with `query` (/api/v1/identify's), and the path that answered. */
  async run(
    file: File,
    query: string,
    path: 'api' | 'browser',
    progress: (p: RunProgress) => void,
  ): Promise<{ json: string; path: 'api' | 'browser' }> {
    this.cancel();
    const abort = (this.abort = new AbortController());
    if (path === 'api') {
      const json = await this.overApi(file, query, progress, abort.signal);
      if (json !== undefined) return { json, path };
    }
    return { json: await this.inBrowser(file, query, progress), path: 'browser' };
  }

  /** The API's answer, with each PSM's filename the file's (the API names it `request`); undefined: no API here. */
  private async overApi(
    file: File,
    query: string,
    progress: (p: RunProgress) => void,
    signal: AbortSignal,
  ): Promise<string | undefined> {
    progress({ text: `Checking ${file.name}…` });
    let peaks: PeakFile;
    let spectra: number;
    try {
      peaks = await openPeakFile(file, file.name);
      if (file.size > MAX_MATCH_BODY_BYTES)
        throw new RunError(
          `${file.name} is ${mib(file.size)}: the site’s API takes files of at most ${mib(MAX_MATCH_BODY_BYTES)}. This browser can identify it instead.`,
          true,
          true,
        );
      spectra = await countSpectra(peaks, MAX_IDENTIFY_SPECTRA);
    } catch (e) {
      throw e instanceof PeakFileError ? new RunError(e.message, true) : e;
    }
    if (signal.aborted) throw new Cancelled();
    if (spectra > MAX_IDENTIFY_SPECTRA)
      throw new RunError(
        `${file.name} holds more than ${number(MAX_IDENTIFY_SPECTRA)} spectra: the site’s API takes at most ${number(MAX_IDENTIFY_SPECTRA)} per file. This browser can identify it instead.`,
        true,
        true,
      );
    if (spectra === 0) throw new RunError(noSpectra(file.name), true);
    progress({ text: `${number(spectra)} spectra sent to the site’s API, being identified there…` });
    let response: Response;
    let text: string;
    try {
      response = await fetch(new URL(`./api/v1/identify?${query}`, here()), {
        method: 'POST',
        body: file,
        headers: { 'Content-Type': 'application/octet-stream', Accept: 'application/json' },
        signal,
      });
      text = await response.text();
    } catch {
      if (signal.aborted) throw new Cancelled();
      return undefined; // unreachable: the browser identifies it, as other answers fall back
    }
    if (!isApi({ status: response.status, text }, response.headers.get('Content-Type') ?? '')) return undefined;
    const answer = JSON.parse(text) as { error?: string; psms?: { filename: string }[] };
    if (response.status !== 200) throw new RunError(answer.error ?? `the API answered ${response.status}`);
    for (const psm of answer.psms ?? []) psm.filename = file.name;
    return JSON.stringify(answer);
  }

  /** The worker's answer; the worker is started on the first run and kept. */
  private inBrowser(file: File, query: string, progress: (p: RunProgress) => void): Promise<string> {
    const url = workerUrl();
    if (!url) return Promise.reject(new RunError('this page was built without its identification worker'));
    const worker = (this.worker ??= new Worker(new URL(url, document.baseURI)));
    this.working = true;
    return new Promise<string>((resolve, reject) => {
      this.fail = reject;
      const end = () => {
        this.working = false;
        this.fail = undefined;
      };
      worker.onmessage = (event: MessageEvent<IdentifySays>) => {
        const said = event.data;
        if (said.type === 'progress')
          return progress({
            text: `${number(said.read)} spectra read, ${number(said.scored)} scored · ${Math.floor((100 * said.bytes) / (said.size || 1))} % of the file · about ${durationText(said.secondsLeft)} left`,
            fraction: said.bytes / (said.size || 1),
          });
        end();
        if (said.type === 'done') resolve(said.json);
        else reject(new RunError(said.message, said.file));
      };
      worker.onerror = (event) => {
        event.preventDefault(); // said on the page, not as an uncaught error in the console
        end();
        this.worker?.terminate();
        this.worker = undefined;
        reject(
          new RunError(
            `this browser could not run the identification (${event.message || 'its worker did not start'})`,
          ),
        );
      };
      // Parsed here, where the API's parameter tables already are: the worker stays without them.
      let parsed: IdentifyAsk['query'];
      try {
        parsed = parseIdentifyQuery((name) => new URLSearchParams(query).getAll(name));
      } catch (e) {
        end();
        return reject(new RunError((e as Error).message));
      }
      const ask: IdentifyAsk = {
        file,
        name: file.name,
        query: parsed,
        shards: new URL('shards/', here()).href,
        batch: BATCH,
      };
      progress({ text: `Reading ${file.name}…`, fraction: 0 });
      worker.postMessage(ask);
    });
  }
}

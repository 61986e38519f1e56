// The dataset under a page's folder, over the page's fetch, and the page's memory: what a page or a worker needs to
// read a dataset without the API (a Web Worker that imports only these stays free of the API's tables).
import { HttpSource, type HttpSourceOptions } from '../../core/storage/source.js';

/** The JS heap in use where the browser tells it (Chromium's performance.memory), else 0. */
export const pageMemory = (): number =>
  (performance as { memory?: { usedJSHeapSize?: number } }).memory?.usedJSHeapSize ?? 0;

/** The dataset folder at `baseUrl` (relative to the page) over the page's fetch. */
export function browserSource(baseUrl: string | URL, options: HttpSourceOptions = {}): HttpSource {
  return new HttpSource(new URL(baseUrl, globalThis.location?.href), options);
}

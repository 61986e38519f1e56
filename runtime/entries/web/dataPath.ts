// Where the page's answers come from, one code for two data paths: the site's API (npm start, Netlify), or, on a
// static host, the same API handler run in this browser over the dataset's files under shards/. Either way the page
// gets the API's status and JSON text for an API path and renders it alike. The site's index.html says whether
// it has the API, so a static host is never asked for a path it does not have.
import { createHandler, datasetOnce, type OpenDataset } from '../../api/handler.js';
import { ENDPOINTS } from '../../api/endpoints.js';
import { QueryError } from '../../api/params.js';
import { browserSource, pageMemory } from '../browser/index.js';

/** `auto` follows what the site says it serves (see chooseDataPath); the others force a path. */
export type PathSetting = 'auto' | 'api' | 'browser';
export const PATH_SETTINGS: readonly PathSetting[] = ['auto', 'api', 'browser'];

export interface Answer {
  status: number;
  text: string;
  /** Milliseconds from asking to the whole answer. */
  ms: number;
}

export interface DataPath {
  kind: 'api' | 'browser';
  /** Answers an API path (`/api/v1/…?…`, from the site's root). */
  ask(path: string): Promise<Answer>;
}

/** The page's folder: API paths and shards/ are relative to it, so the page may live below a site's root. */
export const here = () => new URL('.', document.baseURI);

/** The dataset under shards/, opened once for this page (the browser path's handler and the home view share it). */
export const pageDataset: OpenDataset = datasetOnce(() => browserSource(new URL('shards/', here())));

const timed = async (answer: () => Promise<Response>): Promise<Answer> => {
  const started = performance.now();
  const response = await answer();
  const text = await response.text();
  return { status: response.status, text, ms: performance.now() - started };
};

/** Whether an answer is the API's: JSON, and an error's body `{"error": "<message>"}` (a static host's 404 page, in HTML or in its own JSON, is not). */
export function isApi(answer: Pick<Answer, 'status' | 'text'>, type: string): boolean {
  if (!type.includes('json')) return false;
  if (answer.status < 400) return true;
  try {
    return typeof (JSON.parse(answer.text) as { error?: unknown }).error === 'string';
  } catch {
    return false;
  }
}

/**
 * The API's refusal of a query whose parameters alone refuse it, found by the parser the API runs (same status and
 * message), so the page does not send it: a refused request would be logged in the browser's console.
 */
export function refusal(path: string): Answer | undefined {
  const url = new URL(path, 'https://page.invalid/');
  const endpoint = ENDPOINTS.find((e) => e.path === url.pathname);
  try {
    if (endpoint) endpoint.parse((name) => url.searchParams.getAll(name));
    return undefined;
  } catch (e) {
    if (!(e instanceof QueryError)) throw e;
    return { status: e.status, text: JSON.stringify({ error: e.message }), ms: 0 };
  }
}

/** The site's API over HTTP (queries refused by their parameters alone are answered here); an answer that is not the API's rejects. */
function apiPath(): DataPath {
  return {
    kind: 'api',
    ask: async (path) => {
      const refused = refusal(path);
      if (refused) return refused;
      let type = '';
      const answer = await timed(async () => {
        const response = await fetch(new URL(`.${path}`, here()), { headers: { Accept: 'application/json' } });
        type = response.headers.get('Content-Type') ?? '';
        return response;
      });
      if (!isApi(answer, type))
        throw new Error(`the site answered ${path.split('?')[0]} with ${answer.status}, not the API`);
      return answer;
    },
  };
}

/** The API's handler in this page, over shards/ (the same handler Node and Netlify run). */
function browserPath(): DataPath {
  const handler = createHandler(pageDataset, { memory: pageMemory });
  return { kind: 'browser', ask: (path) => timed(() => handler(new Request(new URL(path, 'https://page.invalid/')))) };
}

/** The site's API while it answers; from its first failure on (no API, unreachable), the browser. */
function apiOrBrowser(): DataPath {
  const api = apiPath();
  let browser: DataPath | undefined;
  const path: DataPath = {
    kind: 'api',
    ask: async (p) => {
      if (!browser) {
        try {
          return await api.ask(p);
        } catch {
          browser = browserPath();
          path.kind = 'browser';
        }
      }
      return browser.ask(p);
    },
  };
  return path;
}

/**
 * What the site says it serves, in its index.html (`<meta name="data-path" content="api">`, written by the build
 * for npm start and Netlify); a page without it — a plain static host — reads the dataset itself.
 */
const siteHasApi = () => document.querySelector('meta[name="data-path"]')?.getAttribute('content') === 'api';

/** The data path a setting picks: `auto` follows the site (an API site falls back to the browser if its API fails). */
export function chooseDataPath(setting: PathSetting): DataPath {
  if (setting === 'api') return apiPath();
  if (setting === 'browser' || !siteHasApi()) return browserPath();
  return apiOrBrowser();
}

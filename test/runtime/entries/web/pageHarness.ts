// What the browser tests of the page share: the sites it is served from (npm start's listener with the API; a plain
// static host of the page and the dataset; a site whose page says it has the API on a host that has none), Chromium,
// what the page shows read from its DOM, and what it should show: the Node handler's answers over the same folder.
// A test worker runs its files one after another in one process: Chromium, the page's builds and the sites are made
// once per worker, when a file first asks, and shared by the files (each opens browser contexts of its own).
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import serveHandler from 'serve-handler';
import { createAnswerer, datasetOnce, type Handler } from '../../../../runtime/api/handler.js';
import { createListener } from '../../../../runtime/entries/node/server.js';
import { FileSource } from '../../../../runtime/entries/node/fileSource.js';
import { buildWebPage, writeWebPage, type WebPage } from '../../../../runtime/entries/web/bundle.js';
import { isobaricPath, modifiedPeptideMass, stateOfQuery } from '../../../../runtime/entries/web/state.js';
import { folderHandler, listen } from '../../../helpers/api.js';
import { exitOnSigterm } from '../../../helpers/chromium.js';
import { bundledDataset } from '../../../helpers/datasets.js';
import { prng } from '../../../helpers/prng.js';

export { sharedChromium } from '../../../helpers/chromium.js';

/** Folders of this worker's static sites, removed when it exits. */
const siteFolders: string[] = [];
let exitHooked = false;
/** Removes the sites' folders when the worker ends (SIGTERM included). */
function cleanUpOnExit(): void {
  if (exitHooked) return;
  exitHooked = true;
  exitOnSigterm();
  process.on('exit', () => {
    for (const dir of siteFolders.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
}

export type Site = 'api' | 'static' | 'gone';

let handler: Promise<Handler> | undefined;
/** The API over the bundled dataset's folder, in Node. */
const nodeHandler = () => (handler ??= bundledDataset().then((dir) => folderHandler(dir)));

const pages = new Map<boolean, Promise<WebPage>>();
/** The page as built for a site with the API beside it (`api`) or without; built once per worker. */
export function webPage(api: boolean): Promise<WebPage> {
  let page = pages.get(api);
  if (!page) pages.set(api, (page = buildWebPage(api ? { api } : {})));
  return page;
}

/** Serves `listener` for the rest of the worker (a listening server does not keep it alive); resolves to its base URL. */
async function serveShared(listener: Parameters<typeof listen>[0]): Promise<string> {
  const { server, base } = await listen(listener);
  server.unref();
  return base;
}

/** npm start's listener: the API over the dataset in `dir`, and `page`. */
export const npmStart = (dir: string, page: WebPage) =>
  createListener(dir, createAnswerer(datasetOnce(() => new FileSource(dir))), page);

/** A static host (serve-handler: its 404s are HTML pages) of `page`'s files with the dataset under shards/. */
function staticSite(page: WebPage, dataset: string): Promise<string> {
  cleanUpOnExit();
  const site = mkdtempSync(join(tmpdir(), 'dp-test-site-'));
  siteFolders.push(site);
  writeWebPage(page, site);
  symlinkSync(dataset, join(site, 'shards'));
  return serveShared(
    (req, res) => void serveHandler(req, res, { public: site, symlinks: true, directoryListing: false }),
  );
}

const servedSites = new Map<string, Promise<string>>();
/** The base URL of `site` over the dataset in `dir`, started when first asked for in this worker. */
function serveSite(site: Site, dir: string): Promise<string> {
  const key = JSON.stringify([site, dir]);
  let base = servedSites.get(key);
  if (!base) {
    base = webPage(site !== 'static').then((page) =>
      site === 'api' ? serveShared(npmStart(dir, page)) : staticSite(page, dir),
    );
    servedSites.set(key, base);
  }
  return base;
}

/**
 * The base URLs of `options.sites` (all three unless told) over the bundled dataset (or the built dataset in
 * `options.dataset`); they serve until the worker exits.
 */
export async function serveSites(
  options: { dataset?: string; sites?: readonly Site[] } = {},
): Promise<{ bases: Record<Site, string> }> {
  const dir = options.dataset ?? (await bundledDataset());
  const sites = options.sites ?? (['api', 'static', 'gone'] as const);
  const bases = await Promise.all(sites.map((site) => serveSite(site, dir)));
  return { bases: Object.fromEntries(sites.map((site, i) => [site, bases[i]])) as Record<Site, string> };
}

// Runs in the page: resolves once it shows a search after the `before`th (its body's data-shown counts them) and
// #results is no longer busy — at the next frame when `frame` is set, as a person would see it (and as a check run
// at each frame would) — told by a MutationObserver, so that waiting costs the page nothing.
const SHOWN_AFTER = `(before, frame) => new Promise((resolve, reject) => {
  const done = () =>
    Number(document.body.dataset.shown ?? -1) > before &&
    document.querySelector('#results').getAttribute('aria-busy') === 'false';
  const settle = () => (frame ? requestAnimationFrame(() => resolve()) : resolve());
  if (done()) return settle();
  const observer = new MutationObserver(() => done() && (observer.disconnect(), clearTimeout(timer), settle()));
  observer.observe(document.body, { attributes: true, subtree: true, attributeFilter: ['data-shown', 'aria-busy'] });
  const timer = setTimeout(() => (observer.disconnect(), reject(new Error('nothing shown within 30 s'))), 30_000);
})`;

const loading = new WeakMap<Page, { count: number; idle: (() => void)[] }>();
/** Resolves once `page` has no request under way (counted from its first driver on), or after 10 s. */
function requestsDone(page: Page): Promise<void> {
  let state = loading.get(page);
  if (!state) {
    const tracked = { count: 0, idle: [] as (() => void)[] };
    const done = () => {
      tracked.count = Math.max(0, tracked.count - 1);
      if (tracked.count === 0) for (const resolve of tracked.idle.splice(0)) resolve();
    };
    page.on('request', () => tracked.count++);
    page.on('requestfinished', done);
    page.on('requestfailed', done);
    loading.set(page, (state = tracked));
  }
  const { count, idle } = state;
  if (count === 0) return Promise.resolve();
  // Bounded: a request the page never finishes is for the test's own checks to report, not a reason to hang.
  return new Promise((resolve) => {
    idle.push(resolve);
    setTimeout(resolve, 10_000).unref();
  });
}

/** Opening a page URL, and waiting until what it asks for is shown. */
export function driver(page: Page, base: string) {
  const shown = (before: number) => page.evaluate(`(${SHOWN_AFTER})(${before}, true)`);
  void requestsDone(page);
  return {
    async open(query = ''): Promise<void> {
      // What the page is still fetching (its tagline's question follows what it shows first) is let finish: going
      // to the next URL would cancel it, and the tests count a cancelled request as lost.
      await requestsDone(page);
      await page.goto(`${base}/${query}`);
      await shown(-1);
    },
    /** Runs `action` and waits until the search it starts is shown. */
    async shownAfter(action: () => Promise<unknown>): Promise<void> {
      const before = Number(await page.evaluate(() => document.body.dataset.shown ?? 0));
      await action();
      await shown(before);
    },
    view: () => page.evaluate(`(${READ_VIEW})()`) as Promise<View>,
    query: () => new URL(page.url()).search,
  };
}

export type Json = any;
export type Protein = [acc: string, href: string, reviewed: boolean, protein: string, organism: string];
export interface Row {
  mass: string;
  ppm: string | null;
  /** The isotope error column's cell, when the search asked for isotope errors. */
  isotope: string | null;
  proforma: string;
  proteins: Protein[];
}
export interface SearchView {
  total: string;
  rows: Row[];
}
/** What the page shows, read from its DOM. */
export interface View {
  errors: [string, string][];
  search: SearchView | null;
  proteins: [string, string, boolean, string, string][] | null;
  lca: string;
  isobaric: SearchView | null;
}

// Runs in the page: reads what it shows. Written out here (not imported) on purpose: it reads text, as a person does.
export const READ_VIEW = `() => {
  const text = (el) => (el && el.textContent ? el.textContent.trim() : '');
  const search = (root) => {
    if (root.hidden || root.dataset.view !== 'search') return null;
    return {
      total: text(root.querySelector('.total')),
      rows: [...root.querySelectorAll('table.results tbody tr')].map((tr) => ({
        mass: text(tr.querySelector('.mass')),
        ppm: tr.querySelector('.ppm') ? text(tr.querySelector('.ppm')) : null,
        isotope: tr.querySelector('.isotope') ? text(tr.querySelector('.isotope')) : null,
        proforma: text(tr.querySelector('code.proforma')),
        proteins: [...tr.querySelectorAll('ul.proteins li')].map((li) => {
          const a = li.querySelector('a.acc');
          return [text(a), a.getAttribute('href'), !!li.querySelector('.badge'), text(li.querySelector('.protein')), text(li.querySelector('.organism'))];
        }),
      })),
    };
  };
  const results = document.querySelector('#results');
  const proteinsShown = !results.hidden && results.dataset.view === 'proteins';
  return {
    errors: [...document.querySelectorAll('.error')].filter((e) => !e.hidden).map((e) => [e.id, text(e)]),
    search: search(results),
    proteins: proteinsShown ? [...results.querySelectorAll('table.proteins-table tbody tr')].map((tr) => { const td = tr.querySelectorAll('td'); return [text(td[0]), text(td[1].querySelector('a')), !!td[1].querySelector('.badge'), text(td[2]), text(td[3])]; }) : null,
    lca: text(document.querySelector('#results .lca')),
    isobaric: search(document.querySelector('#isobaric')),
  };
}`;

// Runs in the page: opens each URL as the page's own links do (history, then popstate), waits for it to be shown,
// reads it; returns the views as JSON text (one string crosses to Node faster than a tree of values).
export const VISIT_ALL = `async (urls) => {
  const read = ${READ_VIEW};
  const shownAfter = ${SHOWN_AFTER};
  const views = [];
  for (const url of urls) {
    const before = Number(document.body.dataset.shown || 0);
    history.pushState(null, '', url);
    dispatchEvent(new PopStateEvent('popstate'));
    await shownAfter(before, false);
    views.push(read());
  }
  return JSON.stringify(views);
}`;

/** The Node handler's JSON answer to an API path. */
export async function api(path: string): Promise<{ status: number; body: Json }> {
  const response = await (await nodeHandler())(new Request(new URL(path, 'http://127.0.0.1/')));
  return { status: response.status, body: await response.json() };
}

export const number = (n: number) => n.toLocaleString('en-US');

/** A search answer as the page should show it. */
function searchView(body: Json): SearchView {
  const rows: Row[] = [];
  for (const group of body.result) {
    for (const e of Object.values(group)[0] as Json[]) {
      rows.push({
        mass: e.mass.toFixed(6),
        ppm: e.ppm === undefined ? null : e.ppm.toFixed(2),
        isotope: e.isotopeError === undefined ? null : String(e.isotopeError),
        proforma: e.proforma,
        proteins: e.accsTax.map(
          (p: Json): Protein => [
            p.acc,
            `https://www.uniprot.org/uniprotkb/${p.acc}`,
            p.reviewed,
            p.protein ?? '',
            p.organism ?? '',
          ],
        ),
      });
    }
  }
  // A page with no candidate shows no table: its rows are then the empty list all the same.
  return { total: number(body.totalResult), rows };
}

/** What the page should show for its URL's query: the API's answers (errors as the message shown). */
export async function expectedView(query: string): Promise<Partial<View>> {
  const s = stateOfQuery(new URLSearchParams(query))!;
  if (s.mode !== 'peptide') {
    const answer = await api(`/api/v1/search?${query}&proteins=true`);
    return answer.status === 200
      ? { errors: [], search: searchView(answer.body) }
      : ({ search: null, errorText: answer.body.error } as Partial<View>);
  }
  const peptide = await api(
    `/api/v1/peptide?${new URLSearchParams({ sequence: s.peptide, ...(s.equateIL ? { equateIL: 'true' } : {}), ...(s.taxon.length ? { taxon: s.taxon.join(',') } : {}), ...(s.reviewed ? { reviewed: s.reviewed } : {}) })}`,
  );
  if (peptide.status !== 200) return { proteins: null, errorText: peptide.body.error } as Partial<View>;
  const isobaric = await api(isobaricPath(s, modifiedPeptideMass(s)!));
  return {
    errors: [],
    proteins: peptide.body.peptides.flatMap((p: Json) =>
      p.accsTax.map((a: Json) => [p.seq, a.acc, a.reviewed, a.protein ?? '', a.organism ?? '']),
    ),
    lca: peptide.body.lca ? `${peptide.body.lca.name} (${peptide.body.lca.rank})` : '',
    isobaric: searchView(isobaric.body),
  };
}

/** Compares what the page shows with what the API answers for the same query. */
export function matches(view: View, expected: Partial<View> & { errorText?: string }): boolean {
  if (expected.errorText !== undefined)
    return (
      view.errors.some(([, text]) => text === expected.errorText) && view.search === null && view.proteins === null
    );
  const { errorText: _, ...rest } = expected;
  return Object.entries(rest).every(([k, v]) => JSON.stringify(view[k as keyof View]) === JSON.stringify(v));
}

/** 200+ page URLs: precursors (m/z, mass), windows, modifications, filters, pages, page sizes, peptides and refusals. */
export async function manyQueries(): Promise<string[]> {
  const random = prng(13_2026);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  const mods = [
    '',
    '',
    '&fixed=Carbamidomethyl@C',
    '&fixed=Carbamidomethyl@C&variable=Oxidation@M',
    '&variable=Phospho@STY&maxVariable=1',
    '&fixed=TMT6plex@K,TMT6plex@N-term',
    '&variable=Deamidated@NQ,Gln->pyro-Glu@Q@N-term',
  ];
  const filters = [
    '',
    '',
    '',
    '',
    '',
    '',
    '&reviewed=true',
    '&reviewed=false',
    '&taxon=2',
    '&taxon=9606,10090',
    '&taxon=4751&reviewed=false',
  ];
  const paging = ['', '', '', '', '', '&pageSize=250', '&page=2'];
  const urls: string[] = [];
  for (let i = 0; i < 180; i++) {
    // Three in four near a stored peptide's mass (masses cluster by their mass defect: a random decimal often
    // falls between the clusters), the rest anywhere.
    let mass = 600 + random() * 2600;
    if (i % 4 !== 3) {
      const near = (await api(`/api/v1/search?mass1=${mass.toFixed(4)}&mass2=${(mass + 1).toFixed(4)}&pageSize=1`))
        .body;
      if (near.result.length) mass = (Object.values(near.result[0])[0] as Json[])[0].mass + (random() - 0.5) * 0.004;
    }
    const charge = pick([1, 2, 2, 3]);
    const head = [
      `mz=${((mass + charge * 1.007276466621) / charge).toFixed(4)}&charge=${charge}&tolerance=${pick([10, 20, 50])}&unit=ppm`,
      `mass=${mass.toFixed(4)}&tolerance=${pick(['0.02', '0.05'])}&unit=Da`,
      `mass1=${mass.toFixed(3)}&mass2=${(mass + pick([0.01, 0.1, 0.5])).toFixed(3)}`,
    ][i % 3];
    urls.push(`?${head}${pick(mods)}${pick(filters)}${pick(paging)}`);
  }
  // Peptides of the data (the first of some windows), looked up with and without I/L, filtered or not.
  for (let i = 0; i < 14; i++) {
    const low = 800 + i * 150;
    const body = (await api(`/api/v1/search?mass1=${low}&mass2=${low + 1}&pageSize=1`)).body;
    const seq = (Object.values(body.result[0])[0] as Json[])[0].seq as string;
    urls.push(
      `?peptide=${seq}${i % 2 ? '&equateIL=true' : ''}&tolerance=${pick([5, 10])}&unit=ppm${pick(['', '&fixed=Carbamidomethyl@C'])}${pick(['', '', '&reviewed=false'])}`,
    );
  }
  urls.push(
    '?mz=650&charge=11&tolerance=10&unit=ppm',
    '?mass=1000&tolerance=5000&unit=ppm',
    '?mass1=1000&mass2=1020',
    '?mass=1000&tolerance=10&unit=ppm&fixed=Carbamidomethy@C',
    '?mass=1000&tolerance=10&unit=ppm&fixed=Carbamidomethyl@C&variable=Oxidation@C',
    '?mass=1000&tolerance=10&unit=ppm&taxon=999999999',
    '?peptide=PEPBIDE&tolerance=10&unit=ppm',
    '?mz=abc&charge=2&tolerance=10&unit=ppm',
    '?mass=1000&tolerance=10&unit=ppm&isotopeErrors=9',
  );
  // Precursors asked at isotope errors (a generator of their own: the URLs above stay as they were).
  const more = prng(46);
  for (let i = 0; i < 12; i++) {
    const low = 700 + Math.floor(more() * 2500);
    const near = (await api(`/api/v1/search?mass1=${low}&mass2=${low + 1}&pageSize=1`)).body;
    const mass = near.result.length ? (Object.values(near.result[0])[0] as Json[])[0].mass + 1.0033548378 : low;
    const head =
      i % 2 ? `mass=${mass.toFixed(4)}&tolerance=20&unit=ppm` : `mz=${(mass / 2 + 1.007276466621).toFixed(4)}&charge=2`;
    urls.push(
      `?${head}&isotopeErrors=${['0,1', '1,0,-1', '2,1'][i % 3]}${['', '&fixed=Carbamidomethyl@C', '&pageSize=250'][i % 3]}`,
    );
  }
  return urls;
}

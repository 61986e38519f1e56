// What the browser tests of the page share: the sites it is served from (npm start's listener with the API; a plain
// static host of the page and the dataset; a site whose page says it has the API on a host that has none), Chromium,
// what the page shows read from its DOM, and what it should show: the Node handler's answers over the same folder.
import { existsSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import serveHandler from 'serve-handler';
import { createAnswerer, datasetOnce, type Handler } from '../../../../runtime/api/handler.js';
import { createListener } from '../../../../runtime/entries/node/server.js';
import { FileSource } from '../../../../runtime/entries/node/fileSource.js';
import { buildWebPage, writeWebPage } from '../../../../runtime/entries/web/bundle.js';
import { isobaricPath, modifiedPeptideMass, stateOfQuery } from '../../../../runtime/entries/web/state.js';
import { folderHandler, listen } from '../../../helpers/api.js';
import { bundledDataset, tempDir } from '../../../helpers/datasets.js';
import { prng } from '../../../helpers/prng.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Debian's Chromium; its absence is a failure, not a skip (.ci/run installs it). */
export function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM}: install Debian's chromium package (sudo apt-get install chromium; .ci/run does it) or set CHROMIUM_PATH.`,
    );
  }
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

export type Site = 'api' | 'static' | 'gone';

let handler: Promise<Handler> | undefined;
/** The API over the bundled dataset's folder, in Node. */
const nodeHandler = () => (handler ??= bundledDataset().then((dir) => folderHandler(dir)));

/** A static host (serve-handler: its 404s are HTML pages) of `page`'s files with the dataset under shards/. */
async function staticSite(page: Awaited<ReturnType<typeof buildWebPage>>, dataset: string) {
  const site = tempDir('site');
  writeWebPage(page, site);
  symlinkSync(dataset, join(site, 'shards'));
  return listen((req, res) => void serveHandler(req, res, { public: site, symlinks: true, directoryListing: false }));
}

/** The three sites over the bundled dataset (or the built dataset in `options.dataset`), by their base URLs; close() stops them. */
export async function serveSites(
  options: { dataset?: string } = {},
): Promise<{ bases: Record<Site, string>; close: () => Promise<void> }> {
  const [dir, withApi, plain] = await Promise.all([
    options.dataset ?? bundledDataset(),
    buildWebPage({ api: true }),
    buildWebPage(),
  ]);
  const servers = {
    api: await listen(createListener(dir, createAnswerer(datasetOnce(() => new FileSource(dir))), withApi)),
    static: await staticSite(plain, dir),
    gone: await staticSite(withApi, dir),
  };
  return {
    bases: { api: servers.api.base, static: servers.static.base, gone: servers.gone.base },
    close: async () => void (await Promise.all(Object.values(servers).map((s) => s.close()))),
  };
}

/** Opening a page URL, and waiting until what it asks for is shown. */
export function driver(page: Page, base: string) {
  const settled = () =>
    document.body.dataset.shown !== undefined &&
    document.querySelector('#results')!.getAttribute('aria-busy') === 'false';
  return {
    async open(query = ''): Promise<void> {
      await page.goto(`${base}/${query}`);
      await page.waitForFunction(settled);
    },
    /** Runs `action` and waits until the search it starts is shown. */
    async shownAfter(action: () => Promise<unknown>): Promise<void> {
      const before = Number(await page.evaluate(() => document.body.dataset.shown ?? 0));
      await action();
      await page.waitForFunction(
        (n) =>
          Number(document.body.dataset.shown ?? 0) > n &&
          document.querySelector('#results')!.getAttribute('aria-busy') === 'false',
        before,
      );
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

// Runs in the page: opens each URL as the page's own links do (history, then popstate), waits for it to be shown, reads it.
export const VISIT_ALL = `async (urls) => {
  const read = ${READ_VIEW};
  const views = [];
  for (const url of urls) {
    const before = Number(document.body.dataset.shown || 0);
    history.pushState(null, '', url);
    dispatchEvent(new PopStateEvent('popstate'));
    while (Number(document.body.dataset.shown || 0) <= before) await new Promise((r) => setTimeout(r, 2));
    views.push(read());
  }
  return views;
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

// The web page (runtime/entries/web) in headless Chromium, used as a person uses it, on both data paths: `api` (npm
// start's listener) and `static` (a plain static host, where the page runs the core in the browser). Screenshots of
// the main views go to docs/ with SCREENSHOTS=1.
import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO } from '../../../helpers/process.js';
import { api, driver, expectedView, matches, number, serveSites, sharedChromium, type Json } from './pageHarness.js';

const SCREENSHOTS = process.env.SCREENSHOTS === '1' ? join(REPO, 'docs') : undefined;

let browser: Browser;
let sites: Awaited<ReturnType<typeof serveSites>>;

beforeAll(async () => {
  [sites, browser] = await Promise.all([serveSites({ sites: ['api', 'static'] }), sharedChromium()]);
}, 180_000);

describe.each(['api', 'static'] as const)('the page on the %s path', (mode) => {
  let context: BrowserContext;
  let page: Page;
  const problems: string[] = [];
  let open: ReturnType<typeof driver>['open'];
  let shownAfter: ReturnType<typeof driver>['shownAfter'];
  let view: ReturnType<typeof driver>['view'];
  let query: ReturnType<typeof driver>['query'];

  /** A screenshot into docs/ when asked for (SCREENSHOTS=1): the viewport scrolled to `selector`, else the whole page. */
  const shot = async (name: string, selector?: string) => {
    if (!SCREENSHOTS || mode !== 'api') return;
    mkdirSync(SCREENSHOTS, { recursive: true });
    if (selector) await page.evaluate((s) => document.querySelector(s)!.scrollIntoView(), selector);
    await page.screenshot({ path: join(SCREENSHOTS, name), fullPage: !selector });
  };

  beforeAll(async () => {
    context = await browser.newContext({ viewport: { width: 1200, height: 900 }, acceptDownloads: true });
    page = await context.newPage();
    page.on(
      'console',
      (m) => (m.type() === 'error' || m.type() === 'warning') && problems.push(`console.${m.type()}: ${m.text()}`),
    );
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()} ${r.failure()?.errorText}`));
    ({ open, shownAfter, view, query } = driver(page, sites.bases[mode]));
  });
  afterAll(async () => context?.close());

  it('opens on the home view: what the dataset is, its peptides per mass bin, searches to try; and says where answers come from', async () => {
    await open();
    const info = (await api('/api/v1/info')).body;
    await page.waitForSelector('#home .chart canvas');
    const stats = await page.locator('#home dl.stats').innerText();
    expect(stats).toContain(number(info.totals.peptides));
    expect(stats).toContain(number(info.totals.proteins));
    expect(stats).toContain(info.datasetVersion);
    expect(await page.locator('#home figcaption').innerText()).toMatch(/^Distinct peptides per \d+ Da/);
    expect(await page.locator('#home .examples a').count()).toBeGreaterThanOrEqual(3);
    expect(await page.locator('#data-path-used').innerText()).toContain(
      mode === 'api' ? 'the site’s API' : 'this browser',
    );
    // The form's defaults: 10 ppm, Carbamidomethyl@C fixed, Oxidation@M off but one click away.
    expect(await page.inputValue('#tolerance')).toBe('10');
    expect(await page.isChecked('input[name="mod-0"][value="fixed"]')).toBe(true);
    expect(await page.isChecked('input[name="mod-1"][value="off"]')).toBe(true);
    await shot('page-home.png');
  });

  it('searches a precursor typed by a person: modifications picked, an organism chosen by keyboard, the table read', async () => {
    await page.fill('#mz', '650.3188');
    await page.fill('#charge', '2');
    await page.check('input[name="mod-1"][value="variable"]');
    await page.locator('#taxon-input').pressSequentially('hominid');
    // The options follow the typing: wait for those of the whole word, not of its first letters.
    await expect
      .poll(() => page.locator('#taxon-options [role=option]').first().innerText(), { timeout: 10_000 })
      .toMatch(/^Hominidae/);
    await page.keyboard.press('Enter');
    expect(await page.locator('#taxon-chips .chip').innerText()).toContain('Hominidae');
    await shownAfter(() => page.click('button[type=submit]'));
    expect(query()).toBe(
      '?mz=650.3188&charge=2&tolerance=10&unit=ppm&fixed=Carbamidomethyl@C&variable=Oxidation@M&taxon=9604',
    );
    const shown = await view();
    expect(matches(shown, await expectedView(query().slice(1)))).toBe(true);
    expect(shown.search!.rows.length).toBeGreaterThan(0);
    expect(shown.search!.rows.every((r) => r.proteins.every((p) => p[4] !== ''))).toBe(true);
    await page.waitForSelector('#results .chart canvas');
  });

  it('opens the shared URL forms and runs them; pages, page sizes, back and forward work', async () => {
    for (const shared of [
      '?mz=650.3188&charge=2&tolerance=10&unit=ppm&fixed=Carbamidomethyl@C',
      '?mass1=1000&mass2=1000.5',
      '?peptide=EDQLEPVTK',
    ]) {
      await open(shared);
      expect(matches(await view(), await expectedView(shared.slice(1))), shared).toBe(true);
    }
    await shot('page-peptide.png', '#results');
    await open('?mass1=1000&mass2=1003');
    const first = await view();
    const total = (await api('/api/v1/search?mass1=1000&mass2=1003')).body.totalResult as number;
    expect(total).toBeGreaterThan(250);
    expect(await page.locator('#results .page-of').innerText()).toBe(`Page 1 of ${Math.ceil(total / 100)}`);
    await shownAfter(() => page.click('#results .pager button:has-text("Next")'));
    expect(query()).toBe('?mass1=1000&mass2=1003&page=2');
    expect(matches(await view(), await expectedView('mass1=1000&mass2=1003&page=2'))).toBe(true);
    await shownAfter(() => page.selectOption('#pageSize', '250'));
    expect(query()).toBe('?mass1=1000&mass2=1003&pageSize=250');
    expect((await view()).search!.rows.length).toBe(
      (await expectedView('mass1=1000&mass2=1003&pageSize=250')).search!.rows.length,
    );
    await shownAfter(() => page.goBack());
    expect(query()).toBe('?mass1=1000&mass2=1003&page=2');
    await shownAfter(() => page.goBack());
    expect(await view()).toEqual(first);
    await shownAfter(() => page.goForward());
    expect(query()).toBe('?mass1=1000&mass2=1003&page=2');
    expect(await page.inputValue('#mass1')).toBe('1000');
    // A page size the menu does not offer, from a hand-written URL, is shown and kept.
    await open('?mass1=1000&mass2=1003&pageSize=7');
    expect(matches(await view(), await expectedView('mass1=1000&mass2=1003&pageSize=7'))).toBe(true);
    expect(await page.inputValue('#pageSize')).toBe('7');
    await shownAfter(() => page.click('#results .pager button:has-text("Next")'));
    expect(query()).toBe('?mass1=1000&mass2=1003&page=2&pageSize=7');
  });

  it("downloads the results as TSV (one row per candidate and protein) and as JSON (the API's answer)", async () => {
    const shared = 'mz=650.3188&charge=2&tolerance=10&unit=ppm&fixed=Carbamidomethyl@C&variable=Oxidation@M';
    await open(`?${shared}`);
    const save = async (kind: string) => {
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.click(`#results [data-download=${kind}]`),
      ]);
      return { name: download.suggestedFilename(), text: await readFile((await download.path())!, 'utf8') };
    };
    const tsv = await save('tsv');
    const json = await save('json');
    const answer = (await api(`/api/v1/search?${shared}&proteins=true`)).body;
    expect(json.name).toMatch(/\.json$/);
    expect(tsv.name).toMatch(/\.tsv$/);
    const { memory: _m, duration: _d, ...stable } = JSON.parse(json.text);
    const { memory: _m2, duration: _d2, ...expected } = answer;
    expect(stable).toEqual(expected);
    const lines = tsv.text.trimEnd().split('\n');
    expect(lines[0]).toBe('mass\tsequence\tproforma\tmodifiedMass\tppm\taccession\ttaxId\treviewed\tprotein\torganism');
    const pairs = answer.result.flatMap((g: Json) =>
      Object.entries(g).flatMap(([key, list]) =>
        (list as Json[]).flatMap((e) => e.accsTax.map((p: Json) => `${key}\t${e.seq}\t${e.proforma}\t${p.acc}`)),
      ),
    );
    expect(
      lines
        .slice(1)
        .map((l) => l.split('\t'))
        .map((c) => `${c[0]}\t${c[1]}\t${c[2]}\t${c[5]}`),
    ).toEqual(pairs);
  });

  it("shows the API's error message next to the field it names, before asking, with no history entry", async () => {
    await open();
    const entries = await page.evaluate(() => history.length);
    await page.fill('#mz', '650.3188');
    await page.fill('#charge', '11');
    await page.press('#charge', 'Enter');
    await page.waitForSelector('#charge-error:not([hidden])');
    expect(await page.evaluate(() => history.length)).toBe(entries);
    expect(query()).toBe('');
    expect(await page.locator('#charge-error').innerText()).toBe(
      (await api('/api/v1/search?mz=650.3188&charge=11&tolerance=10&unit=ppm&fixed=Carbamidomethyl@C&proteins=true'))
        .body.error,
    );
    expect(await page.getAttribute('#charge', 'aria-invalid')).toBe('true');
    expect(await page.isHidden('#results table')).toBe(true);
    await shot('page-error.png', '#charge');
    await page.fill('#charge', '2');
    await page.fill('#variable-more', 'Oxidation@C');
    await page.click('button[type=submit]');
    await page.waitForSelector('#variable-error:not([hidden])');
    expect(await page.locator('#variable-error').innerText()).toMatch(
      /^variable: Oxidation@C shares a site with fixed Carbamidomethyl@C/,
    );
    expect(await page.isHidden('#charge-error')).toBe(true);
  });

  it('works at 375 px wide and by keyboard, with a label on every field', async () => {
    await page.setViewportSize({ width: 375, height: 800 });
    await open();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    const unlabelled = await page.evaluate(() =>
      [...document.querySelectorAll('input, select, button')]
        .filter((el) => {
          const e = el as HTMLInputElement;
          return !(e.labels?.length || e.getAttribute('aria-label') || e.textContent?.trim());
        })
        .map((el) => el.outerHTML),
    );
    expect(unlabelled).toEqual([]);
    // Keyboard only: the mode radios, then the fields, then Enter.
    await page.focus('input[name="mode"][value="precursor"]');
    await page.keyboard.press('ArrowRight'); // → Mass range
    expect(await page.isVisible('#mass1')).toBe(true);
    await page.keyboard.press('Tab');
    await page.keyboard.type('1298.6');
    await page.keyboard.press('Tab');
    await page.keyboard.type('1298.64');
    await shownAfter(() => page.keyboard.press('Enter'));
    expect(query()).toBe('?mass1=1298.6&mass2=1298.64&fixed=Carbamidomethyl@C');
    expect(matches(await view(), await expectedView(query().slice(1)))).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await shot('page-375px.png', '#results');
    await page.setViewportSize({ width: 1200, height: 900 });
    await open('?mz=650.3188&charge=2&tolerance=10&unit=ppm&fixed=Carbamidomethyl@C&variable=Oxidation@M');
    await shot('page-precursor.png', '#results');
  });

  it('searches a precursor at isotope errors typed in its field: each row says the n it matched at, the TSV too', async () => {
    await open();
    expect(await page.isVisible('#isotopeErrors')).toBe(true);
    await page.fill('#mz', '650.8205');
    await page.fill('#charge', '2');
    await page.fill('#isotopeErrors', '1,0');
    await shownAfter(() => page.click('button[type=submit]'));
    expect(query()).toBe('?mz=650.8205&charge=2&tolerance=10&unit=ppm&isotopeErrors=1,0&fixed=Carbamidomethyl@C');
    const shown = await view();
    expect(matches(shown, await expectedView(query().slice(1)))).toBe(true);
    expect(new Set(shown.search!.rows.map((r) => r.isotope))).toEqual(new Set(['1', '0']));
    expect(await page.locator('#results th.isotope-head').innerText()).toBe('Isotope error');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#results [data-download=tsv]')]);
    const lines = (await readFile((await download.path())!, 'utf8')).trimEnd().split('\n');
    expect(lines[0]).toBe(
      'mass\tsequence\tproforma\tmodifiedMass\tppm\tisotopeError\taccession\ttaxId\treviewed\tprotein\torganism',
    );
    const answer = (await api(`/api/v1/search${query()}&proteins=true`)).body;
    const pairs = answer.result.flatMap((g: Json) =>
      Object.values(g).flatMap((list) =>
        (list as Json[]).flatMap((e) => e.accsTax.map((p: Json) => `${e.proforma}\t${e.isotopeError}\t${p.acc}`)),
      ),
    );
    expect(
      lines
        .slice(1)
        .map((l) => l.split('\t'))
        .map((c) => `${c[2]}\t${c[5]}\t${c[6]}`),
    ).toEqual(pairs);
    // A mass range has no isotope errors: the field is not shown, and not sent.
    await page.check('input[name="mode"][value="range"]');
    expect(await page.isHidden('#isotopeErrors')).toBe(true);
  });

  it('logged no console error or warning, threw no page error and lost no request', () => {
    expect(problems).toEqual([]);
  });
});

// The web page shows what the API answers: 200+ page URLs opened in headless Chromium as the page's own links open
// them, what each shows read from the DOM and compared with the Node handler's answer, on both data paths (which must
// show the same); a site whose API is gone falls back to the browser.
import type { Browser, ConsoleMessage } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  driver,
  expectedView,
  manyQueries,
  matches,
  READ_VIEW,
  serveSites,
  sharedChromium,
  VISIT_ALL,
  type View,
} from './pageHarness.js';

let browser: Browser;
let sites: Awaited<ReturnType<typeof serveSites>>;
/** The URLs both paths open, drawn once. */
let urls: string[];
const shownOn: Partial<Record<'api' | 'static', View[]>> = {};

/** What the API says a URL should show, asked once for both paths. */
const expectations = new Map<string, ReturnType<typeof expectedView>>();
const expectedOf = (url: string) => {
  let expected = expectations.get(url);
  if (!expected) {
    expected = expectedView(url.slice(1));
    expectations.set(url, expected);
  }
  return expected;
};

beforeAll(async () => {
  [sites, browser, urls] = await Promise.all([serveSites(), sharedChromium(), manyQueries()]);
}, 180_000);

describe.each(['api', 'static'] as const)('on the %s path', (mode) => {
  it('shows for 200+ URLs exactly what the API answers, with no console error', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const problems: string[] = [];
    // A refusal only the dataset can decide (a taxon it does not hold) is the API's 400 over the network, which the
    // browser logs; every other refusal is found by the page with the API's own parser, before asking.
    const expectedLog = (m: ConsoleMessage) =>
      mode === 'api' && /\b400\b/.test(m.text()) && m.location().url.includes('taxon=999999999');
    page.on(
      'console',
      (m) =>
        (m.type() === 'error' || m.type() === 'warning') &&
        !expectedLog(m) &&
        problems.push(`console.${m.type()}: ${m.text()}`),
    );
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    const { open } = driver(page, sites.bases[mode]);
    expect(urls.length).toBeGreaterThanOrEqual(200);
    await open();
    const views = JSON.parse(await page.evaluate(`(${VISIT_ALL})(${JSON.stringify(urls)})`)) as View[];
    await context.close();
    shownOn[mode] = views;
    const differ: unknown[] = [];
    for (const [i, url] of urls.entries()) {
      const expected = await expectedOf(url);
      if (!matches(views[i], expected)) differ.push({ url, shown: views[i], expected });
    }
    expect(differ.slice(0, 2), `${differ.length} of ${urls.length} differ`).toEqual([]);
    // They covered results, empty pages, the peptide view and refusals.
    const withRows = views.filter((v) => (v.search?.rows.length ?? 0) > 0);
    const rows = views.reduce((sum, v) => sum + (v.search?.rows.length ?? 0) + (v.isobaric?.rows.length ?? 0), 0);
    console.log(`${mode}: ${urls.length} URLs, ${withRows.length} with results, ${rows} candidate rows compared`);
    expect(withRows.length).toBeGreaterThan(100);
    expect(rows).toBeGreaterThan(2000);
    expect(views.filter((v) => v.search && v.search.rows.length === 0).length).toBeGreaterThan(0);
    expect(views.filter((v) => v.proteins && v.proteins.length > 0).length).toBeGreaterThanOrEqual(10);
    expect(views.filter((v) => v.errors.length > 0).length).toBe(9);
    // Isotope errors asked: each candidate row says the one it matched at.
    expect(views.filter((v) => v.search?.rows.some((r) => r.isotope === '1')).length).toBeGreaterThan(5);
    expect(problems).toEqual([]);
  }, 300_000);
});

describe('both paths', () => {
  it('showed the same for every URL', () => {
    expect(shownOn.api?.length).toBeGreaterThanOrEqual(200);
    expect(shownOn.static).toEqual(shownOn.api);
  });
});

describe('a site whose API is gone', () => {
  it('answers from the browser after the first failed API call, with the same results', async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
      page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
      await driver(page, sites.bases.gone).open('?peptide=EDQLEPVTK');
      expect(await page.locator('#data-path-used').innerText()).toContain('this browser');
      expect(matches((await page.evaluate(`(${READ_VIEW})()`)) as View, await expectedView('peptide=EDQLEPVTK'))).toBe(
        true,
      );
      // The one failed API call, and nothing else.
      expect(problems).toEqual([expect.stringMatching(/404/)]);
    } finally {
      await context.close();
    }
  });
});

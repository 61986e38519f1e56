// The page's items that kept people from reading it right, in headless Chromium on npm start's listener: the tagline
// and the digestion text say how the dataset was digested (a Lys-C dataset with 1 missed cleavage is said to be
// one), nothing is clipped at 375 px, no chart shows an empty legend, downloads are named by the whole search
// (modifications and filters too), the table says how the ppm error is defined, and a search with an empty field
// it needs is refused in the form, with no request and no history entry.
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, removeTempDirs, sampleSubset, SAMPLE_TAXDUMP, tempDir } from '../../../helpers/datasets.js';
import { listen } from '../../../helpers/api.js';
import { driver, npmStart, serveSites, sharedChromium, webPage } from './pageHarness.js';

/** npm start's listener with the page over the bundled dataset (every test but the Lys-C one reads it). */
let bundled: { base: string };
let lysC: Awaited<ReturnType<typeof listen>>;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  const dir = join(tempDir('lys-c'), 'shards');
  const built = build([sampleSubset(30)], dir, { enzyme: 'lys-c', missedCleavages: 1, taxdump: SAMPLE_TAXDUMP });
  const [sites, browser] = await Promise.all([serveSites({ sites: ['api'] }), sharedChromium()]);
  bundled = { base: sites.bases.api };
  await built;
  lysC = await listen(npmStart(dir, await webPage(true)));
  context = await browser.newContext({ viewport: { width: 1200, height: 900 }, acceptDownloads: true });
  page = await context.newPage();
}, 180_000);

afterAll(async () => {
  await context?.close();
  await lysC?.close();
  removeTempDirs();
});

const text = (selector: string) => page.locator(selector).innerText();

describe('the page says what the dataset is', () => {
  it('names the enzyme and the missed cleavages in the tagline and the digestion text', async () => {
    await driver(page, bundled.base).open();
    await page.waitForFunction(() => !document.querySelector('#tagline')!.textContent!.includes('in silico'));
    expect(await text('#tagline')).toMatch(
      /Tryptic peptides of UniProt proteins \(trypsin, up to 2 missed cleavages, 6–50 residues\)/,
    );
    await driver(page, lysC.base).open();
    await page.waitForFunction(() => !document.querySelector('#tagline')!.textContent!.includes('in silico'));
    const tagline = await text('#tagline');
    expect(tagline).toMatch(/Lys-C peptides of UniProt proteins \(lys-c, up to 1 missed cleavage, 6–50 residues\)/);
    expect(tagline).not.toMatch(/tryptic/i);
    expect(await text('#home dl.stats')).toContain('lys-c, up to 1 missed cleavage, 6–50 residues');
  });
});

describe('at 375 px', () => {
  it('clips no heading, label or table header, and needs no sideways scrolling, on the home view and results', async () => {
    await page.setViewportSize({ width: 375, height: 800 });
    const { open } = driver(page, bundled.base);
    for (const view of ['', '?mz=650.3188&charge=2&fixed=Carbamidomethyl@C&variable=Oxidation@M']) {
      await open(view);
      const clipped = await page.evaluate(() =>
        [...document.querySelectorAll('h1, h2, legend, label, th, .tagline, figcaption')]
          .filter((el) => {
            const e = el as HTMLElement;
            if (e.offsetParent === null) return false; // not shown
            const box = e.getBoundingClientRect();
            return e.scrollWidth > e.clientWidth + 1 || box.right > window.innerWidth + 0.5 || box.left < -0.5;
          })
          .map((el) => `${el.tagName} ${(el.textContent ?? '').trim().slice(0, 30)}`),
      );
      expect(clipped, view).toEqual([]);
      const scrolling = await page.evaluate(() =>
        [document.documentElement, ...document.querySelectorAll('#mod-rows, .table-wrap')]
          .filter((el) => (el as HTMLElement).offsetParent !== null || el === document.documentElement)
          .filter((el) => el.scrollWidth > el.clientWidth + 1)
          .map((el) => el.id || el.className || el.tagName),
      );
      expect(scrolling, view).toEqual([]);
    }
    await page.setViewportSize({ width: 1200, height: 900 });
  });
});

describe('charts and tables', () => {
  it('draws no chart legend, and says in the table header how the ppm error is defined', async () => {
    const { open } = driver(page, bundled.base);
    for (const view of ['', '?mz=650.3188&charge=2&fixed=Carbamidomethyl@C', '?mass1=1000&mass2=1000.5']) {
      await open(view);
      await page.locator('.chart canvas:visible').first().waitFor();
      expect(await page.locator('.u-legend').count(), view).toBe(0);
    }
    await open('?mz=650.3188&charge=2&fixed=Carbamidomethyl@C');
    expect(await text('#results th.ppm-head')).toMatch(/^Error \(ppm\)\s*\(observed − theoretical\) \/ theoretical$/);
    expect(await text('#results .ppm-note')).toMatch(/observed being the precursor’s neutral mass/);
    expect(await text('#results .ppm-note')).toMatch(/up to 1,001 ppm in a 1,000 ppm window/);
  });

  it('names downloads by the whole search, its modifications and filters too', async () => {
    const { open } = driver(page, bundled.base);
    await open(
      '?mass=1500&tolerance=50&unit=ppm&fixed=Carbamidomethyl@C&variable=Oxidation@M,Deamidated@NQ&taxon=9606,10090&reviewed=true',
    );
    const name = async (kind: string) => {
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.click(`#results [data-download=${kind}]`),
      ]);
      return download.suggestedFilename();
    };
    const tsv = await name('tsv');
    expect(tsv).toMatch(/\.tsv$/);
    for (const part of [
      'mass-1500',
      'tolerance-50',
      'fixed-Carbamidomethyl@C',
      'variable-Oxidation@M+Deamidated@NQ',
      'taxon-9606+10090',
      'reviewed-true',
    ])
      expect(tsv, part).toContain(part);
    expect(tsv).toMatch(/^[A-Za-z0-9.@+-]+$/);
    await open('?peptide=EDQLEPVTK&taxon=9606');
    const proteins = await name('json');
    expect(proteins).toMatch(/^proteins-sequence-EDQLEPVTK-taxon-9606\.json$/);
  });
});

describe('a search with an empty field it needs', () => {
  it('is refused next to that field, in every mode, with no request and no history entry', async () => {
    const { open } = driver(page, bundled.base);
    await open();
    const asked: string[] = [];
    page.on('request', (r) => r.url().includes('/api/') && asked.push(r.url()));
    const entries = await page.evaluate(() => history.length);
    const cases: [mode: string, fill: Record<string, string>, field: string, message: string][] = [
      ['precursor', { mz: '', charge: '2' }, 'mz', 'm/z is required'],
      ['precursor', { mz: '650.3188', charge: '' }, 'charge', 'Charge is required'],
      ['precursor', { mz: '650.3188', charge: '2', tolerance: '' }, 'tolerance', 'Tolerance is required'],
      ['range', { mass1: '1000', mass2: '' }, 'mass2', 'To (Da) is required'],
      ['peptide', { peptide: '' }, 'peptide', 'Peptide is required'],
    ];
    for (const [mode, fields, field, message] of cases) {
      await page.check(`input[name="mode"][value="${mode}"]`);
      if (mode === 'precursor') await page.check('input[name="precursor"][value="mz"]');
      for (const [name, value] of Object.entries(fields)) await page.fill(`#${name}`, value);
      await page.press(`#${Object.keys(fields)[0]}`, 'Enter');
      await page.waitForSelector(`#${field}-error:not([hidden])`);
      expect(await text(`#${field}-error`), message).toBe(message);
      expect(await page.getAttribute(`#${field}`, 'aria-invalid')).toBe('true');
      if (mode !== 'range') await page.fill('#tolerance', '10');
    }
    expect(await page.evaluate(() => history.length)).toBe(entries);
    expect(new URL(page.url()).search).toBe('');
    expect(asked).toEqual([]);
  });
});

describe('a page URL with a parameter the API does not take', () => {
  it('is not run with it left out: the page says so, as the API would, next to the field meant', async () => {
    const { open } = driver(page, bundled.base);
    await open('?mz=650.3188&charge=2&ppm=5');
    await page.waitForSelector('#tolerance-error:not([hidden])');
    expect(await text('#tolerance-error')).toMatch(/^unknown parameter "ppm": did you mean tolerance with unit=ppm\?/);
    expect(await page.isHidden('#results')).toBe(true);
    expect(await page.inputValue('#mz')).toBe('650.3188'); // the form keeps what the link asked, to be corrected
    await open('?mass1=1000&mass2=1001&pagesize=5');
    expect(await text('#pageSize-error')).toMatch(/^unknown parameter "pagesize": did you mean pageSize\?/);
    // sequence is read as peptide, as /api/v1/peptide reads them alike.
    await open('?sequence=EDQLEPVTK');
    expect(await text('#results h2')).toBe('Proteins containing EDQLEPVTK');
  });
});

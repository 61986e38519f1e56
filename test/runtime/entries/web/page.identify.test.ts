// Identify mode of the web page in headless Chromium, on both data paths (`api`: POST /api/v1/identify; `static`: the
// page's worker over shards/): Casanovo's 128 labelled mouse spectra, chosen as a person chooses a file, give the PSM
// table, TSV and JSON that `npm run query -- identify` gives for the same file and parameters; a PSM's annotated
// spectrum labels as many ions as it matched, over the peaks it was scored against; the score histograms and the
// organisms are drawn; back and forward show the run again; a file that is not a peak list is said to be one. On an
// API site, a file over the API's limits is offered to this browser, and a site whose API is gone identifies here.
// A screenshot of the view goes to docs/ with SCREENSHOTS=1.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRECURSOR_PEAK_RANGE } from '../../../../runtime/core/identify/identify.js';
import { topPeaks } from '../../../../runtime/core/identify/score.js';
import { readMgf, type Spectrum } from '../../../../runtime/core/match/mgf.js';
import { main } from '../../../../runtime/entries/cli/query.js';
import { casanovoDataset, removeTempDirs, tempDir } from '../../../helpers/datasets.js';
import { Collector, REPO } from '../../../helpers/process.js';
import { driver, serveSites, sharedChromium, type Json } from './pageHarness.js';

const MGF = join(REPO, 'test/fixtures/mgf/casanovo_sample_preprocessed_spectra.mgf');
const SCREENSHOTS = process.env.SCREENSHOTS === '1' ? join(REPO, 'docs') : undefined;
/** The form's defaults, as the page's URL writes them. */
const QUERY = '?mode=identify&tolerance=10&unit=ppm&fragmentTolerance=20&fragmentUnit=ppm&fixed=Carbamidomethyl@C';
const FLAGS = ['--tolerance', '10', '--fragment-tolerance', '20', '--fixed', 'Carbamidomethyl@C'];

let shards: string;
let browser: Browser;
let sites: Awaited<ReturnType<typeof serveSites>>;
let cli: { json: Json; tsv: string };
const spectra = new Map<string, Spectrum>();

async function identify(format: string): Promise<string> {
  const stdout = new Collector();
  const stderr = new Collector();
  const code = await main(['identify', MGF, '--shards', shards, ...FLAGS, '--format', format], {
    stdout,
    stderr,
  });
  expect(code, stderr.text).toBe(0);
  return stdout.text;
}

beforeAll(async () => {
  shards = await casanovoDataset();
  [sites, browser] = await Promise.all([serveSites({ dataset: shards }), sharedChromium()]);
  const [json, tsv] = await Promise.all([identify('json'), identify('tsv')]);
  cli = { json: JSON.parse(json), tsv };
  for await (const item of readMgf([readFileSync(MGF, 'utf8')], true))
    if ('spectrum' in item) spectra.set(item.spectrum.title!, item.spectrum);
}, 180_000);

afterAll(removeTempDirs);

/** The table the page should show: no PSM passes 1 % on 128 spectra, so the 50 best targets by hyperscore. */
function expectedRows(): string[][] {
  const targets = (cli.json.psms as Json[]).filter((p) => p.rank === 1 && p.label === 1);
  expect(targets.filter((p) => p.spectrum_q <= 0.01)).toEqual([]);
  return targets
    .sort((a, b) => b.hyperscore - a.hyperscore || a.psm_id - b.psm_id)
    .slice(0, 50)
    .map((p) => {
      const accessions = p.proteins.split(';');
      const more = accessions.length > 3 ? ` +${accessions.length - 3} more` : '';
      const proteins = accessions.slice(0, 3).join(' ') + more;
      return [String(p.psm_id), p.proforma, proteins, p.organism, `${p.charge}+`, p.hyperscore.toFixed(2), p.scannr];
    });
}

// Runs in the page: the PSM table's rows as [psm_id, ProForma, proteins, organism, charge, hyperscore, scan].
const READ_ROWS = () =>
  [...document.querySelectorAll<HTMLTableRowElement>('#results table.psms tbody tr')].map((tr) => {
    const cell = (selector: string) => tr.querySelector(selector)!.textContent!.trim();
    return [
      tr.dataset.psmId!,
      cell('code.proforma'),
      cell('td.accs'),
      cell('td.organism'),
      cell('td.charge'),
      cell('td.hyperscore'),
      cell('td.scan'),
    ];
  });

describe.each(['api', 'static'] as const)('Identify mode on the %s path', (mode) => {
  let context: BrowserContext;
  let page: Page;
  const problems: string[] = [];
  let nav: ReturnType<typeof driver>;

  beforeAll(async () => {
    context = await browser.newContext({ viewport: { width: 1200, height: 900 }, acceptDownloads: true });
    page = await context.newPage();
    page.on(
      'console',
      (m) => (m.type() === 'error' || m.type() === 'warning') && problems.push(`console.${m.type()}: ${m.text()}`),
    );
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()} ${r.failure()?.errorText}`));
    nav = driver(page, sites.bases[mode]);
  });
  afterAll(async () => context?.close());

  it('identifies a chosen MGF file as the command line does: the counts, the table, the downloads', async () => {
    await nav.open();
    await page.check('input[name="mode"][value="identify"]');
    expect(await page.isVisible('#dropzone')).toBe(true);
    expect(await page.inputValue('#charges')).toBe('2,3,4');
    expect(await page.inputValue('#isotopeErrors')).toBe('0');
    await nav.shownAfter(() => page.setInputFiles('#file', MGF));
    expect(nav.query()).toBe(QUERY);
    expect(await page.locator('#file-chosen').innerText()).toBe('casanovo_sample_preprocessed_spectra.mgf · 276.8 KB');
    expect(await page.getAttribute('#results', 'data-view')).toBe('identify');
    const count = (selector: string) => page.locator(`#results ${selector}`).innerText();
    expect(await count('.n-spectra')).toBe('128');
    // Where it ran: the site's API answered the POST, or the page's worker read shards/.
    expect(await count('.summary')).toContain(mode === 'api' ? 'by the site’s API' : 'in this browser');
    for (const level of ['psms', 'peptides', 'proteins'] as const)
      expect(await count(`.n-${level}`)).toBe(String(cli.json.passing[level]));
    expect(await page.locator('#results .fdr-note').innerText()).toContain('(decoys + 1) / targets');
    expect(await page.locator('#results table.psms caption').innerText()).toMatch(/^Not passing 1 % FDR/);
    expect(await page.evaluate(READ_ROWS)).toEqual(expectedRows());
    const save = async (kind: string) => {
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.click(`#results [data-download=${kind}]`),
      ]);
      return readFile((await download.path())!, 'utf8');
    };
    expect(await save('tsv')).toBe(cli.tsv);
    const { memory: _m, duration: _d, ...json } = JSON.parse(await save('json'));
    expect(json).toEqual(cli.json);
  });

  it("shows a chosen PSM's annotated spectrum: its matched ions labelled over the peaks it was scored against", async () => {
    const rows = page.locator('#results table.psms tbody tr');
    // The first row's is shown with the table; another's when it is clicked.
    for (const at of [0, 2]) {
      const id = await rows.nth(at).getAttribute('data-psm-id');
      if (at) await rows.nth(at).click();
      await page.waitForSelector(`#results .spectrum-panel[data-psm-id="${id}"][aria-busy=false] svg.spectrum`);
      const psm = (cli.json.psms as Json[]).find((p) => String(p.psm_id) === id)!;
      const spectrum = spectra.get(psm.scannr)!;
      const scored = topPeaks(spectrum.peaks!.mz, spectrum.peaks!.intensity, 150, {
        mz: spectrum.mz,
        da: PRECURSOR_PEAK_RANGE,
      });
      const drawn = await page.evaluate(() => {
        const svg = document.querySelector('#results svg.spectrum')!;
        return {
          peaks: svg.querySelectorAll('line.peak').length,
          labels: [...svg.querySelectorAll('text.ion')].map((t) => t.firstChild!.textContent),
          residues: [...svg.querySelectorAll('text.residue')].map((t) => t.textContent).join(''),
        };
      });
      expect(drawn.peaks).toBe(scored.mz.length);
      expect(drawn.labels.length).toBe(psm.matched_peaks);
      expect(drawn.labels.every((l) => /^[by]\d+([²³]⁺)?$/.test(l!))).toBe(true);
      expect(drawn.residues).toBe(psm.peptide.replace(/\[[^\]]*\]-?|-\[[^\]]*\]/g, ''));
    }
    // By keyboard: the next row, with the arrow key.
    await rows.nth(2).focus();
    await page.keyboard.press('ArrowDown');
    const next = await rows.nth(3).getAttribute('data-psm-id');
    await page.waitForSelector(`#results .spectrum-panel[data-psm-id="${next}"][aria-busy=false]`);
    expect(await rows.nth(3).getAttribute('aria-current')).toBe('true');
  });

  it('draws the target and decoy score histograms and the organisms, Mus musculus first', async () => {
    const best = (cli.json.psms as Json[]).filter((p) => p.rank === 1);
    const figure = page.locator('#results figure.scores');
    expect(await figure.getAttribute('data-targets')).toBe(String(best.filter((p) => p.label === 1).length));
    expect(await figure.getAttribute('data-decoys')).toBe(String(best.filter((p) => p.label === -1).length));
    await page.waitForSelector('#results figure.scores canvas');
    expect(await page.locator('#results .taxon-bars li .taxon-name').first().innerText()).toBe('Mus musculus');
    if (SCREENSHOTS && mode === 'api') {
      mkdirSync(SCREENSHOTS, { recursive: true });
      await page.evaluate(() => document.querySelector('#results')!.scrollIntoView());
      await page.screenshot({ path: join(SCREENSHOTS, 'page-identify.png'), fullPage: true });
    }
  });

  it('shows the run again on back and forward, without running it anew', async () => {
    const rows = await page.evaluate(READ_ROWS);
    await nav.shownAfter(() => page.goBack());
    expect(nav.query()).toBe('');
    expect(await page.isHidden('#results')).toBe(true);
    expect(await page.isVisible('#home')).toBe(true);
    await nav.shownAfter(() => page.goForward());
    expect(nav.query()).toBe(QUERY);
    expect(await page.evaluate(READ_ROWS)).toEqual(rows);
  });

  it('says a file that is not a peak list is not one, next to the file', async () => {
    await nav.shownAfter(() => page.setInputFiles('#file', join(REPO, 'README.md')));
    await page.waitForSelector('#file-error:not([hidden])');
    expect(await page.locator('#file-error').innerText()).toMatch(
      /^README\.md is not an MGF or mzML peak list: it looks like text without a BEGIN IONS line/,
    );
    expect(await page.isHidden('#results')).toBe(true);
  });

  it('logged no console error or warning, threw no page error and lost no request', () => {
    expect(problems).toEqual([]);
  });
});

describe('Identify mode on a site with the API', () => {
  let context: BrowserContext;
  let page: Page;
  /** The 128 spectra eight times over (titles made distinct): past the API's 1,000 spectra. */
  let many: string;

  beforeAll(async () => {
    const text = readFileSync(MGF, 'utf8');
    many = join(tempDir('identify-many'), 'eight-times.mgf');
    writeFileSync(many, [...Array(8).keys()].map((i) => text.replace(/^TITLE=(.*)$/gm, `TITLE=$1 copy ${i}`)).join(''));
    context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    page = await context.newPage();
  });
  afterAll(async () => context?.close());

  it("offers this browser for a file over the API's limits, without sending it", async () => {
    const problems: string[] = [];
    const posts: string[] = [];
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('request', (r) => r.method() === 'POST' && posts.push(r.url()));
    const nav = driver(page, sites.bases.api);
    await nav.open(QUERY);
    await nav.shownAfter(() => page.setInputFiles('#file', many));
    expect(await page.locator('#file-error').innerText()).toBe(
      'eight-times.mgf holds more than 1,000 spectra: the site’s API takes at most 1,000 per file. This browser can identify it instead.',
    );
    await nav.shownAfter(() => page.click('#results button:has-text("in this browser instead")'));
    expect(await page.locator('#results .n-spectra').innerText()).toBe('1,024');
    expect(await page.locator('#results .summary').innerText()).toContain('in this browser');
    expect(posts).toEqual([]);
    // The next file goes to the API.
    await nav.shownAfter(() => page.setInputFiles('#file', MGF));
    expect(await page.locator('#results .summary').innerText()).toContain('by the site’s API');
    expect(posts).toHaveLength(1);
    expect(problems).toEqual([]);
  });

  it('identifies in this browser when the site says it has the API but has none', async () => {
    const nav = driver(page, sites.bases.gone);
    await nav.open(QUERY);
    await nav.shownAfter(() => page.setInputFiles('#file', MGF));
    expect(await page.locator('#results .n-spectra').innerText()).toBe('128');
    expect(await page.locator('#results .summary').innerText()).toContain('in this browser');
    expect(await page.evaluate(READ_ROWS)).toEqual(expectedRows());
  });

  it("cancels a run under way in this browser when another file is chosen: the last file's results are shown", async () => {
    const nav = driver(page, sites.bases.static);
    await nav.open(QUERY);
    await page.setInputFiles('#file', many);
    await page.waitForSelector('#results[data-view=identify-running]');
    await nav.shownAfter(() => page.setInputFiles('#file', MGF));
    expect(await page.locator('#results h2').innerText()).toBe(
      'Peptides identified in casanovo_sample_preprocessed_spectra.mgf',
    );
    expect(await page.locator('#results .n-spectra').innerText()).toBe('128');
  });
});

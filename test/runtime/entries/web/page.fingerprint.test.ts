// Fingerprint mode of the web page in headless Chromium, on both data paths (`api`: POST /api/v1/fingerprint to npm
// start's listener; `static`: the same handler run in the page over shards/): a peak list pasted as a person pastes
// one — [M+H]+ of tryptic peptides of CMRF35-like molecule 1 (Q8TDQ1), weighed in the test from its FASTA
// sequence, among random peaks — lists that protein first, named as its FASTA header names it, with the ranking,
// organisms, labelled peaks and downloads the Node handler gives for the same list, and its sequence coverage map marking
// exactly the residues its matched peptides span in the FASTA's sequence; a gzipped MGF file of two spectra
// gives two lists to pick from; a wrong line is refused next to the peak list; a file dropped on the page is
// fingerprinted, not identified. Both paths show the same ranking. A screenshot of the view goes to docs/ with
// SCREENSHOTS=1.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { readFile } from 'node:fs/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Handler } from '../../../../runtime/api/handler.js';
import type { Fingerprint } from '../../../../runtime/core/fingerprint/fingerprint.js';
import { folderHandler } from '../../../helpers/api.js';
import { bundledDataset } from '../../../helpers/datasets.js';
import { REPO } from '../../../helpers/process.js';
import { prng } from '../../../helpers/prng.js';
import { sampleProtein, trypticPeaks, type PeptidePeak } from './fingerprintPeaks.js';
import { driver, serveSites, sharedChromium, type Json } from './pageHarness.js';

const SCREENSHOTS = process.env.SCREENSHOTS === '1' ? join(REPO, 'docs') : undefined;

/** The form's defaults, as the page's URL writes them. */
const QUERY = '?mode=fingerprint&tolerance=50&unit=ppm&fixed=Carbamidomethyl@C';
const API_QUERY = QUERY.slice('?mode=fingerprint&'.length);

let browser: Browser;
let sites: Awaited<ReturnType<typeof serveSites>>;
let handler: Handler;
/** The pasted list: its text, the peptides it holds and the Node handler's answer. */
let pasted: { text: string; peptides: PeptidePeak[]; answer: Json; tsv: string };
/** A gzipped MGF file of two spectra (Q8TDQ1's peaks, then Serpin B11's), and the Node handler's answer. */
let mgf: { bytes: Buffer; answer: Json };
/** What each path showed of the pasted list: protein rows and organism rows. */
const shown = new Map<string, { proteins: string[][]; organisms: string[] }>();

/** The Node handler's answer to the list in `body`: its status and text. */
async function post(body: string | Buffer, query = API_QUERY): Promise<{ status: number; text: string }> {
  const response = await handler(
    new Request(`http://127.0.0.1/api/v1/fingerprint?${query}`, {
      method: 'POST',
      body: typeof body === 'string' ? body : new Uint8Array(body),
    }),
  );
  return { status: response.status, text: await response.text() };
}

/** The Node handler's JSON answer to the list in `body`. */
async function fingerprintOf(body: string | Buffer): Promise<{ status: number; body: Json }> {
  const { status, text } = await post(body);
  return { status, body: JSON.parse(text) };
}

/** Peaks of a protein's tryptic peptides (between 700 and 3500) with `noise` random ones, sorted, with intensities. */
function peakList(accession: string, noise: number, seed: number): { lines: string[]; peptides: PeptidePeak[] } {
  const random = prng(seed);
  const peptides = trypticPeaks(accession, true)
    .filter((p) => p.mh > 700 && p.mh < 3500)
    .slice(0, 9);
  const mz = [...peptides.map((p) => p.mh), ...Array.from({ length: noise }, () => 700 + random() * 2800)];
  mz.sort((a, b) => a - b);
  return { lines: mz.map((m) => `${m.toFixed(5)}\t${(100 + random() * 9900).toFixed(0)}`), peptides };
}

beforeAll(async () => {
  [sites, browser, handler] = await Promise.all([
    serveSites({ sites: ['api', 'static'] }),
    sharedChromium(),
    bundledDataset().then((dir) => folderHandler(dir)),
  ]);
  const list = peakList('Q8TDQ1', 6, 4401);
  const text = `m/z\tintensity\n${list.lines.join('\n')}\n`;
  const [json, tsv] = await Promise.all([fingerprintOf(text), post(text, `${API_QUERY}&format=tsv`)]);
  expect(json.status).toBe(200);
  pasted = { text, peptides: list.peptides, answer: json.body, tsv: tsv.text };
  const second = peakList('Q96P15', 4, 4402);
  const file = [
    `BEGIN IONS\nTITLE=spot A1\n${list.lines.join('\n')}\nEND IONS\n`,
    `BEGIN IONS\nTITLE=spot B2\n${second.lines.join('\n')}\nEND IONS\n`,
  ].join('');
  const bytes = gzipSync(file);
  mgf = { bytes, answer: (await fingerprintOf(bytes)).body };
}, 180_000);

// Runs in the page: the protein table's rows as [rank, accession, protein, organism, matched, new, score, E-value],
// and the organism rows' names.
const READ_TABLES = () => {
  const text = (el: Element | null) => el?.textContent?.trim() ?? '';
  const list = document.querySelector('#results .fp-list')!;
  return {
    proteins: [...list.querySelectorAll('table.fp-proteins tbody tr')].map((tr) => [
      text(tr.querySelector('.rank')),
      text(tr.querySelector('a.acc')),
      text(tr.querySelector('.protein-name')),
      text(tr.querySelector('.organism')),
      text(tr.querySelector('.matched')),
      text(tr.querySelector('.distinct')),
      text(tr.querySelector('.score')),
      text(tr.querySelector('.expect')),
    ]),
    organisms: [...list.querySelectorAll('.fp-organisms tbody tr')].map((tr) =>
      text(tr.querySelector('.taxon-name')).replace(/ \S+$/, ''),
    ),
  };
};

/** The E-value as the page writes it, from the specification: two significant digits, exponent form when small or large. */
const eValue = (e: number) =>
  e === 0 ? '0' : e < 1e-3 || e >= 1e4 ? e.toExponential(1) : String(Number(e.toPrecision(2)));

describe.each(['api', 'static'] as const)('Fingerprint mode on the %s path', (mode) => {
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

  it('lists the protein whose peptides the pasted peaks are first, as the API ranks them, named and explained', async () => {
    await nav.open();
    await page.check('input[name="mode"][value="fingerprint"]');
    // The mode's own default tolerance replaces the other modes' while it is untouched.
    expect(await page.inputValue('#tolerance')).toBe('50');
    expect(await page.isVisible('#peaks')).toBe(true);
    expect(await page.isHidden('#ionCharge')).toBe(true);
    await page.fill('#peaks', pasted.text);
    await nav.shownAfter(() => page.click('#search button[type=submit]'));
    expect(nav.query()).toBe(QUERY);
    expect(await page.getAttribute('#results', 'data-view')).toBe('fingerprint');
    await page.waitForSelector('#results .fp-list[data-named=true]');
    expect(await page.locator('#results .summary').innerText()).toContain(
      mode === 'api' ? 'by the site’s API' : 'in this browser',
    );
    const list = pasted.answer.lists[0] as Fingerprint;
    const n = list.peaks.length;
    const { proteins, organisms } = await page.evaluate(READ_TABLES);
    const [, protein, organism] = /^\S+ (.*?) OS=(.*?) OX=/.exec(sampleProtein('Q8TDQ1').header)!;
    expect(proteins[0].slice(0, 5)).toEqual(['1', 'Q8TDQ1', protein, organism, `${pasted.peptides.length} of ${n}`]);
    expect(proteins.map((row) => row[1])).toEqual(list.proteins.map((hit) => hit.accession));
    expect(proteins.map((row) => row.slice(4))).toEqual(
      list.proteins.map((hit) => [
        `${hit.matched} of ${n}`,
        String(hit.distinct),
        hit.score.toFixed(1),
        eValue(hit.expect),
      ]),
    );
    expect(organisms).toEqual(list.organisms!.map((t) => t.name));
    expect(organisms.length).toBeGreaterThan(0);
    shown.set(mode, { proteins, organisms });
  });

  it("shows the first protein's peptides: each pasted peptide at its peak, the unmatched peaks, its peak map", async () => {
    const panel = page.locator('#results .protein-panel[data-accession=Q8TDQ1]');
    await panel.waitFor();
    expect(await panel.locator('.n-matched').innerText()).toBe(String(pasted.peptides.length));
    const rows = await panel
      .locator('table.fp-matches tbody tr')
      .evaluateAll((trs) =>
        trs.map((tr) => [tr.querySelector('.mz')!.textContent, tr.querySelector('code')!.textContent]),
      );
    const expected = pasted.peptides
      .map((p) => [p.mh.toFixed(4), p.sequence])
      .sort((a, b) => Number(a[0]) - Number(b[0]));
    // ProForma writes the fixed modification once, before the sequence.
    expect(rows.map(([mz, proforma]) => [mz, proforma!.replace(/^<\[Carbamidomethyl\]@C>/, '')])).toEqual(expected);
    const list = pasted.answer.lists[0] as Fingerprint;
    const map = await panel.locator('svg.peak-map').evaluate((svg) => ({
      all: svg.querySelectorAll('line.peak').length,
      marked: svg.querySelectorAll('line.peak.explained').length,
    }));
    expect(map).toEqual({ all: list.peaks.length, marked: pasted.peptides.length });
    // The coverage map: the FASTA's sequence, with exactly the residues the matched peptides span there marked.
    const { sequence } = sampleProtein('Q8TDQ1');
    const marked = Array.from(sequence, () => false);
    for (const { sequence: peptide } of list.proteins[0].matches)
      for (let at = sequence.indexOf(peptide); at >= 0; at = sequence.indexOf(peptide, at + 1))
        for (let k = at; k < at + peptide.length; k++) marked[k] = true;
    const shownMap = await panel.locator('pre.coverage-map').evaluate((pre) => {
      const residues: [string, boolean][] = [];
      const walk = (node: Node, covered: boolean) => {
        if (node.nodeType === Node.TEXT_NODE) {
          for (const letter of node.textContent!) if (/[A-Z]/.test(letter)) residues.push([letter, covered]);
        } else if (!(node as Element).classList.contains('pos'))
          for (const child of node.childNodes) walk(child, covered || (node as Element).classList.contains('covered'));
      };
      walk(pre, false);
      return residues;
    });
    expect(shownMap.map(([letter]) => letter).join('')).toBe(sequence);
    expect(shownMap.map(([, covered]) => covered)).toEqual(marked);
    const share = marked.filter(Boolean).length / sequence.length;
    expect(await panel.locator('.fp-coverage .coverage').innerText()).toBe(`${(100 * share).toFixed(1)} %`);
    if (SCREENSHOTS && mode === 'api') {
      mkdirSync(SCREENSHOTS, { recursive: true });
      await page.locator('#results').screenshot({ path: join(SCREENSHOTS, 'page-fingerprint.png') });
    }
    expect(await panel.locator('.unmatched').innerText()).toContain(
      `${list.peaks.length - pasted.peptides.length} peaks`,
    );
    // Another protein, chosen by the keyboard.
    if (list.proteins.length > 1) {
      await page.locator('#results table.fp-proteins tbody tr').first().focus();
      await page.keyboard.press('ArrowDown');
      await page.waitForSelector(`#results .protein-panel[data-accession="${list.proteins[1].accession}"]`);
    }
  });

  it('draws the peak list with every explained peak labelled by its peptide, the pasted ones by their own', async () => {
    const list = pasted.answer.lists[0] as Fingerprint;
    const drawn = await page.evaluate(() => {
      const svg = document.querySelector('#results svg.peak-list')!;
      return {
        sticks: svg.querySelectorAll('line.peak').length,
        explained: [...svg.querySelectorAll('line.peak.explained')].map((l) => Number(l.getAttribute('data-peak'))),
        labels: [...svg.querySelectorAll('text.peptide')].map(
          (t) => [Number(t.getAttribute('data-peak')), t.firstChild!.textContent!] as [number, string],
        ),
      };
    });
    expect(drawn.sticks).toBe(list.peaks.length);
    const explained = list.peaks.flatMap((p, i) => (p.explainedBy ? [i] : []));
    expect(drawn.explained.sort((a, b) => a - b)).toEqual(explained);
    expect(drawn.labels).toEqual(drawn.labels.map(([i]) => [i, list.peaks[i as number].explainedBy!.proforma]));
    // Each pasted peptide's peak is labelled with that peptide.
    for (const p of pasted.peptides) {
      const at = list.peaks.findIndex((peak) => Math.abs(peak.mz - Number(p.mh.toFixed(5))) < 1e-6);
      const label = drawn.labels.find(([i]) => i === at);
      expect(label?.[1].replace(/^<\[Carbamidomethyl\]@C>/, ''), p.sequence).toBe(p.sequence);
    }
  });

  it("downloads the answer as the API's JSON and TSV", async () => {
    const save = async (kind: string) => {
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.click(`#results [data-download=${kind}]`),
      ]);
      return readFile((await download.path())!, 'utf8');
    };
    expect(await save('tsv')).toBe(pasted.tsv);
    const { memory: _m, duration: _d, ...json } = JSON.parse(await save('json'));
    const { memory: _n, duration: _e, ...expected } = pasted.answer;
    expect(json).toEqual(expected);
  });

  it('fingerprints each spectrum of a gzipped MGF file as a list of its own, picked by title', async () => {
    await nav.shownAfter(() =>
      page.setInputFiles('#peak-file', { name: 'spots.mgf.gz', mimeType: 'application/gzip', buffer: mgf.bytes }),
    );
    expect(await page.inputValue('#peaks')).toBe('');
    expect(await page.locator('#peak-file-chosen').innerText()).toMatch(/^spots\.mgf\.gz · \d+\.\d KB$/);
    expect(await page.locator('#results h2').innerText()).toBe('Proteins that explain spots.mgf.gz');
    const options = await page.locator('#fp-list option').allInnerTexts();
    expect(options).toEqual((mgf.answer.lists as Fingerprint[]).map((l) => `${l.title} · ${l.peaks.length} peaks`));
    const first = async () => (await page.evaluate(READ_TABLES)).proteins[0][1];
    expect(await first()).toBe('Q8TDQ1');
    await page.selectOption('#fp-list', '1');
    await page.waitForSelector('#results .fp-list[data-list="1"] .protein-panel[data-accession]');
    expect(await first()).toBe('Q96P15');
    expect(await first()).toBe((mgf.answer.lists[1] as Fingerprint).proteins[0].accession);
  });

  it('refuses a line that is not a peak next to the peak list, as the API words it', async () => {
    const bad = '1045.5642\n1179.601x\n';
    const expected = await fingerprintOf(bad);
    expect(expected.status).toBe(400);
    await page.fill('#peaks', bad);
    await nav.shownAfter(() => page.click('#search button[type=submit]'));
    await page.waitForSelector('#peaks-error:not([hidden])');
    expect(await page.locator('#peaks-error').innerText()).toBe(expected.body.error);
    expect(expected.body.error).toMatch(/line 2/);
    expect(await page.isHidden('#results')).toBe(true);
  });

  it('logged no console error or warning, threw no page error and lost no request', () => {
    expect(problems).toEqual([]);
  });
});

describe('Fingerprint mode on either path', () => {
  it('shows the same ranking of proteins and organisms', () => {
    expect(shown.get('static')).toEqual(shown.get('api'));
  });

  it('clips nothing and needs no sideways scrolling at 375 px, with a label on every field of the mode', async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 800 } });
    const page = await context.newPage();
    const nav = driver(page, sites.bases.api);
    await nav.open(QUERY);
    await page.fill('#peaks', pasted.text);
    await nav.shownAfter(() => page.click('#search button[type=submit]'));
    await page.waitForSelector('#results .fp-list[data-named=true]');
    const clipped = await page.evaluate(() =>
      [...document.querySelectorAll('h1, h2, h3, legend, label, th, figcaption, #results .summary')]
        .filter((el) => {
          const e = el as HTMLElement;
          if (e.offsetParent === null) return false;
          const box = e.getBoundingClientRect();
          return e.scrollWidth > e.clientWidth + 1 || box.right > window.innerWidth + 0.5 || box.left < -0.5;
        })
        .map((el) => `${el.tagName} ${(el.textContent ?? '').trim().slice(0, 30)}`),
    );
    expect(clipped).toEqual([]);
    const scrolling = await page.evaluate(() =>
      [document.documentElement, ...document.querySelectorAll('.table-wrap, svg')]
        .filter((el) => (el as HTMLElement).offsetParent !== null || el === document.documentElement)
        .filter((el) => el.scrollWidth > el.clientWidth + 1)
        .map((el) => el.id || el.getAttribute('class') || el.tagName),
    );
    expect(scrolling).toEqual([]);
    const fields = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('#search [data-mode~="fingerprint"] :is(input, select, textarea)')]
        .filter((el) => el.offsetParent !== null)
        .map((el) => [el.id, !!el.getAttribute('aria-label') || !!document.querySelector(`label[for="${el.id}"]`)]),
    );
    expect(fields.map(([id]) => id)).toEqual(['peaks', 'peak-file', 'ion', 'topPeaks', 'rank', 'tolerance', 'unit']);
    expect(fields.filter(([, labelled]) => !labelled)).toEqual([]);
    await context.close();
  });

  it('fingerprints a file dropped on the page while the mode is on, instead of identifying it', async () => {
    const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    const page = await context.newPage();
    const nav = driver(page, sites.bases.api);
    await nav.open(QUERY);
    expect(await page.isChecked('input[name="mode"][value="fingerprint"]')).toBe(true);
    await nav.shownAfter(() =>
      page.evaluate((text) => {
        const data = new DataTransfer();
        data.items.add(new File([text], 'dropped.txt', { type: 'text/plain' }));
        document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
      }, pasted.text),
    );
    expect(await page.isChecked('input[name="mode"][value="fingerprint"]')).toBe(true);
    expect(await page.locator('#results h2').innerText()).toBe('Proteins that explain dropped.txt');
    expect((await page.evaluate(READ_TABLES)).proteins.map((row) => row[1])).toEqual(
      shown.get('api')!.proteins.map((row) => row[1]),
    );
    await context.close();
  });
});

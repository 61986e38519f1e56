// The page's build (runtime/entries/web/bundle.ts): esbuild bundles it for the browser from the page, the browser
// core, the platform-neutral layers and uPlot only (no Node builtin, no Node entry); index.html names the script,
// the chunks it imports, the stylesheet and Identify mode's worker it ships, by their content hashes, and every
// other script is one a shipped script loads; what the page loads as it opens stays within budget and is the size
// the README states; `npm run build:web -- <dir>` (which netlify.toml runs into its publish folder) writes the same
// files.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWebPage, sizes, type WebPage } from '../../../../runtime/entries/web/bundle.js';
import { removeTempDirs, tempDir } from '../../../helpers/datasets.js';
import { REPO, runTsx } from '../../../helpers/process.js';

let page: WebPage;
beforeAll(async () => {
  page = await buildWebPage();
});

afterAll(removeTempDirs);

const text = (path: string) => new TextDecoder().decode(page.files.find((f) => f.path === path)!.body);
const worker = () => page.files.find((f) => f.path.startsWith('assets/identify-worker-'))!;

describe('the page bundle', () => {
  it('is built for the browser from the page, the browser core, the neutral layers and uPlot', () => {
    const runtime = page.inputs.filter((f) => f.startsWith('runtime/'));
    expect(
      runtime.filter(
        (f) =>
          !/^runtime\/(model|core|api)\/|^runtime\/entries\/browser\/(index|source)\.ts$|^runtime\/entries\/web\/[a-zA-Z]+\.(ts|css)$/.test(
            f,
          ),
      ),
    ).toEqual([]);
    expect(runtime).not.toContain('runtime/entries/web/bundle.ts');
    expect(runtime).toContain('runtime/core/precursor/precursor.ts');
    const packages = [
      ...new Set(page.inputs.filter((f) => !f.startsWith('runtime/')).map((f) => f.split('/').slice(1, 2).join('/'))),
    ].sort();
    expect(packages.filter((p) => !['msgpackr', 'p-limit', 'yocto-queue', 'uplot'].includes(p))).toEqual([]);
    expect(packages).toContain('uplot');
    for (const script of page.files.filter((f) => f.path.endsWith('.js')))
      expect(new TextDecoder().decode(script.body), script.path).not.toMatch(/["'`]node:|\brequire\(/);
    expect(runtime).toContain('runtime/entries/web/identifyWorker.ts');
  });

  it('index.html links the content-named files it ships and nothing else; every other script is loaded by one', () => {
    const HASH = /-[A-Z2-7]{8}\./;
    expect(page.files[0].path).toBe('index.html');
    expect(page.files.slice(1).every((f) => HASH.test(f.path) && f.path.startsWith('assets/'))).toBe(true);
    const kinds = page.files.map((f) => f.path.replace(HASH, '-HASH.'));
    expect(kinds.filter((k) => !k.startsWith('assets/chunk-'))).toEqual([
      'index.html',
      'assets/app-HASH.js',
      'assets/app-HASH.css',
      'assets/identify-worker-HASH.js',
    ]);
    const html = text('index.html');
    const linked = [...html.matchAll(/(?:src|href|content)="(assets\/[^"]+)"/g)].map((m) => m[1]);
    const shipped = page.files.slice(1).map((f) => f.path);
    expect(linked.every((path) => shipped.includes(path))).toBe(true);
    expect(linked.filter((path) => path.endsWith('.js')).sort()).toEqual([...page.opening, worker().path].sort());
    // The rest (Identify mode's view, loaded when first used) is imported by a shipped script.
    const scripts = page.files.filter((f) => f.path.endsWith('.js')).map((f) => new TextDecoder().decode(f.body));
    for (const path of shipped.filter((p) => !linked.includes(p)))
      expect(
        scripts.some((script) => script.includes(`./${path.slice('assets/'.length)}`)),
        path,
      ).toBe(true);
    expect(html).not.toContain('<!--scripts-->');
    expect(html).not.toContain('<!--identify-worker-->');
    expect(html).toContain(`<meta name="identify-worker" content="${worker().path}">`);
    // A plain static host's page reads the dataset itself; a site with the API says so.
    expect(html).toContain('<meta name="data-path" content="browser">');
    const css = page.files.find((f) => f.path.endsWith('.css'))!;
    expect(new TextDecoder().decode(css.body)).toContain('.u-legend'); // uPlot's own styles, imported by style.css
  });

  it('weighs what the README says as it opens (within 15 %), under 100 KB gzip for its scripts', () => {
    const sized = sizes(page);
    const opening = sized.filter((f) => !f.path.endsWith('.js') || page.opening.includes(f.path));
    const sum = (files: typeof sized, key: 'bytes' | 'gzip') => files.reduce((total, f) => total + f[key], 0);
    expect(
      sum(
        opening.filter((f) => f.path.endsWith('.js')),
        'gzip',
      ),
    ).toBeLessThan(100_000);
    // Identify mode's worker and view come when first used, not with the page.
    expect(
      sum(
        sized.filter((f) => !opening.includes(f)),
        'gzip',
      ),
    ).toBeLessThan(80_000);
    const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
    const stated = /The page weighs (\d+) KB \((\d+) KB gzip\)/.exec(readme);
    expect(stated, 'README states the page size as "The page weighs N KB (M KB gzip)"').not.toBeNull();
    const [total, gzip] = [sum(opening, 'bytes'), sum(opening, 'gzip')];
    expect(Math.abs(Number(stated![1]) * 1000 - total) / total).toBeLessThan(0.15);
    expect(Math.abs(Number(stated![2]) * 1000 - gzip) / gzip).toBeLessThan(0.15);
    expect(sized.find((f) => f.path.endsWith('.css'))!.bytes).toBeGreaterThan(1000);
  });

  it('npm run build:web writes the same files into a folder, as netlify.toml runs it for the published site', async () => {
    const withApi = await buildWebPage({ api: true });
    expect(new TextDecoder().decode(withApi.files[0].body)).toContain('<meta name="data-path" content="api">');
    expect(withApi.files.slice(1)).toEqual(page.files.slice(1));
    for (const [flags, built] of [
      [[], page],
      [['--api'], withApi],
    ] as const) {
      const out = tempDir('web');
      const run = await runTsx(['runtime/entries/web/build.ts', out, ...flags]);
      expect(run.code, run.stderr).toBe(0);
      for (const file of built.files) expect(new Uint8Array(readFileSync(join(out, file.path)))).toEqual(file.body);
      expect(run.stderr).toMatch(/index\.html: \d+ bytes, \d+ gzip/);
    }
    expect(readFileSync(join(REPO, 'netlify.toml'), 'utf8')).toMatch(
      /&& npm run -s build:web -- dist --api"\n\s+publish = "dist"/,
    );
    for (const bad of [[], ['--apu'], ['--api']])
      expect((await runTsx(['runtime/entries/web/build.ts', ...bad])).code).toBe(2);
  });
});

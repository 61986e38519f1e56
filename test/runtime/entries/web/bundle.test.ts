// The page's build (runtime/entries/web/bundle.ts): esbuild bundles it for the browser from the page, the browser
// core, the platform-neutral layers and uPlot only (no Node builtin, no Node entry); index.html names the script
// and stylesheet it ships, by their content hashes; its size stays within budget and is the one the README states;
// `npm run build:web -- <dir>` (which netlify.toml runs into its publish folder) writes the same files.
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

describe('the page bundle', () => {
  it('is built for the browser from the page, the browser core, the neutral layers and uPlot', () => {
    const runtime = page.inputs.filter((f) => f.startsWith('runtime/'));
    expect(
      runtime.filter(
        (f) =>
          !/^runtime\/(model|core|api)\/|^runtime\/entries\/browser\/index\.ts$|^runtime\/entries\/web\/[a-zA-Z]+\.(ts|css)$/.test(
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
    const script = page.files.find((f) => f.path.endsWith('.js'))!;
    expect(new TextDecoder().decode(script.body)).not.toMatch(/["'`]node:|\brequire\(/);
  });

  it('index.html links the content-named script and stylesheet it ships, and nothing else', () => {
    expect(page.files.map((f) => f.path.replace(/[0-9a-f]{12}/, 'HASH'))).toEqual([
      'index.html',
      'assets/app-HASH.js',
      'assets/app-HASH.css',
    ]);
    const html = text('index.html');
    const linked = [...html.matchAll(/(?:src|href)="(assets\/[^"]+)"/g)].map((m) => m[1]).sort();
    expect(linked).toEqual(
      page.files
        .slice(1)
        .map((f) => f.path)
        .sort(),
    );
    expect(html).not.toContain('<!--scripts-->');
    // A plain static host's page reads the dataset itself; a site with the API says so.
    expect(html).toContain('<meta name="data-path" content="browser">');
    expect(text(page.files[2].path)).toContain('.u-legend'); // uPlot's own styles, imported by style.css
  });

  it('weighs what the README says (within 15 %), under 100 KB gzip for the script', () => {
    const [, js, css] = sizes(page);
    expect(js.gzip).toBeLessThan(100_000);
    const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
    const stated = /The page weighs (\d+) KB \((\d+) KB gzip\)/.exec(readme);
    expect(stated, 'README states the page size as "The page weighs N KB (M KB gzip)"').not.toBeNull();
    const total = page.files.reduce((sum, f) => sum + f.body.length, 0);
    const gzip = sizes(page).reduce((sum, f) => sum + f.gzip, 0);
    expect(Math.abs(Number(stated![1]) * 1000 - total) / total).toBeLessThan(0.15);
    expect(Math.abs(Number(stated![2]) * 1000 - gzip) / gzip).toBeLessThan(0.15);
    expect(css.bytes).toBeGreaterThan(1000);
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

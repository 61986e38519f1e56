// Builds the page (a build step in Node: this file never runs in the browser): esbuild bundles ./main.ts and
// ./style.css for the browser into one script and one stylesheet named by their content, and index.html gets
// their tags. npm start serves the result from memory; `npm run build:web -- <dir> [--api]` writes it for a site.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

/** A file of the page: its path below the site's root, content type and bytes. */
export interface WebFile {
  path: string;
  type: string;
  body: Uint8Array<ArrayBuffer>;
}

export interface WebPage {
  /** index.html, then assets/app-<hash>.js and assets/app-<hash>.css. */
  files: WebFile[];
  /** The files bundled, relative to the repository (e.g. `runtime/core/range/search.ts`, `node_modules/uplot/dist/uPlot.esm.js`). */
  inputs: string[];
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
};
const typeOf = (path: string) => TYPES[path.slice(path.lastIndexOf('.'))] ?? 'application/octet-stream';

/**
 * The page built; rejects (esbuild's errors in the message) when it cannot be. `api`: the site answers the API
 * beside it (npm start, Netlify), written into index.html as `<meta name="data-path" content="api">`; without it
 * the page reads the dataset under shards/ itself (a plain static host).
 */
export async function buildWebPage(options: { api?: boolean } = {}): Promise<WebPage> {
  const result = await build({
    entryPoints: [here('./main.ts'), here('./style.css')],
    absWorkingDir: ROOT,
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: ['es2022', 'chrome110', 'firefox110', 'safari16'],
    minify: true,
    write: false,
    metafile: true,
    outdir: 'out',
    logLevel: 'silent',
  });
  const assets = result.outputFiles.map((file) => {
    const ext = file.path.slice(file.path.lastIndexOf('.'));
    const hash = createHash('sha256').update(file.contents).digest('hex').slice(0, 12);
    return { path: `assets/app-${hash}${ext}`, type: typeOf(ext), body: new Uint8Array(file.contents) };
  });
  const tag = (ext: string, make: (href: string) => string) =>
    assets
      .filter((a) => a.path.endsWith(ext))
      .map((a) => make(a.path))
      .join('\n');
  const html = readFileSync(here('./index.html'), 'utf8')
    .replace('<!--data-path-->', `<meta name="data-path" content="${options.api ? 'api' : 'browser'}">`)
    .replace(
      '<!--styles-->',
      tag('.css', (href) => `<link rel="stylesheet" href="${href}">`),
    )
    .replace(
      '<!--scripts-->',
      tag('.js', (href) => `<script type="module" src="${href}"></script>`),
    );
  return {
    files: [{ path: 'index.html', type: typeOf('.html'), body: new TextEncoder().encode(html) }, ...assets],
    inputs: Object.keys(result.metafile.inputs),
  };
}

/** Each file's size, raw and gzipped (level 9), in bytes. */
export const sizes = (page: WebPage) =>
  page.files.map((f) => ({ path: f.path, bytes: f.body.length, gzip: gzipSync(f.body, { level: 9 }).length }));

/** Writes the page into `dir` (index.html at its root, assets/ beside it). */
export function writeWebPage(page: WebPage, dir: string): void {
  for (const file of page.files) {
    mkdirSync(dirname(join(dir, file.path)), { recursive: true });
    writeFileSync(join(dir, file.path), file.body);
  }
}

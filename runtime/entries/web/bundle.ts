// Builds the page (a build step in Node: this file never runs in the browser): esbuild bundles ./main.ts and
// ./style.css for the browser — Identify mode's view and runner split off, loaded when first used — and Identify
// mode's worker ./identifyWorker.ts as a script of its own, every file named by its content; index.html gets their
// tags and the worker's name. npm start serves the result from memory; `npm run build:web -- <dir> [--api]` writes
// it for a site.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
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
  /**
   * index.html, then the assets: assets/app-<hash>.js (the page's script), assets/chunk-<hash>.js (what it imports,
   * and what it loads later), assets/app-<hash>.css and assets/identify-worker-<hash>.js.
   */
  files: WebFile[];
  /** The scripts the page loads as it opens: its own and the chunks it imports (index.html preloads them). */
  opening: string[];
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
  const common = {
    absWorkingDir: ROOT,
    bundle: true,
    platform: 'browser',
    target: ['es2022', 'chrome110', 'firefox110', 'safari16'] as string[],
    minify: true,
    write: false,
    metafile: true,
    outdir: 'out',
    // esbuild's content hashes: a chunk's name is in the files that import it, so names cannot be made afterwards.
    entryNames: 'assets/[name]-[hash]',
    chunkNames: 'assets/chunk-[hash]',
    logLevel: 'silent',
  } as const;
  const [page, worker] = await Promise.all([
    build({
      ...common,
      entryPoints: [
        { in: here('./main.ts'), out: 'app' },
        { in: here('./style.css'), out: 'app' },
      ],
      splitting: true,
      format: 'esm',
    }),
    // A classic script of its own: every browser with workers starts it, and the page's script is not cut into the
    // many small chunks that sharing code with it would make (their sum weighs more than the one script).
    build({ ...common, entryPoints: [{ in: here('./identifyWorker.ts'), out: 'identify-worker' }], format: 'iife' }),
  ]);
  const result = {
    outputFiles: [...page.outputFiles, ...worker.outputFiles],
    metafile: {
      inputs: { ...page.metafile.inputs, ...worker.metafile.inputs },
      outputs: { ...page.metafile.outputs, ...worker.metafile.outputs },
    },
  };
  const out = join(ROOT, 'out');
  const assets = result.outputFiles.map((file) => ({
    path: relative(out, file.path).split(sep).join('/'),
    type: typeOf(file.path),
    body: new Uint8Array(file.contents),
  }));
  const outputs = Object.entries(result.metafile.outputs).map(([path, meta]) => ({ path: path.slice(4), meta }));
  const entry = (file: string) => outputs.find((o) => o.meta.entryPoint === `runtime/entries/web/${file}`)!;
  const app = entry('main.ts');
  // What the page's script imports statically, and what those import: fetched at once, not one after another.
  const opening = [app.path];
  for (let i = 0; i < opening.length; i++)
    for (const imported of outputs.find((o) => o.path === opening[i])!.meta.imports)
      if (imported.kind === 'import-statement' && !opening.includes(imported.path.slice(4)))
        opening.push(imported.path.slice(4));
  const html = readFileSync(here('./index.html'), 'utf8')
    .replace('<!--data-path-->', `<meta name="data-path" content="${options.api ? 'api' : 'browser'}">`)
    .replace('<!--identify-worker-->', `<meta name="identify-worker" content="${entry('identifyWorker.ts').path}">`)
    .replace(
      '<!--styles-->',
      assets
        .filter((a) => a.path.endsWith('.css'))
        .map((a) => `<link rel="stylesheet" href="${a.path}">`)
        .join('\n'),
    )
    .replace(
      '<!--scripts-->',
      [
        ...opening.slice(1).map((path) => `<link rel="modulepreload" href="${path}">`),
        `<script type="module" src="${app.path}"></script>`,
      ].join('\n'),
    );
  return {
    files: [{ path: 'index.html', type: typeOf('.html'), body: new TextEncoder().encode(html) }, ...assets],
    opening,
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

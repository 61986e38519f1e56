// Bundles the browser entry (./index.ts) into one ES module for a web page, with esbuild in Node (a build step:
// this file itself never runs in the browser). Platform browser and no externals: a `node:` builtin (or any
// Node-only module) reached from the core fails the bundle, so a bundle that builds is platform-neutral.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const ENTRY = fileURLToPath(new URL('./index.ts', import.meta.url));

export interface BrowserCore {
  /** The bundle: one minified ES2022 module exporting what ./index.ts exports. */
  code: string;
  /** The files bundled, relative to the repository (e.g. `runtime/core/range/search.ts`, `node_modules/msgpackr/unpack.js`). */
  inputs: string[];
}

/** The browser bundle and what went into it; rejects (esbuild's errors in the message) when it cannot be built. */
export async function buildBrowserCore(): Promise<BrowserCore> {
  const result = await build({
    entryPoints: [ENTRY],
    absWorkingDir: ROOT,
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    minify: true,
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  return { code: result.outputFiles[0].text, inputs: Object.keys(result.metafile.inputs) };
}

/** The browser bundle's text (see buildBrowserCore). */
export async function bundleBrowserCore(): Promise<string> {
  return (await buildBrowserCore()).code;
}

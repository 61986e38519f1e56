// `npm run build:web -- <dir> [--api]`: writes the page into a site's folder (index.html and assets/), beside its
// shards/, and prints each file's size. `--api`: the site answers the API too (Netlify's dist/); without it the page
// reads the dataset itself (object storage, GitHub Pages).
import { buildWebPage, sizes, writeWebPage } from './bundle.js';

const [dir, ...flags] = process.argv.slice(2);
if (!dir || dir.startsWith('-') || flags.some((f) => f !== '--api')) {
  process.stderr.write('usage: npm run build:web -- <dir> [--api]\n');
  process.exit(2);
}
try {
  const page = await buildWebPage({ api: flags.includes('--api') });
  writeWebPage(page, dir);
  for (const { path, bytes, gzip } of sizes(page))
    process.stderr.write(`${dir}/${path}: ${bytes} bytes, ${gzip} gzip\n`);
} catch (e) {
  process.stderr.write(`build:web: error: ${(e as Error).message}\n`);
  process.exitCode = 1;
}

// A/B of two checkouts' answerers in one process, query by query interleaved (interleaved.ts): each side opens the
// dataset on its own (its own cache of `--cache` bytes); two passes fill them, the third is measured, the first's
// answers compared.
//   git worktree add /tmp/base <rev> && ln -s "$PWD/node_modules" /tmp/base/
//   npx tsx test/bench/ab.ts /tmp/base . <dataset dir> <set> [--cache <bytes>] [--queries <n>] [--dir-a <dataset dir>]
// --dir-a gives A a dataset of its own: a checkout of another format (v1 at 33ed521) over its build of the same input.
// Sets are the benchmark's own: ppm10 and da01 (search.php, pages of 1000), taxonomy (search-taxonomy.php ±10 ppm),
// precursor (/api/v1/search with the benchmark's modifications), peptide (search-peptide.php of stored peptides).
import { parseArgs } from 'node:util';
import { answererOf, interleave } from './interleaved.js';
import { massWindows, type Summary } from './measure.js';
import { precursorUrl, windowCentres } from './precursor.js';
import { peptideUrl, samplePeptides, searchUrl } from './queries.js';

const SETS: Record<string, (n: number, dir: string) => string[] | Promise<string[]>> = {
  ppm10: (n) => massWindows(n, 2, { lo: 360, hi: 8500, ppm: 10 }).map(searchUrl),
  da01: (n) => massWindows(n, 1, { lo: 360, hi: 8500, halfWidthDa: 0.1 }).map(searchUrl),
  taxonomy: (n) =>
    massWindows(n, 2, { lo: 360, hi: 8500, ppm: 10 }).map((w) =>
      searchUrl(w).replace('search.php', 'search-taxonomy.php'),
    ),
  precursor: (n) => windowCentres(n, 2, 360, 8500).map(precursorUrl),
  peptide: async (n, dir) => (await samplePeptides(dir, n, 3)).map(peptideUrl),
};

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { cache: { type: 'string' }, queries: { type: 'string' }, 'dir-a': { type: 'string' } },
});
const [a, b, dir, set] = positionals;
if (!set || !SETS[set])
  throw new Error(
    `usage: ab.ts <checkout A> <checkout B> <dataset dir> <${Object.keys(SETS).join('|')}> [--cache bytes] [--queries n] [--dir-a dir]`,
  );
const urls = await SETS[set](Number(values.queries ?? 10_000), dir);
const cacheBytes = Number(values.cache ?? 256 * 2 ** 20);
const run = await interleave(
  [await answererOf(a, values['dir-a'] ?? dir, cacheBytes), await answererOf(b, dir, cacheBytes)],
  urls,
  3,
  [a, b],
);
const ratio = (f: (s: Summary) => number) => (f(run.sides[1]) / f(run.sides[0])).toFixed(3);
for (const k of [0, 1]) {
  const s = run.sides[k];
  console.log(
    `${[a, b][k]}: p50 ${s.p50.toFixed(4)} ms, p95 ${s.p95.toFixed(3)}, p99 ${s.p99.toFixed(3)}, mean ${s.mean.toFixed(4)}`,
  );
}
console.log(
  `B / A: p50 ${ratio((s) => s.p50)}, p95 ${ratio((s) => s.p95)}, p99 ${ratio((s) => s.p99)}, mean ${ratio((s) => s.mean)}`,
);
console.log(
  `answers that differ (but for "duration"): ${run.differing} of ${urls.length}${run.firstDifference ? `; the first: ${run.firstDifference}` : ''}`,
);

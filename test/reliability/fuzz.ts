// `npm run fuzz`: differential fuzzing of the API handler against a brute-force reference that decodes every
// shard, on the bundled dataset (flat index) and on a many-small-shards build (two-level index, small cache
// so shards are evicted and reloaded). Counts mismatches (must be 0) and writes the figures into
// docs/reliability.md (section "Differential fuzzing"). Options: --runs N (per dataset, default 10000),
// --seed N (default 20250101), --no-write.
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import { folderHandler } from '../helpers/api.js';
import { bundledDataset, smallShardsDataset } from '../helpers/datasets.js';
import { difference, queryArbitrary } from '../helpers/queryFuzz.js';
import { keyMismatches, loadReference, referenceAnswer } from '../helpers/shardReference.js';
import { writeSection } from './report.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '10000' },
    seed: { type: 'string', default: '20250101' },
    'no-write': { type: 'boolean' },
  },
});
const runs = Number(values.runs);
const seed = Number(values.seed);

interface Figures {
  name: string;
  shards: number;
  indexPages: number;
  groups: number;
  peptides: number;
  keyMismatches: number;
  datasetProblems: number;
  queries: number;
  statuses: Record<string, number>;
  endpoints: Record<string, number>;
  nonEmpty: number;
  mismatches: number;
  seconds: number;
}

async function fuzz(name: string, dir: string, cacheBytes: number | undefined): Promise<Figures> {
  const ref = loadReference(dir);
  const figures: Figures = {
    name,
    shards: ref.shardEntries.length,
    indexPages: ref.indexPages.length, // every level of the index tree
    groups: ref.keys.length,
    peptides: ref.sequences.length,
    keyMismatches: keyMismatches(ref).length,
    datasetProblems: ref.problems.length,
    queries: 0,
    statuses: {},
    endpoints: {},
    nonEmpty: 0,
    mismatches: 0,
    seconds: 0,
  };
  const handler = folderHandler(dir, { cacheBytes });
  const queries = fc.sample(queryArbitrary(ref), { numRuns: runs, seed });
  const started = performance.now();
  for (const q of queries) {
    const problem = await difference(handler, ref, q);
    figures.queries++;
    figures.endpoints[q.endpoint] = (figures.endpoints[q.endpoint] ?? 0) + 1;
    if (problem) {
      figures.mismatches++;
      if (figures.mismatches <= 10) console.error(`MISMATCH ${problem}`);
    }
  }
  figures.seconds = (performance.now() - started) / 1000;
  // Status mix and non-empty pages, from a second pass over the reference only (no handler).
  for (const q of queries) {
    const a = referenceAnswer(ref, q);
    figures.statuses[a.status] = (figures.statuses[a.status] ?? 0) + 1;
    if (a.body && a.body.result.length > 0) figures.nonEmpty++;
  }
  console.error(
    `${name}: ${figures.queries} queries, ${figures.mismatches} mismatches, ${figures.seconds.toFixed(1)} s`,
  );
  return figures;
}

const results = [
  await fuzz('bundled sample (flat index, default 256 MB cache)', await bundledDataset(), undefined),
  await fuzz('first 3,000 records, 2 KB shards (two-level index, 1 MB cache)', await smallShardsDataset(), 2 ** 20),
];
console.log(JSON.stringify(results, null, 1));

const rows = results.map(
  (r) =>
    `| ${r.name} | ${r.shards.toLocaleString('en')} / ${r.indexPages} | ${r.groups.toLocaleString('en')} / ${r.peptides.toLocaleString('en')} | ${r.queries.toLocaleString('en')} | ` +
    `${Object.entries(r.statuses)
      .map(([s, n]) => `${s}: ${n}`)
      .join(
        ', ',
      )} | ${r.nonEmpty.toLocaleString('en')} | ${r.keyMismatches} | ${r.datasetProblems} | **${r.mismatches}** | ${r.seconds.toFixed(1)} s |`,
);
const section = [
  `Command: \`npm run fuzz\` (= \`tsx test/reliability/fuzz.ts --runs ${runs} --seed ${seed}\`), ${new Date().toISOString().slice(0, 10)}.`,
  '',
  'Each query is answered by the Fetch handler (`createHandler` over a `FileSource`) and by a brute-force',
  'reference that decodes every shard into plain arrays and filters all mass groups one by one; the full JSON',
  'answers (minus `memory`/`duration`) must be equal. "Key mismatches" re-weighs every stored peptide with the',
  "reference's own residue table (BigInt) and compares with its group's key.",
  '',
  '| dataset | shards / index pages | mass groups / peptides | queries | statuses | non-empty pages | key mismatches | dataset problems | mismatches | time |',
  '|---|---|---|---|---|---|---|---|---|---|',
  ...rows,
].join('\n');
if (!values['no-write']) writeSection('Differential fuzzing', section);
process.exitCode = results.some((r) => r.mismatches + r.keyMismatches + r.datasetProblems > 0) ? 1 : 0;

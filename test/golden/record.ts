// Records test/golden/answers.json from the current code over the bundled sample:
//   npx tsx test/golden/record.ts
// Run once, on the code whose answers are the contract; the replay test then holds every later change to them.
import { writeFileSync } from 'node:fs';
import { bundledDataset, readManifest, removeTempDirs, SAMPLE_FASTA } from '../helpers/datasets.js';
import { folderHandler } from '../helpers/api.js';
import { GOLDEN_FILE, record } from './golden.js';
import { goldenRequests } from './queries.js';

const dir = await bundledDataset();
const handler = folderHandler(dir);
const etag = `W/"${readManifest(dir).datasetVersion}"`;
const answers = [];
for (const request of goldenRequests(SAMPLE_FASTA)) answers.push(await record(handler, request, etag));
writeFileSync(GOLDEN_FILE, '[\n' + answers.map((a) => JSON.stringify(a)).join(',\n') + '\n]\n');
const statuses = new Map<number, number>();
for (const a of answers) statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
process.stderr.write(`${answers.length} answers recorded; statuses ${JSON.stringify(Object.fromEntries(statuses))}\n`);
removeTempDirs();

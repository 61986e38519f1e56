// The floor under a batch match's speed on one machine: the shards a batch's sweep reads (found by running the match
// command's code, --top 1, over a source that records its reads), then each of them read, inflated (zlib, native)
// and decoded on one core, timed by phase. Whatever the scan and the output cost, a run of that batch needs this
// much CPU: over `cores` cores at best, it bounds spectra per second from above when no cache can keep the shards.
//   npx tsx test/bench/sweepFloor.ts <file.mgf> <dataset dir> [cores, default 2]
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { Dataset } from '../../runtime/core/storage/dataset.js';
import { datasetFiles } from '../../runtime/core/storage/datasetFiles.js';
import { MATCH_CACHE_BYTES } from '../../runtime/core/match/match.js';
import { matchFile, matchOptions } from '../../runtime/entries/cli/match.js';
import { FileSource } from '../../runtime/entries/node/fileSource.js';
import { nodeCodecs } from '../../runtime/entries/node/platform.js';
import { decodeShard } from '../../runtime/model/shardCodec.js';
import { PRECURSOR_MODS } from './precursor.js';

const [mgf, dirArg, coresArg = '2'] = process.argv.slice(2);
if (!mgf || !dirArg) throw new Error('usage: sweepFloor.ts <file.mgf> <dataset dir> [cores]');
const dir = resolve(dirArg);

// The files one run reads, as the match command reads them.
const read = new Set<string>();
const source = new FileSource(dir);
const get = source.get.bind(source);
source.get = (file: string) => (read.add(file), get(file));
const params: Record<string, string> = {
  fixed: PRECURSOR_MODS.fixed,
  variable: PRECURSOR_MODS.variable,
  maxVariable: String(PRECURSOR_MODS.maxVariable),
  tolerance: '10',
  top: '1',
};
const options = matchOptions((name) => (params[name] === undefined ? [] : [params[name]]), { top: '1' });
const dataset = await Dataset.open(source, { cacheBytes: MATCH_CACHE_BYTES, ...nodeCodecs });
const discard = new Writable({ write: (_chunk, _encoding, done) => done() });
const summary = await matchFile(
  dataset,
  options.query,
  { input: mgf, ...options },
  { stdout: discard, stderr: discard, stdin: process.stdin },
);

// Each shard read, then inflated, then decoded, on this core.
const shards = [];
for await (const file of datasetFiles(new FileSource(dir), dataset.manifest, nodeCodecs))
  if (file.kind === 'shard') shards.push(file);
const phases = { read: 0, inflate: 0, decode: 0 };
let [stored, count] = [0, 0];
for (const shard of shards.filter((s) => read.has(s.file))) {
  let t = performance.now();
  const bytes = readFileSync(join(dir, shard.file));
  phases.read += performance.now() - t;
  t = performance.now();
  const raw = gunzipSync(bytes);
  phases.inflate += performance.now() - t;
  t = performance.now();
  decodeShard(raw, dataset.manifest.accessions.count);
  phases.decode += performance.now() - t;
  [stored, count] = [stored + bytes.length, count + 1];
}
const seconds = (phases.read + phases.inflate + phases.decode) / 1000;
const cores = Number(coresArg);
console.log(
  JSON.stringify({
    spectra: summary.precursors,
    shardsRead: count,
    shardsInDataset: shards.length,
    storedMb: Math.round(stored / 1e6),
    seconds: { read: phases.read / 1000, inflate: phases.inflate / 1000, decode: phases.decode / 1000, total: seconds },
    ceilingSpectraPerSecond: Math.round(summary.precursors / (seconds / cores)),
    // Reading and inflating the bytes alone, which no decoder can skip.
    ceilingReadInflateOnly: Math.round(summary.precursors / ((phases.read + phases.inflate) / 1000 / cores)),
  }),
);

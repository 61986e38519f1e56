// `npm start`'s first step (prestart): builds the bundled real dataset into SHARDS_DIR (default ./shards) when
// that folder has no manifest yet. A SHARDS_DIR the user named is never built into: it must hold a dataset.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { MANIFEST_FILE } from '../runtime/model/format.js';
import { DEFAULT_DIGEST } from './digest.js';
import { buildDataset, DEFAULT_SHARD_BYTES } from './pipeline.js';

const BUNDLED_INPUT = 'data/*.fasta.gz';

const dir = resolve(process.env.SHARDS_DIR ?? 'shards');
if (!existsSync(resolve(dir, MANIFEST_FILE))) {
  if (process.env.SHARDS_DIR) {
    process.stderr.write(`start: error: SHARDS_DIR ${dir} holds no ${MANIFEST_FILE}; build one with npm run build:shards\n`);
    process.exit(1);
  }
  process.stderr.write(`no dataset in ${dir}: building the bundled sample (${BUNDLED_INPUT})\n`);
  await buildDataset({ ...DEFAULT_DIGEST, inputs: [BUNDLED_INPUT], out: dir, shardBytes: DEFAULT_SHARD_BYTES, threads: 2, log: (line) => process.stderr.write(line + '\n') });
}

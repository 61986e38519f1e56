// Command line of the merge of a partitioned build: `npm run build:merge -- --out <dir> <part-dir> ...`.
import { parseFlags, runCommand } from './command.js';
import { BuildError } from '../errors.js';
import { mergeParts } from '../phases/merge.js';

const USAGE = `usage: npm run build:merge -- --out <dir> [--index-only] <part-dir> [<part-dir> ...]
  Joins the part folders written by npm run build:shards -- --part i/N (all N of them, any order) into one
  dataset in <dir>: the same files, byte for byte, as a single build of the same inputs and options.
  --index-only  write only the files the merge computes (index pages, taxonomy, manifest.json last) into an
                empty <dir>; each part uploaded its own shards and shared files (.github/workflows/partitioned-build.yml).
                The part folders then need only part.json and their taxonomy file.`;

await runCommand('build:merge', async () => {
  const { values, positionals } = parseFlags({
    args: process.argv.slice(2),
    allowPositionals: true,
    options: { out: { type: 'string' }, 'index-only': { type: 'boolean' }, help: { type: 'boolean' } },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  if (!values.out || positionals.length === 0)
    throw new BuildError('--out and at least one part folder are required (see --help)');
  mergeParts(positionals, values.out, {
    indexOnly: values['index-only'],
    log: (line) => process.stderr.write(line + '\n'),
  });
});

// Command line of the build: `npm run build:shards -- --input <glob> --out <dir> [options]`.
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { DEFAULT_DIGEST } from './digest.js';
import { BuildError } from './fasta.js';
import { buildDataset, DEFAULT_SHARD_BYTES } from './pipeline.js';

const USAGE = `usage: npm run build:shards -- --input <glob> [--input <glob> ...] --out <dir>
  [--enzyme trypsin|trypsin/p|lys-c|chymotrypsin] [--missed-cleavages ${DEFAULT_DIGEST.missedCleavages}]
  [--min-length ${DEFAULT_DIGEST.minLength}] [--max-length ${DEFAULT_DIGEST.maxLength}] [--taxonomy <tsv>]
  [--shard-bytes ${DEFAULT_SHARD_BYTES}] [--threads N] [--release name=value ...]`;

function integer(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text)) throw new BuildError(`--${name} must be a non-negative integer, got "${text}"`);
  return Number(text);
}

/** `--release name=2025_01 --release url=...` as an object, recorded in the manifest. */
function releaseFields(pairs: string[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at < 1) throw new BuildError(`--release takes name=value, got "${pair}"`);
    fields[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return fields;
}

export async function main(argv: string[]): Promise<number> {
  try {
    const { values } = parseArgs({
      args: argv,
      options: {
        input: { type: 'string', multiple: true },
        out: { type: 'string' },
        enzyme: { type: 'string' },
        'missed-cleavages': { type: 'string' },
        'min-length': { type: 'string' },
        'max-length': { type: 'string' },
        taxonomy: { type: 'string' },
        'shard-bytes': { type: 'string' },
        threads: { type: 'string' },
        release: { type: 'string', multiple: true },
        help: { type: 'boolean' },
      },
    });
    if (values.help) {
      console.log(USAGE);
      return 0;
    }
    if (!values.input?.length || !values.out) throw new BuildError('--input and --out are required (see --help)');
    await buildDataset({
      inputs: values.input,
      out: values.out,
      enzyme: values.enzyme ?? DEFAULT_DIGEST.enzyme,
      missedCleavages: integer('missed-cleavages', values['missed-cleavages'], DEFAULT_DIGEST.missedCleavages),
      minLength: integer('min-length', values['min-length'], DEFAULT_DIGEST.minLength),
      maxLength: integer('max-length', values['max-length'], DEFAULT_DIGEST.maxLength),
      taxonomy: values.taxonomy,
      shardBytes: integer('shard-bytes', values['shard-bytes'], DEFAULT_SHARD_BYTES),
      threads: integer('threads', values.threads, Math.min(2, availableParallelism())),
      log: (line) => process.stderr.write(line + '\n'),
      release: values.release ? releaseFields(values.release) : undefined,
    });
    return 0;
  } catch (e) {
    // One line, no stack: unknown flags (parseArgs), bad input files, and internal failures alike.
    const message = (e instanceof Error ? e.message : String(e)).split('\n')[0];
    process.stderr.write(`build:shards: error: ${message}\n`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));

// The offline query tool: the API's endpoints, a streaming export and MGF matching (match.ts) over a dataset folder
// or URL, answered by the core directly (parse by the endpoint's table → runQuery → the JSON or TSV renderer).
// JSON output and errors are the API's. Exit 0 on success, 1 when the API would answer with an error (its JSON body:
// stdout for json, stderr for tsv and export), 2 on usage errors.
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Dataset } from '../../core/storage/dataset.js';
import { statusOf } from '../../api/answer.js';
import { endpointByCommand, type Endpoint, type Format } from '../../api/endpoints.js';
import { MATCH_CACHE_BYTES } from '../../core/match/match.js';
import { flagOf, readParams, type ParamSource } from '../../api/params.js';
import { massRangeParams } from '../../api/rangeParams.js';
import { walkRange } from '../../core/range/search.js';
import { memoryText } from '../../api/envelope.js';
import { openapiDocument } from '../../api/openapi.js';
import { runRows, TSV_HEADER } from '../../api/tsv.js';
import type { MassText } from '../../model/massKey.js';
import { cacheBytesFromEnv, defaultShards, nodeCodecs, processMemory, sourceFor } from '../node/platform.js';
import { matchFile, matchOptions } from './match.js';
import { write, type QueryIo } from './output.js';
import { flagOptions, usage } from './usage.js';

/** The export command's parameters: an inclusive mass range, both ends required. */
const EXPORT_PARAMS = massRangeParams(true);

export const USAGE = usage(EXPORT_PARAMS);

export type { QueryIo };

class UsageError extends Error {}

const EXIT_API_ERROR = 1;
const EXIT_USAGE = 2;

type Values = Record<string, string | boolean | undefined>;

const errorBody = (message: string) => JSON.stringify({ error: message });
const memory = memoryText(processMemory);

function parse(
  args: string[],
  options: Record<string, { type: 'string' | 'boolean' }>,
  positionals = false,
): { values: Values; positionals: string[] } {
  try {
    return parseArgs({ args, options: { ...options, help: { type: 'boolean' } }, allowPositionals: positionals }) as {
      values: Values;
      positionals: string[];
    };
  } catch (e) {
    throw new UsageError((e as Error).message.split('\n')[0]);
  }
}

/** A parameter's value from its flag (`pageSize` ← `--page-size`). */
const flagSource =
  (values: Values): ParamSource =>
  (name) => {
    const value = values[flagOf(name)];
    return typeof value === 'string' ? [value] : [];
  };

/** The dataset of --shards (default SHARDS_DIR) with the server's cache budget (SHARD_CACHE_BYTES) unless given. */
const openDataset = (values: Values, cacheBytes = cacheBytesFromEnv()) =>
  Dataset.open(sourceFor((values.shards as string | undefined) ?? defaultShards()), { cacheBytes, ...nodeCodecs });

/** One page of an endpoint, as JSON (the API's answer) or TSV. */
async function page(endpoint: Endpoint, values: Values, io: QueryIo): Promise<number> {
  const started = performance.now();
  const format = (values.format as string | undefined) ?? 'json';
  if (!Object.hasOwn(endpoint.renderers, format))
    throw new UsageError(`--format must be ${Object.keys(endpoint.renderers).join(' or ')}, got "${format}"`);
  try {
    const query = endpoint.parse(flagSource(values));
    const dataset = await openDataset(values);
    const result = await endpoint.run(dataset, query);
    await write(io.stdout, endpoint.renderers[format as Format](dataset, query, result, started, memory));
    if (format === 'json') {
      await write(io.stdout, '\n');
      return 0;
    }
    if (endpoint.paged) {
      const pages = Math.max(1, Math.ceil(result.totalResult / result.pageSize));
      await write(io.stderr, `# ${result.totalResult} mass groups in range; page ${result.page} of ${pages}\n`);
    }
    return 0;
  } catch (e) {
    if (statusOf(e) === undefined) throw e;
    await write(format === 'json' ? io.stdout : io.stderr, errorBody((e as Error).message) + '\n');
    return EXIT_API_ERROR;
  }
}

/** Every spectrum of an MGF file matched (match.ts); a refused parameter is the API's JSON error, exit 1. */
async function matchCommand(values: Values, positionals: string[], io: QueryIo): Promise<number> {
  if (positionals.length !== 1)
    throw new UsageError(`match takes one MGF file (or - for standard input), got ${positionals.length}`);
  let options: ReturnType<typeof matchOptions>;
  try {
    options = matchOptions(flagSource(values), values);
  } catch (e) {
    if (e instanceof RangeError) throw new UsageError(e.message);
    if (statusOf(e) === undefined) throw e;
    await write(values.format === 'json' ? io.stdout : io.stderr, errorBody((e as Error).message) + '\n');
    return EXIT_API_ERROR;
  }
  const input = positionals[0];
  if (input !== '-' && !existsSync(input)) throw new Error(`cannot read ${input}: no such file`);
  try {
    const dataset = await openDataset(values, cacheBytesFromEnv(MATCH_CACHE_BYTES));
    await matchFile(dataset, options.query, { input, ...options }, { ...io, stdin: io.stdin ?? process.stdin });
    return 0;
  } catch (e) {
    if (statusOf(e) === undefined) throw e;
    await write(options.format === 'json' ? io.stdout : io.stderr, errorBody((e as Error).message) + '\n');
    return EXIT_API_ERROR;
  }
}

/** The whole range as TSV, shard by shard, holding one decoded shard at a time. */
async function exportCommand(values: Values, io: QueryIo): Promise<number> {
  try {
    const range = readParams(EXPORT_PARAMS, flagSource(values));
    const [low, high] = EXPORT_PARAMS.map((p) => range[p.name] as MassText);
    const dataset = await openDataset(values, 0);
    await write(io.stdout, TSV_HEADER);
    for await (const run of walkRange(dataset, low.ceilKey, high.floorKey)) {
      for (const chunk of runRows(run)) await write(io.stdout, chunk);
    }
    return 0;
  } catch (e) {
    if (statusOf(e) === undefined) throw e;
    await write(io.stderr, errorBody((e as Error).message) + '\n');
    return EXIT_API_ERROR;
  }
}

export async function main(
  argv: string[],
  io: QueryIo = { stdout: process.stdout, stderr: process.stderr },
): Promise<number> {
  const [command, ...args] = argv;
  try {
    if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
      await write(command === undefined ? io.stderr : io.stdout, USAGE + '\n');
      return command === undefined ? EXIT_USAGE : 0;
    }
    const shards = { shards: { type: 'string' } } as const;
    const format = { format: { type: 'string' } } as const;
    const endpoint = endpointByCommand(command);
    const options =
      command === 'openapi'
        ? {}
        : command === 'export'
          ? { ...shards, ...flagOptions(EXPORT_PARAMS) }
          : command === 'match'
            ? {
                ...shards,
                ...flagOptions(endpoint!.params),
                ...format,
                batch: { type: 'string' } as const,
                concurrency: { type: 'string' } as const,
              }
            : endpoint
              ? { ...shards, ...flagOptions(endpoint.params), ...format }
              : undefined;
    if (!options) throw new UsageError(`unknown command "${command}"`);
    const { values, positionals } = parse(args, options, command === 'match');
    if (values.help) {
      await write(io.stdout, USAGE + '\n');
      return 0;
    }
    if (command === 'openapi') {
      await write(io.stdout, JSON.stringify(openapiDocument(), null, 2) + '\n');
      return 0;
    }
    if (command === 'match') return await matchCommand(values, positionals, io);
    return endpoint ? await page(endpoint, values, io) : await exportCommand(values, io);
  } catch (e) {
    if (e instanceof UsageError) {
      await write(io.stderr, `query: error: ${e.message}\n${USAGE}\n`).catch(() => {});
      return EXIT_USAGE;
    }
    const error = e as NodeJS.ErrnoException;
    if (error.code === 'EPIPE') return 0; // the reader stopped early (| head): not a failure of ours
    await write(io.stderr, `query: error: ${(error.message ?? String(e)).split('\n')[0]}\n`).catch(() => {});
    return EXIT_API_ERROR;
  }
}

/** Runs the command line of this process; stdout errors (a closed pipe) end the output, not the process. */
export async function run(): Promise<void> {
  process.stdout.on('error', () => {});
  process.exitCode = await main(process.argv.slice(2));
}

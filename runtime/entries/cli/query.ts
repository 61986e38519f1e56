// The offline query tool: the API's endpoints, a streaming export, MGF matching (match.ts), identification and
// fingerprinting (identify.ts, fingerprint.ts) over a dataset folder or URL, answered by the core directly (parse by
// the endpoint's table → runQuery → the JSON or TSV renderer). JSON output and errors are the API's. Exit 0 on
// success, 1 when the API would answer with an error (its JSON body: stdout for json, stderr for tsv, export and
// --out), 2 on usage errors.
import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Dataset } from '../../core/storage/dataset.js';
import { DatasetError } from '../../core/errors.js';
import { statusOf } from '../../api/answer.js';
import { endpointByCommand, ENDPOINTS, type Endpoint, type Format } from '../../api/endpoints.js';
import { DEFAULT_BATCH, MATCH_CACHE_BYTES } from '../../core/match/match.js';
import { nearestName } from '../../model/editDistance.js';
import { flagOf, readParams, type Param, type ParamSource } from '../../api/params.js';
import { massRangeParams } from '../../api/rangeParams.js';
import { walkRange } from '../../core/range/search.js';
import { memoryText } from '../../api/envelope.js';
import { openapiDocument } from '../../api/openapi.js';
import { runRows, TSV_HEADER } from '../../api/tsv.js';
import type { MassText } from '../../model/massKey.js';
import { cacheBytesFromEnv, defaultShards, nodeCodecs, processMemory, sourceFor } from '../node/platform.js';
import { countOption, matchFile, matchOptions } from './match.js';
import { IDENTIFY_FORMATS, identifyFile, type IdentifyFormat } from './identify.js';
import { IdentifyWorkers } from '../node/identifyWorkers.js';
import { defaultThreads } from '../node/threadPool.js';
import { IDENTIFY_PARAMS, parseIdentifyQuery } from '../../api/identifyParams.js';
import type { IdentifyQuery } from '../../core/identify/identify.js';
import { parseCommand, UsageError, type Values } from './command.js';
import { FINGERPRINT_CLI_PARAMS, FINGERPRINT_OPTIONS, fingerprintCommand } from './fingerprint.js';
import { errorOut, outputFile, write, type QueryIo } from './output.js';
import { COMMON_OPTIONS, commandHelp, paramsText, usage } from './usage.js';

/** The export command's parameters: an inclusive mass range, both ends required. */
const EXPORT_PARAMS = massRangeParams(true);

export const USAGE = usage(EXPORT_PARAMS);

export type { QueryIo };

const EXIT_API_ERROR = 1;
const EXIT_USAGE = 2;

const errorBody = (message: string) => JSON.stringify({ error: message });
const memory = memoryText(processMemory);

/** A parameter's value from its flag (`pageSize` ← `--page-size`). */
const flagSource =
  (values: Values): ParamSource =>
  (name) => {
    const value = values[flagOf(name)];
    return typeof value === 'string' ? [value] : [];
  };

/** The dataset of --shards (default SHARDS_DIR) with the server's cache budget (SHARD_CACHE_BYTES) unless given. */
/** Where the command reads its dataset: --shards, else SHARDS_DIR or ./shards. */
const datasetLocation = (values: Values): string => (values.shards as string | undefined) ?? defaultShards();

async function openDataset(values: Values, cacheBytes = cacheBytesFromEnv()): Promise<Dataset> {
  const location = datasetLocation(values);
  const named = values.shards === undefined ? `SHARDS_DIR ${location}` : `--shards ${location}`;
  try {
    return await Dataset.open(sourceFor(location), { cacheBytes, ...nodeCodecs });
  } catch (e) {
    // Where the dataset was looked for is the user's to fix: said in one line, not as an API answer.
    if (e instanceof DatasetError && e.kind === 'unavailable')
      throw new Error(
        /^https?:/i.test(location)
          ? `${named}: no dataset could be read there (${e.message})`
          : !existsSync(location)
            ? `${named}: no such folder`
            : statSync(location).isDirectory()
              ? `${named}: no manifest.json in that folder; build a dataset with npm run build:shards`
              : `${named}: not a folder; give a dataset folder or URL`,
      );
    throw e;
  }
}

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
    await write(errorOut(io, format), errorBody((e as Error).message) + '\n');
    return EXIT_API_ERROR;
  }
}

/** Every spectrum of an MGF file matched (match.ts); a refused parameter is the API's JSON error, exit 1. */
async function matchCommand(values: Values, positionals: string[], io: QueryIo): Promise<number> {
  if (positionals.length !== 1)
    throw new UsageError(`match takes one peak list, MGF or mzML (or - for standard input), got ${positionals.length}`);
  let options: ReturnType<typeof matchOptions>;
  try {
    options = matchOptions(flagSource(values), values);
  } catch (e) {
    if (e instanceof RangeError) throw new UsageError(e.message);
    if (statusOf(e) === undefined) throw e;
    await write(errorOut(io, values.format), errorBody((e as Error).message) + '\n');
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
    await write(errorOut(io, options.format), errorBody((e as Error).message) + '\n');
    return EXIT_API_ERROR;
  }
}

/** Every spectrum of an MGF file identified (identify.ts); a refused parameter is the API's JSON error, exit 1. */
async function identifyCommand(values: Values, positionals: string[], io: QueryIo): Promise<number> {
  if (positionals.length !== 1)
    throw new UsageError(
      `identify takes one peak list, MGF or mzML (or - for standard input), got ${positionals.length}`,
    );
  const format = (values.format as string | undefined) ?? 'tsv';
  if (!(IDENTIFY_FORMATS as readonly string[]).includes(format))
    throw new UsageError(`--format must be ${IDENTIFY_FORMATS.join(', ')}, got "${format}"`);
  let options: ReturnType<typeof matchOptions>;
  let query: IdentifyQuery;
  let threads: number;
  try {
    options = matchOptions(() => [], { ...values, format: 'tsv' });
    // One per core unless told: 1 identifies in this thread.
    threads = countOption(values, 'threads', defaultThreads(), 256);
    query = parseIdentifyQuery(flagSource(values));
  } catch (e) {
    if (e instanceof RangeError) throw new UsageError(e.message);
    if (statusOf(e) === undefined) throw e;
    await write(errorOut(io, format), errorBody((e as Error).message) + '\n');
    return EXIT_API_ERROR;
  }
  const input = positionals[0];
  if (input !== '-' && !existsSync(input)) throw new Error(`cannot read ${input}: no such file`);
  let workers: IdentifyWorkers | undefined;
  try {
    const cacheBytes = cacheBytesFromEnv(MATCH_CACHE_BYTES);
    const dataset = await openDataset(values, cacheBytes);
    const { batch, concurrency } = options;
    workers =
      threads > 1
        ? new IdentifyWorkers({ location: datasetLocation(values), cacheBytes, query, concurrency }, threads)
        : undefined;
    const lanes = workers?.lanes(batch);
    const run = { input, format: format as IdentifyFormat, batch, concurrency, lanes };
    await identifyFile(dataset, query, run, { ...io, stdin: io.stdin ?? process.stdin });
    return 0;
  } catch (e) {
    if (statusOf(e) === undefined) throw e;
    await write(errorOut(io, format), errorBody((e as Error).message) + '\n');
    return EXIT_API_ERROR;
  } finally {
    await workers?.close();
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

/** A command of the tool: its parameter rows, its own options (with their help), its synopsis and its body. */
interface Command {
  params: readonly Param[];
  options: Record<string, string>;
  synopsis: string;
  positionals?: boolean;
  run(values: Values, positionals: string[], io: QueryIo): Promise<number>;
}

const MATCH_OPTIONS = {
  format: 'tsv (default) or json',
  batch: `spectra searched together (default ${DEFAULT_BATCH})`,
  concurrency: 'searches run at once (default 6)',
};

/** The command named `name`: an endpoint's, export, match, identify, fingerprint or openapi. */
function commandNamed(name: string): Command | undefined {
  const endpoint = endpointByCommand(name);
  if (name === 'openapi') return { params: [], options: {}, synopsis: '', run: (_v, _p, io) => openapi(io) };
  if (name === 'export')
    return {
      params: EXPORT_PARAMS,
      options: { shards: COMMON_OPTIONS.shards, out: COMMON_OPTIONS.out },
      synopsis: paramsText(EXPORT_PARAMS),
      run: (values, _p, io) => exportCommand(values, io),
    };
  if (name === 'match')
    return {
      params: endpoint!.params,
      options: { shards: COMMON_OPTIONS.shards, ...MATCH_OPTIONS, out: COMMON_OPTIONS.out },
      synopsis: `<file.mgf|.mzML|.gz|-> ${paramsText(endpoint!.params)}`,
      positionals: true,
      run: matchCommand,
    };
  if (name === 'identify')
    return {
      params: IDENTIFY_PARAMS,
      options: {
        shards: COMMON_OPTIONS.shards,
        ...MATCH_OPTIONS,
        format: "tsv (default: Sage's columns), pin (Percolator input) or json",
        threads: 'threads scoring at once (default: one per core; 1 scores in this thread)',
        out: COMMON_OPTIONS.out,
      },
      synopsis: `<file.mgf|.mzML|.gz|-> ${paramsText(IDENTIFY_PARAMS)}`,
      positionals: true,
      run: identifyCommand,
    };
  if (name === 'fingerprint')
    return {
      params: FINGERPRINT_CLI_PARAMS,
      options: { shards: COMMON_OPTIONS.shards, ...FINGERPRINT_OPTIONS, out: COMMON_OPTIONS.out },
      synopsis: `<file|-> ${paramsText(FINGERPRINT_CLI_PARAMS)}`,
      positionals: true,
      run: (values, positionals, io) =>
        fingerprintCommand(values, positionals, io, {
          source: flagSource(values),
          openDataset,
          location: datasetLocation,
          cacheBytes: cacheBytesFromEnv,
        }),
    };
  if (endpoint?.method === 'GET')
    return {
      params: endpoint.params,
      options: COMMON_OPTIONS,
      synopsis: paramsText(endpoint.params),
      run: (values, _p, io) => page(endpoint, values, io),
    };
  return undefined;
}

async function openapi(io: QueryIo): Promise<number> {
  await write(io.stdout, JSON.stringify(openapiDocument(), null, 2) + '\n');
  return 0;
}

/** Runs `command` with its output on `--out FILE` when given: renamed into place on success, removed otherwise. */
async function withOut(values: Values, io: QueryIo, body: (io: QueryIo) => Promise<number>): Promise<number> {
  const path = values.out as string | undefined;
  if (path === undefined) return body(io);
  if (!existsSync(dirname(resolve(path))))
    throw new Error(`--out ${path}: folder ${dirname(resolve(path))} does not exist`);
  const file = outputFile(path);
  let code = EXIT_API_ERROR;
  try {
    code = await body({ ...io, stdout: file.stream, toFile: true });
  } finally {
    await (code === 0 ? file.commit() : file.abort());
  }
  return code;
}

export async function main(
  argv: string[],
  io: QueryIo = { stdout: process.stdout, stderr: process.stderr },
): Promise<number> {
  const [name, ...args] = argv;
  const help = `npm run query -- ${name} --help`;
  try {
    if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
      await write(name === undefined ? io.stderr : io.stdout, USAGE + '\n');
      return name === undefined ? EXIT_USAGE : 0;
    }
    const command = commandNamed(name);
    if (!command) {
      const nearest = nearestName(name, COMMANDS);
      throw new UsageError(
        `unknown command "${name}"${nearest ? `: did you mean ${nearest}?` : ''} (npm run query -- --help lists them)`,
      );
    }
    const { values, positionals } = parseCommand(
      args,
      Object.keys(command.options),
      command.positionals ?? false,
      command.params,
    );
    if (values.help) {
      await write(io.stdout, commandHelp(name, command.synopsis, command.params, command.options) + '\n');
      return 0;
    }
    return await withOut(values, io, (out) => command.run(values, positionals, out));
  } catch (e) {
    if (e instanceof UsageError) {
      const more = name === undefined || !commandNamed(name) ? '' : ` (${help} lists its options)`;
      await write(io.stderr, `query: error: ${e.message}${more}\n`).catch(() => {});
      return EXIT_USAGE;
    }
    const error = e as NodeJS.ErrnoException;
    if (error.code === 'EPIPE') return 0; // the reader stopped early (| head): not a failure of ours
    await write(io.stderr, `query: error: ${(error.message ?? String(e)).split('\n')[0]}\n`).catch(() => {});
    return EXIT_API_ERROR;
  }
}

/** The commands of the tool, for suggestions. */
const COMMANDS = [...ENDPOINTS.map((e) => e.command), 'export', 'identify', 'openapi', 'mirror', 'archive'];

/** Runs the command line of this process; stdout errors (a closed pipe) end the output, not the process. */
export async function run(): Promise<void> {
  process.stdout.on('error', () => {});
  process.exitCode = await main(process.argv.slice(2));
}

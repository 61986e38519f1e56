// Offline query tool: the API's three endpoints and a streaming export, over a dataset folder or URL.
//   npm run query -- <search|search-peptide|search-taxonomy> [--mass1 X --mass2 Y | --peptide SEQ]
//                    [--shards <dir|url>] [--page N] [--page-size N] [--format json|tsv]
//   npm run query -- export --mass1 X --mass2 Y [--shards <dir|url>]
//   npm run query -- openapi
// JSON output is the API's answer; TSV is one row per peptide–accession pair. Exit 0 on success, 1 when the
// API answers with an error (its JSON error body: stdout for json, stderr for tsv/export), 2 on usage errors.
import { realpathSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Dataset, DatasetError } from './dataset.js';
import { apiRequest, defaultShards, endpointOf, offlineApi, sourceFor, writePageTsv } from './offline.js';
import { openapiDocument } from './openapi.js';
import { ApiError, ENDPOINTS, parseQuery } from './params.js';
import { exportRange, write } from './tsv.js';

export const USAGE = `usage: npm run query -- <command> [options]
  search           --mass1 X --mass2 Y | --peptide SEQ   (as /search.php)
  search-peptide   --peptide SEQ                         (as /search-peptide.php)
  search-taxonomy  --mass1 X --mass2 Y                   (as /search-taxonomy.php)
      [--page N] [--page-size N] [--format json|tsv]
  export           --mass1 X --mass2 Y   the whole range as TSV, no paging
  openapi          the OpenAPI document of the API
options of every command: --shards <dir|url>   dataset folder or base URL (default: $SHARDS_DIR or ./shards)
TSV columns: mass, sequence, accession, taxId (one row per peptide-accession pair)`;

export interface QueryIo {
  stdout: Writable;
  stderr: Writable;
}

class UsageError extends Error {}

const EXIT_API_ERROR = 1;
const EXIT_USAGE = 2;

const errorBody = (message: string) => JSON.stringify({ error: message });

function options(command: string) {
  const shards = { shards: { type: 'string' }, help: { type: 'boolean' } } as const;
  if (command === 'export') return { ...shards, mass1: { type: 'string' }, mass2: { type: 'string' } } as const;
  if (command === 'openapi') return { help: { type: 'boolean' } } as const;
  return {
    ...shards,
    mass1: { type: 'string' },
    mass2: { type: 'string' },
    peptide: { type: 'string' },
    page: { type: 'string' },
    'page-size': { type: 'string' },
    format: { type: 'string' },
  } as const;
}

function parse(command: string, args: string[]): Record<string, string | boolean | undefined> {
  try {
    return parseArgs({ args, options: options(command), allowPositionals: false }).values as Record<string, string | boolean | undefined>;
  } catch (e) {
    throw new UsageError((e as Error).message.split('\n')[0]);
  }
}

/** One page of an endpoint, as JSON (the API's answer) or TSV. */
async function page(command: string, values: Record<string, string | boolean | undefined>, io: QueryIo): Promise<number> {
  const endpoint = endpointOf(command)!;
  const format = (values.format as string | undefined) ?? 'json';
  if (format !== 'json' && format !== 'tsv') throw new UsageError(`--format must be json or tsv, got "${format}"`);
  const text = (name: string) => values[name] as string | undefined;
  const req = apiRequest(endpoint, {
    mass1: text('mass1'),
    mass2: text('mass2'),
    peptide: text('peptide'),
    page: text('page'),
    pageSize: text('page-size'),
  });
  const api = offlineApi(sourceFor((values.shards as string | undefined) ?? defaultShards()));
  const response = await api.handle(req);
  const body = await response.text();
  if (format === 'json') {
    await write(io.stdout, body + '\n');
    return response.status === 200 ? 0 : EXIT_API_ERROR;
  }
  if (response.status !== 200) {
    await write(io.stderr, body + '\n');
    return EXIT_API_ERROR;
  }
  await writePageTsv(api, endpoint, req, io.stdout);
  const { totalResult, page: number, pageSize } = JSON.parse(body) as { totalResult: number; page: number; pageSize: number };
  await write(io.stderr, `# ${totalResult} mass groups in range; page ${number} of ${Math.max(1, Math.ceil(totalResult / pageSize))}\n`);
  return 0;
}

/** The whole range as TSV, shard by shard, holding one decoded shard at a time. */
async function exportCommand(values: Record<string, string | boolean | undefined>, io: QueryIo): Promise<number> {
  const endpoint = ENDPOINTS.find((e) => e.by === 'mass')!;
  try {
    const params = new URLSearchParams();
    for (const name of ['mass1', 'mass2'] as const) if (values[name] !== undefined) params.set(name, values[name] as string);
    const query = parseQuery(endpoint, params);
    const dataset = await Dataset.open(sourceFor((values.shards as string | undefined) ?? defaultShards()), { cacheBytes: 0 });
    await exportRange(dataset, query.lowKey, query.highKey, io.stdout);
    return 0;
  } catch (e) {
    if (!(e instanceof ApiError) && !(e instanceof DatasetError)) throw e;
    await write(io.stderr, errorBody(e.message) + '\n');
    return EXIT_API_ERROR;
  }
}

export async function main(argv: string[], io: QueryIo = { stdout: process.stdout, stderr: process.stderr }): Promise<number> {
  const [command, ...args] = argv;
  try {
    if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
      await write(command === undefined ? io.stderr : io.stdout, USAGE + '\n');
      return command === undefined ? EXIT_USAGE : 0;
    }
    const known = command === 'export' || command === 'openapi' || endpointOf(command) !== undefined;
    if (!known) throw new UsageError(`unknown command "${command}"`);
    const values = parse(command, args);
    if (values.help) {
      await write(io.stdout, USAGE + '\n');
      return 0;
    }
    if (command === 'openapi') {
      await write(io.stdout, JSON.stringify(openapiDocument(), null, 2) + '\n');
      return 0;
    }
    return command === 'export' ? await exportCommand(values, io) : await page(command, values, io);
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

/** True when this module is the process's entry (tsx runtime/query.ts), not when imported. */
function isEntry(): boolean {
  try {
    return process.argv[1] !== undefined && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

/** Runs the command line of this process; stdout errors (a closed pipe) end the output, not the process. */
export async function run(): Promise<void> {
  process.stdout.on('error', () => {});
  process.exitCode = await main(process.argv.slice(2));
}

if (isEntry()) await run();

// Local entry: builds the bundled dataset when there is none, then answers the API and serves the dataset
// files under /shards/ (serve-handler) — the same handler as on Netlify, over a local folder.
import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import serveHandler from 'serve-handler';
import { buildDataset, DEFAULT_SHARD_BYTES } from '../build/pipeline.js';
import { DEFAULT_DIGEST } from './chemistry.js';
import { createAnswerer, datasetOnce, type Call } from './handler.js';
import { errorAnswer, type Answer } from './respond.js';
import { FileSource } from './source.js';

export const DEFAULT_SHARDS_DIR = 'shards';
export const BUNDLED_INPUT = 'data/*.fasta.gz';

/** Dataset file names: a plain name, no separators, no leading dot. */
const DATASET_FILE = /^\/shards\/[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

export const SHARD_HEADERS = [
  { source: '**/*.msgpack', headers: [{ key: 'Cache-Control', value: 'public, max-age=31536000, immutable' }] },
  { source: 'manifest.json', headers: [{ key: 'Cache-Control', value: 'public, max-age=60' }] },
  { source: '**', headers: [{ key: 'Access-Control-Allow-Origin', value: '*' }, { key: 'X-Content-Type-Options', value: 'nosniff' }] },
];

function send(answer: Answer, res: ServerResponse): void {
  res.writeHead(answer.status, answer.headers);
  res.end(answer.body ?? undefined);
}

/** A Node request listener: /shards/<file> from `dir`, everything else through the API handler. */
export function createListener(dir: string, answerer: (call: Call) => Promise<Answer>) {
  return async (req: IncomingMessage, res: ServerResponse) => {
    try {
      const path = (req.url ?? '/').split('?')[0];
      if (path.startsWith('/shards/') && (req.method === 'GET' || req.method === 'HEAD')) {
        if (!DATASET_FILE.test(path)) return send(errorAnswer(404, 'no such dataset file'), res);
        req.url = path.slice('/shards'.length);
        return await serveHandler(req, res, { public: dir, directoryListing: false, cleanUrls: false, etag: true, headers: SHARD_HEADERS }, {
          // serve-handler's own errors are HTML pages (or a 404.html of the folder): answer JSON like the API.
          sendError: async (_path, response, _json, _current, _handlers, _config, spec: { statusCode?: number }) => {
            const [status, error] = spec?.statusCode === 404 ? [404, 'no such dataset file'] : spec?.statusCode === 400 ? [400, 'malformed request'] : [500, 'internal error'];
            send(errorAnswer(status, error, {}, req.method === 'HEAD'), response!);
          },
        });
      }
      const url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`);
      send(await answerer({ method: req.method ?? 'GET', url, ifNoneMatch: req.headers['if-none-match'] }), res);
    } catch {
      if (!res.headersSent) send(errorAnswer(400, 'malformed request'), res);
      else res.destroy();
    }
  };
}

/**
 * Opt-in (LOOP_MONITOR=1): event-loop delay since the previous report, written to stderr on SIGUSR2 and at
 * exit as `loop: max <ms> ms, p99 <ms> ms, mean <ms> ms`. Each report starts a new measurement.
 */
function monitorLoop(): void {
  const delay = monitorEventLoopDelay({ resolution: 1 }); // a sample is the stall plus at most 1 ms
  delay.enable();
  const report = () => {
    const ms = (ns: number) => (Number.isFinite(ns) ? ns / 1e6 : 0).toFixed(1); // no samples yet: 0
    process.stderr.write(`loop: max ${ms(delay.max)} ms, p99 ${ms(delay.percentile(99))} ms, mean ${ms(delay.mean)} ms\n`);
    delay.reset();
  };
  process.on('SIGUSR2', report);
  process.on('exit', report);
}

export async function start(): Promise<void> {
  const dir = resolve(process.env.SHARDS_DIR ?? DEFAULT_SHARDS_DIR);
  const port = Number(process.env.PORT ?? 8888);
  const cacheBytes = Number(process.env.SHARD_CACHE_BYTES ?? 256 * 2 ** 20);
  if (!Number.isFinite(cacheBytes) || cacheBytes < 0) throw new Error(`SHARD_CACHE_BYTES must be a number of bytes, not ${process.env.SHARD_CACHE_BYTES}`);
  if (!existsSync(resolve(dir, 'manifest.json'))) {
    if (process.env.SHARDS_DIR) throw new Error(`SHARDS_DIR ${dir} holds no manifest.json; build one with npm run build:shards`);
    process.stderr.write(`no dataset in ${dir}: building the bundled sample (${BUNDLED_INPUT})\n`);
    await buildDataset({
      ...DEFAULT_DIGEST,
      inputs: [BUNDLED_INPUT],
      out: dir,
      shardBytes: DEFAULT_SHARD_BYTES,
      threads: 2,
      log: (line) => process.stderr.write(line + '\n'),
    });
  }
  if (process.env.LOOP_MONITOR === '1') monitorLoop();
  const answerer = createAnswerer(datasetOnce(() => new FileSource(dir), { cacheBytes }));
  const server = createServer(createListener(dir, answerer));
  server.listen(port, () => process.stderr.write(`serving ${dir} on http://localhost:${port}/search.php\n`));
  // Stop on SIGTERM/SIGINT with a normal exit (exit handlers run: the loop monitor's report, --cpu-prof).
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      server.close();
      process.exit(0);
    });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  start().catch((e: Error) => {
    process.stderr.write(`start: error: ${e.message}\n`);
    process.exitCode = 1;
  });
}

// npm start: answers the API, serves the dataset files under /shards/ (serve-handler) — the same handler as on
// Netlify, over a local folder — and the web page at / with its assets (built in memory at start).
// (`prestart` builds the bundled dataset first when there is none.)
import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { resolve } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import serveHandler from 'serve-handler';
import { errorAnswer, methodNotAllowed, type Answer } from '../../api/answer.js';
import { createAnswerer, datasetOnce, type Call } from '../../api/handler.js';
import { MANIFEST_FILE } from '../../model/format.js';
import { buildWebPage, type WebPage } from '../web/bundle.js';
import { FileSource } from './fileSource.js';
import { defaultShards, nodeDatasetOptions, processMemory } from './platform.js';

/** Dataset file names: a plain name, no separators, no leading dot. */
const DATASET_FILE = /^\/shards\/[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

/** Compressed, content-named files: cached forever, served as stored (never with a Content-Encoding: see docs/format.md). */
const STORED = [
  { key: 'Cache-Control', value: 'public, max-age=31536000, immutable' },
  { key: 'Content-Type', value: 'application/octet-stream' },
];

export const SHARD_HEADERS = [
  { source: '**/*.gz', headers: STORED },
  { source: '**/*.br', headers: STORED },
  { source: MANIFEST_FILE, headers: [{ key: 'Cache-Control', value: 'public, max-age=60' }] },
  {
    source: '**',
    headers: [
      { key: 'Access-Control-Allow-Origin', value: '*' },
      { key: 'X-Content-Type-Options', value: 'nosniff' },
    ],
  },
];

function send(answer: Answer, res: ServerResponse): void {
  res.writeHead(answer.status, answer.headers);
  res.end(answer.body ?? undefined);
}

/** The page's files as answers: index.html at / (revalidated), content-named assets cached for good. */
function pageAnswers(page: WebPage): Map<string, (head: boolean) => Answer> {
  return new Map(
    page.files.map((file) => {
      const cache = file.path === 'index.html' ? 'no-cache' : 'public, max-age=31536000, immutable';
      const headers = {
        'Content-Type': file.type,
        'Cache-Control': cache,
        'X-Content-Type-Options': 'nosniff',
        'Content-Length': String(file.body.length),
      };
      return [
        file.path === 'index.html' ? '/' : `/${file.path}`,
        (head: boolean): Answer => ({ status: 200, headers, body: head ? null : file.body }),
      ];
    }),
  );
}

/**
 * A Node request listener: /shards/<file> from `dir`, the page's files when given (`/` and /assets/…),
 * everything else through the API handler.
 */
export function createListener(dir: string, answerer: (call: Call) => Promise<Answer>, page?: WebPage) {
  const pageFiles = page ? pageAnswers(page) : new Map<string, (head: boolean) => Answer>();
  return async (req: IncomingMessage, res: ServerResponse) => {
    try {
      const path = (req.url ?? '/').split('?')[0];
      const pageFile = pageFiles.get(path);
      if (pageFile) return send(methodNotAllowed(req.method ?? 'GET') ?? pageFile(req.method === 'HEAD'), res);
      if (path.startsWith('/shards/') && (req.method === 'GET' || req.method === 'HEAD')) {
        if (!DATASET_FILE.test(path)) return send(errorAnswer(404, 'no such dataset file'), res);
        req.url = path.slice('/shards'.length);
        return await serveHandler(
          req,
          res,
          { public: dir, directoryListing: false, cleanUrls: false, etag: true, headers: SHARD_HEADERS },
          {
            // serve-handler's own errors are HTML pages (or a 404.html of the folder): answer JSON like the API.
            sendError: async (_path, response, _json, _current, _handlers, _config, spec: { statusCode?: number }) => {
              const [status, error] =
                spec?.statusCode === 404
                  ? [404, 'no such dataset file']
                  : spec?.statusCode === 400
                    ? [400, 'malformed request']
                    : [500, 'internal error'];
              send(errorAnswer(status, error, {}, req.method === 'HEAD'), response!);
            },
          },
        );
      }
      const url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`);
      const {
        'if-none-match': ifNoneMatch,
        'content-type': contentType,
        'content-length': contentLength,
        'content-encoding': contentEncoding,
      } = req.headers;
      send(
        await answerer({
          method: req.method ?? 'GET',
          url,
          ifNoneMatch,
          contentType,
          contentLength,
          contentEncoding,
          body: () => req,
        }),
        res,
      );
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
    process.stderr.write(
      `loop: max ${ms(delay.max)} ms, p99 ${ms(delay.percentile(99))} ms, mean ${ms(delay.mean)} ms\n`,
    );
    delay.reset();
  };
  process.on('SIGUSR2', report);
  process.on('exit', report);
}

/**
 * What Node's HTTP parser refuses before any listener runs (a request head over 16 KB: 431; a malformed
 * request: 400) is answered with the same JSON error body as every other error, then the socket is closed.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable) return socket.destroy();
    const [status, reason, message] =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request Header Fields Too Large', 'request head is larger than 16 KB']
        : [400, 'Bad Request', 'malformed request'];
    const answer = errorAnswer(status, message);
    const body = answer.body as string;
    const headers = Object.entries({
      ...answer.headers,
      'Content-Length': String(Buffer.byteLength(body)),
      Connection: 'close',
    }).map(([k, v]) => `${k}: ${v}\r\n`);
    socket.end(`HTTP/1.1 ${status} ${reason}\r\n${headers.join('')}\r\n${body}`);
  });
}

/** PORT, checked: a whole number from 0 to 65535 (default 8888). */
export function portFromEnv(): number {
  const text = process.env.PORT;
  if (text === undefined) return 8888;
  const port = /^\s*\d{1,5}\s*$/.test(text) ? Number(text) : NaN;
  if (!(port >= 0 && port <= 65535))
    throw new Error(`PORT must be a port number from 0 to 65535 (e.g. PORT=8080), not ${JSON.stringify(text)}`);
  return port;
}

/** Listens on `port`, or rejects with what to do when it cannot (taken, not allowed). */
function listenOn(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) =>
      reject(
        new Error(
          e.code === 'EADDRINUSE'
            ? `port ${port} is already in use (another npm start?); stop that server or choose another port, e.g. PORT=8889 npm start`
            : e.code === 'EACCES'
              ? `port ${port} needs privileges this process does not have; choose a port above 1023, e.g. PORT=8888`
              : `cannot listen on port ${port}: ${e.message}`,
        ),
      ),
    );
    server.listen(port, resolve);
  });
}

export async function start(): Promise<void> {
  const dir = resolve(defaultShards());
  const port = portFromEnv();
  const options = nodeDatasetOptions(); // checks SHARD_CACHE_BYTES before anything else
  const named = process.env.SHARDS_DIR === undefined ? dir : `SHARDS_DIR ${process.env.SHARDS_DIR}`;
  if (!existsSync(dir))
    throw new Error(`${named}: no such folder; give a dataset folder built by npm run build:shards`);
  if (!existsSync(resolve(dir, MANIFEST_FILE)))
    throw new Error(`${named} holds no ${MANIFEST_FILE}; build one with npm run build:shards`);
  if (process.env.LOOP_MONITOR === '1') monitorLoop();
  const answerer = createAnswerer(
    datasetOnce(() => new FileSource(dir), options),
    { memory: processMemory },
  );
  const server = createServer(createListener(dir, answerer, await buildWebPage({ api: true })));
  answerClientErrors(server);
  await listenOn(server, port);
  process.stderr.write(`serving ${dir} on http://localhost:${port}/ (the page; the API at /search.php, /api/v1/…)\n`);
  // Stop on SIGTERM/SIGINT with a normal exit (exit handlers run: the loop monitor's report, --cpu-prof).
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      server.close();
      process.exit(0);
    });
  }
}

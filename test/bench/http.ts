// HTTP load benchmark: `npm start`'s server on loopback, driven by autocannon with a seeded query mix.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { REPO } from '../helpers/process.js';

export interface HttpRun {
  requestsPerSecond: number;
  requests: number;
  errors: number;
  non2xx: number;
  latency: { p50: number; p90: number; p99: number; max: number; mean: number };
  rssBeforeMb: number;
  rssAfterMb: number;
}

/** A port free on 127.0.0.1 right now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts the local server (npm start's entry, runtime/entries/node/start.ts) on `port` over `dir`, with `env` on top;
 * resolves once it listens. It is killed when this process exits, should the caller fail to.
 */
export function startServer(dir: string, port: number, env: Record<string, string> = {}): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'runtime/entries/node/start.ts'], {
    cwd: REPO,
    env: { ...process.env, SHARDS_DIR: dir, PORT: String(port), ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const orphan = () => child.kill('SIGTERM');
  process.on('exit', orphan);
  child.on('exit', () => process.off('exit', orphan));
  return new Promise((resolve, reject) => {
    let log = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes('serving ')) resolve(child);
    });
    child.on('exit', (code) => reject(new Error(`server exited (${code}): ${log}`)));
  });
}

/** Where a section reads a dataset folder over HTTP (/shards/ of npm start's server), and its release when done. */
export interface Served {
  url: string;
  close: () => void;
}

/** How a section gets the dataset folder `dir` served. */
export type Serve = (dir: string) => Promise<Served>;

/** npm start's server over `dir` on a free port, the section's own. */
export const serveOwn: Serve = async (dir) => {
  const port = await freePort();
  const server = await startServer(dir, port);
  return { url: `http://127.0.0.1:${port}/shards/`, close: () => server.kill() };
};

/**
 * One server per folder for every section that asks (a section's `close` leaves it running; `close` here stops
 * them): for sections that only read files over HTTP, whose figures are the client's, not the server's.
 */
export function serveShared(): { serve: Serve; close: () => void } {
  const servers = new Map<string, Promise<Served>>();
  return {
    serve: async (dir) => {
      if (!servers.has(dir)) servers.set(dir, serveOwn(dir));
      return { url: (await servers.get(dir)!).url, close: () => {} };
    },
    close: () => {
      for (const served of servers.values()) void served.then((s) => s.close());
    },
  };
}

/** Resident memory of a process in MB (0 when it cannot be read). */
export function rssMb(pid: number): number {
  return procStatusMb(pid, 'VmRSS');
}

/** Peak resident memory of a process in MB (0 when it cannot be read). */
export function peakRssMb(pid: number): number {
  return procStatusMb(pid, 'VmHWM');
}

function procStatusMb(pid: number, field: string): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/**
 * Drives `paths` round-robin at the server for `seconds` with `connections` concurrent connections, or, with
 * `amount`, for that many requests (a warm-up pass over every path).
 */
export async function load(
  port: number,
  paths: string[],
  seconds: number,
  connections = 16,
  amount?: number,
): Promise<Omit<HttpRun, 'rssBeforeMb' | 'rssAfterMb'>> {
  // Loaded here, not at the top: the child processes of match.ts, identify.ts and fingerprint.ts import this module
  // for its RSS readers, and loading autocannon would add to their start and their measured memory.
  const { default: autocannon } = await import('autocannon');
  let next = 0;
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections,
    ...(amount ? { amount } : { duration: seconds }),
    requests: [{ setupRequest: (req) => ({ ...req, path: paths[next++ % paths.length] }) }],
  });
  return {
    requestsPerSecond: result.requests.average,
    requests: result.requests.total,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    latency: {
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      max: result.latency.max,
      mean: result.latency.average,
    },
  };
}

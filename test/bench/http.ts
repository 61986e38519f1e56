// HTTP load benchmark: `npm start`'s server on loopback, driven by autocannon with a seeded query mix.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

export interface HttpRun {
  requestsPerSecond: number;
  requests: number;
  errors: number;
  non2xx: number;
  latency: { p50: number; p90: number; p99: number; max: number; mean: number };
  rssBeforeMb: number;
  rssAfterMb: number;
}

/** Starts the local server (same entry as npm start) on `port` over `dir`; resolves once it listens. */
export function startServer(dir: string, port: number, env: Record<string, string> = {}): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'runtime/entries/node/start.ts'], {
    env: { ...process.env, SHARDS_DIR: dir, PORT: String(port), ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let log = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes('serving ')) resolve(child);
    });
    child.on('exit', (code) => reject(new Error(`server exited (${code}): ${log}`)));
  });
}

export function rssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/**
 * Drives `paths` round-robin at the server for `seconds` with `connections` concurrent connections, or, with
 * `amount`, for that many requests (a warm-up pass over every path).
 */
export async function load(port: number, paths: string[], seconds: number, connections = 16, amount?: number): Promise<Omit<HttpRun, 'rssBeforeMb' | 'rssAfterMb'>> {
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
    latency: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max, mean: result.latency.average },
  };
}

// Test helpers for command-line tools: the repository's root, run a TypeScript entry in a child Node process
// (through tsx), capture a Writable's output, and a listener serving a folder's plain files (for api.ts listen).
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import type { RequestListener } from 'node:http';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../..', import.meta.url));

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `node --import tsx <args>` in the repository (the child gets `env` on top of this process's). */
export function runTsx(args: string[], env: Record<string, string | undefined> = {}): Promise<Run> {
  return runNode(['--import', 'tsx', ...args], env);
}

export function runNode(args: string[], env: Record<string, string | undefined> = {}): Promise<Run> {
  return runProgram(process.execPath, args, env);
}

/** `command <args>` in the repository (the child gets `env` on top of this process's), its output collected. */
export function runProgram(
  command: string,
  args: string[],
  env: Record<string, string | undefined> = {},
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: REPO,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }),
    );
  });
}

/** A Writable that keeps what it is given; `highWaterMark` small and `delayMs` > 0 make a slow reader. */
export class Collector extends Writable {
  chunks: string[] = [];
  drains = 0;

  constructor(options: { highWaterMark?: number; delayMs?: number } = {}) {
    super({ highWaterMark: options.highWaterMark ?? 16 * 1024, decodeStrings: false });
    this.delayMs = options.delayMs ?? 0;
    this.on('drain', () => this.drains++);
  }

  private delayMs: number;

  override _write(chunk: string | Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.chunks.push(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
    if (this.delayMs > 0) setTimeout(done, this.delayMs);
    else done();
  }

  get text(): string {
    return this.chunks.join('');
  }
}

/** Serves `dir`'s plain files under `/prefix/` (404 otherwise), with an optional extra header set. */
export function staticFiles(dir: string, prefix: string, headers: Record<string, string> = {}): RequestListener {
  return async (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const name = path.startsWith(prefix) ? path.slice(prefix.length) : '';
    if (!/^[A-Za-z0-9._-]+$/.test(name) || name.startsWith('.')) {
      res.writeHead(404).end();
      return;
    }
    try {
      const bytes = await readFile(join(dir, name));
      res.writeHead(200, { 'Content-Length': bytes.length, ...headers }).end(req.method === 'HEAD' ? undefined : bytes);
    } catch {
      res.writeHead(404).end();
    }
  };
}

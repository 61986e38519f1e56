// A command-line entry of builder/commands (a module whose top level runs the command on process.argv and sets
// process.exitCode) run in this process: loaded afresh, with its arguments and environment, its stdout and stderr
// captured, and everything it changed restored. For tests about what a command does and says, not about the process
// boundary (those run the entry in a child process: process.ts runTsx).
import { vi } from 'vitest';
import type { Run } from './process.js';

/**
 * Runs the entry `load` imports (e.g. `() => import('../../builder/commands/cli.js')`, evaluated again on each call)
 * with `args` after the script name and `env` on top of this process's ('' sets a variable empty, as runTsx does);
 * resolves with the exit code it set and what it wrote. Calls must not overlap.
 */
export async function runEntryInProcess(
  load: () => Promise<unknown>,
  args: string[],
  env: Record<string, string | undefined> = {},
): Promise<Run> {
  const out: string[] = [];
  const err: string[] = [];
  const saved = {
    argv: process.argv,
    exitCode: process.exitCode,
    stdout: process.stdout.write,
    stderr: process.stderr.write,
    env: Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]])),
  };
  const capture = (into: string[]) =>
    ((chunk: string | Uint8Array) => {
      into.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      return true;
    }) as typeof process.stdout.write;
  const setEnv = (values: Record<string, string | undefined>) => {
    for (const [name, value] of Object.entries(values)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
  try {
    process.argv = [process.argv[0], 'entry', ...args];
    process.exitCode = undefined;
    setEnv(env);
    process.stdout.write = capture(out);
    process.stderr.write = capture(err);
    vi.resetModules();
    await load();
    return { code: Number(process.exitCode ?? 0), stdout: out.join(''), stderr: err.join('') };
  } finally {
    process.stdout.write = saved.stdout;
    process.stderr.write = saved.stderr;
    setEnv(saved.env);
    process.argv = saved.argv;
    process.exitCode = saved.exitCode;
  }
}

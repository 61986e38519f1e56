// What the bulk commands (mirror, archive) share on the command line: strict flag parsing, whole numbers in a
// range, and their endings — exit 0 on success, 2 on a usage error (the message and the command's usage line),
// 1 on any failure (one line naming what failed, never a stack trace).
import { parseArgs } from 'node:util';
import { write, type QueryIo } from './output.js';

export class UsageError extends Error {}

export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

export type Values = Record<string, string | boolean | undefined>;

/** Parses `args` with string `flags` (and --help); an unknown flag or a missing value is a UsageError. */
export function parseCommand(
  args: string[],
  flags: readonly string[],
  positionals: boolean,
): { values: Values; positionals: string[] } {
  const options = Object.fromEntries([
    ...flags.map((f) => [f, { type: 'string' as const }]),
    ['help', { type: 'boolean' as const }],
  ]);
  try {
    return parseArgs({ args, options, allowPositionals: positionals, strict: true }) as {
      values: Values;
      positionals: string[];
    };
  } catch (e) {
    throw new UsageError((e as Error).message.split('\n')[0]);
  }
}

/** The whole number `--name` gives, from 1 to `max` (`fallback` when absent); a UsageError naming the flag otherwise. */
export function wholeNumber(values: Values, name: string, fallback: number | undefined, max: number): number {
  const text = values[name];
  if (text === undefined && fallback !== undefined) return fallback;
  if (typeof text !== 'string') throw new UsageError(`--${name} is required (a whole number from 1 to ${max})`);
  const n = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!(n >= 1 && n <= max)) throw new UsageError(`--${name} must be a whole number from 1 to ${max}, got "${text}"`);
  return n;
}

/**
 * Runs a command's body and turns its ending into an exit status: `--help` prints the usage line (0), a
 * UsageError prints the message and the usage line (2), anything else one line `<command>: error: ...` (1).
 */
export async function runCommand(
  command: string,
  usageLine: string,
  io: QueryIo,
  body: () => Promise<'help' | undefined>,
): Promise<number> {
  try {
    if ((await body()) === 'help') await write(io.stdout, `usage: npm run query -- ${usageLine}\n`);
    return 0;
  } catch (e) {
    const usage = e instanceof UsageError;
    const message = String((e as Error)?.message ?? e).split('\n')[0];
    await write(
      io.stderr,
      `${command}: error: ${message}\n${usage ? `usage: npm run query -- ${usageLine}\n` : ''}`,
    ).catch(() => {});
    return usage ? EXIT_USAGE : EXIT_FAILURE;
  }
}

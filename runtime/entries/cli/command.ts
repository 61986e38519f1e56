// What the commands share on the command line: strict flag parsing (an unknown option named with the one it most
// likely stands for), whole numbers in a range, and the bulk commands' endings — exit 0 on success, 2 on a usage error (the message and the command's usage line),
// 1 on any failure (one line naming what failed, never a stack trace).
import { parseArgs } from 'node:util';
import { namesOf, nearestParam, suggestion } from '../../api/paramNames.js';
import { flagOf, type Param } from '../../api/params.js';
import { write, type QueryIo } from './output.js';

export class UsageError extends Error {}

export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

export type Values = Record<string, string | boolean | undefined>;

/** Command-line spelling of a name and a choice value: `--unit ppm`. */
const flagSpelling = (name: string, value?: string) => (value === undefined ? `--${name}` : `--${name} ${value}`);

/**
 * The parameter rows as flags (`pageSize` → `page-size`, aliases as rows of their own), with the plain flags of a
 * command beside them: what an unknown option is compared with.
 */
function flagRows(flags: readonly string[], params: readonly Param[]): Param[] {
  const fromParams = params.flatMap((p) =>
    namesOf(p).map((name) => ({ ...p, name: flagOf(name), aliases: [], alsoCalled: p.alsoCalled?.map(flagOf) })),
  );
  const named = new Set(fromParams.map((p) => p.name));
  const plain = flags
    .filter((f) => !named.has(f))
    .map((name): Param => ({ name, kind: 'text', required: false, description: '' }));
  return [...fromParams, ...plain];
}

/** `--mass1 -5`: a negative number after a flag is its value, not another option (parseArgs would refuse it). */
function joinNegativeValues(args: readonly string[], flags: ReadonlySet<string>): string[] {
  const joined: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const name = /^--([^=]+)$/.exec(args[i])?.[1];
    if (name !== undefined && flags.has(name) && /^-(\d|\.\d)/.test(args[i + 1] ?? ''))
      joined.push(`${args[i]}=${args[++i]}`);
    else joined.push(args[i]);
  }
  return joined;
}

/**
 * Parses `args` with string `flags` (and --help); an unknown option is a UsageError naming the flag it most likely
 * stands for (by `params`' names and the names people also use for them), a missing value a UsageError too.
 */
export function parseCommand(
  args: string[],
  flags: readonly string[],
  positionals: boolean,
  params: readonly Param[] = [],
): { values: Values; positionals: string[] } {
  const all = [...new Set([...flags, ...params.flatMap((p) => namesOf(p).map(flagOf))])];
  const options = Object.fromEntries([
    ...all.map((f) => [f, { type: 'string' as const }]),
    ['help', { type: 'boolean' as const }],
  ]);
  const input = joinNegativeValues(args, new Set(all));
  try {
    const parsed = parseArgs({ args: input, options, allowPositionals: positionals, strict: true, tokens: true });
    // parseArgs keeps the last of a repeated option: refused instead, as the API refuses a repeated parameter.
    const seen = new Map<string, number>();
    for (const token of parsed.tokens)
      if (token.kind === 'option') seen.set(token.name, (seen.get(token.name) ?? 0) + 1);
    for (const [name, count] of seen)
      if (count > 1) throw new UsageError(`--${name} is given ${count} times; give it once`);
    return { values: parsed.values as Values, positionals: parsed.positionals };
  } catch (e) {
    if (e instanceof UsageError) throw e;
    const error = e as Error & { code?: string };
    const unknown = /^Unknown option '(-{1,2})([^'=]+)/.exec(error.message);
    if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && unknown) {
      const rows = flagRows(all, params);
      const nearest = nearestParam(rows, unknown[2]);
      const hint = nearest ? `: did you mean ${suggestion(rows, unknown[2], nearest.param, flagSpelling)}?` : '';
      throw new UsageError(`unknown option ${unknown[1]}${unknown[2]}${hint}`);
    }
    if (error.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL')
      throw new UsageError(`unexpected argument ${/'([^']*)'/.exec(error.message)?.[1] ?? ''}`.trim());
    throw new UsageError(error.message.split('\n')[0]);
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

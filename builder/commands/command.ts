// What the build's command-line entries share: strict flags (an unknown option named with the one it most likely
// stands for, a repeated one refused), integer flags, and any failure reported as one line
// `<command>: error: <message>` on stderr with exit code 1.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { nearestName } from '../../runtime/model/editDistance.js';
import { BuildError } from '../errors.js';

/** An unknown option's error: its name, and the known one it most likely stands for. */
export function unknownOption(raw: string, known: readonly string[]): BuildError {
  const near = nearestName(raw.replace(/^-+/, ''), known);
  return new BuildError(`unknown option ${raw}${near ? `: did you mean --${near}?` : ''} (see --help)`);
}

/**
 * node:util parseArgs, strict, but an unknown option is named with the one it most likely stands for and an option
 * that takes one value refuses a second (parseArgs would keep the last one silently).
 */
export function parseFlags<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  const options = config.options ?? {};
  let parsed: { tokens?: ReturnType<typeof parseArgs>['tokens'] };
  try {
    parsed = parseArgs({ ...config, strict: true, tokens: true });
  } catch (e) {
    const unknown = /^Unknown option '(-{1,2}[^'=]+)/.exec((e as Error).message);
    if ((e as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && unknown)
      throw unknownOption(unknown[1], Object.keys(options));
    throw e;
  }
  const seen = new Map<string, number>();
  for (const token of parsed.tokens ?? [])
    if (token.kind === 'option') seen.set(token.name, (seen.get(token.name) ?? 0) + 1);
  for (const [name, count] of seen)
    if (count > 1 && !options[name]?.multiple) throw new BuildError(`--${name} is given ${count} times; give it once`);
  return parsed as unknown as ReturnType<typeof parseArgs<T>>;
}

/** Runs a command's body and sets the exit code: 0, or 1 after the one-line error. */
export async function runCommand(command: string, body: () => Promise<void>): Promise<void> {
  try {
    await body();
    process.exitCode = 0;
  } catch (e) {
    // One line, no stack: unknown flags, bad input files, and internal failures alike.
    const message = (e instanceof Error ? e.message : String(e)).split('\n')[0];
    process.stderr.write(`${command}: error: ${message}\n`);
    process.exitCode = 1;
  }
}

/** The value of `--<flag>` as a non-negative integer, `fallback` when not given. */
export function integerFlag(flag: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text)) throw new BuildError(`--${flag} must be a non-negative integer, got "${text}"`);
  return Number(text);
}

// What the build's command-line entries share: integer flags, and any failure reported as one line
// `<command>: error: <message>` on stderr with exit code 1. Entries parse their flags with node:util parseArgs.
import { BuildError } from '../errors.js';

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

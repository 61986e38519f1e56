// Debian's Chromium for the browser tests, launched once per test worker and shared by the files it runs: its
// headless shell (package chromium-headless-shell, Playwright's own choice for headless runs) when installed, else
// the browser (package chromium), or CHROMIUM_PATH. The same engine; the shell has no browser window to keep up to
// date at each navigation, most of the full browser's own work in these tests.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
const CHROMIUM = process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

let sigtermHooked = false;
/**
 * Makes SIGTERM exit the worker: vitest ends it with SIGTERM, whose default action skips the exit handlers (Playwright's
 * kills Chromium and removes its profile folder; the page tests' remove their sites' folders).
 */
export function exitOnSigterm(): void {
  if (sigtermHooked) return;
  sigtermHooked = true;
  process.once('SIGTERM', () => process.exit(143));
}

let browser: Promise<Browser> | undefined;
/**
 * Chromium, launched once per worker (again if it went away); its absence is a failure, not a skip (.ci/run installs
 * it). A file closes the pages and contexts it opens, never the browser.
 */
export async function sharedChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM}: install Debian's chromium-headless-shell or chromium package (sudo apt-get install chromium-headless-shell; .ci/run installs both) or set CHROMIUM_PATH.`,
    );
  }
  if (browser && !(await browser.then((b) => b.isConnected()).catch(() => false))) browser = undefined;
  exitOnSigterm();
  return (browser ??= chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, handleSIGTERM: false }));
}

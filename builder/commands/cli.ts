// Command line of the build: `npm run build:shards -- --input <glob> --out <dir> [options]` (buildShards.ts).
import { runCommand } from './command.js';
import { buildShards } from './buildShards.js';
import { terminalMeter } from './terminalMeter.js';

await runCommand('build:shards', async () => {
  // A bar for a person at a terminal; lines for logs and pipes.
  const meter = process.stderr.isTTY ? terminalMeter(process.stderr) : undefined;
  try {
    await buildShards(process.argv.slice(2), (line) => process.stderr.write(line + '\n'), meter);
  } finally {
    meter?.clear();
  }
});

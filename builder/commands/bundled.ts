// `npm start`'s first step (prestart): builds the bundled real dataset, with its taxonomy, into SHARDS_DIR (default
// ./shards) when needed (builder/commands/startDataset.ts says when). A SHARDS_DIR the user named is never built into.
import { resolve } from 'node:path';
import { prepareStartDataset } from './startDataset.js';

const dir = resolve(process.env.SHARDS_DIR ?? 'shards');
try {
  await prepareStartDataset(dir, Boolean(process.env.SHARDS_DIR), process.cwd(), (line) =>
    process.stderr.write(line + '\n'),
  );
} catch (e) {
  process.stderr.write(`start: error: ${(e as Error).message.split('\n')[0]}\n`);
  process.exit(1);
}

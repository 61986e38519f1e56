// `npm start`'s first step (prestart): builds the bundled real dataset, with its taxonomy and sequence table, into
// SHARDS_DIR (default ./shards) when needed (builder/commands/startDataset.ts says when), with the format spec beside
// it as a published site has it (the page links shards/FORMAT.md). A SHARDS_DIR the user named is never written into.
import { copyFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { prepareStartDataset } from './startDataset.js';

const dir = resolve(process.env.SHARDS_DIR ?? 'shards');
try {
  await prepareStartDataset(dir, Boolean(process.env.SHARDS_DIR), process.cwd(), (line) =>
    process.stderr.write(line + '\n'),
  );
  if (!process.env.SHARDS_DIR) copyFileSync('docs/format.md', join(dir, 'FORMAT.md'));
} catch (e) {
  process.stderr.write(`start: error: ${(e as Error).message.split('\n')[0]}\n`);
  process.exit(1);
}

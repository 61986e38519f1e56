// docs/reliability.md: each reliability script owns one `## <title>` section and replaces only that section.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from '../helpers/process.js';

export const REPORT = join(REPO, 'docs', 'reliability.md');

const HEADER = `# Reliability

Hard edges of the service: bad input, injected faults, load, and build robustness. The always-on checks are
test files run by \`npm test\` (the table below); the sections "Differential fuzzing" and "Load" are written
by \`npm run fuzz\` and \`npm run load\` (\`test/reliability/\`), each replacing only its own section.
`;

/** Replaces (or appends) the section `## title` of docs/reliability.md with `body`. */
export function writeSection(title: string, body: string): void {
  const text = existsSync(REPORT) ? readFileSync(REPORT, 'utf8') : HEADER;
  const heading = `## ${title}`;
  const block = `${heading}\n\n${body.trim()}\n`;
  const start = text.indexOf(`${heading}\n`);
  if (start < 0) {
    writeFileSync(REPORT, `${text.trimEnd()}\n\n${block}`);
    return;
  }
  const next = text.indexOf('\n## ', start + heading.length);
  writeFileSync(REPORT, `${text.slice(0, start)}${block}${next < 0 ? '' : text.slice(next)}`);
}

// The README's API examples are real: every `$ curl [body] 'http://localhost:8888/...'` line followed by its printed
// answer is replayed through the handler over the bundled dataset (built as `npm start` builds it), and the
// answer must equal the printed one, `memory` and `duration` aside (they differ on every run). Its mirror.py
// (python3) mirrors the dataset served over HTTP into a folder that answers the same.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Handler } from '../runtime/api/handler.js';
import { createListener } from '../runtime/entries/node/server.js';
import { call, folderHandler, listen, stable } from './helpers/api.js';
import { bundledDataset, removeTempDirs, tempDir } from './helpers/datasets.js';
import { REPO } from './helpers/process.js';

interface Example {
  path: string;
  printed: string;
  /** A POST's request: `--data-binary @<file>` (a file of the repository) or `-H '<header>' -d '<text>'`. */
  init?: RequestInit;
}

/** `$ curl [<body>] '<url>'` lines of the README, each with the line printed under it. */
function examples(readme: string): Example[] {
  const lines = readme.split('\n');
  const found: Example[] = [];
  lines.forEach((line, i) => {
    const m =
      /^\s+\$ curl (?:--data-binary @(\S+) |-H '([^:']+): ([^']*)' -d '([^']*)' )?'(http:\/\/localhost:8888)(\/[^']*)'$/.exec(
        line,
      );
    if (!m) return;
    const [, file, header, value, data, , path] = m;
    const init = file
      ? { method: 'POST', body: readFileSync(join(REPO, file)) }
      : data !== undefined
        ? { method: 'POST', body: data, headers: { [header]: value } }
        : undefined;
    found.push({ path, printed: lines[i + 1].trim(), ...(init ? { init } : {}) });
  });
  return found;
}

const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
const cases = examples(readme);
let handler: Handler;

beforeAll(async () => {
  handler = folderHandler(await bundledDataset());
}, 180_000);

afterAll(removeTempDirs);

describe("the README's curl examples", () => {
  it('are found (one per endpoint at least, and the errors)', () => {
    const paths = cases.map((c) => c.path.split('?')[0]);
    expect(new Set(paths)).toEqual(
      new Set([
        '/search.php',
        '/search-peptide.php',
        '/search-taxonomy.php',
        '/api/v1/search',
        '/api/v1/peptide',
        '/api/v1/taxa',
        '/db-info.php',
        '/api/v1/info',
        '/api/v1/match',
      ]),
    );
    expect(cases.filter((c) => c.init).length).toBeGreaterThanOrEqual(2); // POST /api/v1/match: an MGF file and JSON
    expect(cases.length).toBeGreaterThanOrEqual(6);
  });

  it.each(cases.map((c) => [c.path, c]))('%s prints what the service answers', async (_path, example) => {
    const { printed, path, init } = example as Example;
    const got = await call(handler, path, init);
    const expected = JSON.parse(printed) as Record<string, unknown>;
    if ('error' in expected) {
      expect(got.status).toBe(400);
      expect(got.body).toEqual(expected);
    } else {
      expect(got.status).toBe(200);
      expect(stable(got.body)).toEqual(stable(expected));
    }
  });
});

describe("the README's mirror.py (bulk download)", () => {
  it('mirrors the served dataset into a complete folder that answers the same, then fetches nothing new', async () => {
    const script = /```python\n(# Mirror a dataset[\s\S]*?)```/.exec(readme)?.[1];
    expect(script).toBeDefined();
    const dir = await bundledDataset();
    const { base, close } = await listen(createListener(dir, async () => ({ status: 404, headers: {}, body: null })));
    try {
      const out = tempDir('mirror');
      // Asynchronous: the server answering the script runs in this process.
      const run = async () =>
        (await promisify(execFile)('/usr/bin/python3', ['-c', script!, `${base}/shards/`, out], { encoding: 'utf8' }))
          .stdout;
      expect(await run()).toMatch(/^\d+ shards of dataset [0-9a-f]{16} in /);
      const listed = (folder: string) =>
        readdirSync(folder)
          .filter((f) => !f.startsWith('.'))
          .sort();
      expect(listed(out)).toEqual(listed(dir));
      const before = new Map(listed(out).map((f) => [f, statSync(join(out, f)).mtimeMs]));
      await run(); // resumable: nothing fetched again
      for (const [f, mtime] of before) if (f !== 'manifest.json') expect(statSync(join(out, f)).mtimeMs, f).toBe(mtime);
      const mirrored = folderHandler(out);
      for (const path of [
        '/api/v1/search?mz=650.32&charge=2&fixed=Carbamidomethyl@C&taxon=2',
        '/api/v1/peptide?sequence=EDQLEPVTK',
      ]) {
        expect(stable((await call(mirrored, path)).body)).toEqual(stable((await call(handler, path)).body));
      }
    } finally {
      await close();
    }
  }, 120_000);
});

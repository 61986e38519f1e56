// The README's and docs/api.md's examples are real: every `$ curl [body] 'http://localhost:8888/...'` line followed by
// its printed answer is replayed through the handler over the bundled dataset (built as `npm start` builds it), and
// the answer must equal the printed one, `memory` and `duration` aside (they differ on every run). The README's
// `$ npm run -s query -- ...` example prints what the command line prints, the peptides it says the bundled data
// holds are there, and docs/deploying.md's mirror.py (python3) mirrors the dataset served over HTTP into a folder
// that answers the same.
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paramTables } from '../runtime/api/apiDocs.js';
import type { Handler } from '../runtime/api/handler.js';
import { createListener } from '../runtime/entries/node/server.js';
import { call, folderHandler, listen, stable } from './helpers/api.js';
import { bundledDataset, readDataset, removeTempDirs, subsetDataset, tempDir } from './helpers/datasets.js';
import { REPO, runTsx } from './helpers/process.js';

interface Example {
  /** The document it is printed in. */
  doc: string;
  path: string;
  printed: string;
  /** A POST's request: `--data-binary @<file>` (a file of the repository) or `-H '<header>' -d '<text>'`. */
  init?: RequestInit;
}

const read = (doc: string) => readFileSync(join(REPO, doc), 'utf8');

/** `$ curl [<body>] '<url>'` lines of a document, each with the line printed under it. */
function examples(doc: string): Example[] {
  const lines = read(doc).split('\n');
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
    found.push({ doc, path, printed: lines[i + 1].trim(), ...(init ? { init } : {}) });
  });
  return found;
}

const readme = read('README.md');
const inReadme = examples('README.md');
const inApi = examples('docs/api.md');
const cases = [...inReadme, ...inApi];
const paths = (list: Example[]) => new Set(list.map((c) => c.path.split('?')[0]));
const isError = (c: Example) => c.printed.startsWith('{"error"');
let handler: Handler;
let dataset: string;

beforeAll(async () => {
  dataset = await bundledDataset();
  handler = folderHandler(dataset);
}, 180_000);

afterAll(removeTempDirs);

describe('the curl examples', () => {
  it("docs/api.md's are found: every endpoint, a POST of an MGF file and one of JSON, and errors", () => {
    const endpoints = new Set(paramTables().keys()); // every path of the OpenAPI document but itself and the 404
    for (const path of ['/search.php', '/search-peptide.php', '/search-taxonomy.php', '/api/v1/search'])
      expect(endpoints).toContain(path);
    for (const path of ['/api/v1/peptide', '/api/v1/taxa', '/db-info.php', '/api/v1/info', '/api/v1/match'])
      expect(endpoints).toContain(path);
    expect(paths(inApi)).toEqual(endpoints);
    expect(inApi.filter((c) => c.init?.body instanceof Buffer)).not.toHaveLength(0);
    expect(inApi.filter((c) => typeof c.init?.body === 'string')).not.toHaveLength(0);
    expect(inApi.filter(isError)).not.toHaveLength(0);
  });

  it("the README's are found: one of each kind of endpoint, a POST and an error", () => {
    for (const path of ['/search.php', '/api/v1/search', '/api/v1/peptide', '/api/v1/taxa', '/api/v1/match'])
      expect(paths(inReadme)).toContain(path);
    expect(['/db-info.php', '/api/v1/info'].some((p) => paths(inReadme).has(p))).toBe(true);
    expect(inReadme.filter((c) => c.init)).not.toHaveLength(0);
    expect(inReadme.filter(isError)).not.toHaveLength(0);
  });

  it.each(cases.map((c) => [`${c.doc}: ${c.path}`, c]))(
    '%s prints what the service answers',
    async (_name, example) => {
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
    },
  );
});

describe("the README's command line example", () => {
  it('prints what `npm run -s query` prints over the bundled dataset', async () => {
    const m = /^ {4}\$ npm run -s query -- (.+)\n((?: {4}.+\n)+)/m.exec(readme);
    expect(m, 'README shows `$ npm run -s query -- ...` with its output under it').not.toBeNull();
    const [, args, printed] = m!;
    const script = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts.query;
    const entry = /^tsx (\S+)$/.exec(script)?.[1];
    expect(entry, `package.json's query script runs one file with tsx (${script})`).toBeDefined();
    const run = await runTsx([entry!, ...args.split(' '), '--shards', dataset]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(printed.replace(/^ {4}/gm, ''));
  }, 60_000);
});

describe('what the README says the bundled data holds', () => {
  const section = /^## What the bundled data holds\n([\s\S]*?)^## /m.exec(readme)?.[1] ?? '';
  /** `- \`SEQ\`: ... (ACC, ACC)` items: a peptide, and UniProt accessions that hold it. */
  const held = [...section.matchAll(/^- `([A-Z]+)`: (.*)$/gm)].map(([, seq, text]) => ({
    seq,
    accessions: text.match(/\b[OPQ][0-9][A-Z0-9]{3}[0-9]\b|\b[A-NR-Z][0-9](?:[A-Z][A-Z0-9]{2}[0-9]){1,2}\b/g) ?? [],
  }));

  it('names peptides, with accessions', () => {
    expect(held.length).toBeGreaterThanOrEqual(3);
    expect(held.filter((h) => h.accessions.length > 0).length).toBeGreaterThanOrEqual(3);
  });

  it.each(held.map((h) => [h.seq, h]))('%s is in it, in the accessions named', async (_seq, item) => {
    const { seq, accessions } = item as (typeof held)[number];
    const got = await call(handler, `/api/v1/peptide?sequence=${seq}`);
    const body = got.body as { peptides: { seq: string; accsTax: { acc: string }[] }[] };
    expect(body.peptides.map((p) => p.seq)).toEqual([seq]);
    const listed = body.peptides[0].accsTax.map((a) => a.acc);
    for (const acc of accessions) expect(listed).toContain(acc);
  });

  it('shows human albumin absent by a replayed example', () => {
    expect(section).toMatch(/albumin[\s\S]*\$ curl 'http:\/\/localhost:8888\/api\/v1\/peptide\?sequence=LVNEVTEFAK'/i);
    expect(inReadme.find((c) => c.path === '/api/v1/peptide?sequence=LVNEVTEFAK')?.printed).toContain('"peptides":[]');
  });
});

describe("docs/deploying.md's mirror.py (bulk download)", () => {
  it('mirrors the served dataset into a complete folder that answers the same, then fetches nothing new', async () => {
    const script = /```python\n(# Mirror a dataset[\s\S]*?)```/.exec(read('docs/deploying.md'))?.[1];
    expect(script).toBeDefined();
    // A small dataset with a taxonomy and a view: the script fetches every file, one at a time.
    const served = await subsetDataset(300, 16_384, ['Carbamidomethyl@C']);
    const servedHandler = folderHandler(served);
    const { base, close } = await listen(
      createListener(served, async () => ({ status: 404, headers: {}, body: null })),
    );
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
      expect(listed(out)).toEqual(listed(served));
      const before = new Map(listed(out).map((f) => [f, statSync(join(out, f)).mtimeMs]));
      await run(); // resumable: nothing fetched again
      for (const [f, mtime] of before) if (f !== 'manifest.json') expect(statSync(join(out, f)).mtimeMs, f).toBe(mtime);
      const mirrored = folderHandler(out);
      for (const path of [
        '/api/v1/search?mass1=1000&mass2=1010&fixed=Carbamidomethyl@C&taxon=2',
        `/api/v1/peptide?sequence=${[...readDataset(served).peptides][0][0]}`,
      ]) {
        const answer = await call(servedHandler, path);
        expect(answer.status, answer.text).toBe(200);
        expect(stable((await call(mirrored, path)).body)).toEqual(stable(answer.body));
      }
    } finally {
      await close();
    }
  }, 120_000);
});

// Tests builder/commands/startDataset.ts (npm start's prestart, builder/commands/bundled.ts): the default folder gets
// the bundled sample with its taxonomy, Carbamidomethyl@C view and sequence table when it has no dataset, or has the
// sample as an older version built it (no taxonomy, format version 1, no view, no peptide counts, no sequences); any
// other dataset there is served as it is; a SHARDS_DIR the user named is never built into (no manifest: a one-line
// error and exit 1, through the real entry).
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { prepareStartDataset, startPlan } from '../../../builder/commands/startDataset.js';
import { readManifest, removeTempDirs, SAMPLE_TAXDUMP, sampleSubset, tempDir } from '../../helpers/datasets.js';
import { referencePeptides } from '../../helpers/referencePrecursor.js';
import { readTaxdump, referenceAccessions, ReferenceTaxonomy } from '../../helpers/referenceTaxonomy.js';
import { REPO, runTsx } from '../../helpers/process.js';

afterAll(removeTempDirs);

const SAMPLE = ['uniprot-sample.fasta.gz'];

/** A folder holding a manifest.json of `manifest` (or of this text). */
function folder(label: string, manifest?: object | string): string {
  const dir = join(tempDir(label), 'shards');
  mkdirSync(dir);
  if (manifest !== undefined)
    writeFileSync(join(dir, 'manifest.json'), typeof manifest === 'string' ? manifest : JSON.stringify(manifest));
  return dir;
}

const oldSample = { sources: [{ file: 'uniprot-sample.fasta.gz', bytes: 1, sha256: 'x' }], shards: [] };

describe('startPlan', () => {
  it('builds into the default folder when it has no dataset; refuses a named folder without one', () => {
    expect(startPlan(folder('plan-empty'), false, SAMPLE)).toMatchObject({
      action: 'build',
      reason: expect.stringMatching(/^no dataset in .*: building the bundled sample/),
    });
    expect(startPlan(join(tempDir('plan-none'), 'missing'), false, SAMPLE).action).toBe('build');
    expect(startPlan(folder('plan-named'), true, SAMPLE)).toMatchObject({
      action: 'refuse',
      reason: expect.stringMatching(/SHARDS_DIR .* holds no manifest\.json/),
    });
  });

  it('rebuilds the sample an older version built (no taxonomy) in the default folder only', () => {
    expect(startPlan(folder('plan-old'), false, SAMPLE).action).toBe('build');
    const old = folder('plan-old2', oldSample);
    expect(startPlan(old, false, SAMPLE)).toMatchObject({
      action: 'build',
      reason: expect.stringMatching(/built by an older version \(no taxonomy\)/),
    });
    expect(startPlan(old, true, SAMPLE)).toEqual({ action: 'serve' });
  });

  it('rebuilds the sample in an older format (with its taxonomy) in the default folder only', () => {
    for (const version of [1, 2]) {
      const older = folder(`plan-v${version}`, {
        ...oldSample,
        formatVersion: version,
        taxonomy: { file: 'taxonomy-x.json' },
        views: [{ fixed: 'Carbamidomethyl@C' }],
      });
      expect(startPlan(older, false, SAMPLE)).toMatchObject({
        action: 'build',
        reason: expect.stringMatching(
          new RegExp(`is format version ${version}: rebuilding the bundled sample in format 3`),
        ),
      });
      expect(startPlan(older, true, SAMPLE)).toEqual({ action: 'serve' });
    }
  });

  it('rebuilds the sample built without its views in the default folder only', () => {
    const noView = folder('plan-noview', { ...oldSample, formatVersion: 3, taxonomy: { file: 'taxonomy-x.json' } });
    expect(startPlan(noView, false, SAMPLE)).toMatchObject({
      action: 'build',
      reason: expect.stringMatching(/built by an older version \(no view Carbamidomethyl@C\)/),
    });
    const noComplete = folder('plan-nocomplete', {
      ...oldSample,
      formatVersion: 3,
      taxonomy: { file: 'taxonomy-x.json' },
      views: [{ fixed: 'Carbamidomethyl@C' }],
    });
    expect(startPlan(noComplete, false, SAMPLE)).toMatchObject({
      action: 'build',
      reason: expect.stringMatching(/\(no view fixed=Carbamidomethyl@C&variable=Oxidation@M&maxVariable=2\)/),
    });
    expect(startPlan(noComplete, true, SAMPLE)).toEqual({ action: 'serve' });
    expect(startPlan(noView, true, SAMPLE)).toEqual({ action: 'serve' });
    const otherView = folder('plan-otherview', {
      ...oldSample,
      formatVersion: 3,
      taxonomy: { file: 'taxonomy-x.json' },
      views: [{ fixed: 'TMT6plex@K' }],
    });
    expect(startPlan(otherView, false, SAMPLE).action).toBe('build');
  });

  it('rebuilds the sample built without peptide counts in the default folder only', () => {
    const views = [
      { fixed: 'Carbamidomethyl@C' },
      { fixed: 'fixed=Carbamidomethyl@C&variable=Oxidation@M&maxVariable=2' },
    ];
    const uncounted = folder('plan-uncounted', {
      ...oldSample,
      formatVersion: 3,
      taxonomy: { file: 'taxonomy-x.json' },
      views,
    });
    expect(startPlan(uncounted, false, SAMPLE)).toMatchObject({
      action: 'build',
      reason: expect.stringMatching(/built by an older version \(no peptide counts\)/),
    });
    expect(startPlan(uncounted, true, SAMPLE)).toEqual({ action: 'serve' });
  });

  it('rebuilds the sample built without its sequence table in the default folder only', () => {
    const unsequenced = folder('plan-unsequenced', {
      ...oldSample,
      formatVersion: 3,
      taxonomy: { file: 'taxonomy-x.json' },
      views: [{ fixed: 'Carbamidomethyl@C' }, { fixed: 'fixed=Carbamidomethyl@C&variable=Oxidation@M&maxVariable=2' }],
      peptideCounts: { ranksPerPage: 262144, pages: [] },
    });
    expect(startPlan(unsequenced, false, SAMPLE)).toMatchObject({
      action: 'build',
      reason: expect.stringMatching(/built by an older version \(no sequences\)/),
    });
    expect(startPlan(unsequenced, true, SAMPLE)).toEqual({ action: 'serve' });
  });

  it('serves a dataset with a taxonomy and the view, another dataset without them, and leaves an unreadable manifest alone', () => {
    const views = [
      { fixed: 'Carbamidomethyl@C' },
      { fixed: 'fixed=Carbamidomethyl@C&variable=Oxidation@M&maxVariable=2' },
    ];
    expect(
      startPlan(
        folder('plan-new', {
          ...oldSample,
          formatVersion: 3,
          taxonomy: { file: 'taxonomy-x.json' },
          views,
          peptideCounts: { ranksPerPage: 262144, pages: [] },
          sequences: { pages: [] },
        }),
        false,
        SAMPLE,
      ),
    ).toEqual({ action: 'serve' });
    expect(
      startPlan(folder('plan-other-v1', { sources: [{ file: 'my-proteome.fasta' }], formatVersion: 1 }), false, SAMPLE),
    ).toEqual({ action: 'serve' });
    expect(startPlan(folder('plan-other', { sources: [{ file: 'my-proteome.fasta' }] }), false, SAMPLE)).toEqual({
      action: 'serve',
    });
    expect(startPlan(folder('plan-garbage', '{not json'), false, SAMPLE)).toEqual({ action: 'serve' });
  });
});

describe('prepareStartDataset', () => {
  it('builds the bundled sample with data/taxdump into an empty default folder, then leaves it', async () => {
    // A root whose data/ holds a small part of the sample under the bundled name, and the real taxonomy.
    const root = tempDir('start-root');
    mkdirSync(join(root, 'data'));
    writeFileSync(join(root, 'data', SAMPLE[0]), gzipSync(readFileSync(sampleSubset(300))));
    symlinkSync(join(REPO, 'data', 'taxdump'), join(root, 'data', 'taxdump'));
    const dir = folder('start-build');
    const lines: string[] = [];
    await prepareStartDataset(dir, false, root, (line) => lines.push(line));
    expect(lines[0]).toMatch(/building the bundled sample/);
    const manifest = readManifest(dir);
    // The taxonomy holds the lineages of the subset's organisms, as the reference counts them.
    const fasta = readFileSync(sampleSubset(300));
    const reference = new ReferenceTaxonomy(
      readTaxdump(SAMPLE_TAXDUMP),
      referenceAccessions(fasta),
      referencePeptides(fasta),
    );
    expect(manifest.taxonomy?.nodes).toBe(reference.nodes.size);
    expect(manifest.views?.map((v) => v.fixed)).toEqual([
      'Carbamidomethyl@C',
      'fixed=Carbamidomethyl@C&variable=Oxidation@M&maxVariable=2',
    ]);
    expect(manifest.sources.map((s) => s.file)).toEqual(['uniprot-sample.fasta.gz', 'nodes.dmp', 'names.dmp']);
    expect(manifest.sequences?.pages.reduce((sum, p) => sum + p.accessions, 0)).toBe(manifest.totals.accessions);
    const files = () =>
      readdirSync(dir)
        .sort()
        .map((file) => `${file} ${statSync(join(dir, file)).mtimeMs}`);
    const before = files();
    await prepareStartDataset(dir, false, root, (line) => lines.push(line));
    expect(files()).toEqual(before);
    expect(lines).toHaveLength(lines.findIndex((l) => l.startsWith('built ')) + 1); // nothing logged the second time
  }, 60_000);
});

describe('builder/commands/bundled.ts (the prestart entry)', () => {
  it('a SHARDS_DIR without a dataset: one line, exit 1, nothing built', async () => {
    const dir = folder('entry-named');
    const run = await runTsx(['builder/commands/bundled.ts'], { SHARDS_DIR: dir });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^start: error: SHARDS_DIR .* holds no manifest\.json; build one with npm run build:shards\n$/,
    );
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a SHARDS_DIR holding the sample an older version built is served as it is', async () => {
    const dir = folder('entry-old', oldSample);
    const run = await runTsx(['builder/commands/bundled.ts'], { SHARDS_DIR: dir });
    expect(run.code, run.stderr).toBe(0);
    expect(readdirSync(dir)).toEqual(['manifest.json']);
    expect(existsSync(join(dir, '.build'))).toBe(false);
  });
});

// The layering rules of .dependency-cruiser.cjs: the real tree has no violation, and each rule fires on a
// violation planted in a scratch copy of the layout (so a rule that silently matches nothing would fail here).
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { cruise, type ICruiseOptions, type IForbiddenRuleType, type IReporterOutput } from 'dependency-cruiser';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from './helpers/datasets.js';
import { REPO } from './helpers/process.js';

const config = createRequire(import.meta.url)(join(REPO, '.dependency-cruiser.cjs')) as {
  forbidden: IForbiddenRuleType[];
  options: ICruiseOptions;
};

afterAll(removeTempDirs);

/** Rule names violated in `baseDir` (its builder/ and runtime/ folders, resolved with the repository's tsconfig). */
async function violations(baseDir: string): Promise<string[]> {
  const tsConfig = extractTSConfig(join(REPO, 'tsconfig.json'));
  const { output } = (await cruise(
    ['builder', 'runtime'],
    { ...config.options, validate: true, ruleSet: { forbidden: config.forbidden }, baseDir },
    undefined,
    { tsConfig },
  )) as IReporterOutput & {
    output: { summary: { violations: { rule: { name: string }; from: string; to: string }[] } };
  };
  return output.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`);
}

describe('dependency rules', () => {
  it('the repository has no violation', async () => {
    expect(await violations(REPO)).toEqual([]);
  });

  it('each rule fires on a planted violation', async () => {
    const dir = tempDir('deps');
    const files: Record<string, string> = {
      'runtime/model/base.ts': "import { core } from '../core/low.js';\nexport const base = core;\n",
      'runtime/core/low.ts':
        "import { readFileSync } from 'node:fs';\nimport { api } from '../api/mid.js';\nexport const core = [readFileSync, api];\n",
      'runtime/api/mid.ts': "import { entry } from '../entries/node/top.js';\nexport const api = entry;\n",
      'runtime/entries/node/top.ts': "import { build } from '../../../builder/step.js';\nexport const entry = build;\n",
      'runtime/entries/browser/page.ts': "import { entry } from '../node/top.js';\nexport const page = entry;\n",
      'runtime/entries/web/main.ts':
        "import { readFileSync } from 'node:fs';\nimport { entry } from '../node/top.js';\nexport const main = [readFileSync, entry];\n",
      'runtime/entries/web/bundle.ts': "import { readFileSync } from 'node:fs';\nexport const bundle = readFileSync;\n",
      'builder/step.ts':
        "import { core } from '../runtime/core/low.js';\nimport { base } from '../runtime/model/base.js';\nexport const build = [core, base];\n",
      'runtime/api/bar.ts': "import { SingleBar } from 'cli-progress';\nexport const bar = SingleBar;\n",
      // Inside runtime/core: storage below range search, below precursor search, below matching; look-ups apart.
      'runtime/core/storage/base.ts': "import { scan } from '../range/scan.js';\nexport const base = scan;\n",
      'runtime/core/range/scan.ts': "import { find } from '../precursor/find.js';\nexport const scan = find;\n",
      'runtime/core/precursor/find.ts':
        "import { batch } from '../match/batch.js';\nimport { look } from '../lookup/look.js';\nimport { other } from './other.js';\nexport const find = [batch, look, other];\n",
      'runtime/core/precursor/other.ts': 'export const other = 3;\n',
      'runtime/core/match/batch.ts':
        "import { score } from '../identify/score.js';\nexport const batch = [1, score];\n",
      'runtime/core/identify/score.ts':
        "import { batch } from '../match/batch.js';\nimport { peaks } from '../fingerprint/peaks.js';\nexport const score = () => [batch, peaks];\n",
      'runtime/core/fingerprint/peaks.ts': 'export const peaks = 4;\n',
      'runtime/core/lookup/look.ts': 'export const look = 2;\n',
      'runtime/entries/cli/bar.ts': "import { SingleBar } from 'cli-progress';\nexport const bar = SingleBar;\n",
      'builder/phases/bar.ts': "import { SingleBar } from 'cli-progress';\nexport const bar = SingleBar;\n",
      'builder/commands/bar.ts': "import { SingleBar } from 'cli-progress';\nexport const bar = SingleBar;\n",
    };
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(join(dir, file, '..'), { recursive: true });
      writeFileSync(join(dir, file), text);
    }
    symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules')); // so that packages resolve as in the repository
    const found = await violations(dir);
    const rules = new Set(found.map((v) => v.split(':')[0]));
    expect([...rules].sort()).toEqual(
      [
        'api-below-entries',
        'build-imports-only-the-model',
        'core-below-api',
        'core-fingerprint-on-top',
        'core-identify-on-top',
        'core-lookups-apart',
        'core-match-above-precursor',
        'core-range-below-searches',
        'core-storage-is-the-base',
        'entries-are-leaves',
        'model-is-the-base',
        'no-cycles',
        'platform-neutral-layers',
        'progress-bars-in-the-cli',
        'runtime-without-build',
        'web-page-runs-in-the-browser',
      ].sort(),
    );
    // The progress bar is refused outside the command lines, allowed in them.
    expect(
      found
        .filter((v) => v.startsWith('progress-bars-in-the-cli:'))
        .map((v) => v.split(' → ')[0])
        .sort(),
    ).toEqual(['progress-bars-in-the-cli: builder/phases/bar.ts', 'progress-bars-in-the-cli: runtime/api/bar.ts']);
    // The page may not reach a Node entry, nor a node: module outside its build step.
    expect(
      found.filter((v) =>
        v.startsWith('entries-are-leaves: runtime/entries/web/main.ts → runtime/entries/node/top.ts'),
      ),
    ).toHaveLength(1);
    expect(found.filter((v) => v.startsWith('web-page-runs-in-the-browser:')).map((v) => v.split(' → ')[0])).toEqual([
      'web-page-runs-in-the-browser: runtime/entries/web/main.ts',
    ]);
    // The capabilities of runtime/core: each planted upward or sideways import, and nothing within one folder.
    expect(found.filter((v) => /^core-(storage|range|match|lookups|identify|fingerprint)/.test(v)).sort()).toEqual([
      'core-fingerprint-on-top: runtime/core/identify/score.ts → runtime/core/fingerprint/peaks.ts',
      'core-identify-on-top: runtime/core/match/batch.ts → runtime/core/identify/score.ts',
      'core-lookups-apart: runtime/core/precursor/find.ts → runtime/core/lookup/look.ts',
      'core-match-above-precursor: runtime/core/precursor/find.ts → runtime/core/match/batch.ts',
      'core-range-below-searches: runtime/core/range/scan.ts → runtime/core/precursor/find.ts',
      'core-storage-is-the-base: runtime/core/storage/base.ts → runtime/core/range/scan.ts',
    ]);
    expect(found.filter((v) => /^platform-neutral-layers: runtime\/core\/low\.ts → (node:)?fs$/.test(v))).toHaveLength(
      1,
    );
  });
});

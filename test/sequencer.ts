// The order test files start in: the longest first, so that no worker is left running a long file alone at the end.
// vitest orders by the durations of the last run when its results cache has them; a clean clone has none and would
// start files in path order, the long ones scattered. Then the files below (the slowest, measured on 2 cores) start
// first, in this order; a file not listed only starts after them.
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const SLOWEST = [
  'test/bench/smoke.test.ts',
  'test/runtime/core/precursor/precursor.differential.test.ts',
  'test/builder/phases/pipeline.reference.test.ts',
  'test/runtime/api/peptide.differential.test.ts',
  'test/runtime/core/fingerprint/fingerprint.simulated.test.ts',
  'test/runtime/entries/web/page.differential.test.ts',
  'test/runtime/core/match/match.differential.test.ts',
  'test/runtime/core/range/taxonFilter.differential.test.ts',
  'test/runtime/api/taxa.differential.test.ts',
  'test/runtime/entries/web/page.test.ts',
  'test/builder/phases/pipeline.hard.test.ts',
  'test/builder/phases/merge.test.ts',
  'test/github/partitionedBuild.test.ts',
  'test/builder/phases/pipeline.test.ts',
  'test/runtime/core/range/search.test.ts',
  'test/runtime/entries/cli/mirror.test.ts',
  'test/runtime/entries/web/bundle.test.ts',
];

export default class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    const known = sorted.some((file) =>
      this.ctx.cache.getFileTestResults(`${file.project.name}:${relative(root, file.moduleId)}`),
    );
    if (known) return sorted;
    const rank = (file: TestSpecification) => {
      const at = SLOWEST.indexOf(relative(root, file.moduleId));
      return at < 0 ? SLOWEST.length : at;
    };
    // Stable: projects keep vitest's order (the isolated one first), files not listed keep theirs.
    return sorted
      .map((file, i) => ({ file, i }))
      .sort(
        (a, b) =>
          Number(a.file.project.name !== sorted[0].project.name) -
            Number(b.file.project.name !== sorted[0].project.name) ||
          rank(a.file) - rank(b.file) ||
          a.i - b.i,
      )
      .map(({ file }) => file);
  }
}

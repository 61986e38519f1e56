// Format v1 measured again in the same run as today's code: v1's code (commit V1_COMMIT, unpacked from this clone's
// history with git archive, this checkout's node_modules beside it) builds the same input with the same arguments,
// and answers the benchmark's query sets interleaved query by query with today's code over its v2 build
// (interleaved.ts), fully cached and under 256 MB; each pair of answers is compared too (v1 and v2 must answer
// alike). Skipped, with the reason, where the commit is not in the clone (a shallow one, an npm tarball).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from '../helpers/process.js';
import { answererOf, interleave, type Interleaved } from './interleaved.js';
import { fmt } from './measure.js';
import { measuredBuild } from './measuredBuild.js';
import { V1_COMMIT } from './v1.js';

export interface V1SideRun {
  commit: string;
  /** v1's build of the same input with the same arguments: every file of its folder. */
  build: { seconds: number; peakRssMb: number; allFilesBytes: number; files: number; peptides: number };
  /** Query set → cache → the interleaved run, sides [v1, v2]. */
  queries: Record<string, Record<string, Interleaved>>;
}

export type V1Side = V1SideRun | { skipped: string };

/** The run's v1 figures, where v1 was measured again (not skipped). */
export const v1Measured = (side: V1Side | undefined): V1SideRun | undefined =>
  side && !('skipped' in side) ? side : undefined;

/** The caches each set is answered under: large enough for the whole dataset, and npm start's default. */
export const V1_SIDE_CACHES: Record<string, number> = { 'fully cached': 2 ** 40, '256 MB cache': 256 * 2 ** 20 };

/**
 * v1's code in `<dir>/v1-code-<commit>` (unpacked once: a commit's files never change) with this checkout's
 * node_modules linked beside it (again each time: another clone may have unpacked it), or why it cannot be had.
 */
function v1Checkout(dir: string): string | { skipped: string } {
  const root = join(dir, `v1-code-${V1_COMMIT}`);
  const linkModules = () => {
    rmSync(join(root, 'node_modules'), { force: true });
    symlinkSync(join(REPO, 'node_modules'), join(root, 'node_modules'), 'dir');
  };
  if (existsSync(join(root, '.unpacked'))) {
    linkModules();
    return root;
  }
  let tar: Buffer;
  try {
    tar = execFileSync('git', ['archive', '--format=tar', V1_COMMIT], {
      cwd: REPO,
      maxBuffer: 2 ** 30,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (e) {
    return {
      skipped: `v1's code (commit ${V1_COMMIT}) could not be read from this clone: ${(e as Error).message.split('\n')[0]}`,
    };
  }
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  execFileSync('tar', ['-x', '-C', root], { input: tar });
  linkModules();
  writeFileSync(join(root, '.unpacked'), V1_COMMIT);
  return root;
}

/**
 * v1 beside v2 in this run: v1 builds `fasta` (with `buildArgs`, as v2's dataset in `v2Dir` was built) into
 * `<dir>/v1-dataset-<proteins>`, then every set of `sets` is answered by both, interleaved, under each cache.
 */
export async function benchV1Side(
  dir: string,
  fasta: string,
  proteins: number,
  v2Dir: string,
  buildArgs: string[],
  sets: Record<string, string[]>,
  log: (line: string) => void,
): Promise<V1Side> {
  const root = v1Checkout(dir);
  if (typeof root !== 'string') {
    log(`v1 not measured again: ${root.skipped}`);
    return root;
  }
  log(`v1 (${V1_COMMIT}): build of the same input`);
  const v1Dir = join(dir, `v1-dataset-${proteins}`);
  const b = await measuredBuild(fasta, v1Dir, buildArgs, false, root);
  const build = {
    seconds: b.seconds,
    peakRssMb: b.peakRssMb,
    allFilesBytes: b.allFilesBytes,
    files: b.files,
    peptides: b.manifest.totals.peptides,
  };
  const queries: V1SideRun['queries'] = {};
  for (const [name, urls] of Object.entries(sets)) {
    queries[name] = {};
    for (const [cache, cacheBytes] of Object.entries(V1_SIDE_CACHES)) {
      log(`v1 and v2 interleaved: ${name}, ${cache}`);
      queries[name][cache] = await interleave(
        [await answererOf(root, v1Dir, cacheBytes), await answererOf(REPO, v2Dir, cacheBytes)],
        urls,
        3,
        ['v1', 'v2'],
      );
    }
  }
  return { commit: V1_COMMIT, build, queries };
}

/** v2's time over v1's at one percentile of one interleaved run. */
export const v2OverV1 = (run: Interleaved, p: 'p50' | 'p99') => run.sides[1][p] / run.sides[0][p];

/** The first differing answers of each run that had any. */
const differences = (side: V1SideRun) =>
  Object.values(side.queries).flatMap((byCache) => Object.values(byCache).flatMap((run) => run.firstDifference ?? []));

/** BENCHMARKS.md's section: v1 and v2 in this run, query by query interleaved, and whether they answered alike. */
export function v1SideSection(side: V1Side | undefined): string[] {
  const head = ['## Format v1 measured again in this run', ''];
  if (!side)
    return [...head, 'Not part of the run that wrote this file (`npm run bench -- --only v1` measures it).', ''];
  if ('skipped' in side) return [...head, `Not measured: ${side.skipped}.`, ''];
  const b = side.build;
  return [
    ...head,
    `v1's code (commit ${side.commit}, from this clone's history) built the same input with the same arguments in ${b.seconds.toFixed(0)} s, peak RSS`,
    `${b.peakRssMb.toFixed(0)} MB: ${(b.allFilesBytes / 1e6).toFixed(1)} MB in ${b.files.toLocaleString('en')} files, ${(b.allFilesBytes / b.peptides).toFixed(2)} B per distinct peptide. Each query set was then`,
    "asked of v1's code over that build and of today's over the v2 build, query by query in turn (which goes first",
    'alternating), each with its own cache: two passes fill the caches, the third is measured, and the first pass',
    "compares the two answers (all but the clock's \"duration\" field). Ratios are v2's time over v1's.",
    '',
    '| queries | cache | v1 p50 | v2 p50 | v2/v1 p50 | v1 p99 | v2 p99 | v2/v1 p99 | answers alike |',
    '|---|---|---|---|---|---|---|---|---|',
    ...Object.entries(side.queries).flatMap(([name, byCache]) =>
      Object.entries(byCache).map(([cache, run]) => {
        const [v1, v2] = run.sides;
        const alike =
          run.differing === 0
            ? `${v1.count.toLocaleString('en')} of ${v1.count.toLocaleString('en')}`
            : `**${run.differing.toLocaleString('en')} of ${v1.count.toLocaleString('en')} differ**`;
        return `| ${name} | ${cache} | ${fmt(v1.p50)} | ${fmt(v2.p50)} | ${v2OverV1(run, 'p50').toFixed(2)} | ${fmt(v1.p99)} | ${fmt(v2.p99)} | ${v2OverV1(run, 'p99').toFixed(2)} | ${alike} |`;
      }),
    ),
    ...differences(side)
      .slice(0, 1)
      .flatMap((first) => ['', 'The first answers that differ (A: v1, B: v2):', '', '```', first, '```']),
    '',
  ];
}

// What `npm start` serves (its prestart step, builder/commands/bundled.ts): the bundled sample with its taxonomy, its
// views (Carbamidomethyl@C; and the complete view of Carbamidomethyl@C with up to two oxidised M) and its sequence
// table is built into the default folder when that folder holds no dataset, or holds the sample as an older version
// built it (no taxonomy, an older format, no view, no peptide counts, no sequences). A folder the user named
// (SHARDS_DIR) is never built into: it must hold a dataset.
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { FORMAT_VERSION, MANIFEST_FILE, type Manifest } from '../../runtime/model/format.js';
import { DEFAULT_DIGEST } from '../inputs/digest.js';
import { buildDataset, DEFAULT_SHARD_BYTES, resolveInputs } from '../phases/pipeline.js';

/** The bundled sample and its taxonomy, relative to the repository. */
export const BUNDLED_INPUT = 'data/*.fasta.gz';
export const BUNDLED_TAXDUMP = 'data/taxdump';
/**
 * The views the bundled sample is built with (docs/format.md "Views"): nearly every sample searched is alkylated,
 * and most searches then take methionine oxidation as their variable modification.
 */
export const BUNDLED_VIEWS = ['Carbamidomethyl@C', 'fixed=Carbamidomethyl@C&variable=Oxidation@M&maxVariable=2'];

export type StartPlan = { action: 'serve' } | { action: 'build' | 'refuse'; reason: string };

/**
 * What to do with dataset folder `dir` before serving it. `userNamed`: the user chose it (SHARDS_DIR);
 * `bundledFiles`: the file names of the bundled sample (as a manifest's sources list them).
 */
export function startPlan(dir: string, userNamed: boolean, bundledFiles: readonly string[]): StartPlan {
  let text: string;
  try {
    text = readFileSync(join(dir, MANIFEST_FILE), 'utf8');
  } catch {
    if (userNamed)
      return {
        action: 'refuse',
        reason: `SHARDS_DIR ${dir} holds no ${MANIFEST_FILE}; build one with npm run build:shards`,
      };
    return {
      action: 'build',
      reason: `no dataset in ${dir}: building the bundled sample (${BUNDLED_INPUT}, taxonomy ${BUNDLED_TAXDUMP})`,
    };
  }
  if (userNamed) return { action: 'serve' };
  let manifest: Partial<Manifest>;
  try {
    manifest = JSON.parse(text) as Partial<Manifest>;
  } catch {
    return { action: 'serve' }; // not ours to replace: the server reports what is wrong with it
  }
  // The sample built by an older version (without taxonomies, or in an older format): rebuilt. Any other dataset
  // in the folder is served as it is (the server names what it cannot read).
  const sources = new Set((manifest.sources ?? []).map((s) => s.file));
  const isSample = bundledFiles.length > 0 && bundledFiles.every((file) => sources.has(file));
  if (isSample && !manifest.taxonomy)
    return {
      action: 'build',
      reason: `the dataset in ${dir} was built by an older version (no taxonomy): rebuilding the bundled sample`,
    };
  if (isSample && manifest.formatVersion !== FORMAT_VERSION) {
    return {
      action: 'build',
      reason: `the dataset in ${dir} is format version ${String(manifest.formatVersion)}: rebuilding the bundled sample in format ${FORMAT_VERSION}`,
    };
  }
  const missing = BUNDLED_VIEWS.find((view) => !manifest.views?.some((v) => v.fixed === view));
  if (isSample && missing)
    return {
      action: 'build',
      reason: `the dataset in ${dir} was built by an older version (no view ${missing}): rebuilding the bundled sample`,
    };
  if (isSample && !manifest.peptideCounts)
    return {
      action: 'build',
      reason: `the dataset in ${dir} was built by an older version (no peptide counts): rebuilding the bundled sample`,
    };
  if (isSample && !manifest.sequences)
    return {
      action: 'build',
      reason: `the dataset in ${dir} was built by an older version (no sequences): rebuilding the bundled sample`,
    };
  return { action: 'serve' };
}

/** Builds the bundled sample (files under `root`) into `dir` when startPlan says so; throws when it refuses. */
export async function prepareStartDataset(
  dir: string,
  userNamed: boolean,
  root: string,
  log: (line: string) => void,
): Promise<void> {
  const inputs = [join(root, BUNDLED_INPUT)];
  const plan = startPlan(
    dir,
    userNamed,
    (await resolveInputs(inputs)).map((file) => basename(file)),
  );
  if (plan.action === 'serve') return;
  if (plan.action === 'refuse') throw new Error(plan.reason);
  log(plan.reason);
  await buildDataset({
    ...DEFAULT_DIGEST,
    inputs,
    taxdump: join(root, BUNDLED_TAXDUMP),
    views: BUNDLED_VIEWS,
    sequences: true,
    out: dir,
    shardBytes: DEFAULT_SHARD_BYTES,
    threads: 2,
    log,
  });
}

// A dataset's manifest, read once and checked before any query uses it: its format and version, a shard list (or
// index root) that tiles the mass line, each view's too, and index trees of levels this reader walks.
import {
  COMPRESSIONS,
  FORMAT_NAME,
  FORMAT_VERSION,
  MANIFEST_FILE,
  MAX_INDEX_LEVELS,
  tilingViolation,
  type Manifest,
} from '../../model/format.js';
import { levelsOf } from '../../model/indexTree.js';
import { DatasetError } from '../errors.js';
import { getWithin } from './fetchFile.js';
import { SourceError, type ShardSource } from './source.js';

/** The manifest of the dataset at `source`; DatasetError (unavailable) when it is missing or not a valid manifest. */
export async function readManifest(source: ShardSource, timeoutMs: number): Promise<Manifest> {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(new TextDecoder().decode(await getWithin(source, MANIFEST_FILE, timeoutMs))) as Manifest;
  } catch (e) {
    const reason = e instanceof SourceError ? e.message : `${MANIFEST_FILE} is not valid JSON`;
    throw new DatasetError(`dataset unavailable: ${reason}`, 'unavailable');
  }
  const list = manifest?.shards ?? manifest?.shardIndex?.pages;
  const problem =
    manifest?.format !== FORMAT_NAME
      ? `manifest is not a ${FORMAT_NAME} dataset`
      : manifest.formatVersion !== FORMAT_VERSION
        ? `the dataset is format version ${String(manifest.formatVersion)}; this server reads version ${FORMAT_VERSION} only (rebuild it with npm run build:shards)`
        : !COMPRESSIONS.includes(manifest.compression)
          ? `manifest names an unknown compression "${String(manifest.compression)}"`
          : !Array.isArray(manifest.accessions?.pages) || !Number.isSafeInteger(manifest.accessions.count)
            ? 'manifest lists no accession table'
            : !Array.isArray(list)
              ? 'manifest lists no shards'
              : (tilingViolation(list) ??
                treeViolation(manifest) ??
                accessionsViolation(manifest.accessions) ??
                viewsViolation(manifest));
  if (problem) throw new DatasetError(`dataset unavailable: ${problem}`, 'unavailable');
  return manifest;
}

/**
 * What is wrong with the root of the accession table (pages of counts summing to the table's), or null: a reader finds
 * a rank's page by them.
 */
function accessionsViolation({ pages, count }: Manifest['accessions']): string | null {
  const counts = pages.map((page) => page?.accessions);
  if (!counts.every((n) => Number.isSafeInteger(n) && n >= 0))
    return 'the accession table lists a page without a count of accessions';
  const sum = counts.reduce((total, n) => total + n, 0);
  return sum === count ? null : `the accession table's pages hold ${sum} accessions where its count says ${count}`;
}

/**
 * What is wrong with the manifest's views (a list of `{fixed, shards | shardIndex}` whose shards tile the mass line),
 * or null.
 */
function viewsViolation(manifest: Manifest): string | null {
  if (manifest.views === undefined) return null;
  if (!Array.isArray(manifest.views)) return 'manifest views is not a list';
  for (const [i, view] of manifest.views.entries()) {
    const list = view?.shards ?? view?.shardIndex?.pages;
    const problem =
      typeof view?.fixed !== 'string'
        ? 'names no modification (fixed)'
        : !Array.isArray(list)
          ? 'lists no shards'
          : (tilingViolation(list) ??
            (view.shardIndex && levelsOf(view.shardIndex) === null
              ? `has ${JSON.stringify(view.shardIndex.levels)} levels of index pages; this server reads 1 to ${MAX_INDEX_LEVELS}`
              : null));
    if (problem) return `view ${i} ${problem}`;
  }
  return null;
}

/**
 * The first index tree (shard index, accession table, protein table) whose `levels` this reader cannot walk, or null.
 */
function treeViolation(manifest: Manifest): string | null {
  for (const [name, tree] of [
    ['shard index', manifest.shardIndex],
    ['accession table', manifest.accessions],
    ['protein table', manifest.proteins],
  ] as const) {
    if (tree && levelsOf(tree) === null)
      return `the ${name} has ${JSON.stringify(tree.levels)} levels of pages; this server reads 1 to ${MAX_INDEX_LEVELS}`;
  }
  return null;
}

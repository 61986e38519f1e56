// Datasets with index trees of several levels, for tests: a built dataset copied into a fresh folder with its
// shard index, protein table and (when asked) accession table written again by the build's own writers
// (indexPages.ts, proteinTable.ts) with small pages and narrow trees, so that a few thousand shards and
// accessions already need 2, 3 or 4 levels of pages — or a few hundred shards several leaf pages. Shards, the
// taxonomy file, the peptide counts and the tables not written again are kept as they are: hard links to the
// originals (creating thousands of copies would cost more than the tests that read them), so callers read such a
// dataset and never alter its files in place.
import { copyFileSync, linkSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeShardIndex, type IndexShape } from '../../builder/writers/indexPages.js';
import type { TreeShape } from '../../builder/writers/pageTree.js';
import { writeAccessionPages, writeProteinPages } from '../../builder/writers/proteinTable.js';
import type { Manifest } from '../../runtime/model/format.js';
import { accessionColumns } from './accessionColumns.js';
import {
  cachedBuild,
  readAccessionTable,
  readManifest,
  readProteinTable,
  SAMPLE_TAXDUMP,
  sampleSubset,
  shardEntries,
  tempDir,
  treeLevels,
} from './datasets.js';
import { accessionOf } from '../../runtime/model/format.js';

export interface TreeShapes {
  /** The shard index: leaf pages of `pageShards`, under inner pages of `innerPages`, a root of `rootLimit` at most. */
  index: Partial<IndexShape>;
  /** The protein table, when given: leaf pages of `proteinPage` accessions, under a tree of `proteins`' shape (else kept). */
  proteinPage?: number;
  proteins?: TreeShape;
  /** The accession table, when given: leaf pages of `accessionPage` accessions, under a tree of `accessions`' shape (else kept). */
  accessionPage?: number;
  accessions?: TreeShape;
}

/** A hard link to `from` at `to`, or a copy where the file system cannot link (another device). */
function place(from: string, to: string): void {
  try {
    linkSync(from, to);
  } catch {
    copyFileSync(from, to);
  }
}

/**
 * A copy of the dataset in `dir` (a fresh folder of this test file) whose index and protein table have the given
 * shapes; the files kept as they are are hard links to those of `dir`.
 */
export function retreedDataset(dir: string, label: string, shapes: TreeShapes): string {
  const manifest = readManifest(dir);
  const out = join(tempDir(label), 'shards');
  mkdirSync(out);
  const shards = shardEntries(dir);
  const kept = (root: { pages: { file: string }[]; levels?: number } | undefined, rewritten: boolean) =>
    root && !rewritten ? treeLevels(dir, root, manifest.compression).flatMap((level) => level.map((p) => p.file)) : [];
  for (const file of [
    ...shards.map((s) => s.file),
    ...kept(manifest.accessions, shapes.accessionPage !== undefined),
    ...kept(manifest.proteins, shapes.proteinPage !== undefined),
    ...(manifest.taxonomy ? [manifest.taxonomy.file] : []),
    ...(manifest.peptideCounts?.pages.map((p) => p.file) ?? []),
  ])
    place(join(dir, file), join(out, file));
  const accessionTable = readAccessionTable(dir);
  const { shards: _, shardIndex: __, accessions, proteins, taxonomy, ...head } = manifest;
  const retreed: Manifest = {
    ...head,
    ...writeShardIndex(out, shards, manifest.compression, { flatLimit: 0, ...shapes.index }),
    accessions:
      shapes.accessionPage === undefined
        ? accessions
        : writeAccessionPages(
            out,
            {
              count: accessions.count,
              accession: (a) => accessionOf(accessionTable, a),
              taxIds: accessionTable.taxIds,
              reviewed: accessionTable.reviewed,
            },
            manifest.compression,
            shapes.accessionPage,
            shapes.accessions,
          ),
    ...(shapes.proteinPage === undefined
      ? proteins
        ? { proteins }
        : {}
      : {
          proteins: writeProteinPages(
            out,
            rankedProteins(dir),
            manifest.compression,
            shapes.proteinPage,
            shapes.proteins,
          ),
        }),
    ...(taxonomy ? { taxonomy } : {}),
  };
  writeFileSync(join(out, 'manifest.json'), JSON.stringify(retreed, null, 1) + '\n');
  return out;
}

/** The protein table of the dataset in `dir`, as the build's writer takes it. */
function rankedProteins(dir: string) {
  const table = readProteinTable(dir);
  return accessionColumns({
    sorted: table.accessions,
    taxIds: table.taxIds,
    reviewed: table.reviewed,
    proteins: table.proteins,
    organisms: table.organisms,
  });
}

/** Shards per leaf index page of fewFilesPagedDataset: 3 leaf pages over its shards. */
const FEW_FILES_PAGE_SHARDS = 48;

/**
 * A dataset of few files whose shard index has several leaf pages, for the tests of commands that handle every file
 * of a dataset (mirror, archive: their cost grows with the files, not with what the files hold): the sample's first
 * 400 records with its taxonomy in 8 KB shards (about 140), built once for the files that ask (cached, read-only),
 * and its index written again into a fresh folder of this test file in leaf pages of 48 shards (3 pages listed by
 * the manifest), the rest kept as built.
 */
export async function fewFilesPagedDataset(): Promise<string> {
  const built = await cachedBuild('few-files', sampleSubset(400), [
    '--shard-bytes',
    '8192',
    '--taxdump',
    SAMPLE_TAXDUMP,
  ]);
  return retreedDataset(built, 'paged', { index: { pageShards: FEW_FILES_PAGE_SHARDS } });
}

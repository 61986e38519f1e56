// Datasets with index trees of several levels, for tests: a built dataset copied into a fresh folder with its
// shard index, protein table and (when asked) accession table written again by the build's own writers
// (indexPages.ts, proteinTable.ts) with small pages and narrow trees, so that a few thousand shards and
// accessions already need 2, 3 or 4 levels of pages. Shards, the taxonomy file and the peptide counts are copied
// as they are.
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeShardIndex, type IndexShape } from '../../builder/writers/indexPages.js';
import type { TreeShape } from '../../builder/writers/pageTree.js';
import { writeAccessionPages, writeProteinPages } from '../../builder/writers/proteinTable.js';
import type { Manifest } from '../../runtime/model/format.js';
import { accessionColumns } from './accessionColumns.js';
import { readAccessionTable, readManifest, readProteinTable, shardEntries, tempDir } from './datasets.js';
import { accessionOf } from '../../runtime/model/format.js';

export interface TreeShapes {
  /** The shard index: leaf pages of `pageShards`, under inner pages of `innerPages`, a root of `rootLimit` at most. */
  index: Partial<IndexShape>;
  /** The protein table: leaf pages of `proteinPage` accessions, under a tree of `proteins`' shape. */
  proteinPage: number;
  proteins: TreeShape;
  /** The accession table, when given: leaf pages of `accessionPage` accessions, under a tree of `accessions`' shape (else copied). */
  accessionPage?: number;
  accessions?: TreeShape;
}

/** A copy of the dataset in `dir` (a fresh folder of this test file) whose index and protein table have the given shapes. */
export function retreedDataset(dir: string, label: string, shapes: TreeShapes): string {
  const manifest = readManifest(dir);
  const out = join(tempDir(label), 'shards');
  mkdirSync(out);
  const shards = shardEntries(dir);
  const accessionPages = shapes.accessionPage === undefined ? manifest.accessions.pages.map((p) => p.file) : [];
  for (const file of [
    ...shards.map((s) => s.file),
    ...accessionPages,
    ...(manifest.taxonomy ? [manifest.taxonomy.file] : []),
    ...(manifest.peptideCounts?.pages.map((p) => p.file) ?? []),
  ])
    copyFileSync(join(dir, file), join(out, file));
  const accessionTable = readAccessionTable(dir);
  const table = readProteinTable(dir);
  const ranked = accessionColumns({
    sorted: table.accessions,
    taxIds: table.taxIds,
    reviewed: table.reviewed,
    proteins: table.proteins,
    organisms: table.organisms,
  });
  const { shards: _, shardIndex: __, accessions, proteins: ___, taxonomy, ...head } = manifest;
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
    proteins: writeProteinPages(out, ranked, manifest.compression, shapes.proteinPage, shapes.proteins),
    ...(taxonomy ? { taxonomy } : {}),
  };
  writeFileSync(join(out, 'manifest.json'), JSON.stringify(retreed, null, 1) + '\n');
  return out;
}

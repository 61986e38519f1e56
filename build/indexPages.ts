// The manifest's shard index: the shard list itself when short, else index pages written as compressed JSON
// files (a small root in the manifest, see shards/FORMAT.md), so what a query reads first stays small at any scale.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FLAT_INDEX_LIMIT, FORMAT_VERSION, INDEX_PAGE_SHARDS, indexPageFileName, type Compression, type IndexPage, type Manifest, type ShardEntry } from '../runtime/model/format.js';
import { decompress, writeDatasetFile } from './datasetFile.js';

/** The manifest fields that index `shards`, writing index pages into `dir` when there are many. */
export function writeShardIndex(dir: string, shards: ShardEntry[], compression: Compression, pageShards = INDEX_PAGE_SHARDS, flatLimit = FLAT_INDEX_LIMIT): Pick<Manifest, 'shards' | 'shardIndex'> {
  if (shards.length <= flatLimit) return { shards };
  const pages = [];
  for (let firstShard = 0; firstShard < shards.length; firstShard += pageShards) {
    const entries = shards.slice(firstShard, firstShard + pageShards);
    const page: IndexPage = { formatVersion: FORMAT_VERSION, firstShard, shards: entries };
    const file = writeDatasetFile(dir, page, indexPageFileName, compression);
    const sum = (field: 'massGroups' | 'peptides') => entries.reduce((total, s) => total + s[field], 0);
    pages.push({
      ...file, firstShard, shards: entries.length,
      firstKey: entries[0].firstKey, lastKey: entries[entries.length - 1].lastKey,
      massGroups: sum('massGroups'), peptides: sum('peptides'),
    });
  }
  return { shardIndex: { pages } };
}

/** Every shard entry of a manifest, reading its index pages from `dir` when it has them. */
export function allShards(manifest: Manifest, dir: string): ShardEntry[] {
  if (manifest.shards) return manifest.shards;
  const read = (file: string) => JSON.parse(Buffer.from(decompress(readFileSync(join(dir, file)), manifest.compression)).toString('utf8')) as IndexPage;
  return (manifest.shardIndex?.pages ?? []).flatMap((p) => read(p.file).shards);
}

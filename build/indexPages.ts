// The manifest's shard index: the shard list itself when short, else index pages written as JSON files
// (a small root in the manifest, see shards/FORMAT.md), so what a query reads first stays small at any scale.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FLAT_INDEX_LIMIT, FORMAT_VERSION, INDEX_PAGE_SHARDS, indexPageFileName, type IndexPage, type Manifest, type ShardEntry } from '../runtime/model/format.js';

/** The manifest fields that index `shards`, writing index pages into `dir` when there are many. */
export function writeShardIndex(dir: string, shards: ShardEntry[], pageShards = INDEX_PAGE_SHARDS, flatLimit = FLAT_INDEX_LIMIT): Pick<Manifest, 'shards' | 'shardIndex'> {
  if (shards.length <= flatLimit) return { shards };
  const pages = [];
  for (let firstShard = 0; firstShard < shards.length; firstShard += pageShards) {
    const entries = shards.slice(firstShard, firstShard + pageShards);
    const page: IndexPage = { formatVersion: FORMAT_VERSION, firstShard, shards: entries };
    const bytes = Buffer.from(JSON.stringify(page) + '\n');
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const file = indexPageFileName(sha256);
    writeFileSync(join(dir, file), bytes);
    const sum = (field: 'massGroups' | 'peptides') => entries.reduce((total, s) => total + s[field], 0);
    pages.push({
      file, sha256, bytes: bytes.length, firstShard, shards: entries.length,
      firstKey: entries[0].firstKey, lastKey: entries[entries.length - 1].lastKey,
      massGroups: sum('massGroups'), peptides: sum('peptides'),
    });
  }
  return { shardIndex: { pages } };
}

/** Every shard entry of a manifest, reading its index pages from `dir` when it has them. */
export function allShards(manifest: Manifest, dir: string): ShardEntry[] {
  if (manifest.shards) return manifest.shards;
  return (manifest.shardIndex?.pages ?? []).flatMap((p) => (JSON.parse(readFileSync(join(dir, p.file), 'utf8')) as IndexPage).shards);
}

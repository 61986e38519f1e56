// Shard files (runtime/model/shardCodec.ts, runtime/model/format.ts) read by other readers: an independent
// reader written from shards/FORMAT.md alone (JSON + @msgpack/msgpack, no project code) gets the same peptides
// as the runtime; FORMAT.md's own Python example runs where python3-msgpack exists.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decode } from '@msgpack/msgpack';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { folderHandler } from '../../helpers/api.js';
import { DEFAULT_SHARD_BYTES, readManifest, removeTempDirs, shardEntries, subsetDataset } from '../../helpers/datasets.js';
import { REPO } from '../../helpers/process.js';

type Row = { key: number; seq: string; accs: [string, number][] };

/** FORMAT.md, "Shard files": the msgpack map, little-endian uint32/int32 columns, concatenated strings. */
function readShardPerFormatMd(bytes: Uint8Array): Row[] {
  const s = decode(bytes) as Record<string, unknown>;
  const u32 = (b: unknown) => {
    const v = new DataView((b as Uint8Array).buffer, (b as Uint8Array).byteOffset, (b as Uint8Array).byteLength);
    return Array.from({ length: v.byteLength / 4 }, (_, i) => v.getUint32(i * 4, true));
  };
  const i32 = (b: unknown) => u32(b).map((x) => x | 0);
  const cut = (text: string, ends: number[], i: number) => text.slice(i ? ends[i - 1] : 0, ends[i]);
  const [keys, groupEnds, seqEnds, refEnds, refs, accEnds, taxIds] = [
    u32(s.massKeys), u32(s.groupEnds), u32(s.sequenceEnds), u32(s.accessionRefEnds), u32(s.accessionRefs), u32(s.accessionEnds), i32(s.taxIds),
  ];
  const rows: Row[] = [];
  keys.forEach((key, g) => {
    for (let p = g ? groupEnds[g - 1] : 0; p < groupEnds[g]; p++) {
      const myRefs = refs.slice(p ? refEnds[p - 1] : 0, refEnds[p]);
      rows.push({ key, seq: cut(s.sequences as string, seqEnds, p), accs: myRefs.map((a) => [cut(s.accessions as string, accEnds, a), taxIds[a]]) });
    }
  });
  return rows;
}

describe('a reader written from FORMAT.md alone', () => {
  let flat: string;
  let paged: string;
  afterAll(removeTempDirs);

  beforeAll(async () => {
    // The first 1,500 real records of the bundled sample, with the default shards and with 1 KB ones.
    [flat, paged] = await Promise.all([subsetDataset(1500, DEFAULT_SHARD_BYTES), subsetDataset(1500, 1024)]);
  });

  for (const [name, dir] of [['flat index', () => flat], ['two-level index', () => paged]] as const) {
    it(`gets the runtime's peptides from every shard (${name})`, async () => {
      const handler = folderHandler(dir());
      const entries = shardEntries(dir());
      if (name === 'two-level index') expect(readManifest(dir()).shardIndex).toBeDefined();
      // Every shard for the flat build; every 40th for the paged one (thousands of shards).
      for (const entry of entries.filter((_, i) => name === 'flat index' || i % 40 === 0)) {
        const rows = readShardPerFormatMd(readFileSync(join(dir(), entry.file)));
        expect(rows[0].key).toBe(entry.firstKey);
        expect(rows[rows.length - 1].key).toBe(entry.lastKey);
        const from = (entry.firstKey / 1e4).toFixed(4);
        const to = (entry.lastKey / 1e4).toFixed(4);
        const fromApi: Row[] = [];
        for (let page = 1; ; page++) {
          const body = await (await handler(new Request(`http://t/search-taxonomy.php?mass1=${from}&mass2=${to}&page=${page}`))).json();
          for (const group of body.result as Record<string, { seq: string; accsTax: { acc: string; taxId: number }[] }[]>[]) {
            const [mass, peptides] = Object.entries(group)[0];
            for (const p of peptides) fromApi.push({ key: Math.round(Number(mass) * 1e4), seq: p.seq, accs: p.accsTax.map((a) => [a.acc, a.taxId]) });
          }
          if (page * 1000 >= body.totalResult) break;
        }
        expect(fromApi).toEqual(rows);
      }
    });
  }

  const python = spawnSync('/usr/bin/python3', ['-c', 'import msgpack'], { stdio: 'ignore' }).status === 0;
  it.runIf(python)("FORMAT.md's Python example prints the first shard's peptides (python3-msgpack)", () => {
    const doc = readFileSync(join(REPO, 'shards/FORMAT.md'), 'utf8');
    const script = /```python\n([\s\S]*?)```/.exec(doc)![1];
    for (const dir of [flat, paged]) {
      const printed = execFileSync('/usr/bin/python3', ['-c', script], { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 26 }).trimEnd().split('\n');
      const expected = readShardPerFormatMd(readFileSync(join(dir, shardEntries(dir)[0].file))).map(
        (r) => `${(r.key / 1e4).toFixed(4)} ${r.seq} [${r.accs.map(([a, t]) => `('${a}', ${t})`).join(', ')}]`,
      );
      expect(printed).toEqual(expected);
    }
  });
});

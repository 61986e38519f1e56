// An independent reader written from shards/FORMAT.md alone (JSON + @msgpack/msgpack, no project code)
// gets the same peptides as the runtime; FORMAT.md's own Python example runs where python3-msgpack exists.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { decode } from '@msgpack/msgpack';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDataset } from '../build/pipeline.js';
import { createHandler, datasetOnce } from '../runtime/api/handler.js';
import { FileSource } from '../runtime/entries/node/fileSource.js';

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

/** FORMAT.md, manifest: `shards`, or `shardIndex.pages` whose files list the shards. */
function shardEntries(dir: string): { file: string; firstKey: number; lastKey: number; sha256: string }[] {
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
  return manifest.shards ?? manifest.shardIndex.pages.flatMap((p: { file: string }) => JSON.parse(readFileSync(join(dir, p.file), 'utf8')).shards);
}

describe('a reader written from FORMAT.md alone', () => {
  const root = mkdtempSync(join(tmpdir(), 'format-reader-'));
  const flat = join(root, 'flat');
  const paged = join(root, 'paged');
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  beforeAll(async () => {
    // The first 1,500 real records of the bundled sample.
    const text = gunzipSync(readFileSync('data/uniprot-sample.fasta.gz')).toString('latin1');
    const fasta = join(root, 'subset.fasta');
    writeFileSync(fasta, text.split(/(?=^>)/m).slice(0, 1500).join(''));
    const options = { inputs: [fasta], enzyme: 'trypsin', missedCleavages: 2, minLength: 6, maxLength: 50, threads: 0 };
    await buildDataset({ ...options, out: flat, shardBytes: 256 * 1024 });
    await buildDataset({ ...options, out: paged, shardBytes: 1024 });
  });

  for (const [name, dir] of [['flat index', () => flat], ['two-level index', () => paged]] as const) {
    it(`gets the runtime's peptides from every shard (${name})`, async () => {
      const handler = createHandler(datasetOnce(() => new FileSource(dir())));
      const entries = shardEntries(dir());
      if (name === 'two-level index') expect(JSON.parse(readFileSync(join(dir(), 'manifest.json'), 'utf8')).shardIndex).toBeDefined();
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
    const doc = readFileSync('shards/FORMAT.md', 'utf8');
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

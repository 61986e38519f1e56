// Dataset files read by other readers: an independent reader written from the format spec (docs/format.md) alone gets
// what the runtime's decoder and the API get, on gzip and brotli datasets with flat and tree indexes; the spec's worked
// example and its Python example (where python3-msgpack exists) agree with the runtime.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { decode } from '@msgpack/msgpack';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeCodecs } from '../../../runtime/entries/node/platform.js';
import type { AccessionTable } from '../../../runtime/model/format.js';
import { AccessionSet } from '../../../runtime/model/accessionSet.js';
import { decodeAccessionPage, decodeShard } from '../../../runtime/model/shardCodec.js';
import { encodeAccessionPage, encodeShard } from '../../../runtime/model/shardEncoder.js';
import { folderHandler } from '../../helpers/api.js';
import { Dataset } from '../../../runtime/core/storage/dataset.js';
import { proteinsOf } from '../../../runtime/core/lookup/proteins.js';
import { FileSource } from '../../../runtime/entries/node/fileSource.js';
import {
  build,
  DEFAULT_SHARD_BYTES,
  readAccessionTable,
  readManifest,
  readStored,
  removeTempDirs,
  SAMPLE_TAXDUMP,
  sampleSubset,
  shardEntries,
  subsetDataset,
  tempDir,
} from '../../helpers/datasets.js';
import { retreedDataset } from '../../helpers/indexTrees.js';
import { REPO } from '../../helpers/process.js';
import { cutLetters, letterBytes } from '../../helpers/letters.js';

// ---------------------------------------------------------------------------------------------------------
// The independent reader: docs/format.md, and nothing else

/** A file as the manifest points at it. */
interface FileRef {
  file: string;
  sha256: string;
  bytes: number;
}
interface ShardRef extends FileRef {
  firstKey: number;
  lastKey: number;
  massGroups: number;
  peptides: number;
}
interface ManifestPerFormatMd {
  formatVersion: number;
  compression: 'gzip' | 'br';
  shards?: ShardRef[];
  shardIndex?: Tree<FileRef & { firstShard: number; shards: number }>;
  accessions: Tree<FileRef & { accessions: number }> & { count: number };
  proteins: Tree<ProteinPageRef>;
  totals: { reviewedAccessions: number };
  taxonomy?: FileRef & { nodes: number };
  /** "Additions within version 3": peptides per accession, `ranksPerPage` ranks a page. */
  peptideCounts?: { ranksPerPage: number; pages: FileRef[] };
}
/** "The index tree": a root of pages, `levels` levels of pages (absent: 1) above the leaves. */
interface Tree<E> {
  pages: E[];
  levels?: number;
}
type ProteinPageRef = FileRef & { firstAccession: string; lastAccession: string; accessions: number };
interface AccessionTablePerFormatMd {
  accessions: string[];
  taxIds: number[];
  reviewed: number[];
}
type Row = { key: number; seq: string; accs: [string, number][]; reviewed: number[] };
interface TaxonomyPerFormatMd {
  formatVersion: number;
  taxIds: number[];
  parents: number[];
  reviewedAccessions: number[];
  unreviewedAccessions: number[];
  position: Map<number, number>;
  end: Map<number, number>;
}

/** "Varints": unsigned LEB128, concatenated; refuses a value cut short or of 2^32 or more. */
function varints(bin: unknown): number[] {
  if (!(bin instanceof Uint8Array)) throw new Error('an integer column is not bin');
  const values: number[] = [];
  let value = 0;
  let shift = 0;
  for (const b of bin) {
    value += (b & 0x7f) * 2 ** shift;
    if (b < 0x80) {
      if (value >= 2 ** 32) throw new Error('a varint of 2^32 or more');
      values.push(value);
      value = shift = 0;
    } else shift += 7;
  }
  if (shift !== 0) throw new Error('a varint is cut short');
  return values;
}

/** Running sums: ends[i] = c[0] + … + c[i]. */
const runningSums = (counts: number[]) => {
  let sum = 0;
  return counts.map((c) => (sum += c));
};

/** x[ends[i-1] : ends[i]], with ends[-1] = 0. */
function cut(text: string, ends: number[], i: number): string;
function cut<T>(list: T[], ends: number[], i: number): T[];
function cut(x: string | unknown[], ends: number[], i: number) {
  return x.slice(i ? ends[i - 1] : 0, ends[i]);
}

/** A msgpack map of format version 3 (both msgpack files are one). */
function map(bytes: Uint8Array): Record<string, unknown> {
  const m = decode(bytes) as Record<string, unknown>;
  if (m?.formatVersion !== 3) throw new Error('not a format version 3 map');
  return m;
}

/** A page of the "Accession table" (decompressed): newline-joined accessions, taxIds plus one as varints, one reviewed byte each. */
function readAccessionPagePerFormatMd(bytes: Uint8Array): AccessionTablePerFormatMd {
  const t = map(bytes);
  const accessions = t.accessions === '' ? [] : (t.accessions as string).split('\n');
  const taxIds = varints(t.taxIds).map((v) => v - 1);
  const reviewed = Array.from(t.reviewed as Uint8Array);
  if (taxIds.length !== accessions.length || reviewed.length !== accessions.length)
    throw new Error('accession table columns differ in length');
  return { accessions, taxIds, reviewed };
}

/** Bytes of text, for byte order. */
const utf8 = (text: string) => Buffer.from(text, 'utf8');

/** "Shard files" (decompressed): every peptide with its key, accessions (by accession, as the API lists them) and their taxIds and reviewed flags. */
function readShardPerFormatMd(bytes: Uint8Array, table: AccessionTablePerFormatMd): Row[] {
  const s = map(bytes);
  const keys = runningSums(varints(s.massKeys));
  const groupEnds = runningSums(varints(s.groupSizes));
  const seqEnds = runningSums(varints(s.lengths));
  const refEnds = runningSums(varints(s.refCounts));
  const refs = varints(s.refs);
  const rows: Row[] = [];
  keys.forEach((key, g) => {
    for (let p = g ? groupEnds[g - 1] : 0; p < groupEnds[g]; p++) {
      const ranks = runningSums(cut(refs, refEnds, p)); // the first rank, then the gaps to the next
      if (!ranks.every((a, i) => i === 0 || ranks[i - 1] < a)) throw new Error('ranks do not ascend within a peptide');
      ranks.sort((a, b) => Buffer.compare(utf8(table.accessions[a]), utf8(table.accessions[b])));
      rows.push({
        key,
        seq: cut(s.sequences as string, seqEnds, p),
        accs: ranks.map((a) => [table.accessions[a], table.taxIds[a]]),
        reviewed: ranks.map((a) => table.reviewed[a]),
      });
    }
  });
  return rows;
}

/** "Files, compression and names": one dataset folder read as docs/format.md says. */
class DatasetPerFormatMd {
  readonly manifest: ManifestPerFormatMd;
  readonly table: AccessionTablePerFormatMd;

  constructor(readonly dir: string) {
    this.manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as ManifestPerFormatMd;
    if (this.manifest.formatVersion !== 3) throw new Error(`format version ${this.manifest.formatVersion}`);
    // The leaf pages in rank order, concatenated.
    const pages = this.treeLevels(this.manifest.accessions)
      .at(-1)!
      .map((entry) => {
        const page = readAccessionPagePerFormatMd(this.read(entry));
        if (page.accessions.length !== entry.accessions)
          throw new Error('an accession page holds another count than its entry');
        return page;
      });
    this.table = {
      accessions: pages.flatMap((p) => p.accessions),
      taxIds: pages.flatMap((p) => p.taxIds),
      reviewed: pages.flatMap((p) => p.reviewed),
    };
    if (this.table.accessions.length !== this.manifest.accessions.count)
      throw new Error('accession table count differs from the manifest');
  }

  /** A file's content: its stored bytes checked (size, sha256, name) and decompressed. */
  read(entry: FileRef): Buffer {
    const stored = readFileSync(join(this.dir, entry.file));
    const sha256 = createHash('sha256').update(stored).digest('hex');
    if (stored.length !== entry.bytes || sha256 !== entry.sha256)
      throw new Error(`${entry.file} does not match its manifest entry`);
    const suffix = this.manifest.compression === 'gzip' ? 'gz' : 'br';
    const name =
      /^(?:index-|accessions-|accessions-index-|proteins-|proteins-index-|taxonomy-|peptide-counts-)?([0-9a-f]{20})\.(?:json|msgpack)\.(gz|br)$/.exec(
        entry.file,
      );
    if (!name || name[1] !== sha256.slice(0, 20) || name[2] !== suffix)
      throw new Error(`${entry.file} is not named by its content`);
    return this.manifest.compression === 'gzip' ? gunzipSync(stored) : brotliDecompressSync(stored);
  }

  readJson<T>(entry: FileRef): T {
    return JSON.parse(this.read(entry).toString('utf8')) as T;
  }

  /** Every page of a tree, level by level from the root's to the leaves' (each inner page lists the `pages` below it). */
  treeLevels<E extends FileRef>(tree: Tree<E>): E[][] {
    const levels = [tree.pages];
    for (let k = 1; k < (tree.levels ?? 1); k++)
      levels.push(levels[k - 1].flatMap((page) => this.readJson<{ formatVersion: number; pages: E[] }>(page).pages));
    return levels;
  }

  /** The shard list: the manifest's `shards`, or the `shards` of its index tree's leaf pages concatenated. */
  shardEntries(): ShardRef[] {
    return (
      this.manifest.shards ??
      this.treeLevels(this.manifest.shardIndex!)
        .at(-1)!
        .flatMap((page) => this.readJson<{ formatVersion: number; shards: ShardRef[] }>(page).shards)
    );
  }

  /** Every file of the index tree, the accession table and the protein table (inner pages and leaves). */
  treeFiles(): FileRef[] {
    const trees = [
      ...(this.manifest.shardIndex ? [this.manifest.shardIndex] : []),
      this.manifest.accessions,
      this.manifest.proteins,
    ] as Tree<FileRef>[];
    return trees.flatMap((tree) => this.treeLevels(tree).flat());
  }

  /** "Taxonomy": its columns, and each node's depth-first interval [position, end) (a node before its descendants, children by ascending taxId). */
  taxonomy(): TaxonomyPerFormatMd {
    const t = this.readJson<Omit<TaxonomyPerFormatMd, 'position' | 'end'>>(this.manifest.taxonomy!);
    const children = new Map<number, number[]>();
    t.taxIds.forEach((taxId, i) => {
      if (t.parents[i] !== taxId) children.set(t.parents[i], [...(children.get(t.parents[i]) ?? []), taxId]);
    });
    const position = new Map<number, number>();
    const end = new Map<number, number>();
    const visit = (taxId: number) => {
      position.set(taxId, position.size);
      for (const child of [...(children.get(taxId) ?? [])].sort((a, b) => a - b)) visit(child);
      end.set(taxId, position.size);
    };
    visit(t.taxIds.find((taxId, i) => t.parents[i] === taxId)!);
    return { ...t, position, end };
  }

  readShard(entry: ShardRef): Row[] {
    return readShardPerFormatMd(this.read(entry), this.table);
  }
}

// ---------------------------------------------------------------------------------------------------------
// The runtime's side

/** The runtime's decoded shard (decodeShard) as rows, each peptide's accessions as an answer lists them (AccessionSet.listed over `table`). */
function runtimeRows(bytes: Uint8Array, table: AccessionTable): Row[] {
  const shard = decodeShard(bytes, table.taxIds.length);
  const set = new AccessionSet([{ first: 0, table }]);
  const rows: Row[] = [];
  let p = 0;
  for (let g = 0; g < shard.massKeys.length; g++) {
    for (; p < shard.groupEnds[g]; p++) {
      const ranks = Array.from(set.listed(shard, p));
      rows.push({
        key: shard.massKeys[g],
        seq: cutLetters(shard.sequences, shard.sequenceEnds, p),
        accs: ranks.map((a) => [set.accession(a), set.taxId(a)]),
        reviewed: ranks.map((a) => (set.reviewed(a) ? 1 : 0)),
      });
    }
  }
  return rows;
}

/** A brotli dataset: the first `records` records of the sample with its taxonomy (a helper datasets.ts lacks). */
async function brotliDataset(records: number, shardBytes: number): Promise<string> {
  const out = join(tempDir(`br${records}`), 'shards');
  await build([sampleSubset(records)], out, { shardBytes, taxdump: SAMPLE_TAXDUMP, compression: 'br' });
  return out;
}

/** Peptides of shards whose keys lie in [from, to], as the API answers them. */
async function apiRows(
  handler: ReturnType<typeof folderHandler>,
  firstKey: number,
  lastKey: number,
): Promise<Omit<Row, 'reviewed'>[]> {
  const rows: Omit<Row, 'reviewed'>[] = [];
  const from = (firstKey / 1e4).toFixed(4);
  const to = (lastKey / 1e4).toFixed(4);
  for (let page = 1; ; page++) {
    const response = await handler(new Request(`http://t/search-taxonomy.php?mass1=${from}&mass2=${to}&page=${page}`));
    expect(response.status).toBe(200);
    const body = await response.json();
    for (const group of body.result as Record<string, { seq: string; accsTax: { acc: string; taxId: number }[] }[]>[]) {
      const [mass, peptides] = Object.entries(group)[0];
      for (const p of peptides)
        rows.push({ key: Math.round(Number(mass) * 1e4), seq: p.seq, accs: p.accsTax.map((a) => [a.acc, a.taxId]) });
    }
    if (page * 1000 >= body.totalResult) break;
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------------------

/** Records of the sample in each dataset: enough for hundreds of shards of 1 and 4 KB and trees of 3 levels. */
const RECORDS = 600;

describe('a reader written from the format spec alone', () => {
  let flat: string;
  let paged: string;
  let brotli: string;
  let tree: string;
  afterAll(removeTempDirs);

  beforeAll(async () => {
    // The first 600 real records of the bundled sample: gzip with the default shards (a flat index) and with
    // 1 KB ones (a two-level index); brotli with 4 KB shards (a two-level index). The first case checks each kind.
    [flat, paged, brotli] = await Promise.all([
      subsetDataset(RECORDS, DEFAULT_SHARD_BYTES),
      subsetDataset(RECORDS, 1024),
      brotliDataset(RECORDS, 4096),
    ]);
    // The 1 KB shards again, with an index tree of leaf pages of 32 shards, inner pages of 8, a root of 4 at most,
    // a protein table of pages of 25 accessions and an accession table of pages of 32, each under inner pages of 4
    // (3 levels each).
    tree = retreedDataset(paged, 'readers-tree', {
      index: { pageShards: 32, rootLimit: 4, innerPages: 8 },
      proteinPage: 25,
      proteins: { rootLimit: 4, innerPages: 4 },
      accessionPage: 32,
      accessions: { rootLimit: 4, innerPages: 4 },
    });
  }, 120_000);

  const datasets = [
    ['gzip, flat index', () => flat, 'gzip', 0],
    ['gzip, two-level index', () => paged, 'gzip', 1],
    ['brotli, two-level index', () => brotli, 'br', 1],
    ['gzip, index and protein table trees of 3 levels', () => tree, 'gzip', 3],
  ] as const;

  for (const [name, dir, compression, levels] of datasets) {
    const twoLevel = levels > 0;
    describe(name, () => {
      it('is the kind of dataset the case is named for', () => {
        const manifest = readManifest(dir());
        expect(manifest.formatVersion).toBe(3);
        expect(manifest.compression).toBe(compression);
        expect(manifest.shardIndex !== undefined).toBe(twoLevel);
        expect(manifest.shards !== undefined).toBe(!twoLevel);
        expect(shardEntries(dir()).length).toBeGreaterThan(twoLevel ? 128 : 1);
        if (levels > 1)
          expect([manifest.shardIndex!.levels, manifest.accessions.levels, manifest.proteins!.levels]).toEqual([
            levels,
            levels,
            levels,
          ]);
        else
          expect([manifest.shardIndex?.levels, manifest.accessions.levels, manifest.proteins!.levels]).toEqual([
            undefined,
            undefined,
            undefined,
          ]);
      });

      it("gets the runtime decoder's peptides, accessions, taxIds and reviewed flags from every shard", () => {
        const reader = new DatasetPerFormatMd(dir());
        const entries = reader.shardEntries();
        expect(entries).toEqual(shardEntries(dir()));
        const table = readAccessionTable(dir());
        let peptides = 0;
        for (const entry of entries) {
          const rows = reader.readShard(entry);
          const expected = runtimeRows(readStored(dir(), entry.file, compression), table);
          if (JSON.stringify(rows) !== JSON.stringify(expected)) expect(rows, entry.file).toEqual(expected);
          expect([rows.length, new Set(rows.map((r) => r.key)).size, rows[0].key, rows.at(-1)!.key]).toEqual([
            entry.peptides,
            entry.massGroups,
            entry.firstKey,
            entry.lastKey,
          ]);
          peptides += rows.length;
        }
        expect(peptides).toBe(readManifest(dir()).totals.peptides);
      });

      it("gets the API's answers for a range over a shard's keys", async () => {
        // Node's codecs for brotli (Node 20's DecompressionStream has no brotli); the default one for gzip.
        const handler = folderHandler(dir(), compression === 'br' ? nodeCodecs : {});
        const reader = new DatasetPerFormatMd(dir());
        // Every shard of the flat build; every 40th of the others (hundreds to thousands of shards).
        for (const entry of reader.shardEntries().filter((_, i) => !twoLevel || i % 40 === 0)) {
          const rows = reader.readShard(entry).map(({ key, seq, accs }) => ({ key, seq, accs }));
          expect(await apiRows(handler, entry.firstKey, entry.lastKey)).toEqual(rows);
        }
      });

      it('reads the accession table as the runtime does, and as the protein pages list it (in byte order)', () => {
        const reader = new DatasetPerFormatMd(dir());
        const runtime = readAccessionTable(dir());
        expect(reader.table.accessions.join('')).toBe(runtime.accessions);
        expect(reader.table.accessions.map((a) => a.length)).toEqual(
          Array.from(runtime.accessionEnds, (end, i) => end - (i ? runtime.accessionEnds[i - 1] : 0)),
        );
        expect(reader.table.taxIds).toEqual(Array.from(runtime.taxIds));
        expect(reader.table.reviewed).toEqual(Array.from(runtime.reviewed));
        const pages = reader
          .treeLevels(reader.manifest.proteins)
          .at(-1)!
          .map((entry) =>
            reader.readJson<{ formatVersion: number; accessions: string[]; taxIds: number[]; reviewed: number[] }>(
              entry,
            ),
          );
        expect(pages.every((page) => page.formatVersion === 3)).toBe(true);
        const byAccession = reader.table.accessions
          .map((_, a) => a)
          .sort((a, b) => Buffer.compare(utf8(reader.table.accessions[a]), utf8(reader.table.accessions[b])));
        expect(
          byAccession.every(
            (a, i) => i === 0 || reader.table.accessions[byAccession[i - 1]] !== reader.table.accessions[a],
          ),
        ).toBe(true); // unique
        expect(pages.flatMap((page) => page.accessions)).toEqual(byAccession.map((a) => reader.table.accessions[a]));
        expect(pages.flatMap((page) => page.taxIds)).toEqual(byAccession.map((a) => reader.table.taxIds[a]));
        expect(pages.flatMap((page) => page.reviewed)).toEqual(byAccession.map((a) => reader.table.reviewed[a]));
        const taxonomy = reader.taxonomy();
        expect([taxonomy.formatVersion, taxonomy.taxIds.length]).toEqual([3, reader.manifest.taxonomy!.nodes]);
      });

      it('ranks accessions in "Accession order": reviewed first, then by the depth-first position of their node, then by accession', () => {
        const reader = new DatasetPerFormatMd(dir());
        const { accessions, taxIds, reviewed } = reader.table;
        const { position } = reader.taxonomy();
        const key = (a: number) => [reviewed[a] === 1 ? 0 : 1, position.get(taxIds[a]) ?? position.size] as const;
        let misplaced = 0;
        for (let a = 1; a < accessions.length; a++) {
          const [[block0, pos0], [block1, pos1]] = [key(a - 1), key(a)];
          const ordered =
            block0 < block1 ||
            (block0 === block1 &&
              (pos0 < pos1 || (pos0 === pos1 && Buffer.compare(utf8(accessions[a - 1]), utf8(accessions[a])) < 0)));
          if (!ordered) misplaced++;
        }
        expect(misplaced).toBe(0);
        expect(reviewed.filter((r) => r === 1).length).toBe(reader.manifest.totals.reviewedAccessions);
        expect(new Set(taxIds.map((t) => position.get(t))).size).toBeGreaterThan(100); // many organisms: the order is not trivial
      });

      it("finds every taxon's accessions, as brute force over lineages does, in the two intervals of ranks its counts give", () => {
        const reader = new DatasetPerFormatMd(dir());
        const { taxIds, reviewed } = reader.table;
        const t = reader.taxonomy();
        const parent = new Map(t.taxIds.map((taxId, i) => [taxId, t.parents[i]]));
        const lineage = (taxId: number) => {
          const path: number[] = [];
          for (let n = taxId; parent.has(n) && path[path.length - 1] !== n; n = parent.get(n)!) path.push(n);
          return path;
        };
        const lineages = taxIds.map(lineage);
        const R = reader.manifest.totals.reviewedAccessions;
        // docs/format.md "Taxonomy": sums of the counts over the nodes before the subtree, and over it.
        const byPosition = t.taxIds
          .map((_, i) => i)
          .sort((i, j) => t.position.get(t.taxIds[i])! - t.position.get(t.taxIds[j])!);
        const sums = (column: number[]) => [0, ...runningSums(byPosition.map((i) => column[i]))];
        const [reviewedBefore, unreviewedBefore] = [sums(t.reviewedAccessions), sums(t.unreviewedAccessions)];
        for (const taxon of t.taxIds.filter((_, i) => i % 7 === 0 || t.parents[i] === t.taxIds[i])) {
          const [from, to] = [t.position.get(taxon)!, t.end.get(taxon)!];
          const intervals = [
            [reviewedBefore[from], reviewedBefore[to]],
            [R + unreviewedBefore[from], R + unreviewedBefore[to]],
          ];
          const expected = lineages.flatMap((path, a) => (path.includes(taxon) ? [a] : []));
          const got = intervals.flatMap(([first, end]) => Array.from({ length: end - first }, (_, k) => first + k));
          if (JSON.stringify(got) !== JSON.stringify(expected)) expect(got, `taxon ${taxon}`).toEqual(expected);
          expect(got.every((a) => a < R === (reviewed[a] === 1))).toBe(true);
        }
      });

      it('holds exactly the files the manifest lists, each named by its stored bytes', () => {
        const reader = new DatasetPerFormatMd(dir());
        const m = reader.manifest;
        const counts = m.peptideCounts?.pages ?? [];
        const listed = [
          ...(m.taxonomy ? [m.taxonomy] : []),
          ...counts,
          ...reader.treeFiles(),
          ...reader.shardEntries(),
        ];
        for (const entry of listed) reader.read(entry); // checks size, sha256 and name
        expect(readdirSync(dir()).sort()).toEqual(['manifest.json', ...listed.map((e) => e.file)].sort());
        // The peptide counts: a map {formatVersion, peptides}, one varint per accession rank, pages of ranksPerPage.
        const perRank = counts.flatMap((page) => {
          const map = decode(reader.read(page)) as { formatVersion: number; peptides: Uint8Array };
          expect(map.formatVersion).toBe(3);
          return varints(map.peptides);
        });
        expect(counts.length).toBe(Math.ceil(m.accessions.count / m.peptideCounts!.ranksPerPage));
        expect(perRank).toHaveLength(m.accessions.count);
      });
    });
  }

  it("the format spec's worked example is what the encoder writes and decodes as the text says", () => {
    const doc = readFileSync(join(REPO, 'docs/format.md'), 'utf8');
    const block = /```hex\n([\s\S]*?)```/.exec(doc)![1];
    const bytesOf = (label: string) =>
      Buffer.from(new RegExp(`^${label}: ([0-9A-F ]+)$`, 'm').exec(block)![1].replace(/ /g, ''), 'hex');
    const shardBytes = bytesOf('shard');
    const tableBytes = bytesOf('accessions');
    const columns = {
      massKeys: Uint32Array.of(4312128, 4562332),
      groupEnds: Uint32Array.of(1, 2),
      sequences: letterBytes('GGGGGKAGAPAA'),
      sequenceEnds: Uint32Array.of(6, 12),
      accessionRefEnds: Uint32Array.of(1, 3),
      accessionRefs: Uint32Array.of(2, 0, 1),
    };
    const accessions = ['P07683', 'Q7Z7X9', 'A0A0R0GAF9'];
    expect(Buffer.from(encodeShard(columns))).toEqual(shardBytes);
    expect(
      Buffer.from(
        encodeAccessionPage({
          accessions,
          taxIds: Int32Array.of(64495, 64495, 3847),
          reviewed: Uint8Array.of(1, 1, 0),
        }),
      ),
    ).toEqual(tableBytes);
    // The independent reader, and the runtime's decoder.
    const rows = readShardPerFormatMd(shardBytes, readAccessionPagePerFormatMd(tableBytes));
    expect(rows).toEqual([
      { key: 4312128, seq: 'GGGGGK', accs: [['A0A0R0GAF9', 3847]], reviewed: [0] },
      {
        key: 4562332,
        seq: 'AGAPAA',
        accs: [
          ['P07683', 64495],
          ['Q7Z7X9', 64495],
        ],
        reviewed: [1, 1],
      },
    ]);
    expect(runtimeRows(shardBytes, decodeAccessionPage(tableBytes))).toEqual(rows);
    // The varint table of docs/format.md.
    const table = [...doc.matchAll(/^\| (\d+)(?: \(2\^32 − 1\))? \| `([0-9A-F ]+)` \|$/gm)];
    expect(table.map((m) => Number(m[1]))).toEqual([0, 127, 128, 300, 16384, 2 ** 32 - 1]);
    for (const [, value, hex] of table)
      expect(varints(Buffer.from(hex.replace(/ /g, ''), 'hex'))).toEqual([Number(value)]);
  });

  const python = (module: string) =>
    spawnSync('/usr/bin/python3', ['-c', `import ${module}`], { stdio: 'ignore' }).status === 0;
  /**
   * Runs the format spec's Python example in `dir`, then its protein() on some accessions (each table page's first and
   * last, one of each 37, and some it lacks): what it prints must be the first shard's peptides as this file's
   * reader reads them, then the proteins as the runtime finds them (proteins.ts).
   */
  const runExample = async (dir: string) => {
    const doc = readFileSync(join(REPO, 'docs/format.md'), 'utf8');
    const script = /```python\n([\s\S]*?)```/.exec(doc)![1];
    const reader = new DatasetPerFormatMd(dir);
    const leaves = reader.treeLevels(reader.manifest.proteins).at(-1)!;
    const accessions = [
      ...leaves.flatMap((p) => [p.firstAccession, p.lastAccession]),
      ...reader.table.accessions.filter((_, i) => i % 37 === 0),
      '0',
      'ZZZZZZZZZZ',
      `${reader.table.accessions[3]}0`,
    ];
    // Every 50th taxon's ranks (taxon_ranks), after the proteins.
    const t = reader.taxonomy();
    const taxa = t.taxIds.filter((_, i) => i % 50 === 0);
    const lookups = `\nimport sys\nfor acc in sys.argv[1:]:\n    print("protein", acc, json.dumps(protein(acc)))\nfor taxon in ${JSON.stringify(taxa)}:\n    print("ranks", taxon, json.dumps(taxon_ranks(taxon)))\n`;
    const output = execFileSync('/usr/bin/python3', ['-c', script + lookups, ...accessions], {
      cwd: dir,
      encoding: 'utf8',
      maxBuffer: 1 << 26,
    })
      .trimEnd()
      .split('\n');
    const printed = output.filter((line) => !line.startsWith('ranks '));
    // The ranks of each taxon: brute force over the accessions' lineages, as runs of consecutive ranks.
    const parent = new Map(t.taxIds.map((taxId, i) => [taxId, t.parents[i]]));
    const within = (taxId: number, taxon: number) => {
      for (let n = taxId; parent.has(n); n = parent.get(n)!) if (n === taxon || parent.get(n) === n) return n === taxon;
      return false;
    };
    const R = reader.manifest.totals.reviewedAccessions;
    const ranksOf = (intervals: [number, number][]) =>
      intervals.flatMap(([first, end]) => Array.from({ length: end - first }, (_, k) => first + k));
    const ranksFromPython = output
      .filter((line) => line.startsWith('ranks '))
      .map((line) => JSON.parse(line.split(' ').slice(2).join(' ')) as [number, number][]);
    expect(ranksFromPython).toHaveLength(taxa.length);
    taxa.forEach((taxon, k) => {
      expect(ranksOf(ranksFromPython[k]), `taxon ${taxon}`).toEqual(
        reader.table.taxIds.flatMap((taxId, a) => (within(taxId, taxon) ? [a] : [])),
      );
      expect(ranksFromPython[k][0][1]).toBeLessThanOrEqual(R);
    });
    const expected = reader
      .readShard(reader.shardEntries()[0])
      .map((r) => `${(r.key / 1e4).toFixed(4)} ${r.seq} [${r.accs.map(([a, t]) => `('${a}', ${t})`).join(', ')}]`);
    expect(expected.length).toBeGreaterThan(10);
    expect(printed.slice(0, expected.length)).toEqual(expected);
    const runtime = await proteinsOf(
      await Dataset.open(new FileSource(dir), compression(dir) === 'br' ? nodeCodecs : {}),
      accessions.map((acc) => ({ acc, taxId: -7, reviewed: false })),
    );
    const fromRuntime = runtime.map((p) => [
      p.acc,
      p.taxId === -7
        ? null
        : { taxIds: p.taxId, reviewed: p.reviewed ? 1 : 0, proteins: p.protein ?? '', organisms: p.organism ?? '' },
    ]);
    expect(fromRuntime.filter(([, found]) => found === null)).toHaveLength(3);
    const fromPython = printed.slice(expected.length).map((line) => {
      const [, acc, found] = /^protein (\S+) (.*)$/.exec(line)!;
      return [acc, JSON.parse(found)];
    });
    expect(fromPython).toEqual(fromRuntime);
  };
  const compression = (dir: string) => readManifest(dir).compression;

  it.runIf(python('msgpack'))(
    "the format spec's Python example prints the first shard's peptides of gzip datasets, and finds proteins (python3-msgpack)",
    async () => {
      await runExample(flat);
      await runExample(paged);
      await runExample(tree);
    },
  );

  it.runIf(python('msgpack') && python('brotli'))(
    "the format spec's Python example prints the first shard's peptides of a brotli dataset (python3-brotli)",
    async () => {
      await runExample(brotli);
    },
  );
});

// The build pipeline (builder/phases/pipeline.ts) on the bundled UniProt sample, as npm start builds it (the shared
// cached build: worker threads, with its taxonomy and views), checked entry by entry against an independent
// brute-force digestion (test/helpers/reference.ts: its own FASTA parsing, residue table, trypsin rule and exact
// integer masses); the shard index and every shard file against the manifest; the shards read by a second msgpack
// implementation; and an in-process build byte-identical to a worker-thread one.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decode, ExtData } from '@msgpack/msgpack';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cutKeys, sampleMassBuckets } from '../../../builder/phases/slices.js';
import {
  tilingViolation,
  type AccessionTable,
  type Ends,
  type Manifest,
  type Shard,
  type ShardEntry,
} from '../../../runtime/model/format.js';
import { decodeShard } from '../../../runtime/model/shardCodec.js';
import { BUNDLED_VIEWS } from '../../../builder/commands/startDataset.js';
import {
  build,
  bundledDataset,
  readAccessionTable,
  readManifest,
  readStored,
  removeTempDirs,
  SAMPLE_FASTA,
  SAMPLE_TAXDUMP,
  sampleSubset,
  shardEntries,
  snapshot,
  tempDir,
  treeLevels,
} from '../../helpers/datasets.js';
import {
  REFERENCE_ENZYMES,
  referenceBoundaries,
  referenceDataset,
  referenceFasta,
  type ReferencePeptide,
  type ReferenceProtein,
} from '../../helpers/reference.js';
import { lettersText } from '../../helpers/letters.js';
import { folderDifferences } from '../../helpers/folders.js';

/** Published in data/README.md. */
const SAMPLE_SHA256 = '2f0e9086229537a246140d17e3bd0e0430b889ae7f868d95c57a82a9a29f97dd';

/**
 * Every shard of a dataset: its manifest entry, stored bytes and decoded content with the accession table its ranks
 * point into (as datasets.ts readDataset reads them, each peptide's ranks left in stored order: the test that compares
 * accession lists orders them by accession itself).
 */
interface StoredShards {
  shards: { entry: ShardEntry; bytes: Buffer; shard: Shard & AccessionTable }[];
}

function readShards(dir: string): StoredShards {
  const { compression } = readManifest(dir);
  const table = readAccessionTable(dir);
  return {
    shards: shardEntries(dir).map((entry) => ({
      entry,
      bytes: readFileSync(join(dir, entry.file)),
      shard: { ...decodeShard(readStored(dir, entry.file, compression), table.taxIds.length), ...table },
    })),
  };
}

let out: string;
let manifest: Manifest;
let dataset: StoredShards;
let proteins: ReferenceProtein[];
let reference: Map<string, ReferencePeptide>;

beforeAll(async () => {
  out = await bundledDataset();
  manifest = readManifest(out);
  dataset = readShards(out);
  proteins = referenceFasta(readFileSync(SAMPLE_FASTA));
  reference = referenceDataset(proteins, 'trypsin', 2, 6, 50);
}, 120_000);
afterAll(removeTempDirs);

describe('the bundled sample', () => {
  it('is the file data/README.md describes (read by the reference parser)', () => {
    expect(createHash('sha256').update(readFileSync(SAMPLE_FASTA)).digest('hex')).toBe(SAMPLE_SHA256);
    expect(proteins).toHaveLength(17_602);
    expect(proteins.reduce((sum, p) => sum + p.sequence.length, 0)).toBe(7_952_236);
    expect(new Set(proteins.map((p) => p.taxId)).size).toBe(5_693);
    expect(
      proteins.every((p) => p.taxId !== null && /^[A-Z0-9]+$/.test(p.accession) && /^[A-Z]+$/.test(p.sequence)),
    ).toBe(true);
    const count = (letter: string) => proteins.reduce((sum, p) => sum + p.sequence.split(letter).length - 1, 0);
    expect(count('X')).toBe(2_226);
    expect(count('B')).toBe(1);
    expect(count('Z')).toBe(1);
  });

  it('manifest: defaults, source, totals', () => {
    expect(manifest.parameters).toEqual({
      enzyme: 'trypsin',
      missedCleavages: 2,
      minLength: 6,
      maxLength: 50,
      specificity: 'full',
      clipMet: false,
      shardBytes: 32 * 1024,
      views: BUNDLED_VIEWS,
    });
    expect([manifest.formatVersion, manifest.compression]).toEqual([3, 'gzip']);
    const dmp = (name: string) => {
      const bytes = readFileSync(join(SAMPLE_TAXDUMP, name));
      return { file: name, bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
    };
    expect(manifest.sources).toEqual([
      { file: 'uniprot-sample.fasta.gz', bytes: readFileSync(SAMPLE_FASTA).length, sha256: SAMPLE_SHA256 },
      dmp('nodes.dmp'),
      dmp('names.dmp'),
    ]);
    expect(manifest.totals).toMatchObject({
      proteins: 17_602,
      accessions: new Set(proteins.map((p) => p.accession)).size,
      accessionsWithoutTaxId: 0,
      duplicateAccessions: 0,
      skippedRecords: { noAccession: 0, noSequence: 0, invalidCharacters: 0 },
      peptides: reference.size,
      massGroups: new Set([...reference.values()].map((p) => p.key)).size,
    });
    expect(JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'))).toEqual(manifest);
  });

  it('shards are cut at the target size before compression: each but the last (and those ending at a cut key) reaches it, and overshoots by at most 1 % before its last group', async () => {
    // A shard closes after the group that reaches the target, so it overshoots by that group and msgpack's
    // framing: the estimate the writer cuts by must count every column it encodes, or shards grow by that
    // column's share.
    const target = manifest.parameters.shardBytes;
    const cut = (ends: Ends, i: number) => ends[i] - (i === 0 ? 0 : ends[i - 1]);
    const varintLength = (value: number) => Math.max(1, Math.ceil(Math.log2(value + 1) / 7));
    /** docs/format.md bytes of a shard's last mass group: its key difference and size, its peptides' residues, lengths, ref counts and refs. */
    const lastGroupBytes = (shard: Shard) => {
      const g = shard.massKeys.length - 1;
      let bytes =
        varintLength(shard.massKeys[g] - (g === 0 ? 0 : shard.massKeys[g - 1])) + varintLength(cut(shard.groupEnds, g));
      for (let p = g === 0 ? 0 : shard.groupEnds[g - 1]; p < shard.groupEnds[g]; p++) {
        const refs = shard.accessionRefs.subarray(
          p === 0 ? 0 : shard.accessionRefEnds[p - 1],
          shard.accessionRefEnds[p],
        );
        bytes += cut(shard.sequenceEnds, p) + varintLength(cut(shard.sequenceEnds, p)) + varintLength(refs.length);
        refs.forEach((rank, r) => (bytes += varintLength(r === 0 ? rank : rank - refs[r - 1])));
      }
      return bytes;
    };
    const payload = (file: string) => readStored(out, file, manifest.compression).length;
    // A shard also ends before a cut key (docs/format.md): the sample's cut keys (builder/phases/slices.ts, tested on its own).
    const cuts = cutKeys(
      (await sampleMassBuckets([SAMPLE_FASTA], { enzyme: 'trypsin', missedCleavages: 2, minLength: 6, maxLength: 50 }))
        .records,
    );
    expect(cuts.length).toBeGreaterThan(1);
    const endsAtCut = (i: number) =>
      cuts.some((cut) => dataset.shards[i].entry.lastKey < cut && cut <= dataset.shards[i + 1].entry.firstKey);
    const atCuts = dataset.shards.slice(0, -1).filter((_, i) => endsAtCut(i));
    expect(atCuts.length).toBe(cuts.length - 1);
    const early = dataset.shards
      .slice(0, -1)
      .filter(
        ({ entry, shard }, i) =>
          (payload(entry.file) < target && !endsAtCut(i)) ||
          payload(entry.file) - lastGroupBytes(shard) > target * 1.01,
      );
    expect(early.map((s) => s.entry.file)).toEqual([]);
    expect(payload(dataset.shards.at(-1)!.entry.file)).toBeLessThanOrEqual(target * 1.01);
  });
});

describe('brute-force reference', () => {
  it('every stored peptide is the reference peptide: sequence, mass key, sorted accessions, taxIds', () => {
    const problems: string[] = [];
    const found = new Set<ReferencePeptide>();
    let stored = 0;
    const cut = (text: string, ends: Uint32Array, i: number) => text.slice(i === 0 ? 0 : ends[i - 1], ends[i]);
    // Each rank's accession, and its place among the table's accessions sorted (byte order).
    const { accessions, accessionEnds } = dataset.shards[0].shard;
    const names = Array.from(accessionEnds, (_, a) => cut(accessions, accessionEnds, a));
    const byName = new Uint32Array(names.length);
    Array.from(names.keys())
      .sort((a, b) => (names[a] < names[b] ? -1 : 1))
      .forEach((a, place) => (byName[a] = place));
    for (const { entry, shard } of dataset.shards) {
      const letters = lettersText(shard.sequences);
      let p = 0;
      for (let g = 0; g < shard.massKeys.length && problems.length < 20; g++) {
        for (; p < shard.groupEnds[g]; p++) {
          stored++;
          const sequence = letters.slice(p === 0 ? 0 : shard.sequenceEnds[p - 1], shard.sequenceEnds[p]);
          const expected = reference.get(sequence);
          if (!expected) {
            problems.push(`${sequence}: not a reference peptide (${entry.file})`);
            continue;
          }
          if (found.has(expected)) problems.push(`${sequence}: stored twice`);
          found.add(expected);
          if (shard.massKeys[g] !== expected.key)
            problems.push(`${sequence}: key ${shard.massKeys[g]}, reference ${expected.key}`);
          const from = p === 0 ? 0 : shard.accessionRefEnds[p - 1];
          const refs = shard.accessionRefEnds[p] - from;
          // The peptide's ranks ordered by their accessions, as the reference lists them.
          const asStored = shard.accessionRefs.subarray(from, from + refs);
          const ranks = refs > 1 ? asStored.slice().sort((a, b) => byName[a] - byName[b]) : asStored;
          let same = refs === expected.accessions.length;
          for (let r = 0; same && r < refs; r++) {
            const a = ranks[r];
            same = names[a] === expected.accessions[r] && shard.taxIds[a] === expected.taxIds[r];
          }
          if (!same) {
            const stored = Array.from(ranks, (a) => `${names[a]}:${shard.taxIds[a]}`);
            problems.push(
              `${sequence}: accessions ${stored}, reference ${expected.accessions.map((a, i) => `${a}:${expected.taxIds[i]}`)}`,
            );
          }
        }
      }
    }
    expect(problems).toEqual([]);
    expect(stored).toBe(reference.size);
    expect(found.size).toBe(reference.size);
  });

  it('each peptide records exactly the accessions whose protein it starts', () => {
    // The reference's: each protein's first 1..3 pieces (0..2 missed cleavages) within the length range.
    const expected = new Set<string>();
    for (const { accession, sequence } of proteins) {
      const boundaries = referenceBoundaries(sequence, REFERENCE_ENZYMES.trypsin);
      for (let c = 1; c <= 3 && c < boundaries.length; c++) {
        const peptide = sequence.slice(0, boundaries[c]);
        if (peptide.length >= 6 && peptide.length <= 50 && !/[BXZ]/.test(peptide))
          expected.add(`${peptide} ${accession}`);
      }
    }
    const stored = new Set<string>();
    for (const { shard } of dataset.shards) {
      const letters = lettersText(shard.sequences);
      for (let p = 0, i = 0; p < shard.accessionRefEnds.length; p++) {
        const sequence = letters.slice(p === 0 ? 0 : shard.sequenceEnds[p - 1], shard.sequenceEnds[p]);
        for (; i < shard.startRefs!.length && shard.startRefs![i] < shard.accessionRefEnds[p]; i++) {
          const a = shard.accessionRefs[shard.startRefs![i]];
          stored.add(
            `${sequence} ${shard.accessions.slice(a === 0 ? 0 : shard.accessionEnds[a - 1], shard.accessionEnds[a])}`,
          );
        }
      }
    }
    expect(expected.size).toBeGreaterThan(30_000);
    expect([...stored].filter((s) => !expected.has(s))).toEqual([]);
    expect(stored.size).toBe(expected.size);
  });

  it('the reference is not trivially small: shared peptides and many groups', () => {
    expect(reference.size).toBeGreaterThan(1_000_000);
    expect([...reference.values()].some((p) => p.accessions.length > 1)).toBe(true);
  });

  it('groups ascend strictly by key across all shards; sequences ascend within a group', () => {
    let lastKey = -1;
    let problems = 0;
    for (const { shard } of dataset.shards) {
      const letters = lettersText(shard.sequences);
      let p = 0;
      for (let g = 0; g < shard.massKeys.length; g++) {
        if (!(shard.massKeys[g] > lastKey)) problems++;
        lastKey = shard.massKeys[g];
        let previous = '';
        for (; p < shard.groupEnds[g]; p++) {
          const sequence = letters.slice(p === 0 ? 0 : shard.sequenceEnds[p - 1], shard.sequenceEnds[p]);
          if (!(sequence > previous)) problems++;
          previous = sequence;
        }
      }
    }
    expect(problems).toBe(0);
  });
});

describe('shard index and shard files', () => {
  it('the shards tile the mass line', () => {
    const entries = shardEntries(out);
    expect(entries.length).toBeGreaterThan(100);
    expect(entries).toHaveLength(manifest.totals.shards);
    expect(tilingViolation(entries)).toBeNull();
  });

  it('each shard file agrees with its manifest entry', () => {
    for (const { entry, bytes, shard } of dataset.shards) {
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      expect(entry.sha256).toBe(sha256);
      expect(entry.file).toBe(`${sha256.slice(0, 20)}.msgpack.gz`);
      expect(entry.bytes).toBe(bytes.length);
      expect(entry.firstKey).toBe(shard.massKeys[0]);
      expect(entry.lastKey).toBe(shard.massKeys[shard.massKeys.length - 1]);
      expect(entry.massGroups).toBe(shard.massKeys.length);
      expect(entry.peptides).toBe(shard.sequenceEnds.length);
      expect(entry.peptides).toBe(shard.groupEnds[shard.groupEnds.length - 1]);
    }
    const sum = (f: (s: (typeof dataset.shards)[number]) => number) =>
      dataset.shards.reduce((total, s) => total + f(s), 0);
    expect(sum((s) => s.bytes.length)).toBe(manifest.totals.bytes);
    expect(sum((s) => s.shard.massKeys.length)).toBe(manifest.totals.massGroups);
    expect(sum((s) => s.shard.sequenceEnds.length)).toBe(manifest.totals.peptides);
  });

  it('the folder holds exactly the manifest, its index pages, its shards, its accession table, its protein pages, its sequence pages (when built with them), its peptide counts, its taxonomy and its views', () => {
    const pages = manifest.proteins!.pages.map((p) => p.file);
    expect(pages.length).toBe(Math.ceil(manifest.totals.accessions / 2048));
    const indexPages = manifest.shardIndex!.pages.map((p) => p.file);
    expect(indexPages.length).toBe(Math.ceil(manifest.totals.shards / 256));
    expect(manifest.accessions.count).toBe(manifest.totals.accessions);
    // Each view: the pages of its index and its shards.
    const viewFiles = manifest.views!.flatMap((view, v) => [
      ...treeLevels(out, view.shardIndex!, manifest.compression)
        .flat()
        .map((p) => p.file),
      ...shardEntries(out, v).map((s) => s.file),
    ]);
    expect(readdirSync(out).sort()).toEqual(
      [
        'manifest.json',
        ...indexPages,
        ...dataset.shards.map((s) => s.entry.file),
        manifest.accessions.pages[0].file,
        ...pages,
        ...(manifest.sequences ? treeLevels(out, manifest.sequences).flat() : []).map((p) => p.file),
        ...manifest.peptideCounts!.pages.map((p) => p.file),
        manifest.taxonomy!.file,
        ...viewFiles,
      ].sort(),
    );
  });
});

describe('a second msgpack implementation (@msgpack/msgpack)', () => {
  /** The keys of a shard map (docs/format.md, format 2) and its integer (varint bin) columns. */
  const SHARD_KEYS = [
    'formatVersion',
    'massKeys',
    'groupSizes',
    'lengths',
    'sequences',
    'refCounts',
    'refs',
    'proteinStarts',
  ] as const;
  const VARINT_COLUMNS = ['massKeys', 'groupSizes', 'lengths', 'refCounts', 'refs'] as const;

  /** Unsigned LEB128 varints of a bin value (docs/format.md, "Varints"), read here rather than by runtime/model/varint.ts. */
  const varints = (bin: Uint8Array) => {
    const values: number[] = [];
    let value = 0;
    let scale = 1;
    for (const b of bin) {
      value += (b & 0x7f) * scale;
      if (b < 0x80) {
        values.push(value);
        value = 0;
        scale = 1;
      } else scale *= 128;
    }
    if (scale !== 1) throw new Error('a varint is cut short');
    return values;
  };
  /** Running sums: ends[i] = counts[0] + … + counts[i]. */
  const runningSums = (counts: number[]) => {
    let sum = 0;
    return counts.map((c) => (sum += c));
  };
  const same = (a: ArrayLike<number>, b: ArrayLike<number>) =>
    a.length === b.length && Array.from(a).every((v, i) => v === b[i]);

  /** Fails on anything that is not a plain msgpack value (extension data, dates, maps, bigints...). */
  const plain = (value: unknown, path = '$'): string[] => {
    if (value === null || typeof value === 'string' || typeof value === 'boolean') return [];
    if (typeof value === 'number') return Number.isInteger(value) ? [] : [`${path}: float`];
    if (value instanceof Uint8Array)
      return value.constructor === Uint8Array ? [] : [`${path}: ${value.constructor.name}`];
    if (Array.isArray(value)) return value.flatMap((v, i) => plain(v, `${path}[${i}]`));
    if (value instanceof ExtData) return [`${path}: extension type ${value.type}`];
    if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
      return Object.entries(value as object).flatMap(([k, v]) => plain(v, `${path}.${k}`));
    }
    return [`${path}: ${typeof value} ${Object.prototype.toString.call(value)}`];
  };

  /**
   * Walks the msgpack bytes themselves and lists the type of every value: docs/format.md allows map, array, str,
   * bin and integers only. Returns the first offending format byte, or the count of values read.
   */
  const walk = (bytes: Uint8Array): { values: number; offending?: string } => {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let at = 0;
    let values = 0;
    const skip = (n: number) => (at += n);
    const one = (): string | undefined => {
      values++;
      const b = bytes[at++];
      if (b <= 0x7f || b >= 0xe0) return; // fixint
      if (b >= 0x80 && b <= 0x8f) return many((b & 0x0f) * 2);
      if (b >= 0x90 && b <= 0x9f) return many(b & 0x0f);
      if (b >= 0xa0 && b <= 0xbf) return void skip(b & 0x1f);
      switch (b) {
        case 0xc4:
          return void skip(1 + bytes[at]); // bin 8
        case 0xc5:
          return void skip(2 + view.getUint16(at));
        case 0xc6:
          return void skip(4 + view.getUint32(at));
        case 0xd9:
          return void skip(1 + bytes[at]); // str 8
        case 0xda:
          return void skip(2 + view.getUint16(at));
        case 0xdb:
          return void skip(4 + view.getUint32(at));
        case 0xcc:
        case 0xd0:
          return void skip(1); // (u)int 8
        case 0xcd:
        case 0xd1:
          return void skip(2);
        case 0xce:
        case 0xd2:
          return void skip(4);
        case 0xcf:
        case 0xd3:
          return void skip(8);
        case 0xdc: {
          const n = view.getUint16(at);
          skip(2);
          return many(n);
        }
        case 0xdd: {
          const n = view.getUint32(at);
          skip(4);
          return many(n);
        }
        case 0xde: {
          const n = view.getUint16(at);
          skip(2);
          return many(2 * n);
        }
        case 0xdf: {
          const n = view.getUint32(at);
          skip(4);
          return many(2 * n);
        }
        default:
          return `0x${b.toString(16)} at byte ${at - 1}`; // nil, bool, float, ext, fixext, never used
      }
    };
    const many = (n: number): string | undefined => {
      for (let i = 0; i < n; i++) {
        const bad = one();
        if (bad) return bad;
      }
    };
    const offending = one();
    if (!offending && at !== bytes.length) return { values, offending: `${bytes.length - at} bytes after the map` };
    return { values, offending };
  };

  it('decodes every shard to the same columns as runtime/model/shardCodec.ts decodeShard', () => {
    // The dataset-wide accession table (one page here) the shards' ranks point into (as the tests' reader joins it).
    const table = decode(
      new Uint8Array(readStored(out, manifest.accessions.pages[0].file, manifest.compression)),
    ) as Record<string, unknown>;
    expect(Object.keys(table).sort()).toEqual(['accessions', 'formatVersion', 'reviewed', 'taxIds']);
    expect(table.formatVersion).toBe(3);
    expect(plain(table)).toEqual([]);
    const accessions = (table.accessions as string).split('\n');
    const { shard: first } = dataset.shards[0];
    expect(accessions).toHaveLength(manifest.accessions.count);
    expect(accessions.join('')).toBe(first.accessions);
    expect(same(runningSums(accessions.map((a) => a.length)), first.accessionEnds)).toBe(true);
    expect(
      same(
        varints(table.taxIds as Uint8Array).map((t) => t - 1),
        first.taxIds,
      ),
    ).toBe(true);
    expect(table.reviewed).toBeInstanceOf(Uint8Array);
    expect(same(table.reviewed as Uint8Array, first.reviewed)).toBe(true);
    for (const { entry, shard } of dataset.shards) {
      // The stored file decompressed, then a plain Uint8Array in, so bins come out as plain Uint8Arrays.
      const raw = decode(new Uint8Array(readStored(out, entry.file, manifest.compression))) as Record<string, unknown>;
      expect(Object.getPrototypeOf(raw)).toBe(Object.prototype);
      expect(Object.keys(raw).sort()).toEqual([...SHARD_KEYS].sort());
      expect(raw.formatVersion).toBe(3);
      expect(raw.sequences).toBe(lettersText(shard.sequences));
      expect(shard.accessions).toBe(first.accessions);
      for (const column of VARINT_COLUMNS) expect(raw[column], `${entry.file} ${column}`).toBeInstanceOf(Uint8Array);
      const [keyDifferences, groupSizes, lengths, refCounts, gaps] = VARINT_COLUMNS.map((column) =>
        varints(raw[column] as Uint8Array),
      );
      const accessionRefEnds = runningSums(refCounts);
      // Each peptide's refs: its first rank, then the gap to the next (decodeShard keeps them ascending).
      const accessionRefs: number[] = [];
      for (let p = 0, r = 0; p < accessionRefEnds.length; p++) {
        for (const start = r; r < accessionRefEnds[p]; r++)
          accessionRefs.push(r === start ? gaps[r] : accessionRefs[accessionRefs.length - 1] + gaps[r]);
      }
      const decoded = decodeShard(readStored(out, entry.file, manifest.compression), manifest.accessions.count);
      // Each reference that starts its protein: its gap from the previous one (from −1), doubled, plus the inside flag.
      const starts = varints(raw.proteinStarts as Uint8Array);
      const startRefs = runningSums(starts.map((v) => Math.floor(v / 2))).map((r) => r - 1);
      expect(
        same(
          starts.map((v) => v % 2),
          decoded.startRefsInside!,
        ),
      ).toBe(true);
      const columns = {
        startRefs,
        massKeys: runningSums(keyDifferences),
        groupEnds: runningSums(groupSizes),
        sequenceEnds: runningSums(lengths),
        accessionRefEnds,
        accessionRefs,
      };
      for (const [column, values] of Object.entries(columns)) {
        if (!same(values, decoded[column as keyof typeof columns]!))
          expect.fail(`${entry.file} ${column}: @msgpack/msgpack and decodeShard disagree`);
      }
      expect(plain(raw)).toEqual([]);
    }
  });

  it('the shard and accession table bytes (decompressed) use no msgpack extension (or other non-listed) types', () => {
    for (const { entry } of dataset.shards) {
      const { values, offending } = walk(readStored(out, entry.file, manifest.compression));
      expect(offending, entry.file).toBeUndefined();
      expect(values).toBe(1 + 2 * 8); // one map of eight entries, all scalars, strings or bins
    }
    const table = walk(readStored(out, manifest.accessions.pages[0].file, manifest.compression));
    expect(table).toEqual({ values: 1 + 2 * 4 }); // formatVersion, accessions, taxIds, reviewed
  });

  it('the plain-value check and the byte walker themselves catch extension types', () => {
    // {"t": fixext 4 of application type 5}; and a timestamp (type -1), which decodes to a Date.
    expect(plain(decode(Uint8Array.from([0x81, 0xa1, 0x74, 0xd6, 0x05, 0, 0, 0, 1])))).toEqual([
      '$.t: extension type 5',
    ]);
    expect(plain(decode(Uint8Array.from([0x81, 0xa1, 0x74, 0xd6, 0xff, 0, 0, 0, 1])))).toHaveLength(1);
    // fixext 4 (0xd6) holding a timestamp, as a map value: {"t": ext}.
    expect(walk(Uint8Array.from([0x81, 0xa1, 0x74, 0xd6, 0xff, 0, 0, 0, 1])).offending).toMatch(/0xd6/);
    expect(walk(Uint8Array.from([0x81, 0xa1, 0x74, 0xc4, 0x02, 1, 2])).offending).toBeUndefined();
  });
});

describe('determinism', () => {
  it('an in-process build (threads: 0) is byte-identical to a worker-thread build', async () => {
    // A part of the sample with small shards: many shards, and work for both workers.
    const input = sampleSubset(400);
    const root = tempDir('determinism');
    await build([input], join(root, 'threads'), { threads: 2, shardBytes: 8192 });
    await build([input], join(root, 'in-process'), { threads: 0, shardBytes: 8192 });
    const first = snapshot(join(root, 'threads'));
    expect(first.size).toBeGreaterThan(50);
    expect(folderDifferences(snapshot(join(root, 'in-process')), first)).toEqual([]);
  }, 120_000);
});

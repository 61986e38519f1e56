// The synthetic dataset of the index-scale benchmark (test/bench/indexScale.ts): N shard entries tiling 500–6,000 Da
// as a digest's peptides do (a gamma-shaped mass density, half of it in 1,000–2,000 Da), with content-like names and
// hashes, their index tree written by the build's own writers, a manifest made from a real small build (its accession
// table, protein pages and taxonomy copied, so the runtime opens it) and real bodies for the few shards the lookups
// read; every other shard file is absent. Every entry is a pure function of (seed, its number, the key arrays).
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeDatasetFile } from '../../builder/writers/datasetFile.js';
import {
  INDEX_SHAPE,
  shardIndexTree,
  writeLeafPage,
  type IndexShape,
  type WriteIndexPage,
} from '../../builder/writers/indexPages.js';
import { encodeShard } from '../../runtime/model/shardEncoder.js';
import {
  indexPageFileName,
  MANIFEST_FILE,
  residueMaxOf,
  shardFileName,
  type FileEntry,
  type IndexPageEntry,
  type Manifest,
  type ShardEntry,
} from '../../runtime/model/format.js';
import { build, SAMPLE_TAXDUMP, sampleSubset } from '../helpers/datasets.js';
import { prng } from '../helpers/prng.js';

/** Keys are 0.0001 Da: the shards tile [MIN_KEY, MAX_KEY]. */
const MIN_KEY = 5_000_000;
const MAX_KEY = 60_000_000;
/** Peptide masses above 500 Da follow a gamma(2, 550 Da) density (mode 1,050 Da, 53 % in 1,000–2,000 Da), cut at 6,000 Da. */
const GAMMA_SCALE_DA = 550;

/** The shards' key intervals: shard i holds groups from firstKeys[i] to lastKeys[i]. */
export interface SyntheticKeys {
  seed: number;
  firstKeys: Int32Array;
  lastKeys: Int32Array;
}

/** Shard i's own random stream (independent of the others, so any entry is made again alone). */
const streamOf = (seed: number, i: number, salt = 0) =>
  prng((Math.imul(i + 1, 0x9e3779b1) ^ Math.imul(seed + salt, 0x85ebca6b)) >>> 0);

/** The key at which a fraction `u` of the peptides lie below: the inverse of the density's cumulative sum, tabulated per Da. */
function quantileOf(): (u: number) => number {
  const cells = (MAX_KEY - MIN_KEY) / 10_000;
  const cdf = new Float64Array(cells + 1);
  const density = (da: number) => (da / GAMMA_SCALE_DA) * Math.exp(-da / GAMMA_SCALE_DA);
  for (let c = 0; c < cells; c++) cdf[c + 1] = cdf[c] + density(c + 0.5);
  let c = 0; // callers ask for ascending fractions: a moving cursor
  return (u) => {
    const target = Math.min(1, Math.max(0, u)) * cdf[cells];
    if (target < cdf[c]) c = 0;
    while (c < cells - 1 && cdf[c + 1] <= target) c++;
    const within = cdf[c + 1] > cdf[c] ? (target - cdf[c]) / (cdf[c + 1] - cdf[c]) : 0;
    return Math.round(MIN_KEY + (c + Math.min(1, within)) * 10_000);
  };
}

/** Peptides of shard i: what 32 KB of msgpack holds at its mass (~length + 8 bytes per peptide), ±15 %. */
const peptidesAt = (key: number, r: number) =>
  Math.max(1, Math.round((32_768 / (key / 10_000 / 111 + 8)) * (0.85 + 0.3 * r)));

/**
 * `count` shards' key intervals: shard i starts at the quantile (i + jitter) / count of the density (at least one key
 * past the previous start) and ends where its last occupied key falls, a geometric number of empty keys before the
 * next shard (keys are occupied with probability 1 − e^−λ, λ its peptides per key: no gap where shards are dense).
 */
export function syntheticKeys(count: number, seed: number): SyntheticKeys {
  const quantile = quantileOf();
  const firstKeys = new Int32Array(count);
  for (let i = 0, previous = MIN_KEY - 1; i < count; i++) {
    const jitter = streamOf(seed, i)() - 0.5;
    previous = firstKeys[i] = Math.max(previous + 1, quantile((i + 0.5 + 0.8 * jitter) / count));
  }
  if (count > 0 && firstKeys[count - 1] >= MAX_KEY)
    throw new Error(`${count} shards do not fit between ${MIN_KEY} and ${MAX_KEY}`);
  const lastKeys = new Int32Array(count);
  for (let i = 0; i < count; i++) {
    const next = i + 1 < count ? firstKeys[i + 1] : Math.max(firstKeys[i] + 1, quantile(1));
    const width = next - firstKeys[i];
    const random = streamOf(seed, i);
    random();
    const lambda = peptidesAt(firstKeys[i], random()) / width;
    const occupied = 1 - Math.exp(-lambda);
    const gap = occupied >= 1 ? 0 : Math.floor(Math.log(1 - random()) / Math.log(1 - occupied));
    lastKeys[i] = next - 1 - Math.min(width - 1, gap);
  }
  return { seed, firstKeys, lastKeys };
}

/** UniProtKB residue frequencies, in RESIDUE_MAX_LETTERS order (J, O, U: none or nearly). */
const FREQUENCIES = [
  0.0825, 0.0138, 0.0546, 0.0672, 0.0386, 0.0707, 0.0227, 0.0591, 0, 0.058, 0.0965, 0.0241, 0.0406, 0, 0.0474, 0.0393,
  0.0553, 0.0665, 0.0536, 0, 0.0686, 0.011, 0.0292,
];

/** Two hex digits per byte value (a lookup: a uint32's own toString(16) is slow, and every shard draws eight). */
const BYTE_HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));
/** Base-36 digits by value. */
const DIGITS = '0123456789abcdefghijklmnopqrstuvwxyz';

const hex = (random: () => number, digits: number) => {
  let text = '';
  while (text.length < digits) {
    const word = Math.floor(random() * 2 ** 32);
    text += BYTE_HEX[word >>> 24] + BYTE_HEX[(word >>> 16) & 255] + BYTE_HEX[(word >>> 8) & 255] + BYTE_HEX[word & 255];
  }
  return text.slice(0, digits);
};

/**
 * Shard i's entry: its keys; mass groups as many as its occupied keys (both ends among them); peptides as at its
 * mass; 14–21 KB stored; a content-like sha256 and name; per letter the most residues one of ~1,000 peptides of its
 * longest length would hold.
 */
export function syntheticEntry(keys: SyntheticKeys, i: number): ShardEntry {
  const random = streamOf(keys.seed, i);
  random(); // the start's jitter
  const firstKey = keys.firstKeys[i];
  const lastKey = keys.lastKeys[i];
  const peptides = peptidesAt(firstKey, random());
  random(); // the gap
  const width = lastKey - firstKey + 1;
  const occupied = 1 - Math.exp(-peptides / width);
  const massGroups =
    width === 1 ? 1 : Math.max(2, Math.min(width, peptides, Math.round(width * occupied * (0.9 + 0.2 * random()))));
  const bytes = 14_000 + Math.floor(7_000 * random());
  const sha256 = hex(random, 64);
  const longest = Math.min(50, Math.ceil(lastKey / 10_000 / 111));
  let residueMax = '';
  for (const f of FREQUENCIES) {
    const mean = longest * f;
    const most = f === 0 ? (random() < 0.01 ? 1 : 0) : Math.round(mean + 3 * Math.sqrt(mean) + 2 * random());
    residueMax += DIGITS[Math.min(35, longest, most)];
  }
  return { file: shardFileName(sha256, 'gzip'), firstKey, lastKey, massGroups, peptides, bytes, sha256, residueMax };
}

const TRYPTIC_BODY = 'ACDEFGHILMNPQSTVWY';

/**
 * A real body for `entry` (its keys, groups and peptides): group keys its first and last key and random ones between,
 * peptides of a length fitting the key's mass (not of that exact mass: only reads are measured), ending in K or R,
 * ascending and unique within a group, each from 1–2 accessions of `accessions`. Written into `dir`; returns the entry
 * naming the file written.
 */
export function writeBody(dir: string, entry: ShardEntry, accessions: number, seed: number): ShardEntry {
  const random = prng(seed ^ entry.firstKey);
  const width = entry.lastKey - entry.firstKey + 1;
  const keys = new Set([entry.firstKey, entry.lastKey]);
  while (keys.size < entry.massGroups) keys.add(entry.firstKey + 1 + Math.floor(random() * (width - 2)));
  const massKeys = Uint32Array.from([...keys].sort((a, b) => a - b));
  const sizes = new Array<number>(massKeys.length).fill(1);
  for (let p = massKeys.length; p < entry.peptides; p++) sizes[Math.floor(random() * sizes.length)]++;
  const groupEnds = new Uint32Array(sizes.length);
  const sequences: string[] = [];
  const refs: number[] = [];
  const refEnds: number[] = [];
  sizes.forEach((size, g) => {
    groupEnds[g] = (g === 0 ? 0 : groupEnds[g - 1]) + size;
    const length = Math.max(6, Math.min(50, Math.round(massKeys[g] / 10_000 / 111)));
    const group = new Set<string>();
    while (group.size < size) {
      let text = '';
      for (let k = 1; k < length; k++) text += TRYPTIC_BODY[Math.floor(random() * TRYPTIC_BODY.length)];
      group.add(text + (random() < 0.5 ? 'K' : 'R'));
    }
    for (const sequence of [...group].sort()) {
      sequences.push(sequence);
      const first = Math.floor(random() * accessions);
      refs.push(first);
      if (first + 1 < accessions && random() < 0.3) refs.push(first + 1);
      refEnds.push(refs.length);
    }
  });
  const text = sequences.join('');
  const sequenceEnds = new Uint32Array(sequences.length);
  sequences.reduce((end, s, p) => (sequenceEnds[p] = end + s.length), 0);
  const bytes = encodeShard({
    massKeys,
    groupEnds,
    sequences: Buffer.from(text, 'latin1'),
    sequenceEnds,
    accessionRefEnds: Uint32Array.from(refEnds),
    accessionRefs: Uint32Array.from(refs),
  });
  return { ...entry, ...writeDatasetFile(dir, bytes, shardFileName, 'gzip'), residueMax: residueMaxOf(sequences) };
}

/** An index page written, with its depth below the manifest (1: listed by the root) once the tree is complete. */
export interface WrittenPage {
  file: string;
  bytes: number;
  /** 0 for a leaf; k for an inner page whose entries are pages of height k − 1. */
  height: number;
}

export interface SyntheticDataset {
  dir: string;
  manifest: Manifest;
  manifestBytes: number;
  pages: WrittenPage[];
  /** Shard numbers with a real body, and the file holding it. */
  bodies: Map<number, string>;
  seconds: { template: number; bodies: number; index: number };
}

/** The folder below the run's folder holding the synthetic dataset (a `template` folder holds the real build beside it). */
export const DATASET_FOLDER = 'dataset';

/** A small real dataset (the sample's first records, with its taxonomy) whose manifest head and tables the synthetic one takes. */
async function template(dir: string): Promise<Manifest> {
  const manifest = await build([sampleSubset(200)], dir, { taxdump: SAMPLE_TAXDUMP });
  if (!manifest.proteins || manifest.proteins.levels !== undefined)
    throw new Error('the template has a protein tree: copy its pages too');
  return manifest;
}

/**
 * Writes the synthetic dataset of `keys` into `dir`/dataset: real bodies for shards `bodyShards`, the index tree
 * (leaf pages made and written 256 at a time by the build's writeLeafPage, the tree above by shardIndexTree — the two
 * halves of writeShardIndex, without holding every entry at once), and the manifest as publish writes it.
 */
export async function writeSyntheticDataset(
  dir: string,
  keys: SyntheticKeys,
  bodyShards: Iterable<number>,
  shape: IndexShape = INDEX_SHAPE,
): Promise<SyntheticDataset> {
  let started = performance.now();
  const tpl = await template(join(dir, 'template'));
  const out = join(dir, DATASET_FOLDER);
  mkdirSync(out, { recursive: true });
  for (const file of [
    ...tpl.accessions.pages.map((p) => p.file),
    ...(tpl.proteins?.pages ?? []).map((p) => p.file),
    ...(tpl.taxonomy ? [tpl.taxonomy.file] : []),
  ])
    copyFileSync(join(dir, 'template', file), join(out, file));
  const seconds = { template: (performance.now() - started) / 1000, bodies: 0, index: 0 };

  started = performance.now();
  const bodies = new Map<number, ShardEntry>();
  for (const i of bodyShards)
    if (!bodies.has(i)) bodies.set(i, writeBody(out, syntheticEntry(keys, i), tpl.accessions.count, keys.seed));
  seconds.bodies = (performance.now() - started) / 1000;

  started = performance.now();
  const pages: WrittenPage[] = [];
  const heights = new Map<string, number>();
  const write: WriteIndexPage = (page) => {
    const file: FileEntry = writeDatasetFile(out, page, indexPageFileName, tpl.compression);
    const height = 'pages' in page ? heights.get(page.pages[0].file)! + 1 : 0;
    heights.set(file.file, height);
    pages.push({ file: file.file, bytes: file.bytes, height });
    return file;
  };
  const count = keys.firstKeys.length;
  const leaves: IndexPageEntry[] = [];
  let bytes = 0;
  for (let first = 0; first < count; first += shape.pageShards) {
    const shards = Array.from(
      { length: Math.min(shape.pageShards, count - first) },
      (_, k) => bodies.get(first + k) ?? syntheticEntry(keys, first + k),
    );
    for (const s of shards) bytes += s.bytes;
    leaves.push(writeLeafPage(shards, first, write));
  }
  const shardIndex = shardIndexTree(leaves, write, shape);
  seconds.index = (performance.now() - started) / 1000;

  const { shards: _, shardIndex: __, totals, accessions, proteins, taxonomy, ...head } = tpl;
  const sum = (field: 'massGroups' | 'peptides') => leaves.reduce((s, p) => s + p[field], 0);
  const manifest: Manifest = {
    ...head,
    totals: { ...totals, peptides: sum('peptides'), massGroups: sum('massGroups'), shards: count, bytes },
    shardIndex,
    accessions,
    proteins,
    ...(taxonomy ? { taxonomy } : {}),
  };
  const text = JSON.stringify(manifest, null, 1) + '\n'; // as builder/writers/publish.ts writes it
  writeFileSync(join(out, MANIFEST_FILE), text);
  return {
    dir: out,
    manifest,
    manifestBytes: Buffer.byteLength(text),
    pages,
    bodies: new Map([...bodies].map(([i, e]) => [i, e.file])),
    seconds,
  };
}

/** Brute force over the key arrays, apart from any index: the last shard starting at or below `key` (-1 when none does). */
export function bruteForceShard(keys: SyntheticKeys, key: number): number {
  let lo = 0;
  let hi = keys.firstKeys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys.firstKeys[mid] <= key) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

// Datasets for the tests, and reading one back. Two kinds of build:
// - in process, into a temp folder the test file owns, built once per test file and removed in afterAll;
// - through the build CLI, cached under the OS temp dir across test files and runs, keyed by the inputs, options and
//   the builder's and model's sources: shared and read-only (copy one before altering it), and staged then renamed
//   into place so that concurrent test files never see a half-built entry.
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { unpack } from 'msgpackr';
import { buildDataset, DEFAULT_SHARD_BYTES, type BuildOptions } from '../../builder/phases/pipeline.js';
import { decodeAccessionPage, decodeShard } from '../../runtime/model/shardCodec.js';
import type {
  AccessionTable,
  Compression,
  IndexPage,
  Manifest,
  ProteinPage,
  Shard,
  ShardEntry,
  TaxonomyFile,
} from '../../runtime/model/format.js';
import { REPO, runTsx, type Run } from './process.js';
import { isAlive } from '../../builder/writers/publish.js';
import { BUNDLED_VIEWS } from '../../builder/commands/startDataset.js';
import { cutLetters } from './letters.js';

export const SAMPLE_FASTA = join(REPO, 'data/uniprot-sample.fasta.gz');
/** The NCBI taxonomy of the sample's organisms (nodes.dmp, names.dmp), as npm start builds with it. */
export const SAMPLE_TAXDUMP = join(REPO, 'data/taxdump');
export { DEFAULT_SHARD_BYTES };
export const CACHE_ROOT = join(tmpdir(), 'dp-hard-cache');

// ---------------------------------------------------------------------------------------------------------
// Temporary folders and fixture files

const made: string[] = [];
const builds = new Map<string, Promise<string>>();

/** A fresh folder under the OS temp dir (never in the repo); removed by removeTempDirs(). */
export function tempDir(label: string): string {
  const dir = mkdtempSync(join(tmpdir(), `dp-test-${label}-`));
  made.push(dir);
  return dir;
}

/** Removes every folder made here (and forgets the in-process builds in them). */
export function removeTempDirs(): void {
  builds.clear();
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** Writes `text` (or bytes) to dir/name, gzipped when `gzip` is set; returns the path. */
export function writeFixture(dir: string, name: string, content: string | Uint8Array, gzip = false): string {
  const path = join(dir, name);
  const bytes = typeof content === 'string' ? Buffer.from(content, 'latin1') : content;
  writeFileSync(path, gzip ? gzipSync(bytes) : bytes);
  return path;
}

/** A node of a taxdump fixture. */
export interface TaxdumpNode {
  taxId: number;
  parent: number;
  rank: string;
  name: string;
}

/**
 * Writes `nodes` as NCBI taxdump files (nodes.dmp with NCBI's 13 fields, names.dmp with a synonym before and a
 * common name after each scientific name) into dir/taxdump; returns that folder.
 */
export function writeTaxdump(dir: string, nodes: readonly TaxdumpNode[]): string {
  const folder = join(dir, 'taxdump');
  mkdirSync(folder, { recursive: true });
  const field = (...values: (string | number)[]) => values.join('\t|\t') + '\t|\n';
  writeFileSync(
    join(folder, 'nodes.dmp'),
    nodes.map((n) => field(n.taxId, n.parent, n.rank, '', 0, 1, 11, 1, 0, 1, 0, 0, '')).join(''),
  );
  writeFileSync(
    join(folder, 'names.dmp'),
    nodes
      .map(
        (n) =>
          field(n.taxId, `${n.name} (synonym)`, '', 'synonym') +
          field(n.taxId, n.name, '', 'scientific name') +
          field(n.taxId, `common ${n.name}`, '', 'genbank common name'),
      )
      .join(''),
  );
  return folder;
}

let sample: { text: string; starts: number[] } | undefined;

/** Records from..from+count-1 of the bundled sample, as FASTA text (fewer if the sample ends first). */
export function sampleRecords(count: number, from = 0): string {
  if (!sample) {
    const text = gunzipSync(readFileSync(SAMPLE_FASTA)).toString('latin1');
    sample = { text, starts: [...text.matchAll(/^>/gm)].map((m) => m.index!) };
  }
  return sample.text.slice(sample.starts[from], sample.starts[from + count]);
}

/** A plain FASTA file holding the first `records` records of the bundled sample (a stable path in the cache). */
export function sampleSubset(records: number): string {
  const path = join(CACHE_ROOT, `subset-${records}.fasta`);
  if (existsSync(path)) return path;
  mkdirSync(CACHE_ROOT, { recursive: true });
  const staged = `${path}.${process.pid}.tmp`;
  writeFileSync(staged, sampleRecords(records), 'latin1');
  renameSync(staged, path);
  return path;
}

// ---------------------------------------------------------------------------------------------------------
// In-process builds into folders of this test file

/** buildDataset with the default digest parameters (trypsin, 2 missed cleavages, 6..50), in process, silent, unless overridden. */
export function build(inputs: string[], out: string, overrides: Partial<BuildOptions> = {}): Promise<Manifest> {
  return buildDataset({
    inputs,
    out,
    enzyme: 'trypsin',
    missedCleavages: 2,
    minLength: 6,
    maxLength: 50,
    shardBytes: DEFAULT_SHARD_BYTES,
    threads: 0,
    ...overrides,
  });
}

/**
 * Builds `inputs` with the default digest (and `taxdump`, `views` when given) once per test file into a fresh
 * folder; resolves to the folder.
 */
export function buildOnce(
  label: string,
  inputs: string[],
  shardBytes: number,
  taxdump?: string,
  views: string[] = [],
): Promise<string> {
  const id = JSON.stringify([inputs, shardBytes, taxdump, views]);
  let building = builds.get(id);
  if (!building) {
    const out = join(tempDir(label), 'shards');
    building = build(inputs, out, { shardBytes, taxdump, views }).then(() => out);
    builds.set(id, building);
  }
  return building;
}

/**
 * The first `records` records of the sample with its taxonomy (data/taxdump) built with `shardBytes` (and `views`),
 * in a folder of this test file.
 */
export function subsetDataset(records: number, shardBytes: number, views: string[] = []): Promise<string> {
  return buildOnce(
    `subset${records}${views.length > 0 ? '-views' : ''}`,
    [sampleSubset(records)],
    shardBytes,
    SAMPLE_TAXDUMP,
    views,
  );
}

/** A FASTA text written to a file and built with `shardBytes`; resolves to the dataset folder and the file. */
export async function fixtureDataset(
  label: string,
  fasta: string,
  shardBytes: number,
): Promise<{ dir: string; fasta: string }> {
  const file = writeFixture(tempDir(label), `${label}.fasta`, fasta);
  return { dir: await buildOnce(label, [file], shardBytes), fasta: file };
}

// ---------------------------------------------------------------------------------------------------------
// Builds through the CLI, cached across test files and runs (shared: read-only)

/** Runs `node --import tsx builder/commands/cli.ts ...args` in the repository; resolves with its exit code, outputs and time. */
export async function runBuildCli(args: string[]): Promise<Run & { seconds: number }> {
  const started = performance.now();
  const run = await runTsx(['builder/commands/cli.ts', ...args]);
  return { ...run, seconds: (performance.now() - started) / 1000 };
}

/** Hash of the code that decides a dataset's bytes: every source file under builder/ and the model it imports. */
function builderHash(): string {
  const hash = createHash('sha256');
  const files = [
    ...readdirSync(join(REPO, 'builder'), { recursive: true, encoding: 'utf8' })
      .filter((n) => /\.(ts|mjs)$/.test(n))
      .map((n) => join('builder', n))
      .sort(),
    ...readdirSync(join(REPO, 'runtime/model'))
      .sort()
      .map((n) => join('runtime/model', n)),
  ];
  for (const file of files) hash.update(file).update(readFileSync(join(REPO, file)));
  return hash.digest('hex');
}

/** `dir`, its time set to now: pruneStale removes the builds no run has read for an hour. */
function touched(dir: string): string {
  const now = new Date();
  utimesSync(dir, now, now);
  return dir;
}

/** Removes cached builds of `label` other than `keep` not read for an hour (older builder versions, other clones'). */
function pruneStale(label: string, keep: string): void {
  for (const name of readdirSync(CACHE_ROOT)) {
    const path = join(CACHE_ROOT, name);
    if (!name.startsWith(`${label}-`) || path === keep) continue;
    if (Date.now() - statSync(path).mtimeMs > 3_600_000) rmSync(path, { recursive: true, force: true });
  }
}

/** Bumped when what a cached build holds changes in a way the hashed inputs do not show. */
const CACHE_GENERATION = 'v2';

/** A dataset built from `input` with CLI `args`, cached by content (a `--taxdump` folder's files too); returns its (shared, read-only) folder. */
export async function cachedBuild(label: string, input: string, args: string[] = []): Promise<string> {
  const hash = createHash('sha256')
    .update(CACHE_GENERATION)
    .update(readFileSync(input))
    // The taxdump by its files' content (below), not by where this copy of the repository keeps it.
    .update(JSON.stringify(args.map((arg, i) => (args[i - 1] === '--taxdump' ? '<taxdump>' : arg))))
    .update(builderHash());
  const taxdump = args.indexOf('--taxdump');
  if (taxdump >= 0)
    for (const file of ['nodes.dmp', 'names.dmp']) hash.update(readFileSync(join(args[taxdump + 1], file)));
  const key = hash.digest('hex').slice(0, 16);
  const dir = join(CACHE_ROOT, `${label}-${key}`);
  if (existsSync(join(dir, 'manifest.json'))) return touched(dir);
  mkdirSync(CACHE_ROOT, { recursive: true });
  // One builder at a time per entry (test files run in parallel): a lock folder holding the builder's pid.
  const lock = join(CACHE_ROOT, `.lock-${label}-${key}`);
  for (;;) {
    if (existsSync(join(dir, 'manifest.json'))) return dir;
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      break;
    } catch {
      const pid = Number(existsSync(join(lock, 'pid')) ? readFileSync(join(lock, 'pid'), 'utf8') : 0);
      const stale =
        (pid > 0 && !isAlive(pid)) ||
        Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now()) > 600_000;
      if (stale) rmSync(lock, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  try {
    if (existsSync(join(dir, 'manifest.json'))) return dir;
    const staging = join(CACHE_ROOT, `.staging-${label}-${key}-${process.pid}`);
    rmSync(staging, { recursive: true, force: true });
    const run = await runBuildCli(['--input', input, '--out', staging, ...args]);
    if (run.code !== 0) throw new Error(`build of ${label} failed: ${run.stderr}`);
    renameSync(staging, dir);
    pruneStale(label, dir);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
  if (!existsSync(join(dir, 'manifest.json'))) throw new Error(`cached build ${dir} has no manifest`);
  return dir;
}

/**
 * The bundled sample (data/uniprot-sample.fasta.gz) with its taxonomy (data/taxdump), its views (BUNDLED_VIEWS) and
 * its sequences, as npm start builds it; cached, read-only.
 */
export function bundledDataset(): Promise<string> {
  const views = BUNDLED_VIEWS.flatMap((view) => ['--view', view]);
  return cachedBuild('bundled', SAMPLE_FASTA, ['--taxdump', SAMPLE_TAXDUMP, ...views, '--sequences']);
}

/** Many small shards: the first 3,000 records with 2 KB shards, past 2,048 shards, so a two-level index, with the sample's taxonomy; cached, read-only. */
export const smallShardsDataset = () =>
  cachedBuild('small-shards', sampleSubset(3000), ['--shard-bytes', '2048', '--taxdump', SAMPLE_TAXDUMP]);

/** The first 1,000 records without a taxonomy, in 16 KB shards; cached, read-only. */
export const noTaxonomyDataset = () => cachedBuild('no-taxonomy', sampleSubset(1000), ['--shard-bytes', '16384']);

/** Casanovo's sample proteome (148 mouse proteins, test/fixtures/casanovo), whose spectra the identify tests search. */
export const CASANOVO_FASTA = join(REPO, 'test/fixtures/casanovo/preprocessed_mouse.fasta');

/** CASANOVO_FASTA with the sample's taxonomy, the default digest and shard size; cached, read-only. */
export const casanovoDataset = () => cachedBuild('casanovo-mouse', CASANOVO_FASTA, ['--taxdump', SAMPLE_TAXDUMP]);

/** OpenMS's E. coli K-12 proteome (test/fixtures/ecoli), the default build: no taxonomy (its headers name none). */
export const ECOLI_FASTA = join(REPO, 'test/fixtures/ecoli/Ecoli_K12_TaxID_83333.proteomes.fasta');
export const ecoliDataset = () => cachedBuild('ecoli-k12', ECOLI_FASTA);

/** The datasets several test files share, built once per run (test/globalSetup.ts) before any file asks. */
export const SHARED_DATASETS: readonly (() => Promise<string>)[] = [
  bundledDataset,
  smallShardsDataset,
  noTaxonomyDataset,
  casanovoDataset,
];

// ---------------------------------------------------------------------------------------------------------
// Reading a built dataset back (as docs/format.md describes it)

export function readManifest(dir: string): Manifest {
  return JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;
}

/** The content of a dataset file: its stored bytes decompressed (every file but the manifest is compressed). */
export function readStored(
  dir: string,
  file: string,
  compression: Compression = readManifest(dir).compression,
): Buffer {
  const bytes = readFileSync(join(dir, file));
  return compression === 'gzip' ? gunzipSync(bytes) : brotliDecompressSync(bytes);
}

/** A JSON file of a dataset (index page, protein page, taxonomy), decompressed and parsed. */
export const readJsonFile = <T>(dir: string, file: string, compression?: Compression): T =>
  JSON.parse(readStored(dir, file, compression).toString('utf8')) as T;

/**
 * The accession table of a built dataset (or of the manifest or part head `head` of files in `dir`): its leaf pages
 * in order, decoded by the runtime's decoder and joined.
 */
export function readAccessionTable(
  dir: string,
  head: Pick<Manifest, 'accessions' | 'compression'> = readManifest(dir),
): AccessionTable {
  const { accessions, compression } = head;
  return joinAccessionPages(
    treeLevels(dir, accessions, compression)
      .at(-1)!
      .map((page) => decodeAccessionPage(readStored(dir, page.file, compression))),
  );
}

/** The table of consecutive pages (decoded), in their order: one table of all their ranks. */
export function joinAccessionPages(pages: readonly AccessionTable[]): AccessionTable {
  if (pages.length === 1) return pages[0];
  const count = pages.reduce((n, page) => n + page.taxIds.length, 0);
  const table = {
    accessions: pages.map((page) => page.accessions).join(''),
    accessionEnds: new Uint32Array(count),
    taxIds: new Int32Array(count),
    reviewed: new Uint8Array(count),
  };
  let [first, offset] = [0, 0];
  for (const page of pages) {
    const n = page.taxIds.length;
    for (let a = 0; a < n; a++) table.accessionEnds[first + a] = offset + page.accessionEnds[a];
    table.taxIds.set(page.taxIds, first);
    table.reviewed.set(page.reviewed, first);
    first += n;
    offset += page.accessions.length;
  }
  return table;
}

/**
 * The entries of a tree of pages (shard index, accession table, protein table) level by level from the root's down to the leaf
 * pages', read as docs/format.md says: `levels` (absent: 1) levels of pages below the manifest, each inner page listing
 * the `pages` of the level below.
 */
export function treeLevels<E extends { file: string }>(
  dir: string,
  root: { pages: E[]; levels?: number },
  compression?: Compression,
): E[][] {
  const levels = [root.pages];
  for (let below = (root.levels ?? 1) - 1; below > 0; below--)
    levels.push(
      levels[levels.length - 1].flatMap((page) => readJsonFile<{ pages: E[] }>(dir, page.file, compression).pages),
    );
  return levels;
}

/** Every shard entry of a built dataset (or of its view `view`): the `shards` list, or the leaf index pages of `shardIndex` concatenated. */
export function shardEntries(dir: string, view?: number): ShardEntry[] {
  const manifest = readManifest(dir);
  const root = view === undefined ? manifest : manifest.views![view];
  if (root.shards) return root.shards;
  if (!root.shardIndex) return [];
  return treeLevels(dir, root.shardIndex, manifest.compression)
    .at(-1)!
    .flatMap((page) => readJsonFile<IndexPage>(dir, page.file, manifest.compression).shards);
}

/** A decoded shard with the accession table its ranks point into, as tests read it: each peptide's ranks by accession (as answers list them). */
export type TabledShard = Shard & AccessionTable;

/** Each rank's place among its table's accessions in byte order, by table. */
const places = new WeakMap<AccessionTable, Uint32Array>();

function placesOf(table: AccessionTable): Uint32Array {
  let place = places.get(table);
  if (!place) {
    const names = Array.from(table.taxIds, (_, a) => cut(table.accessions, table.accessionEnds, a));
    const order = Array.from(names.keys()).sort((a, b) => (names[a] < names[b] ? -1 : names[a] > names[b] ? 1 : 0));
    const byRank = new Uint32Array(names.length);
    order.forEach((a, at) => (byRank[a] = at));
    places.set(table, (place = byRank));
  }
  return place;
}

/** decodeShard's shard of `bytes` (decompressed) with `table`, each peptide's ranks sorted by their accessions (byte order). */
export function decodeTabled(bytes: Uint8Array, table: AccessionTable): TabledShard {
  const shard = decodeShard(bytes, table.taxIds.length);
  const place = placesOf(table);
  const refs = shard.accessionRefs;
  const ends = shard.accessionRefEnds;
  // A reference that starts its protein moves with its rank (startRefs index accessionRefs): its flag moves with it.
  const flags = shard.startRefs ? new Int16Array(refs.length).fill(-1) : undefined;
  shard.startRefs?.forEach((ref, i) => (flags![ref] = shard.startRefsInside![i]));
  // Each peptide's ranks by place (an insertion sort: a peptide has few).
  for (let p = 0, from = 0; p < ends.length; from = ends[p++]) {
    for (let i = from + 1; i < ends[p]; i++) {
      const [rank, flag] = [refs[i], flags?.[i] ?? -1];
      let j = i;
      for (; j > from && place[refs[j - 1]] > place[rank]; j--) {
        refs[j] = refs[j - 1];
        if (flags) flags[j] = flags[j - 1];
      }
      refs[j] = rank;
      if (flags) flags[j] = flag;
    }
  }
  if (flags) {
    const starts: number[] = [];
    flags.forEach((flag, ref) => flag >= 0 && starts.push(ref));
    shard.startRefs = Uint32Array.from(starts);
    shard.startRefsInside = Uint8Array.from(starts, (ref) => flags[ref]);
  }
  return { ...shard, ...table };
}

/** `text[ends[i-1] : ends[i]]`, with ends[-1] = 0 (docs/format.md). */
const cut = (text: string, ends: Uint32Array, i: number) => text.slice(i === 0 ? 0 : ends[i - 1], ends[i]);

/** Every peptide of a decoded shard, in stored order, read as docs/format.md describes. */
export function* shardPeptides(
  shard: TabledShard,
): Generator<{ sequence: string; key: number; accessions: string[]; taxIds: number[] }> {
  let p = 0;
  for (let g = 0; g < shard.massKeys.length; g++) {
    for (; p < shard.groupEnds[g]; p++) {
      const refs = shard.accessionRefs.subarray(p === 0 ? 0 : shard.accessionRefEnds[p - 1], shard.accessionRefEnds[p]);
      yield {
        sequence: cutLetters(shard.sequences, shard.sequenceEnds, p),
        key: shard.massKeys[g],
        accessions: Array.from(refs, (a) => cut(shard.accessions, shard.accessionEnds, a)),
        taxIds: Array.from(refs, (a) => shard.taxIds[a]),
      };
    }
  }
}

/** The protein table of a built dataset: its pages' columns concatenated (accessions ascending). */
export function readProteinTable(dir: string): Omit<ProteinPage, 'formatVersion'> {
  const table: Omit<ProteinPage, 'formatVersion'> = {
    accessions: [],
    taxIds: [],
    reviewed: [],
    proteins: [],
    organisms: [],
  };
  const proteins = readManifest(dir).proteins;
  for (const page of proteins ? treeLevels(dir, proteins).at(-1)! : []) {
    const content = readJsonFile<ProteinPage>(dir, page.file);
    for (const column of ['accessions', 'taxIds', 'reviewed', 'proteins', 'organisms'] as const)
      (table[column] as unknown[]).push(...content[column]);
  }
  return table;
}

/** The taxonomy file of a built dataset, or undefined when it has none. */
export function readTaxonomyFile(dir: string): TaxonomyFile | undefined {
  const entry = readManifest(dir).taxonomy;
  return entry && readJsonFile<TaxonomyFile>(dir, entry.file);
}

/**
 * The peptide counts of a dataset by rank, its pages read here with msgpackr and a LEB128 loop of this file's own
 * (undefined when it has none).
 */
export function readPeptideCounts(dir: string): number[] | undefined {
  const { peptideCounts, compression } = readManifest(dir);
  if (!peptideCounts) return undefined;
  const counts: number[] = [];
  for (const page of peptideCounts.pages) {
    const { peptides } = unpack(readStored(dir, page.file, compression)) as { peptides: Uint8Array };
    for (let at = 0, value = 0, shift = 0; at < peptides.length; at++) {
      value += (peptides[at] & 0x7f) * 2 ** shift;
      shift += 7;
      if (peptides[at] < 0x80) [counts[counts.length], value, shift] = [value, 0, 0];
    }
  }
  return counts;
}

export interface StoredPeptide {
  key: number;
  accessions: string[];
  taxIds: number[];
}

export interface ReadBack {
  manifest: Manifest;
  /** Each shard's entry, stored (compressed) bytes and decoded content. */
  shards: { entry: ShardEntry; bytes: Buffer; shard: TabledShard }[];
  /** Every peptide in shard order: sequence → key, accessions (as stored) and their taxIds. */
  peptides: Map<string, StoredPeptide>;
  /** Peptides met more than once across the dataset (must stay empty). */
  repeated: string[];
}

/** Reads manifest.json and every shard it lists from a built dataset folder (`peptides` left empty if not wanted). */
export function readDataset(dir: string, { peptides: wanted = true } = {}): ReadBack {
  const manifest = readManifest(dir);
  const table = readAccessionTable(dir);
  const shards = shardEntries(dir).map((entry) => {
    const bytes = readFileSync(join(dir, entry.file));
    return { entry, bytes, shard: decodeTabled(readStored(dir, entry.file, manifest.compression), table) };
  });
  const peptides = new Map<string, StoredPeptide>();
  const repeated: string[] = [];
  for (const { shard } of wanted ? shards : []) {
    for (const { sequence, key, accessions, taxIds } of shardPeptides(shard)) {
      if (peptides.has(sequence)) repeated.push(sequence);
      peptides.set(sequence, { key, accessions, taxIds });
    }
  }
  return { manifest, shards, peptides, repeated };
}

/** Every file under `dir` (recursively) with its bytes, by relative path; folders end with '/' (no bytes). */
export function snapshot(dir: string): Map<string, Buffer | null> {
  const files = new Map<string, Buffer | null>();
  const walk = (rel: string) => {
    for (const name of readdirSync(join(dir, rel)).sort()) {
      const path = rel ? `${rel}/${name}` : name;
      if (statSync(join(dir, path)).isDirectory()) {
        files.set(`${path}/`, null);
        walk(path);
      } else files.set(path, readFileSync(join(dir, path)));
    }
  };
  walk('');
  return files;
}

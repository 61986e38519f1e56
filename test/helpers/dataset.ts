// Test helpers: temp folders, small FASTA fixtures, small builds, and reading a built dataset back.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildDataset, type BuildOptions } from '../../build/pipeline.js';
import { decodeShard } from '../../runtime/model/shardCodec.js';
import { type IndexPage, type Manifest, type Shard, type ShardEntry } from '../../runtime/model/format.js';

const made: string[] = [];

/** A fresh folder under the OS temp dir (never in the repo); removed by removeTempDirs(). */
export function tempDir(label: string): string {
  const dir = mkdtempSync(join(tmpdir(), `dp-test-${label}-`));
  made.push(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** Writes `text` (or bytes) to dir/name, gzipped when `gzip` is set; returns the path. */
export function writeFixture(dir: string, name: string, content: string | Uint8Array, gzip = false): string {
  const path = join(dir, name);
  const bytes = typeof content === 'string' ? Buffer.from(content, 'latin1') : content;
  writeFileSync(path, gzip ? gzipSync(bytes) : bytes);
  return path;
}

/** buildDataset with the default digest parameters, in process, silent, unless overridden. */
export function build(inputs: string[], out: string, overrides: Partial<BuildOptions> = {}): Promise<Manifest> {
  return buildDataset({
    inputs,
    out,
    enzyme: 'trypsin',
    missedCleavages: 2,
    minLength: 6,
    maxLength: 50,
    shardBytes: 256 * 1024,
    threads: 0,
    ...overrides,
  });
}

export interface StoredPeptide {
  key: number;
  accessions: string[];
  taxIds: number[];
}

export interface ReadBack {
  manifest: Manifest;
  shards: { entry: ShardEntry; bytes: Buffer; shard: Shard }[];
  /** Every peptide in shard order: sequence → key, accessions (as stored) and their taxIds. */
  peptides: Map<string, StoredPeptide>;
  /** Peptides met more than once across the dataset (must stay empty). */
  repeated: string[];
}

/** The flat shard list of a manifest: `shards`, or the concatenated index pages of `shardIndex` (FORMAT.md). */
export function shardEntries(manifest: Manifest, out: string): ShardEntry[] {
  if (manifest.shards) return manifest.shards;
  return (manifest.shardIndex?.pages ?? []).flatMap((page) => (JSON.parse(readFileSync(join(out, page.file), 'utf8')) as IndexPage).shards);
}

/** `text[ends[i-1] : ends[i]]`, with ends[-1] = 0 (FORMAT.md). */
const cut = (text: string, ends: Uint32Array, i: number) => text.slice(i === 0 ? 0 : ends[i - 1], ends[i]);

/** Every peptide of a decoded shard, in stored order, read as FORMAT.md describes. */
export function* shardPeptides(shard: Shard): Generator<{ sequence: string; key: number; accessions: string[]; taxIds: number[] }> {
  let p = 0;
  for (let g = 0; g < shard.massKeys.length; g++) {
    for (; p < shard.groupEnds[g]; p++) {
      const refs = shard.accessionRefs.subarray(p === 0 ? 0 : shard.accessionRefEnds[p - 1], shard.accessionRefEnds[p]);
      yield {
        sequence: cut(shard.sequences, shard.sequenceEnds, p),
        key: shard.massKeys[g],
        accessions: Array.from(refs, (a) => cut(shard.accessions, shard.accessionEnds, a)),
        taxIds: Array.from(refs, (a) => shard.taxIds[a]),
      };
    }
  }
}

/** Reads manifest.json and every shard it lists from a built dataset folder (`peptides` left empty if not wanted). */
export function readDataset(out: string, { peptides: wanted = true } = {}): ReadBack {
  const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as Manifest;
  const shards = shardEntries(manifest, out).map((entry) => {
    const bytes = readFileSync(join(out, entry.file));
    return { entry, bytes, shard: decodeShard(bytes) };
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

/** Every file under `dir` (recursively) with its bytes, by relative path; folders end with '/'. */
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

// Datasets for the runtime tests, built once per test file (vitest isolates each file's modules): the bundled
// sample at a given shard size, the sample's first N records, and small FASTA fixtures. Every build goes to a
// fresh folder under the OS temp dir; each file removes them in afterAll(removeTempDirs).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { buildDataset, DEFAULT_SHARD_BYTES } from '../../build/pipeline.js';
import type { IndexPage, Manifest, ShardEntry } from '../../runtime/model/format.js';

export const SAMPLE_FASTA = fileURLToPath(new URL('../../data/uniprot-sample.fasta.gz', import.meta.url));
export { DEFAULT_SHARD_BYTES };

const made: string[] = [];
const builds = new Map<string, Promise<string>>();
const subsets = new Map<number, string>();

/** A fresh folder under the OS temp dir, removed by removeTempDirs. */
export function tempDir(label: string): string {
  const dir = mkdtempSync(join(tmpdir(), `dp-runtime-${label}-`));
  made.push(dir);
  return dir;
}

/** Removes every folder made here (and forgets the builds in them). */
export function removeTempDirs(): void {
  builds.clear();
  subsets.clear();
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** Builds `inputs` (default digest: trypsin, 2 missed cleavages, 6..50) once per process; resolves to the folder. */
export function buildOnce(label: string, inputs: string[], shardBytes: number): Promise<string> {
  const id = JSON.stringify([inputs, shardBytes]);
  let build = builds.get(id);
  if (!build) {
    const out = join(tempDir(label), 'shards');
    build = buildDataset({ inputs, out, enzyme: 'trypsin', missedCleavages: 2, minLength: 6, maxLength: 50, shardBytes, threads: 0 }).then(() => out);
    builds.set(id, build);
  }
  return build;
}

/** The bundled sample (data/uniprot-sample.fasta.gz) built with `shardBytes`. */
export function bundledDataset(shardBytes = DEFAULT_SHARD_BYTES): Promise<string> {
  return buildOnce('bundled', [SAMPLE_FASTA], shardBytes);
}

/** A plain FASTA file holding the first `records` records of the bundled sample. */
export function sampleSubset(records: number): string {
  let file = subsets.get(records);
  if (!file) {
    const text = gunzipSync(readFileSync(SAMPLE_FASTA)).toString('latin1');
    let at = -1;
    for (let n = 0; n < records; n++) {
      at = text.indexOf('\n>', at + 1);
      if (at < 0) break;
    }
    file = join(tempDir(`subset${records}`), `first-${records}.fasta`);
    writeFileSync(file, Buffer.from(at < 0 ? text : text.slice(0, at + 1), 'latin1'));
    subsets.set(records, file);
  }
  return file;
}

/** The first `records` records of the sample built with `shardBytes`. */
export function subsetDataset(records: number, shardBytes: number): Promise<string> {
  return buildOnce(`subset${records}`, [sampleSubset(records)], shardBytes);
}

/** A FASTA text written to a file and built with `shardBytes`; resolves to the dataset folder and the file. */
export async function fixtureDataset(label: string, fasta: string, shardBytes: number): Promise<{ dir: string; fasta: string }> {
  const file = join(tempDir(label), `${label}.fasta`);
  writeFileSync(file, Buffer.from(fasta, 'latin1'));
  return { dir: await buildOnce(label, [file], shardBytes), fasta: file };
}

export function readManifest(dir: string): Manifest {
  return JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;
}

/** Every shard entry of a built dataset, reading index pages when the manifest has them. */
export function shardEntries(dir: string): ShardEntry[] {
  const manifest = readManifest(dir);
  if (manifest.shards) return manifest.shards;
  return manifest.shardIndex!.pages.flatMap((p) => (JSON.parse(readFileSync(join(dir, p.file), 'utf8')) as IndexPage).shards);
}

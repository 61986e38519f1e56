// The build: FASTA files → digested peptides in mass partitions on disk → sorted, grouped shards → manifest,
// published atomically. Memory is bounded by one partition plus the protein table, not by the database.
import { createHash } from 'node:crypto';
import { createReadStream, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import fg from 'fast-glob';
import { ENZYMES, type DigestOptions } from './digest.js';
import { FORMAT_NAME, FORMAT_VERSION, tilingViolation, type Manifest, type SourceEntry } from '../runtime/model/format.js';
import { BuildError, MAX_TAX_ID, readFasta, type SkipReason } from './fasta.js';
import { partitionFile, type PartitionPeptides } from './partitions.js';
import { createRunners, leastBusy } from './pool.js';
import { writeShardIndex } from './indexPages.js';
import { publish, removeStaleTemps, TEMP_PREFIX } from './publish.js';
import { ShardWriter } from './shardWriter.js';

export interface BuildOptions extends DigestOptions {
  /** fast-glob patterns of FASTA files (plain or gzip). */
  inputs: string[];
  out: string;
  /** TSV `accession<TAB>taxId` for headers without OX=. */
  taxonomy?: string;
  /** Target shard size in bytes; a shard closes at the first mass-group boundary past it. */
  shardBytes: number;
  /** Worker threads; 0 digests in process. */
  threads: number;
  /** Progress and summary lines (stderr in the CLI). */
  log?: (line: string) => void;
  /** The release the inputs come from (e.g. UniProt's name, date and URL), recorded in the manifest. */
  release?: Record<string, string>;
}

export const DEFAULT_SHARD_BYTES = 256 * 1024;
const BATCH_PROTEINS = 1000;

function check(options: BuildOptions): void {
  if (!ENZYMES[options.enzyme]) throw new BuildError(`unknown enzyme "${options.enzyme}" (known: ${Object.keys(ENZYMES).join(', ')})`);
  const whole = (name: string, value: number, min: number, max: number) => {
    if (!Number.isInteger(value) || value < min || value > max) throw new BuildError(`${name} must be an integer from ${min} to ${max}, got ${value}`);
  };
  whole('--missed-cleavages', options.missedCleavages, 0, 100);
  whole('--min-length', options.minLength, 1, 1000);
  whole('--max-length', options.maxLength, options.minLength, 1000);
  whole('--shard-bytes', options.shardBytes, 1, 1 << 30);
  whole('--threads', options.threads, 0, 64);
  if (options.inputs.length === 0) throw new BuildError('no --input given');
}

/** The FASTA files the patterns select, sorted; each pattern must match at least one file. */
export async function resolveInputs(patterns: readonly string[]): Promise<string[]> {
  const files = new Set<string>();
  for (const pattern of patterns) {
    const matches = await fg(pattern, { onlyFiles: true, absolute: true, dot: true });
    if (matches.length === 0) throw new BuildError(`--input ${pattern} matches no file`);
    for (const m of matches) files.add(m);
  }
  return [...files].sort();
}

async function describeSource(file: string): Promise<SourceEntry> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return { file: basename(file), bytes: statSync(file).size, sha256: hash.digest('hex') };
}

async function readTaxonomy(file: string): Promise<Map<string, number>> {
  const text = await readFile(file, 'utf8').catch((e: NodeJS.ErrnoException) => {
    throw new BuildError(`cannot read --taxonomy ${file}: ${e.code ?? e.message}`);
  });
  const map = new Map<string, number>();
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '' || line.startsWith('#')) return;
    const [accession, taxId] = line.split('\t');
    if (!accession || !/^\d+$/.test(taxId ?? '') || Number(taxId) > MAX_TAX_ID) throw new BuildError(`--taxonomy ${basename(file)} line ${i + 1}: expected accession<TAB>taxId`);
    map.set(accession, Number(taxId));
  });
  return map;
}

export async function buildDataset(options: BuildOptions): Promise<Manifest> {
  check(options);
  const log = options.log ?? (() => {});
  const started = Date.now();
  const files = await resolveInputs(options.inputs);
  const taxonomy = options.taxonomy ? await readTaxonomy(options.taxonomy) : new Map<string, number>();
  mkdirSync(options.out, { recursive: true });
  removeStaleTemps(options.out);
  const tmp = mkdtempSync(join(options.out, `${TEMP_PREFIX}${process.pid}-`));
  const partitionDir = join(tmp, 'partitions');
  mkdirSync(partitionDir);
  const digestOptions: DigestOptions = { enzyme: options.enzyme, missedCleavages: options.missedCleavages, minLength: options.minLength, maxLength: options.maxLength };
  const runners = createRunners(options.threads, { dir: partitionDir, options: digestOptions });
  try {
    // 1. Read every protein in file order; digest batches in parallel into partition files.
    const accessions: string[] = [];
    const headerTaxIds: (number | undefined)[] = [];
    const skipped: Record<SkipReason, number> = { noAccession: 0, noSequence: 0, invalidCharacters: 0 };
    const totalBytes = files.reduce((sum, f) => sum + statSync(f).size, 0);
    let doneBytes = 0;
    let lastLog = Date.now();
    const inFlight: Promise<unknown>[] = [];
    let batch: string[] = [];
    const send = async () => {
      if (batch.length === 0) return;
      inFlight.push(settled(leastBusy(runners).run({ type: 'digest', firstOrdinal: accessions.length - batch.length, proteins: batch })));
      batch = [];
      while (inFlight.length > 2 * runners.length) await inFlight.shift();
    };
    const sourcePromises = files.map(describeSource);
    for (const file of files) {
      let fileBytes = 0;
      const onBytes = (n: number) => {
        fileBytes = n;
        if (Date.now() - lastLog < 2000) return;
        lastLog = Date.now();
        const done = doneBytes + fileBytes;
        const rate = done / ((Date.now() - started) / 1000);
        log(`digest: ${accessions.length} proteins, ${(rate / 1e6).toFixed(1)} MB/s, ETA ${Math.round((totalBytes - done) / rate)} s`);
      };
      for await (const record of readFasta(file, (reason) => skipped[reason]++, onBytes)) {
        accessions.push(record.accession);
        headerTaxIds.push(record.taxId);
        batch.push(record.sequence);
        if (batch.length >= BATCH_PROTEINS) await send();
      }
      doneBytes += statSync(file).size;
    }
    // Input whose every record was skipped is a mistake, not an empty dataset to publish over the current one.
    if (accessions.length === 0) {
      const reasons = Object.entries(skipped).filter(([, n]) => n > 0).map(([reason, n]) => `${reason} ${n}`);
      throw new BuildError(`no usable protein record in the input (skipped: ${reasons.join(', ') || 'none'})`);
    }
    await send();
    await Promise.all(inFlight);
    const sources = await Promise.all(sourcePromises);
    const partitionFiles = new Map<number, string[]>();
    for (const [i, runner] of runners.entries()) {
      for (const p of (await runner.run({ type: 'flush' })) as number[]) {
        partitionFiles.set(p, [...(partitionFiles.get(p) ?? []), partitionFile(partitionDir, `w${i}`, p)]);
      }
    }
    const tempBytes = [...partitionFiles.values()].flat().reduce((sum, f) => sum + statSync(f).size, 0);
    log(`digest: ${accessions.length} proteins in ${((Date.now() - started) / 1000).toFixed(1)} s; temporary disk ${(tempBytes / 1e6).toFixed(0)} MB`);

    // 2. Rank accessions (sorted, duplicates share a rank) and give each rank its taxId.
    const { sorted, rankOf, taxIds, duplicates, withoutTaxId } = rankAccessions(accessions, headerTaxIds, taxonomy);
    if (duplicates.length > 0) log(`warning: ${duplicates.length} accessions appear more than once, merged (e.g. ${duplicates.slice(0, 3).join(', ')})`);
    await Promise.all(runners.map((r) => r.run({ type: 'ranks', rankOf })));

    // 3. Merge partitions in mass order (a few ahead, in parallel) into shards.
    const writer = new ShardWriter(tmp, options.shardBytes, sorted, taxIds);
    const partitions = [...partitionFiles.keys()].sort((a, b) => a - b);
    const ahead: Promise<PartitionPeptides>[] = [];
    let next = 0;
    const launch = () => {
      if (next >= partitions.length) return;
      const p = partitions[next++];
      ahead.push(settled(leastBusy(runners).run({ type: 'merge', partition: p, files: partitionFiles.get(p)! }) as Promise<PartitionPeptides>));
    };
    for (let i = 0; i < runners.length + 1; i++) launch();
    let peptides = 0;
    for (let done = 0; ahead.length > 0; done++) {
      const part = await ahead.shift()!;
      launch();
      writer.add(part);
      peptides += part.keys.length;
      if (Date.now() - lastLog >= 2000) {
        lastLog = Date.now();
        log(`shards: partition ${done + 1}/${partitions.length}, ${peptides} peptides, ${writer.shards.length} shards`);
      }
    }
    writer.finish();
    const violation = tilingViolation(writer.shards);
    if (violation) throw new Error(`internal error: shards do not tile the mass line: ${violation}`);

    const parameters = { ...digestOptions, shardBytes: options.shardBytes };
    const taxonomySource = options.taxonomy ? await describeSource(options.taxonomy) : undefined;
    const manifest: Manifest = {
      format: FORMAT_NAME,
      formatVersion: FORMAT_VERSION,
      datasetVersion: createHash('sha256')
        .update(JSON.stringify({ formatVersion: FORMAT_VERSION, parameters, sources, taxonomySource, release: options.release }))
        .digest('hex')
        .slice(0, 16),
      parameters,
      ...(options.release ? { release: options.release } : {}),
      sources: taxonomySource ? [...sources, taxonomySource] : sources,
      totals: {
        proteins: accessions.length,
        peptides,
        massGroups: writer.shards.reduce((sum, s) => sum + s.massGroups, 0),
        shards: writer.shards.length,
        bytes: writer.bytes,
        accessions: sorted.length,
        accessionsWithoutTaxId: withoutTaxId,
        duplicateAccessions: duplicates.length,
        skippedRecords: skipped,
      },
      ...writeShardIndex(tmp, writer.shards),
    };
    publish(tmp, options.out, manifest);
    const t = manifest.totals;
    log(`built ${t.peptides} peptides in ${t.massGroups} mass groups, ${t.shards} shards, ${(t.bytes / 1e6).toFixed(1)} MB ` +
        `from ${t.proteins} proteins in ${((Date.now() - started) / 1000).toFixed(1)} s → ${options.out}`);
    return manifest;
  } finally {
    await Promise.all(runners.map((r) => r.close()));
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** The same promise, marked as handled: a failure surfaces where it is awaited, not as an unhandled rejection. */
function settled<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => {});
  return promise;
}

/** Sorted unique accessions, each protein ordinal's rank among them, and each rank's taxId (-1 unknown). */
export function rankAccessions(accessions: readonly string[], headerTaxIds: readonly (number | undefined)[], taxonomy: ReadonlyMap<string, number>) {
  const order = Array.from(accessions.keys()).sort((a, b) => (accessions[a] < accessions[b] ? -1 : accessions[a] > accessions[b] ? 1 : a - b));
  const rankOf = new Uint32Array(accessions.length);
  const sorted: string[] = [];
  const taxIdList: number[] = [];
  const duplicates: string[] = [];
  for (const ordinal of order) {
    const accession = accessions[ordinal];
    if (sorted[sorted.length - 1] === accession) {
      if (duplicates[duplicates.length - 1] !== accession) duplicates.push(accession);
    } else {
      sorted.push(accession);
      // The first record of an accession gives its taxId.
      taxIdList.push(headerTaxIds[ordinal] ?? taxonomy.get(accession) ?? -1);
    }
    rankOf[ordinal] = sorted.length - 1;
  }
  const taxIds = Int32Array.from(taxIdList);
  return { sorted, rankOf, taxIds, duplicates, withoutTaxId: taxIds.filter((t) => t === -1).length };
}

// build:merge: joins the N part folders of a partitioned build (builder/writers/part.ts) into one dataset, byte for
// byte the dataset a single build of the same inputs writes: the parts' shards in slice order (and each view's), the
// shared files once, the taxonomy's and the accessions' peptide counts summed, the same manifest (builder/writers/manifest.ts), published
// atomically.
import { createHash } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import {
  MANIFEST_FILE,
  taxonomyFileName,
  type FileEntry,
  type Manifest,
  type ShardEntry,
  type TaxonomyFile,
} from '../../runtime/model/format.js';
import { decompress, writeDatasetFile } from '../writers/datasetFile.js';
import { BuildError } from '../errors.js';
import { indexPageWriter, ShardIndexWriter } from '../writers/indexPages.js';
import { assembleManifest, headStorage, type BuiltView, type Tallies } from '../writers/manifest.js';
import { writePeptideCounts } from '../writers/peptideCountsFile.js';
import { decodePeptideCounts } from '../../runtime/model/shardCodec.js';
import { PART_FILE, partFiles, readPart, type PartManifest } from '../writers/part.js';
import { crowdingWarning, openStaging, publish } from '../writers/publish.js';

export interface MergeOptions {
  log?: (line: string) => void;
  /**
   * Write only what the merge computes (index pages, taxonomy file, peptide counts, manifest.json last) into `out`,
   * which must be empty: for deployments where every part uploaded its own shards and the shared files (the CI
   * workflow).
   * The part folders then need only their part.json, taxonomy file and peptide counts.
   */
  indexOnly?: boolean;
}

/**
 * Merges the part folders `dirs` (any order) into a dataset published in `out`; returns its manifest. The parts'
 * shard entries stream through the index writer a part at a time, so the merge holds one part's entries, not the
 * dataset's.
 */
export function mergeParts(
  dirs: readonly string[],
  out: string,
  { log = () => {}, indexOnly = false }: MergeOptions = {},
): Manifest {
  const parts = checkParts(dirs.map((dir) => ({ dir, part: withoutShards(readPart(dir)) })));
  const first = parts[0].part;
  if (indexOnly && existsSync(out) && readdirSync(out).length > 0)
    throw new BuildError(`--out ${out} must be an empty folder with --index-only`);
  const tmp = openStaging(out);
  try {
    // The shared files from the first part (every part lists the same: checkParts compared their heads), then
    // each part's own shards as its entries go into the index; the size and sha256 of every file copied are checked
    // against its entry. With --index-only nothing is copied: the staging folder gets the index pages and the
    // taxonomy file, which move into `out` once the whole index is written.
    if (!indexOnly) {
      const listed = new Map(fileEntries(first).map((entry) => [entry.file, entry]));
      for (const file of partFiles(
        { ...first, shards: [], taxonomy: undefined, peptideCounts: undefined },
        parts[0].dir,
      ))
        copyVerified(parts[0].dir, tmp, file, listed.get(file));
    }
    const storage = headStorage(first.head);
    // The dataset's shards and each view's, each through an index writer of its own, part by part in slice order
    // (each part.json read once more, one at a time).
    const indexWriter = (what: string) =>
      new ShardIndexWriter(
        indexPageWriter(tmp, storage),
        {},
        (violation) => new BuildError(`the parts' shards do not tile ${what}: ${violation}`),
      );
    const index = indexWriter('the mass line');
    const views: BuiltView[] = (first.views ?? []).map(({ fixed }) => ({
      fixed,
      index: indexWriter(`the keys of view ${fixed}`),
    }));
    for (const { dir } of parts) {
      const part = readPart(dir);
      const lines: [ShardIndexWriter, ShardEntry[]][] = [
        [index, part.shards],
        ...views.map((view, v): [ShardIndexWriter, ShardEntry[]] => [view.index, part.views![v].shards]),
      ];
      for (const [writer, shards] of lines) {
        for (const entry of shards) {
          if (!indexOnly) copyVerified(dir, tmp, entry.file, entry);
          writer.add(entry);
        }
      }
    }
    const tallies: Tallies = {
      ...(first.taxonomy ? { taxonomy: sumTaxonomies(parts, tmp) } : {}),
      ...(first.peptideCounts ? { peptideCounts: sumPeptideCounts(parts, tmp) } : {}),
    };
    const manifest = assembleManifest(first.head, index, tallies, views);
    if (indexOnly) {
      moveFiles(tmp, out);
      writeFileSync(join(out, MANIFEST_FILE), JSON.stringify(manifest, null, 1) + '\n');
      log(
        `merged the index of ${parts.length} parts: ${manifest.totals.peptides} peptides, ${manifest.totals.shards} shards → ${out}`,
      );
      return manifest;
    }
    const warning = crowdingWarning(publish(tmp, out, manifest), manifest.parameters.folderDigits ?? 0);
    if (warning) log(warning);
    log(
      `merged ${parts.length} parts: ${manifest.totals.peptides} peptides, ${manifest.totals.shards} shards → ${out}`,
    );
    return manifest;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * A part's part.json without its shard entries, its views' neither (the merge reads them again, one part at a time).
 */
const withoutShards = (part: PartManifest): PartManifest => ({
  ...part,
  shards: [],
  ...(part.views ? { views: part.views.map((view) => ({ ...view, shards: [] })) } : {}),
});

/** Moves every file below `from` to the same path below `to` (the index-only merge's: index pages, taxonomy). */
function moveFiles(from: string, to: string): void {
  for (const entry of readdirSync(from, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const file = relative(from, join(entry.parentPath, entry.name));
    mkdirSync(dirname(join(to, file)), { recursive: true });
    renameSync(join(from, file), join(to, file));
  }
}

/** The parts in slice order, after checking they are the N parts of one build with contiguous slices. */
function checkParts(parts: { dir: string; part: PartManifest }[]): { dir: string; part: PartManifest }[] {
  if (parts.length === 0) throw new BuildError('no part folder given');
  const count = parts[0].part.part.count;
  const byIndex = new Map<number, { dir: string; part: PartManifest }>();
  for (const p of parts) {
    const { index } = p.part.part;
    if (p.part.part.count !== count)
      throw new BuildError(
        `${p.dir} is part ${index}/${p.part.part.count}, but ${parts[0].dir} is part ${parts[0].part.part.index}/${count}`,
      );
    if (byIndex.has(index))
      throw new BuildError(`part ${index}/${count} is given twice (${byIndex.get(index)!.dir}, ${p.dir})`);
    byIndex.set(index, p);
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !byIndex.has(i));
  if (missing.length)
    throw new BuildError(
      `missing part${missing.length > 1 ? 's' : ''} ${missing.map((i) => `${i}/${count}`).join(', ')}`,
    );
  const sorted = Array.from({ length: count }, (_, i) => byIndex.get(i + 1)!);
  const head = JSON.stringify(sorted[0].part.head);
  const views = sorted[0].part.head.parameters.views ?? [];
  sorted.forEach(({ dir, part }, i) => {
    if (JSON.stringify(part.head) !== head) {
      throw new BuildError(
        `${dir} was built from other inputs or options than ${sorted[0].dir} (dataset version ${part.head.datasetVersion} vs ${sorted[0].part.head.datasetVersion}, or other accessions)`,
      );
    }
    if ((part.views ?? []).map((v) => v.fixed).join() !== views.join())
      throw new BuildError(`${dir}: ${PART_FILE} does not list the views ${views.join(', ')} its parameters name`);
    // Each part starts where the one before ends, on the mass line and on each view's.
    const slices = [part.part, ...(part.views ?? [])];
    slices.forEach((slice, line) => {
      const before = i === 0 ? undefined : line === 0 ? sorted[i - 1].part.part : sorted[i - 1].part.views![line - 1];
      if (slice.lowKey !== (before?.highKey ?? 0) || (i === count - 1) !== (slice.highKey === null)) {
        const what = line === 0 ? '' : ` on view ${views[line - 1]}`;
        throw new BuildError(
          `part ${i + 1}/${count} (${dir}) does not start where part ${i}/${count} ends${what}: parts of different slicings`,
        );
      }
    });
  });
  return sorted;
}

/**
 * The entries (name, size, sha256) of the shared files a part's head lists: the roots of the accession, protein and
 * sequence tables.
 */
function fileEntries(part: PartManifest): FileEntry[] {
  return [...part.head.accessions.pages, ...(part.head.proteins?.pages ?? []), ...(part.head.sequences?.pages ?? [])];
}

/**
 * Copies `file` from `from` into `to` (a hard link when the file system allows), after checking its size and sha256
 * against `entry`.
 */
function copyVerified(from: string, to: string, file: string, entry?: FileEntry): void {
  const source = join(from, file);
  const bytes = readFileSync(source);
  if (entry) checkStored(source, bytes, entry);
  const target = join(to, file);
  mkdirSync(dirname(target), { recursive: true });
  try {
    linkSync(source, target);
  } catch {
    writeFileSync(target, bytes);
  }
}

/** Throws when `bytes` (read from `path`) are not the stored file `entry` describes. */
function checkStored(path: string, bytes: Buffer, entry: FileEntry): void {
  if (bytes.length !== entry.bytes || createHash('sha256').update(bytes).digest('hex') !== entry.sha256) {
    throw new BuildError(`${path} does not match its part.json entry (size or sha256): the part folder is damaged`);
  }
}

/** The taxonomy file of the whole dataset: the parts' trees (all equal) with their peptide counts summed. */
function sumTaxonomies(
  parts: readonly { dir: string; part: PartManifest }[],
  tmp: string,
): FileEntry & { nodes: number } {
  const compression = parts[0].part.head.compression;
  let total: TaxonomyFile | undefined;
  for (const { dir, part } of parts) {
    if (!part.taxonomy) throw new BuildError(`${dir} has no taxonomy file, unlike the first part`);
    const file = join(dir, part.taxonomy.file);
    const bytes = readFileSync(file);
    checkStored(file, bytes, part.taxonomy);
    const content = JSON.parse(Buffer.from(decompress(bytes, compression)).toString('utf8')) as TaxonomyFile;
    if (!total) total = content;
    else if (
      content.taxIds.length !== total.taxIds.length ||
      String(content.reviewedAccessions) !== String(total.reviewedAccessions) ||
      String(content.unreviewedAccessions) !== String(total.unreviewedAccessions) ||
      (content.specificPeptides === undefined) !== (total.specificPeptides === undefined)
    ) {
      throw new BuildError(`${dir}: its taxonomy differs from the first part's`);
    } else {
      total.peptides = total.peptides.map((n, i) => n + content.peptides[i]);
      if (total.specificPeptides)
        total.specificPeptides = total.specificPeptides.map((n, i) => n + content.specificPeptides![i]);
    }
  }
  return {
    ...writeDatasetFile(tmp, total!, taxonomyFileName, headStorage(parts[0].part.head)),
    nodes: total!.taxIds.length,
  };
}

/** The peptide counts of the whole dataset: the parts' counts (of the same accessions) summed rank by rank. */
function sumPeptideCounts(
  parts: readonly { dir: string; part: PartManifest }[],
  tmp: string,
): NonNullable<Manifest['peptideCounts']> {
  const compression = parts[0].part.head.compression;
  const total = new Uint32Array(parts[0].part.head.accessions.count);
  for (const { dir, part } of parts) {
    if (!part.peptideCounts) throw new BuildError(`${dir} has no peptide counts, unlike the first part`);
    let rank = 0;
    for (const entry of part.peptideCounts.pages) {
      const file = join(dir, entry.file);
      const bytes = readFileSync(file);
      checkStored(file, bytes, entry);
      const counts = decodePeptideCounts(decompress(bytes, compression));
      if (rank + counts.length > total.length)
        throw new BuildError(`${dir}: its peptide counts differ from the first part's`);
      for (let i = 0; i < counts.length; i++) total[rank++] += counts[i];
    }
    if (rank !== total.length) throw new BuildError(`${dir}: its peptide counts differ from the first part's`);
  }
  return writePeptideCounts(tmp, total, headStorage(parts[0].part.head), parts[0].part.peptideCounts!.ranksPerPage);
}

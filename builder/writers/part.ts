// A part folder of a partitioned build: the shards of one mass slice (and of its slice of each view's keys), the
// dataset-wide files every part writes alike (accession table, protein pages, sequence pages; taxonomy and peptide
// counts with this slice's counts) and `part.json`, which build:merge reads to join the parts into one dataset
// (builder/phases/merge.ts).
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { MANIFEST_FILE, type DatasetView, type Manifest, type ShardEntry } from '../../runtime/model/format.js';
import { BuildError } from '../errors.js';
import type { DatasetHead } from './manifest.js';
import { datasetFiles } from './publish.js';

/** A part folder's root file, written last. */
export const PART_FILE = 'part.json';
export const PART_FORMAT = 'digested-peptides-part';

export interface PartManifest {
  format: typeof PART_FORMAT;
  /** Part `index` (1-based) of `count`, keeping mass keys in [lowKey, highKey) (highKey null: +inf). */
  part: { index: number; count: number; lowKey: number; highKey: number | null };
  /** The manifest's shard-independent fields, the same in every part of one build. */
  head: DatasetHead;
  /** This slice's shards, ascending, as the dataset's manifest will list them. */
  shards: ShardEntry[];
  peptides: number;
  /** Stored bytes of this part's shards. */
  bytes: number;
  /** The taxonomy file with this slice's peptide counts (the merge sums them). */
  taxonomy?: Manifest['taxonomy'];
  /** This slice's peptides per accession (the merge sums them). */
  peptideCounts?: Manifest['peptideCounts'];
  /** Each view's slice (builder/phases/views.ts), in the order of the head's parameters.views. */
  views?: PartView[];
}

/** A part's slice of one view: the view keys it kept, [lowKey, highKey), and their shards, ascending. */
export interface PartView {
  fixed: string;
  lowKey: number;
  highKey: number | null;
  peptides: number;
  bytes: number;
  shards: ShardEntry[];
}

/** The part's files as a dataset lists them (its shards and its views' flat, its tallies), for the file walk. */
function asManifest(part: PartManifest): Manifest {
  const totals = {
    ...part.head.totals,
    peptides: part.peptides,
    massGroups: 0,
    shards: part.shards.length,
    bytes: part.bytes,
  };
  const views = (part.views ?? []).map(
    ({ fixed, peptides, bytes, shards }): DatasetView => ({
      fixed,
      totals: { peptides, massGroups: 0, shards: shards.length, bytes },
      shards,
    }),
  );
  return {
    ...part.head,
    totals,
    shards: part.shards,
    ...(views.length > 0 ? { views } : {}),
    ...(part.taxonomy ? { taxonomy: part.taxonomy } : {}),
    ...(part.peptideCounts ? { peptideCounts: part.peptideCounts } : {}),
  };
}

/** Every file of a part folder but part.json. */
export function partFiles(part: PartManifest, dir: string): string[] {
  return datasetFiles(asManifest(part), dir);
}

/**
 * Moves the part staged in `tmp` into `out` and writes part.json last; removes the files of the part `out`
 * held before that this one does not list. Refuses a folder holding a dataset (manifest.json).
 */
export function publishPart(tmp: string, out: string, part: PartManifest): void {
  if (existsSync(join(out, MANIFEST_FILE)))
    throw new BuildError(`--out ${out} holds a dataset (${MANIFEST_FILE}): a part needs a folder of its own`);
  const previous = existsSync(join(out, PART_FILE)) ? partFiles(readPart(out), out) : [];
  const files = partFiles(part, tmp);
  for (const file of files) {
    mkdirSync(dirname(join(out, file)), { recursive: true });
    renameSync(join(tmp, file), join(out, file));
  }
  writeFileSync(join(tmp, PART_FILE), JSON.stringify(part) + '\n');
  renameSync(join(tmp, PART_FILE), join(out, PART_FILE));
  const kept = new Set(files);
  for (const file of previous) if (!kept.has(file)) rmSync(join(out, file), { force: true });
}

/** The part.json of part folder `dir`; a BuildError naming the folder when it is missing or not a part. */
export function readPart(dir: string): PartManifest {
  let part: PartManifest;
  try {
    part = JSON.parse(readFileSync(join(dir, PART_FILE), 'utf8')) as PartManifest;
  } catch (e) {
    const reason =
      (e as NodeJS.ErrnoException).code === 'ENOENT' ? `no ${PART_FILE}` : `${PART_FILE} is not valid JSON`;
    throw new BuildError(`${dir} is not a part folder of build:shards --part (${reason})`);
  }
  if (
    part?.format !== PART_FORMAT ||
    !part.head ||
    !Array.isArray(part.shards) ||
    !Number.isInteger(part.part?.index)
  ) {
    throw new BuildError(`${dir}: ${PART_FILE} is not a part of build:shards --part`);
  }
  return part;
}

// What a build takes (BuildOptions), its defaults, and the check that rejects bad values before any work.
import { ENZYMES, SPECIFICITIES } from '../../runtime/model/enzymes.js';
import type { DigestOptions } from '../inputs/digest.js';
import { BuildError } from '../errors.js';
import { COMPRESSIONS, MAX_FOLDER_DIGITS, type Compression } from '../../runtime/model/format.js';
import type { Storage } from '../writers/datasetFile.js';
import { parseViews } from './views.js';
import type { ProgressMeter } from './progress.js';

export interface BuildOptions extends DigestOptions {
  /** fast-glob patterns of FASTA files (plain or gzip). */
  inputs: string[];
  out: string;
  /** TSV `accession<TAB>taxId` for headers without OX=. */
  taxonomy?: string;
  /** Folder of NCBI's taxdump (nodes.dmp, names.dmp): the dataset then holds the taxonomy of its organisms. */
  taxdump?: string;
  /** Target shard size in bytes before compression; a shard closes at the first mass-group boundary past it. */
  shardBytes: number;
  /** How the files are stored (default gzip, DEFAULT_COMPRESSION). */
  compression?: Compression;
  /** Worker threads; 0 digests in process. */
  threads: number;
  /** Progress and summary lines (stderr in the CLI). */
  log?: (line: string) => void;
  /** Where progress goes instead of periodic lines when a person watches (a bar on a terminal). */
  meter?: ProgressMeter;
  /** The release the inputs come from (e.g. UniProt's name, date and URL), recorded in the manifest. */
  release?: Record<string, string>;
  /** Place every file but the manifest in a folder named by this many hex digits of its hash (0: one flat folder). */
  folderDigits?: number;
  /**
   * Bytes of records a partition is planned to hold at most (default PARTITION_BYTES; tests set it low to split
   * partitions).
   */
  partitionBytes?: number;
  /** Records between two cut keys (default CUT_RECORDS; tests set it low so small inputs have several). */
  cutRecords?: number;
  /** Accessions per page of the accession table (default: the format's, accessionPageSize; tests set it low). */
  accessionPageAccessions?: number;
  /**
   * Write the sequence table: each accession's residues, from its first record (docs/format.md "Sequence table").
   * Off by default: it adds about the input's residues, compressed, to the dataset.
   */
  sequences?: boolean;
  /** Accessions per page of the sequence table (default SEQUENCE_PAGE_ACCESSIONS; tests set it low). */
  sequencePageAccessions?: number;
  /** Views to make, each a fixed modification on residue letters (`Carbamidomethyl@C`; builder/phases/views.ts). */
  views?: string[];
}

/**
 * 32 KB before compression: a cold query reads and decompresses little, and larger shards compress barely better
 * (docs/decisions.md).
 */
export const DEFAULT_SHARD_BYTES = 32 * 1024;
/**
 * gzip: every standard library (Python's too) and every browser's DecompressionStream reads it; brotli saves
 * a little more (docs/decisions.md) but needs a module in Python and a decoder in browsers.
 */
export const DEFAULT_COMPRESSION: Compression = 'gzip';

/** Throws a BuildError naming the first option out of range. */
export function checkOptions(options: BuildOptions): void {
  if (!ENZYMES[options.enzyme])
    throw new BuildError(`unknown enzyme "${options.enzyme}" (known: ${Object.keys(ENZYMES).join(', ')})`);
  const whole = (name: string, value: number, min: number, max: number) => {
    if (!Number.isInteger(value) || value < min || value > max)
      throw new BuildError(`${name} must be an integer from ${min} to ${max}, got ${value}`);
  };
  if (options.specificity !== undefined && !SPECIFICITIES.includes(options.specificity))
    throw new BuildError(`--specificity must be one of ${SPECIFICITIES.join(', ')}, got "${options.specificity}"`);
  whole('--missed-cleavages', options.missedCleavages, 0, 100);
  whole('--min-length', options.minLength, 1, 1000);
  whole('--max-length', options.maxLength, options.minLength, 1000);
  whole('--shard-bytes', options.shardBytes, 1, 1 << 30);
  whole('--threads', options.threads, 0, 64);
  whole('--folder-digits', options.folderDigits ?? 0, 0, MAX_FOLDER_DIGITS);
  if (options.compression !== undefined && !COMPRESSIONS.includes(options.compression))
    throw new BuildError(`--compression must be one of ${COMPRESSIONS.join(', ')}, got "${options.compression}"`);
  if (options.inputs.length === 0) throw new BuildError('no --input given');
  parseViews(options.views ?? []);
}

/** How the build stores its files: compression and folders (builder/writers/datasetFile.ts). */
export function storageOf(options: Pick<BuildOptions, 'compression' | 'folderDigits'>): Exclude<Storage, Compression> {
  return { compression: options.compression ?? DEFAULT_COMPRESSION, folderDigits: options.folderDigits ?? 0 };
}

/** The digest parameters alone, in the order the manifest's `parameters` lists them. */
export function digestOptionsOf(options: BuildOptions): DigestOptions {
  return {
    enzyme: options.enzyme,
    missedCleavages: options.missedCleavages,
    minLength: options.minLength,
    maxLength: options.maxLength,
    specificity: options.specificity ?? 'full',
    clipMet: options.clipMet ?? false,
  };
}

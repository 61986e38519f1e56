// The shard format, defined once for build and runtime (spec: shards/FORMAT.md): manifest types, shard
// encoding and decoding, and the tiling invariant of the shard index.
import { Packr, Unpackr } from 'msgpackr';

export const FORMAT_NAME = 'digested-peptides';
export const FORMAT_VERSION = 1;

/** One shard as the manifest lists it. Mass keys are integers in units of 0.0001 Da. */
export interface ShardEntry {
  file: string;
  firstKey: number;
  lastKey: number;
  massGroups: number;
  peptides: number;
  bytes: number;
  sha256: string;
}

/** One page of a two-level shard index as the manifest's root lists it. */
export interface IndexPageEntry {
  file: string;
  sha256: string;
  bytes: number;
  /** Global index of the page's first shard; pages list consecutive shards. */
  firstShard: number;
  shards: number;
  firstKey: number;
  lastKey: number;
  massGroups: number;
  peptides: number;
}

/** Content of an index page file (JSON). */
export interface IndexPage {
  formatVersion: number;
  firstShard: number;
  shards: ShardEntry[];
}

/** Up to this many shards the manifest lists them itself; beyond, it lists index pages of this many shards. */
export const FLAT_INDEX_LIMIT = 2048;
export const INDEX_PAGE_SHARDS = 256;

export interface SourceEntry {
  file: string;
  bytes: number;
  sha256: string;
}

export interface BuildParameters {
  enzyme: string;
  missedCleavages: number;
  minLength: number;
  maxLength: number;
  shardBytes: number;
}

export interface Totals {
  proteins: number;
  peptides: number;
  massGroups: number;
  shards: number;
  bytes: number;
  accessions: number;
  accessionsWithoutTaxId: number;
  duplicateAccessions: number;
  skippedRecords: Record<string, number>;
}

export interface Manifest {
  format: string;
  formatVersion: number;
  /** Hash of format version, parameters and sources: changes exactly when the data can change. */
  datasetVersion: string;
  parameters: BuildParameters;
  sources: SourceEntry[];
  release?: Record<string, string>;
  totals: Totals;
  /** The shard index, when it has at most FLAT_INDEX_LIMIT shards... */
  shards?: ShardEntry[];
  /** ...else a root of index pages (see FORMAT.md). Exactly one of the two is present. */
  shardIndex?: { pages: IndexPageEntry[] };
}

/** A decoded shard: columns of mass groups, peptides and a shard-local accession table. */
export interface Shard {
  /** Mass key of each group, ascending. */
  massKeys: Uint32Array;
  /** groupEnds[g] = index one past the last peptide of group g. */
  groupEnds: Uint32Array;
  /** All sequences concatenated; sequence p is sequences.slice(sequenceEnds[p-1] ?? 0, sequenceEnds[p]). */
  sequences: string;
  sequenceEnds: Uint32Array;
  /** Accessions of peptide p are accessionRefs[accessionRefEnds[p-1] ?? 0 .. accessionRefEnds[p]). */
  accessionRefEnds: Uint32Array;
  /** Indexes into the shard's accession table, ascending within a peptide. */
  accessionRefs: Uint32Array;
  /** The shard's accession table, ascending (byte order) and unique, concatenated; see accessionOf. */
  accessions: string;
  accessionEnds: Uint32Array;
  /** NCBI taxId of each accession; -1 when unknown. */
  taxIds: Int32Array;
}

/** Sequence of peptide p. */
export const sequenceOf = (shard: Shard, p: number): string =>
  shard.sequences.slice(p === 0 ? 0 : shard.sequenceEnds[p - 1], shard.sequenceEnds[p]);

/** Accession number a of the shard's table. */
export const accessionOf = (shard: Shard, a: number): string =>
  shard.accessions.slice(a === 0 ? 0 : shard.accessionEnds[a - 1], shard.accessionEnds[a]);

/** Accession-table indexes of peptide p's accessions. */
export const accessionRefsOf = (shard: Shard, p: number): Uint32Array =>
  shard.accessionRefs.subarray(p === 0 ? 0 : shard.accessionRefEnds[p - 1], shard.accessionRefEnds[p]);

const packr = new Packr({ useRecords: false, variableMapSize: true });
const unpackr = new Unpackr({ useRecords: false, mapsAsObjects: true });

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** Little-endian bytes of an integer column, as a plain msgpack `bin`. */
function columnBytes(column: Uint32Array | Int32Array): Uint8Array {
  if (LITTLE_ENDIAN) return new Uint8Array(column.buffer, column.byteOffset, column.byteLength);
  const bytes = new Uint8Array(column.length * 4);
  const view = new DataView(bytes.buffer);
  const signed = column instanceof Int32Array;
  for (let i = 0; i < column.length; i++) {
    if (signed) view.setInt32(i * 4, column[i], true);
    else view.setUint32(i * 4, column[i], true);
  }
  return bytes;
}

function readColumn<T extends Uint32Array | Int32Array>(bytes: unknown, make: (n: number) => T, name: string): T {
  if (!(bytes instanceof Uint8Array) || bytes.length % 4 !== 0) throw new Error(`shard column ${name} is not 4-byte bin`);
  if (LITTLE_ENDIAN) {
    const column = make(0);
    return new (column.constructor as new (b: ArrayBuffer) => T)(new Uint8Array(bytes).buffer); // aligned copy
  }
  const column = make(bytes.length / 4);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const signed = column instanceof Int32Array;
  for (let i = 0; i < column.length; i++) column[i] = signed ? view.getInt32(i * 4, true) : view.getUint32(i * 4, true);
  return column;
}

export function encodeShard(shard: Shard): Uint8Array {
  return packr.pack({
    formatVersion: FORMAT_VERSION,
    massKeys: columnBytes(shard.massKeys),
    groupEnds: columnBytes(shard.groupEnds),
    sequences: shard.sequences,
    sequenceEnds: columnBytes(shard.sequenceEnds),
    accessionRefEnds: columnBytes(shard.accessionRefEnds),
    accessionRefs: columnBytes(shard.accessionRefs),
    accessions: shard.accessions,
    accessionEnds: columnBytes(shard.accessionEnds),
    taxIds: columnBytes(shard.taxIds),
  });
}

/** Decodes and checks the structure of a shard; throws a short message when the bytes are not one. */
export function decodeShard(bytes: Uint8Array): Shard {
  const raw = unpackr.unpack(bytes) as Record<string, unknown>;
  if (!raw || typeof raw !== 'object') throw new Error('shard is not a msgpack map');
  if (raw.formatVersion !== FORMAT_VERSION) throw new Error(`shard format version ${String(raw.formatVersion)} is not ${FORMAT_VERSION}`);
  const u32 = (n: number) => new Uint32Array(n);
  const shard: Shard = {
    massKeys: readColumn(raw.massKeys, u32, 'massKeys'),
    groupEnds: readColumn(raw.groupEnds, u32, 'groupEnds'),
    sequences: raw.sequences as string,
    sequenceEnds: readColumn(raw.sequenceEnds, u32, 'sequenceEnds'),
    accessionRefEnds: readColumn(raw.accessionRefEnds, u32, 'accessionRefEnds'),
    accessionRefs: readColumn(raw.accessionRefs, u32, 'accessionRefs'),
    accessions: raw.accessions as string,
    accessionEnds: readColumn(raw.accessionEnds, u32, 'accessionEnds'),
    taxIds: readColumn(raw.taxIds, (n) => new Int32Array(n), 'taxIds'),
  };
  const peptides = shard.sequenceEnds.length;
  const groups = shard.massKeys.length;
  const accessions = shard.accessionEnds.length;
  if (typeof shard.sequences !== 'string' || typeof shard.accessions !== 'string') throw new Error('shard lacks sequences or accessions');
  if (shard.groupEnds.length !== groups || (groups > 0 && shard.groupEnds[groups - 1] !== peptides)) throw new Error('shard groupEnds do not cover its peptides');
  if (shard.accessionRefEnds.length !== peptides || shard.taxIds.length !== accessions) throw new Error('shard columns differ in length');
  if (accessions > 0 && shard.accessionEnds[accessions - 1] !== shard.accessions.length) throw new Error('shard accessionEnds do not cover its accessions');
  if (peptides > 0 && shard.sequenceEnds[peptides - 1] !== shard.sequences.length) throw new Error('shard sequenceEnds do not cover its sequences');
  if (!/^[A-Z]*$/.test(shard.sequences)) throw new Error('shard sequences hold characters other than A-Z');
  return shard;
}

/**
 * The load-bearing invariant of the shard index: shards are listed by ascending mass, each non-empty with
 * firstKey <= lastKey, and each shard's keys lie strictly above the previous shard's. Shard i therefore owns
 * the key interval [firstKey_i, firstKey_{i+1}), and together the shards tile [firstKey_0, +inf) without
 * overlap, so every mass group lives in exactly one shard. Returns the first violation, or null.
 */
export function tilingViolation(shards: readonly Pick<ShardEntry, 'firstKey' | 'lastKey' | 'massGroups' | 'peptides'>[]): string | null {
  for (let i = 0; i < shards.length; i++) {
    const s = shards[i];
    if (!(s.firstKey <= s.lastKey)) return `shard ${i} has firstKey ${s.firstKey} > lastKey ${s.lastKey}`;
    if (s.massGroups < 1 || s.peptides < s.massGroups) return `shard ${i} has ${s.massGroups} groups and ${s.peptides} peptides`;
    if (i > 0 && !(shards[i - 1].lastKey < s.firstKey)) return `shard ${i} starts at ${s.firstKey}, not above shard ${i - 1}'s last key ${shards[i - 1].lastKey}`;
  }
  return null;
}

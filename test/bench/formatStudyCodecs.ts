// Codecs for the format-v2 study (test/bench/formatStudy.ts): candidate v2 decode units (delta + LEB128 varint
// columns, rank refs into a dataset-wide accession table or a per-unit local table), 5-bit sequence packing,
// front coding, the compressors compared (node:zlib gzip/brotli, the zstd CLI when installed) and a v2 decoder.
import { spawnSync } from 'node:child_process';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync, gzipSync } from 'node:zlib';
import { Packr } from 'msgpackr/pack';
import { Unpackr } from 'msgpackr/unpack';

const packr = new Packr({ useRecords: false, variableMapSize: true });
const unpackr = new Unpackr({ useRecords: false, mapsAsObjects: true });

/** Growable byte buffer with LEB128 varint writes. */
export class Bytes {
  buf = new Uint8Array(1024);
  n = 0;
  private room(k: number) {
    if (this.n + k <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.n + k));
    next.set(this.buf.subarray(0, this.n));
    this.buf = next;
  }
  byte(b: number) {
    this.room(1);
    this.buf[this.n++] = b;
  }
  varint(v: number) {
    this.room(5);
    while (v >= 0x80) {
      this.buf[this.n++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    this.buf[this.n++] = v;
  }
  ascii(s: string) {
    this.room(s.length);
    for (let i = 0; i < s.length; i++) this.buf[this.n++] = s.charCodeAt(i);
  }
  get bytes() {
    return this.buf.subarray(0, this.n);
  }
}

/** Decodes `count` LEB128 varints from `b` into a Uint32Array. */
export function readVarints(b: Uint8Array, count: number): Uint32Array {
  const out = new Uint32Array(count);
  let p = 0;
  for (let i = 0; i < count; i++) {
    let c = b[p++],
      v = c & 0x7f;
    for (let shift = 7; c & 0x80; shift += 7) {
      c = b[p++];
      v |= (c & 0x7f) << shift;
    } // values < 2^28 (keys, ranks)
    out[i] = v;
  }
  return out;
}

/** One mass group of the peptide stream: its key and peptides (sequence, accession ids ascending). */
export interface Group {
  key: number;
  seqs: string[];
  refs: number[][];
}

export type RefCoding = 'delta' | 'plain' | 'local';
export type SeqCoding = 'plain' | 'packed5';

const LETTERS = 'ACDEFGHIKLMNPQRSTVWYUOJ'; // 23 letters in 5 bits; anything else is escaped (not in datasets)
const CODE = new Uint8Array(128).fill(31);
for (let i = 0; i < LETTERS.length; i++) CODE[LETTERS.charCodeAt(i)] = i;

/** Sequences packed 5 bits per residue, MSB first (lengths are in their own column). */
export function pack5(seqs: string[]): Uint8Array {
  let bits = 0;
  for (const s of seqs) bits += s.length * 5;
  const out = new Uint8Array(Math.ceil(bits / 8));
  let pos = 0;
  for (const s of seqs)
    for (let i = 0; i < s.length; i++) {
      const code = CODE[s.charCodeAt(i)];
      for (let k = 4; k >= 0; k--, pos++) if ((code >> k) & 1) out[pos >> 3] |= 0x80 >> (pos & 7);
    }
  return out;
}

/** Front coding of sorted strings: (shared prefix length, suffix length, suffix) each. */
export function frontCode(sorted: string[]): Uint8Array {
  const out = new Bytes();
  let prev = '';
  for (const s of sorted) {
    let k = 0;
    while (k < s.length && k < prev.length && s.charCodeAt(k) === prev.charCodeAt(k)) k++;
    out.varint(k);
    out.varint(s.length - k);
    out.ascii(s.slice(k));
    prev = s;
  }
  return out.bytes.slice();
}

/** Columns of one candidate unit, each as raw bytes (sequences as an ASCII string or 5-bit bin). */
export interface UnitColumns {
  [name: string]: Uint8Array | string | number;
}

/**
 * Encodes groups as one v2 unit. refs are global accession ranks; with `local`, a per-unit accession table
 * (front-coded strings, taxIds, reviewed) is added and refs index it. `names/taxIds/reviewed` by rank.
 */
export function encodeUnit(
  groups: Group[],
  refCoding: RefCoding,
  seqCoding: SeqCoding,
  table: { names: string[]; taxIds: Int32Array; reviewed: Uint8Array },
): UnitColumns {
  const keys = new Bytes(),
    sizes = new Bytes(),
    lens = new Bytes(),
    counts = new Bytes(),
    refs = new Bytes();
  const seqs: string[] = [];
  let prevKey = 0,
    peptides = 0;
  let local: Map<number, number> | undefined;
  if (refCoding === 'local') {
    const ranks = [...new Set(groups.flatMap((g) => g.refs.flat()))].sort((a, b) => a - b);
    local = new Map(ranks.map((r, i) => [r, i]));
  }
  for (const g of groups) {
    keys.varint(g.key - prevKey);
    prevKey = g.key;
    sizes.varint(g.seqs.length);
    for (let i = 0; i < g.seqs.length; i++) {
      seqs.push(g.seqs[i]);
      lens.byte(g.seqs[i].length);
      peptides++;
      const r = g.refs[i];
      counts.varint(r.length);
      let prev = 0;
      for (const rank of r) {
        const id = local ? local.get(rank)! : rank;
        refs.varint(refCoding === 'plain' ? id : id - prev);
        prev = id;
      }
    }
  }
  const columns: UnitColumns = {
    v: 2,
    groups: groups.length,
    peptides,
    keys: keys.bytes,
    groupSizes: sizes.bytes,
    lengths: lens.bytes,
    sequences: seqCoding === 'plain' ? seqs.join('') : pack5(seqs),
    refCounts: counts.bytes,
    refs: refs.bytes,
  };
  if (local) {
    const ranks = [...local.keys()];
    const tax = new Bytes();
    for (const r of ranks) tax.varint(table.taxIds[r] < 0 ? 0 : table.taxIds[r] + 1);
    columns.accessions = frontCode(ranks.map((r) => table.names[r]));
    columns.taxIds = tax.bytes;
    columns.reviewed = Uint8Array.from(ranks, (r) => table.reviewed[r]);
  }
  return columns;
}

export const packUnit = (columns: UnitColumns): Uint8Array => packr.pack(columns);

/** A unit decoded into typed arrays, as a v2 reader would hold it (local tables left as bytes). */
export interface DecodedUnit {
  keys: Uint32Array;
  groupEnds: Uint32Array;
  sequences: string;
  sequenceEnds: Uint32Array;
  refEnds: Uint32Array;
  refs: Uint32Array;
}

/** msgpack bytes of a plain/delta-coded unit → typed arrays (prefix sums undone). */
export function decodeUnit(bytes: Uint8Array): DecodedUnit {
  const raw = unpackr.unpack(bytes) as Record<string, any>;
  const G = raw.groups as number,
    P = raw.peptides as number;
  const keys = readVarints(raw.keys, G);
  for (let i = 1; i < G; i++) keys[i] += keys[i - 1];
  const groupEnds = readVarints(raw.groupSizes, G);
  for (let i = 1; i < G; i++) groupEnds[i] += groupEnds[i - 1];
  const lens: Uint8Array = raw.lengths;
  const sequenceEnds = new Uint32Array(P);
  let end = 0;
  for (let i = 0; i < P; i++) sequenceEnds[i] = end += lens[i];
  const refEnds = readVarints(raw.refCounts, P);
  for (let i = 1; i < P; i++) refEnds[i] += refEnds[i - 1];
  const refs = readVarints(raw.refs, P ? refEnds[P - 1] : 0);
  for (let p = 0, r = 0; p < P; p++)
    for (let e = refEnds[p], first = r; r < e; r++) if (r > first) refs[r] += refs[r - 1];
  return { keys, groupEnds, sequences: raw.sequences, sequenceEnds, refEnds, refs };
}

export interface Codec {
  name: string;
  compress(b: Uint8Array): Uint8Array;
  decompress?(b: Uint8Array): Uint8Array;
}

const brotli = (q: number): Codec => ({
  name: `brotli q${q}`,
  compress: (b) =>
    brotliCompressSync(b, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: q,
        [constants.BROTLI_PARAM_SIZE_HINT]: b.length,
        [constants.BROTLI_PARAM_LGWIN]: 22,
      },
    }),
  decompress: (b) => brotliDecompressSync(b),
});

/** zstd via its CLI (size only: Node 20 has no zstd), when the machine has one. */
function zstdCli(level: number): Codec | undefined {
  if (spawnSync('zstd', ['--version']).status !== 0) return undefined;
  return {
    name: `zstd -${level} (CLI)`,
    compress: (b) =>
      spawnSync('zstd', [`-${level}`, '-c', '-q', '--no-check'], { input: b, maxBuffer: 1 << 28 }).stdout,
  };
}

export const CODECS: Codec[] = [
  { name: 'gzip -9', compress: (b) => gzipSync(b, { level: 9 }), decompress: (b) => gunzipSync(b) },
  brotli(11),
  brotli(9),
  brotli(5),
  ...[zstdCli(19)].filter((c): c is Codec => c !== undefined),
];
export const BROTLI11 = CODECS[1];

/** A format 1 shard (the study's input): msgpack map of little-endian u32/i32 `bin` columns and two strings. */
export interface V1Shard {
  massKeys: Uint32Array;
  groupEnds: Uint32Array;
  sequences: string;
  sequenceEnds: Uint32Array;
  accessionRefEnds: Uint32Array;
  accessionRefs: Uint32Array;
  accessions: string;
  accessionEnds: Uint32Array;
}

const v1Unpackr = new Unpackr({ useRecords: false, mapsAsObjects: true });

/** Decodes a format 1 shard (the runtime reads format 2 only; this study measures format 1 datasets). */
export function decodeV1Shard(bytes: Uint8Array): V1Shard {
  const raw = v1Unpackr.unpack(bytes) as Record<string, Uint8Array | string>;
  const u32 = (name: string) => new Uint32Array(new Uint8Array(raw[name] as Uint8Array).buffer); // aligned copy (little-endian host)
  return {
    massKeys: u32('massKeys'),
    groupEnds: u32('groupEnds'),
    sequences: raw.sequences as string,
    sequenceEnds: u32('sequenceEnds'),
    accessionRefEnds: u32('accessionRefEnds'),
    accessionRefs: u32('accessionRefs'),
    accessions: raw.accessions as string,
    accessionEnds: u32('accessionEnds'),
  };
}

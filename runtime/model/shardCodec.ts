// Shard bytes → decoded shard: standard msgpack (msgpackr's decoder only, plain types) with little-endian
// integer columns as `bin`; the structure is checked so a damaged shard is refused, never misread. Encoding is
// shardEncoder.ts (the build's), so that a browser bundle of the runtime carries no encoder.
import { Unpackr } from 'msgpackr/unpack';
import { FORMAT_VERSION, type Shard } from './format.js';

const unpackr = new Unpackr({ useRecords: false, mapsAsObjects: true });

export const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

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
  if (raw.reviewed !== undefined) {
    // One byte per accession (0 or 1): a column of its own width, read as it is.
    if (!(raw.reviewed instanceof Uint8Array) || raw.reviewed.length !== accessions) throw new Error('shard column reviewed is not one byte per accession');
    shard.reviewed = new Uint8Array(raw.reviewed);
  }
  if (!/^[A-Z]*$/.test(shard.sequences)) throw new Error('shard sequences hold characters other than A-Z');
  return shard;
}


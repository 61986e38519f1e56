// Decoded shard → shard bytes, as FORMAT.md specifies and shardCodec.ts reads back: a msgpack map (msgpackr's
// encoder, plain types only) with little-endian integer columns as `bin`. Used by the build.
import { Packr } from 'msgpackr/pack';
import { FORMAT_VERSION, type Shard } from './format.js';
import { LITTLE_ENDIAN } from './shardCodec.js';

const packr = new Packr({ useRecords: false, variableMapSize: true });

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
    ...(shard.reviewed ? { reviewed: shard.reviewed } : {}),
  });
}

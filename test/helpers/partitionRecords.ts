// The build's partition records read by their documented layout (partitions.ts): u32 LE mass key, u32 LE
// protein ordinal, u16 LE length (its top two bits the peptide's places in the protein), then the sequence's ASCII
// bytes — independently of the build's own reader.
export interface PartitionRecord {
  key: number;
  ordinal: number;
  sequence: string;
  /** 1: it starts the protein, 2: it lies inside it, 3: both. */
  places: number;
}

/** Every record of a partition's bytes, in order. */
export function readPartitionRecords(bytes: Buffer): PartitionRecord[] {
  const records: PartitionRecord[] = [];
  for (let at = 0; at < bytes.length; ) {
    const length = bytes.readUInt16LE(at + 8) & 0x3fff;
    records.push({
      key: bytes.readUInt32LE(at),
      ordinal: bytes.readUInt32LE(at + 4),
      sequence: bytes.toString('latin1', at + 10, at + 10 + length),
      places: bytes.readUInt16LE(at + 8) >> 14,
    });
    at += 10 + length;
  }
  return records;
}

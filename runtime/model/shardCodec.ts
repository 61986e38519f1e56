// Decompressed file bytes → decoded shard and accession table (format 2): standard msgpack (msgpackr's decoder
// only, plain types) whose integer columns are `bin` of LEB128 varints (varint.ts); the structure is checked so a
// damaged file is refused, never misread. Encoding is shardEncoder.ts (the build's), so that a browser bundle of
// the runtime carries no encoder.
import { Unpackr } from 'msgpackr/unpack';
import { FORMAT_VERSION, MAX_TAX_ID, type AccessionTable, type Shard } from './format.js';
import { decodeVarints } from './varint.js';

const unpackr = new Unpackr({ useRecords: false, mapsAsObjects: true });

function unpackMap(bytes: Uint8Array, what: string): Record<string, unknown> {
  const raw = unpackr.unpack(bytes) as Record<string, unknown>;
  if (!raw || typeof raw !== 'object') throw new Error(`${what} is not a msgpack map`);
  if (raw.formatVersion !== FORMAT_VERSION) throw new Error(`${what} format version ${JSON.stringify(raw.formatVersion)} is not ${FORMAT_VERSION}`);
  return raw;
}

function varints(raw: Record<string, unknown>, name: string): Uint32Array {
  const bytes = raw[name];
  if (!(bytes instanceof Uint8Array)) throw new Error(`column ${name} is not bin`);
  return decodeVarints(bytes);
}

/**
 * Running totals of the counts of column `name` in place: counts[i] becomes counts[0] + … + counts[i]. Every count
 * from `from` on must be at least 1 (so totals ascend), and totals stay below 2^32 (no wrapping).
 */
function prefixSums(counts: Uint32Array, name: string, from = 0): Uint32Array {
  let total = 0;
  for (let i = 0; i < counts.length; i++) {
    if (i >= from && counts[i] === 0) throw new Error(`shard ${name} holds a zero`);
    total += counts[i];
    if (total > 0xffffffff) throw new Error(`shard ${name} sum past 2^32`);
    counts[i] = total;
  }
  return counts;
}

/**
 * Decodes and checks the structure of a shard (decompressed) whose accessions are ranks into `table`; throws a
 * short message when the bytes are not one.
 */
export function decodeShard(bytes: Uint8Array, table: AccessionTable): Shard {
  const raw = unpackMap(bytes, 'shard');
  const sequences = raw.sequences;
  if (typeof sequences !== 'string') throw new Error('shard lacks sequences');
  // Keys: the first, then differences (each ≥ 1: keys ascend). Sizes, lengths, counts: each ≥ 1.
  const massKeys = prefixSums(varints(raw, 'massKeys'), 'massKeys', 1);
  const groupEnds = prefixSums(varints(raw, 'groupSizes'), 'groupSizes');
  const sequenceEnds = prefixSums(varints(raw, 'lengths'), 'lengths');
  const accessionRefEnds = prefixSums(varints(raw, 'refCounts'), 'refCounts');
  const accessionRefs = varints(raw, 'refs');
  const groups = massKeys.length;
  const peptides = sequenceEnds.length;
  if (groupEnds.length !== groups || groupEnds[groups - 1] !== peptides) throw new Error('shard groupSizes do not cover its peptides');
  if (accessionRefEnds.length !== peptides || accessionRefEnds[peptides - 1] !== accessionRefs.length) throw new Error('shard refCounts do not cover its refs');
  if (sequenceEnds[peptides - 1] !== sequences.length) throw new Error('shard lengths do not cover its sequences');
  // Refs: the peptide's first rank, then the gaps to the next (each ≥ 1), every rank inside the table.
  const accessions = table.accessionEnds.length;
  for (let p = 0, r = 0; p < peptides; p++) {
    for (const end = accessionRefEnds[p]; r < end; r++) {
      const first = r === (p === 0 ? 0 : accessionRefEnds[p - 1]);
      if (!first && accessionRefs[r] === 0) throw new Error('shard refs repeat an accession');
      const rank = first ? accessionRefs[r] : accessionRefs[r - 1] + accessionRefs[r];
      if (rank >= accessions) throw new Error('shard refs point past the accession table');
      accessionRefs[r] = rank;
    }
  }
  if (!/^[A-Z]*$/.test(sequences)) throw new Error('shard sequences hold characters other than A-Z');
  return { massKeys, groupEnds, sequences, sequenceEnds, accessionRefEnds, accessionRefs, ...table };
}

/** Decodes and checks the accession table (decompressed); throws a short message when the bytes are not one. */
export function decodeAccessionTable(bytes: Uint8Array): AccessionTable {
  const raw = unpackMap(bytes, 'accession table');
  if (typeof raw.accessions !== 'string') throw new Error('accession table lacks accessions');
  const list = raw.accessions === '' ? [] : raw.accessions.split('\n');
  const taxIdsPlusOne = varints(raw, 'taxIds');
  const reviewed = raw.reviewed;
  if (taxIdsPlusOne.length !== list.length || !(reviewed instanceof Uint8Array) || reviewed.length !== list.length) throw new Error('accession table columns differ in length');
  let end = 0;
  const accessionEnds = Uint32Array.from(list, (accession) => (end += accession.length));
  if (list[0] === '') throw new Error('accession table holds an empty accession');
  for (let a = 1; a < list.length; a++) if (!(list[a - 1] < list[a])) throw new Error('accession table is not ascending');
  for (let a = 0; a < list.length; a++) {
    if (taxIdsPlusOne[a] > MAX_TAX_ID + 1) throw new Error('accession table taxId past 2^31 - 1');
    if (reviewed[a] > 1) throw new Error('accession table reviewed flag is not 0 or 1');
  }
  return { accessions: list.join(''), accessionEnds, taxIds: Int32Array.from(taxIdsPlusOne, (t) => t - 1), reviewed: new Uint8Array(reviewed) };
}

// Decompressed file bytes → decoded shard and accession table (format 2): standard msgpack (msgpackr's decoder
// only, plain types) whose integer columns are `bin` of LEB128 varints (varint.ts); the structure is checked so a
// damaged file is refused, never misread. Encoding is shardEncoder.ts (the build's), so that a browser bundle of
// the runtime carries no encoder.
import { Unpackr } from 'msgpackr/unpack';
import { FORMAT_VERSION, type AccessionTable, type Shard } from './format.js';
import { decodeVarints } from './varint.js';

const unpackr = new Unpackr({ useRecords: false, mapsAsObjects: true });

function unpackMap(bytes: Uint8Array, what: string): Record<string, unknown> {
  const raw = unpackr.unpack(bytes) as Record<string, unknown>;
  if (!raw || typeof raw !== 'object') throw new Error(`${what} is not a msgpack map`);
  if (raw.formatVersion !== FORMAT_VERSION) throw new Error(`${what} format version ${String(raw.formatVersion)} is not ${FORMAT_VERSION}`);
  return raw;
}

function varints(raw: Record<string, unknown>, name: string): Uint32Array {
  const bytes = raw[name];
  if (!(bytes instanceof Uint8Array)) throw new Error(`column ${name} is not bin`);
  return decodeVarints(bytes);
}

/** Running totals of `counts` in place: counts[i] becomes counts[0] + … + counts[i]. */
function prefixSums(counts: Uint32Array): Uint32Array {
  for (let i = 1; i < counts.length; i++) counts[i] += counts[i - 1];
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
  const massKeys = prefixSums(varints(raw, 'massKeys'));
  const groupEnds = prefixSums(varints(raw, 'groupSizes'));
  const sequenceEnds = prefixSums(varints(raw, 'lengths'));
  const accessionRefEnds = prefixSums(varints(raw, 'refCounts'));
  const accessionRefs = varints(raw, 'refs');
  const groups = massKeys.length;
  const peptides = sequenceEnds.length;
  if (groupEnds.length !== groups || groupEnds[groups - 1] !== peptides) throw new Error('shard groupSizes do not cover its peptides');
  if (accessionRefEnds.length !== peptides || accessionRefEnds[peptides - 1] !== accessionRefs.length) throw new Error('shard refCounts do not cover its refs');
  if (sequenceEnds[peptides - 1] !== sequences.length) throw new Error('shard lengths do not cover its sequences');
  for (let g = 1; g < groups; g++) if (massKeys[g] <= massKeys[g - 1]) throw new Error('shard massKeys are not ascending');
  // Refs: the peptide's first rank, then the gaps to the next (each ≥ 1).
  const accessions = table.accessionEnds.length;
  for (let p = 0, r = 0; p < peptides; p++) {
    const end = accessionRefEnds[p];
    if (end === r) throw new Error('shard has a peptide without accessions');
    for (r++; r < end; r++) {
      if (accessionRefs[r] === 0) throw new Error('shard refs repeat an accession');
      accessionRefs[r] += accessionRefs[r - 1];
    }
    if (accessionRefs[end - 1] >= accessions) throw new Error('shard refs point past the accession table');
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
  for (let a = 1; a < list.length; a++) if (!(list[a - 1] < list[a])) throw new Error('accession table is not ascending');
  return { accessions: list.join(''), accessionEnds, taxIds: Int32Array.from(taxIdsPlusOne, (t) => t - 1), reviewed: new Uint8Array(reviewed) };
}

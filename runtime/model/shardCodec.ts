// Decompressed file bytes → decoded shard and accession table pages (format 3): standard msgpack (msgpackr's decoder
// only, plain types) whose integer columns are `bin` of LEB128 varints (varint.ts); the structure is checked so a
// damaged file is refused, never misread. Encoding is shardEncoder.ts (the build's), so that a browser bundle of
// the runtime carries no encoder.
import { Unpackr } from 'msgpackr/unpack';
import { FORMAT_VERSION, MAX_TAX_ID, type AccessionTable, type Ends, type Shard } from './format.js';
import { decodeVarints } from './varint.js';

const unpackr = new Unpackr({ useRecords: false, mapsAsObjects: true });
const UTF8 = new TextEncoder();

function unpackMap(bytes: Uint8Array, what: string): Record<string, unknown> {
  const raw = unpackr.unpack(bytes) as Record<string, unknown>;
  if (!raw || typeof raw !== 'object') throw new Error(`${what} is not a msgpack map`);
  if (raw.formatVersion !== FORMAT_VERSION)
    throw new Error(`${what} format version ${JSON.stringify(raw.formatVersion)} is not ${FORMAT_VERSION}`);
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
 * Decodes and checks the structure of a shard (decompressed) whose accessions are ranks into a table of
 * `accessions` accessions; throws a short message when the bytes are not one. A peptide's ranks stay ascending.
 */
export function decodeShard(bytes: Uint8Array, accessions: number): Shard {
  const raw = unpackMap(bytes, 'shard');
  const text = raw.sequences;
  if (typeof text !== 'string') throw new Error('shard lacks sequences');
  if (!/^[A-Z]*$/.test(text)) throw new Error('shard sequences hold characters other than A-Z');
  const sequences = UTF8.encode(text); // capitals: one byte each, their character codes
  // Keys: the first, then differences (each ≥ 1: keys ascend). Sizes, lengths, counts: each ≥ 1.
  const massKeys = prefixSums(varints(raw, 'massKeys'), 'massKeys', 1);
  const groupEnds = prefixSums(varints(raw, 'groupSizes'), 'groupSizes');
  const sequenceEnds = prefixSums(varints(raw, 'lengths'), 'lengths');
  const accessionRefEnds = prefixSums(varints(raw, 'refCounts'), 'refCounts');
  const accessionRefs = varints(raw, 'refs');
  const groups = massKeys.length;
  const peptides = sequenceEnds.length;
  if (groupEnds.length !== groups || groupEnds[groups - 1] !== peptides)
    throw new Error('shard groupSizes do not cover its peptides');
  if (accessionRefEnds.length !== peptides || accessionRefEnds[peptides - 1] !== accessionRefs.length)
    throw new Error('shard refCounts do not cover its refs');
  if (sequenceEnds[peptides - 1] !== sequences.length) throw new Error('shard lengths do not cover its sequences');
  // Refs: the peptide's first rank, then the gaps to the next (each ≥ 1), every rank inside the table.
  for (let p = 0, r = 0; p < peptides; p++) {
    for (const end = accessionRefEnds[p]; r < end; r++) {
      const first = r === (p === 0 ? 0 : accessionRefEnds[p - 1]);
      if (!first && accessionRefs[r] === 0) throw new Error('shard refs repeat an accession');
      const rank = first ? accessionRefs[r] : accessionRefs[r - 1] + accessionRefs[r];
      if (rank >= accessions) throw new Error('shard refs point past the accession table');
      accessionRefs[r] = rank;
    }
  }
  return {
    massKeys,
    groupEnds: narrowed(groupEnds),
    sequences,
    sequenceEnds: narrowed(sequenceEnds),
    accessionRefEnds: narrowed(accessionRefEnds),
    accessionRefs,
    ...(raw.proteinStarts !== undefined && decodeProteinStarts(varints(raw, 'proteinStarts'), accessionRefs.length)),
  };
}

/** The protein starts column: each reference's gap from the previous one (from −1), doubled, plus its inside flag. */
function decodeProteinStarts(values: Uint32Array, refs: number): Pick<Shard, 'startRefs' | 'startRefsInside'> {
  const startRefsInside = new Uint8Array(values.length);
  let ref = -1;
  for (let i = 0; i < values.length; i++) {
    const gap = Math.floor(values[i] / 2);
    if (gap === 0) throw new Error('shard proteinStarts repeat a reference');
    ref += gap;
    if (ref >= refs) throw new Error('shard proteinStarts point past its refs');
    startRefsInside[i] = values[i] & 1;
    values[i] = ref;
  }
  return { startRefs: values, startRefsInside };
}

/** Ascending `ends` in 16 bits when the last one fits. */
const narrowed = (ends: Uint32Array): Ends =>
  ends.length > 0 && ends[ends.length - 1] > 0xffff ? ends : Uint16Array.from(ends);

/**
 * `text` without its newlines, as one flat string: through its UTF-8 bytes (a newline byte is never part of another
 * character's), where joining or replacing would leave a tree of hundreds of thousands of pieces, many times larger.
 */
function withoutNewlines(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let kept = 0;
  for (let i = 0; i < bytes.length; i++) if (bytes[i] !== 10) bytes[kept++] = bytes[i];
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes.subarray(0, kept)); // a leading U+FEFF is an accession's
}

/**
 * Decodes and checks a page of the accession table (decompressed); throws a short message when the bytes are not
 * one. The accessions are read in place, one string and no string each: a page may hold a million.
 */
export function decodeAccessionPage(bytes: Uint8Array): AccessionTable {
  const raw = unpackMap(bytes, 'accession table');
  const text = raw.accessions;
  if (typeof text !== 'string') throw new Error('accession table lacks accessions');
  const taxIdsPlusOne = varints(raw, 'taxIds');
  const reviewed = raw.reviewed;
  const count = taxIdsPlusOne.length;
  if (!(reviewed instanceof Uint8Array) || reviewed.length !== count)
    throw new Error('accession table columns differ in length');
  const accessionEnds = new Uint32Array(count);
  // Accession a is text[start..i) up to its '\n' (the last, to the end); its end leaves out the newlines before it.
  let a = 0;
  for (let start = 0, i = 0; text !== '' && i <= text.length; i++) {
    if (i < text.length && text.charCodeAt(i) !== 10) continue;
    if (a === count) throw new Error('accession table columns differ in length');
    if (i === start) throw new Error('accession table holds an empty accession');
    accessionEnds[a] = (a === 0 ? 0 : accessionEnds[a - 1]) + i - start;
    start = i + 1;
    a++;
  }
  if (a !== count) throw new Error('accession table columns differ in length');
  const taxIds = new Int32Array(count);
  for (let a = 0; a < count; a++) {
    if (taxIdsPlusOne[a] > MAX_TAX_ID + 1) throw new Error('accession table taxId past 2^31 - 1');
    if (reviewed[a] > 1) throw new Error('accession table reviewed flag is not 0 or 1');
    taxIds[a] = taxIdsPlusOne[a] - 1;
  }
  return { accessions: withoutNewlines(text), accessionEnds, taxIds, reviewed: new Uint8Array(reviewed) };
}

/** Decodes a page of the peptide counts (decompressed); throws a short message when the bytes are not one. */
export function decodePeptideCounts(bytes: Uint8Array): Uint32Array {
  return varints(unpackMap(bytes, 'peptide counts'), 'peptides');
}

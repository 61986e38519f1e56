// Shard columns and accession table pages → file bytes before compression, as docs/format.md specifies and
// shardCodec.ts reads back: msgpack maps (msgpackr's encoder, plain types only) of varint `bin` columns. Used by
// the build.
import { Packr } from 'msgpackr/pack';
import { FORMAT_VERSION, type AccessionTable, type Ends, type Shard } from './format.js';
import { encodeVarints } from './varint.js';

const packr = new Packr({ useRecords: false, variableMapSize: true });
/** Sequences' letters (character codes of capitals) as the text a shard file stores. */
const LETTERS = new TextDecoder('latin1');

/** Differences of consecutive ends (or values): the counts that prefix sums give back. */
const differences = (ends: Ends) => Uint32Array.from(ends, (end, i) => end - (i === 0 ? 0 : ends[i - 1]));

/** A shard's columns as its file's msgpack map holds them, in the file's key order (encodeShard packs them). */
export function shardColumns(shard: Shard) {
  const { accessionRefs: refs, accessionRefEnds: refEnds } = shard;
  // Within a peptide: its first rank, then the gap to each next one.
  const refGaps = new Uint32Array(refs.length);
  for (let p = 0, r = 0; p < refEnds.length; p++)
    for (let first = r; r < refEnds[p]; r++) refGaps[r] = r === first ? refs[r] : refs[r] - refs[r - 1];
  return {
    formatVersion: FORMAT_VERSION,
    massKeys: encodeVarints(differences(shard.massKeys)),
    groupSizes: encodeVarints(differences(shard.groupEnds)),
    lengths: encodeVarints(differences(shard.sequenceEnds)),
    sequences: LETTERS.decode(shard.sequences),
    refCounts: encodeVarints(differences(refEnds)),
    refs: encodeVarints(refGaps),
    ...(shard.startRefs && { proteinStarts: encodeVarints(proteinStartsOf(shard.startRefs, shard.startRefsInside!)) }),
  };
}

/** Each start reference as its gap from the previous one (from −1: gaps ≥ 1), doubled, plus its inside flag. */
function proteinStartsOf(refs: Uint32Array, inside: Uint8Array): Uint32Array {
  return Uint32Array.from(refs, (ref, i) => (ref - (i === 0 ? -1 : refs[i - 1])) * 2 + inside[i]);
}

/** A map of columns as a shard file's bytes before compression (msgpack, plain types only). */
export const packColumns = (columns: Record<string, unknown>): Uint8Array => packr.pack(columns);

export function encodeShard(shard: Shard): Uint8Array {
  return packColumns(shardColumns(shard));
}

/**
 * A page of the accession table: `accessions` (consecutive ranks) with their taxIds (-1 unknown) and reviewed flags.
 * The page's text is `accessions` joined by newlines, so a large list may come as runs already joined the same way.
 */
export function encodeAccessionPage({
  accessions,
  taxIds,
  reviewed,
}: { accessions: readonly string[] } & Omit<AccessionTable, 'accessions' | 'accessionEnds'>): Uint8Array {
  return packr.pack({
    formatVersion: FORMAT_VERSION,
    accessions: accessions.join('\n'),
    taxIds: encodeVarints(Array.from(taxIds, (taxId) => taxId + 1)),
    reviewed,
  });
}

/** A page of the peptide counts: how many of the dataset's peptides each of its consecutive ranks has. */
export function encodePeptideCounts(counts: ArrayLike<number>): Uint8Array {
  return packr.pack({ formatVersion: FORMAT_VERSION, peptides: encodeVarints(counts) });
}

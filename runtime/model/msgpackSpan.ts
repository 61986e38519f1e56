// Where a str value lies in the bytes of a msgpack map — so a shard's sequences can stay in the file's own bytes
// (a view, no copy) once msgpackr has checked and decoded the map. Reads only the types a shard holds (ints, strs,
// bins); for anything else it answers undefined, and the caller copies instead.

/** Payload bytes of the int types, by type byte (uint8/int8 … uint64/int64). */
const INT_BYTES: Record<number, number> = { 0xcc: 1, 0xd0: 1, 0xcd: 2, 0xd1: 2, 0xce: 4, 0xd2: 4, 0xcf: 8, 0xd3: 8 };
/** Bytes of the length that follows the type byte of strs and bins (str8/bin8, str16/bin16, str32/bin32). */
const LENGTH_BYTES: Record<number, number> = { 0xd9: 1, 0xc4: 1, 0xda: 2, 0xc5: 2, 0xdb: 4, 0xc6: 4 };
const STR_TYPES = new Set([0xd9, 0xda, 0xdb]);

/**
 * Bytes start..end of the str value of `key` in `bytes`, one msgpack map (its last, as a decoder keeps the last of a
 * key given twice); undefined when it is not there, is not a str, or the map holds a type not read here.
 */
export function strSpan(bytes: Uint8Array, key: string): { start: number; end: number } | undefined {
  let at = 0;
  const uint = (size: number): number => {
    let n = 0;
    for (let i = 0; i < size; i++) n = n * 256 + bytes[at++];
    return n;
  };
  /** The next item: whether it is a str, and its payload's length (`at` left on the payload); undefined for other types. */
  const item = (): { str: boolean; length: number } | undefined => {
    const type = bytes[at++];
    if (type <= 0x7f || type >= 0xe0) return { str: false, length: 0 }; // fixint
    if ((type & 0xe0) === 0xa0) return { str: true, length: type & 0x1f }; // fixstr
    if (type in INT_BYTES) return { str: false, length: INT_BYTES[type] };
    if (type in LENGTH_BYTES) return { str: STR_TYPES.has(type), length: uint(LENGTH_BYTES[type]) };
    return undefined;
  };
  const head = bytes[at++];
  const entries = (head & 0xf0) === 0x80 ? head & 0x0f : head === 0xde ? uint(2) : head === 0xdf ? uint(4) : -1;
  let span: { start: number; end: number } | undefined;
  for (let e = 0; e < entries; e++) {
    const name = item();
    if (!name?.str || !(at + name.length <= bytes.length)) return undefined;
    let named = name.length === key.length;
    for (let i = 0; named && i < key.length; i++) named = bytes[at + i] === key.charCodeAt(i);
    at += name.length;
    const value = item();
    if (!value || !(at + value.length <= bytes.length)) return undefined;
    if (named) span = value.str ? { start: at, end: at + value.length } : undefined;
    at += value.length;
  }
  return span;
}

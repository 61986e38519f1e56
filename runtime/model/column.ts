// A growable typed array of numbers: the compact columns the build keeps per protein and a match batch per
// candidate, without a JavaScript array's 8 bytes (and more) a value.

export class Column<T extends Uint8Array | Int32Array | Uint32Array | Float64Array> {
  length = 0;
  constructor(public data: T) {}

  push(value: number): void {
    if (this.length === this.data.length) this.reserve(1);
    this.data[this.length++] = value;
  }

  /** The data, with room for `n` more values. */
  reserve(n: number): T {
    if (this.length + n > this.data.length) {
      const grown = new (this.data.constructor as new (n: number) => T)(
        Math.max(this.data.length * 2, this.length + n),
      );
      grown.set(this.data);
      this.data = grown;
    }
    return this.data;
  }
}

/** Values a block of a BlockColumn holds (a power of two). */
const BLOCK_BITS = 16;
const BLOCK = 1 << BLOCK_BITS;

/**
 * A growable column of numbers in blocks of BLOCK values: it grows without copying what it holds and never holds
 * more than one block unused — for columns of millions of values (a match batch's candidates), where a Column's
 * doubling would hold twice its values while it copies them and up to half of them as slack after.
 */
export class BlockColumn<T extends Uint8Array | Uint16Array | Uint32Array | Float64Array> {
  length = 0;
  private readonly blocks: T[] = [];

  constructor(private readonly make: (length: number) => T) {}

  push(value: number): void {
    const block = this.length >>> BLOCK_BITS;
    if (block === this.blocks.length) this.blocks.push(this.make(BLOCK));
    this.blocks[block][this.length++ & (BLOCK - 1)] = value;
  }

  at(i: number): number {
    return this.blocks[i >>> BLOCK_BITS][i & (BLOCK - 1)];
  }

  /** Sets value i (below length). */
  set(i: number, value: number): void {
    this.blocks[i >>> BLOCK_BITS][i & (BLOCK - 1)] = value;
  }

  /** Empties the column, keeping its blocks for the values pushed next. */
  clear(): void {
    this.length = 0;
  }
}

/** An Ends keeps the first of every 2^ENDS_GROUP_BITS values in full and the others as 16-bit offsets from it. */
const ENDS_GROUP_BITS = 8;
/** The offset that says "too far from the group's first: the value is in the overflow map". */
const FAR = 0xffff;

/**
 * A growable column of non-decreasing non-negative integers below 2^32 (where each of a run of strings or lists
 * ends), in about 2 bytes a value: the first value of each group of 2^ENDS_GROUP_BITS in full, and each value as
 * its offset from that. A value too far from its group's first (a group whose lists hold more than 65,534 items in
 * all) is kept in a map: at most a group's worth of entries for every 65,535 items the lists hold, a few percent
 * of what those items take themselves.
 */
export class Ends {
  private readonly firsts = new Column(new Uint32Array(1024));
  private readonly offsets = new BlockColumn((n) => new Uint16Array(n));
  private readonly far = new Map<number, number>();

  get length(): number {
    return this.offsets.length;
  }

  push(value: number): void {
    const i = this.offsets.length;
    if ((i & ((1 << ENDS_GROUP_BITS) - 1)) === 0) this.firsts.push(value);
    const offset = value - this.firsts.data[i >>> ENDS_GROUP_BITS];
    if (offset >= FAR) this.far.set(i, value);
    this.offsets.push(Math.min(offset, FAR));
  }

  at(i: number): number {
    const offset = this.offsets.at(i);
    return offset === FAR ? this.far.get(i)! : this.firsts.data[i >>> ENDS_GROUP_BITS] + offset;
  }

  /** Empties the column, keeping its memory for the values pushed next. */
  clear(): void {
    this.firsts.length = 0;
    this.offsets.clear();
    this.far.clear();
  }
}

const EMPTY = new Uint8Array(0);

/** Bytes a block of a TextBlocks holds; no text may be longer. */
const TEXT_BLOCK_BITS = 20;
const TEXT_BLOCK = 1 << TEXT_BLOCK_BITS;

/**
 * Short byte strings (packed peptide sequences) one after another in blocks of TEXT_BLOCK bytes, none split across two
 * blocks — so each is one subarray of one block — and each known by its end alone: a string starts where the one
 * before it ends, or at the start of its block when it would not have fit in the rest of the one before.
 */
export class TextBlocks {
  private readonly ends = new Ends();
  private readonly blocks: Uint8Array[] = [];
  /** Offset where the next string goes. */
  private end = 0;

  get length(): number {
    return this.ends.length;
  }

  /** Adds bytes from..to of `source`. */
  add(source: Uint8Array, from: number, to: number): void {
    const n = to - from;
    if (n > TEXT_BLOCK) throw new RangeError(`a text of ${n} bytes is longer than a block (${TEXT_BLOCK})`);
    let at = this.end;
    if ((at & (TEXT_BLOCK - 1)) + n > TEXT_BLOCK) at = ((at >>> TEXT_BLOCK_BITS) + 1) * TEXT_BLOCK; // the next block
    if (at + n > 0xffffffff) throw new RangeError('more text than 4 GB');
    const block = at >>> TEXT_BLOCK_BITS;
    if (block === this.blocks.length) this.blocks.push(new Uint8Array(TEXT_BLOCK));
    const bytes = this.blocks[block];
    for (let i = from, j = at & (TEXT_BLOCK - 1); i < to; i++) bytes[j++] = source[i];
    this.ends.push((this.end = at + n));
  }

  /** Empties it, keeping its blocks for the strings added next. */
  clear(): void {
    this.ends.clear();
    this.end = 0;
  }

  /** String i as its block and its first and past-last offsets there: one object, reused — read it before the next call. */
  where(i: number): { bytes: Uint8Array; from: number; to: number } {
    const end = this.ends.at(i);
    // Where the string before ends, unless this one moved on to a block of its own (its last byte's block).
    const start = Math.max(i === 0 ? 0 : this.ends.at(i - 1), end - 1 - ((end - 1) & (TEXT_BLOCK - 1)));
    const place = this.place;
    place.bytes = this.blocks[start >>> TEXT_BLOCK_BITS] ?? EMPTY; // no block yet: an empty string at a block's start
    place.from = start & (TEXT_BLOCK - 1);
    place.to = place.from + end - start;
    return place;
  }

  private readonly place: { bytes: Uint8Array; from: number; to: number } = { bytes: EMPTY, from: 0, to: 0 };
}

// A compact growable column of strings for what the build keeps per protein until its end (accessions, protein
// names): UTF-8 bytes in blocks (numbers go in runtime/model/column.ts). A JavaScript string costs ~20 bytes of
// header and an 8-byte slot besides its characters; at 200 M proteins (TrEMBL) that difference is the build's memory.

const BLOCK_STRINGS = 4096;

/** Strings appended in blocks of BLOCK_STRINGS: each block's UTF-8 bytes and where each string ends in them. */
interface Block {
  bytes: Buffer;
  ends: Uint32Array;
  used: number;
}

/**
 * Strings as UTF-8 bytes: about a byte a character. Blocks of 4,096 strings, so the column never copies itself as it
 * grows and no single buffer approaches Node's 4 GB limit.
 */
export class TextColumn {
  length = 0;
  /** Whether a string holds a surrogate pair, where UTF-8 byte order and JavaScript's `<` disagree. */
  surrogates = false;
  private blocks: Block[] = [];

  push(text: string): void {
    if (this.length % BLOCK_STRINGS === 0) {
      const last = this.blocks[this.blocks.length - 1];
      if (last) last.bytes = Buffer.from(last.bytes.subarray(0, last.used)); // a full block keeps only what it uses
      this.blocks.push({ bytes: Buffer.alloc(BLOCK_STRINGS * 16), ends: new Uint32Array(BLOCK_STRINGS), used: 0 });
    }
    const block = this.blocks[this.blocks.length - 1];
    const size = Buffer.byteLength(text);
    if (block.used + size > block.bytes.length) {
      const grown = Buffer.alloc(Math.max(block.bytes.length * 2, block.used + size));
      block.bytes.copy(grown, 0, 0, block.used);
      block.bytes = grown;
    }
    block.used += block.bytes.write(text, block.used);
    block.ends[this.length % BLOCK_STRINGS] = block.used;
    // An ASCII string (as many bytes as code units) holds no surrogate: the test runs only on the others.
    if (!this.surrogates && size !== text.length && /[\uD800-\uDFFF]/.test(text)) this.surrogates = true;
    this.length++;
  }

  get(i: number): string {
    const block = this.blocks[Math.floor(i / BLOCK_STRINGS)];
    const k = i % BLOCK_STRINGS;
    return block.bytes.toString('utf8', k === 0 ? 0 : block.ends[k - 1], block.ends[k]);
  }

  /** UTF-8 bytes of string `i` (its length, for ASCII). */
  byteLength(i: number): number {
    const block = this.blocks[Math.floor(i / BLOCK_STRINGS)];
    const k = i % BLOCK_STRINGS;
    return block.ends[k] - (k === 0 ? 0 : block.ends[k - 1]);
  }

  /** Orders strings `i` and `j` as JavaScript's `<` does (by UTF-16 code units), from their bytes when that agrees. */
  compare(i: number, j: number): number {
    if (this.surrogates) {
      const [a, b] = [this.get(i), this.get(j)];
      return a < b ? -1 : a > b ? 1 : 0;
    }
    // Without surrogate pairs UTF-8 byte order is code unit order.
    const [x, y] = [this.blocks[Math.floor(i / BLOCK_STRINGS)], this.blocks[Math.floor(j / BLOCK_STRINGS)]];
    const [ki, kj] = [i % BLOCK_STRINGS, j % BLOCK_STRINGS];
    return x.bytes.compare(y.bytes, kj === 0 ? 0 : y.ends[kj - 1], y.ends[kj], ki === 0 ? 0 : x.ends[ki - 1], x.ends[ki]);
  }
}

// Short runs of bytes copied between DataViews by 32-bit words, and fixed pieces of text written as whole words: how
// answers copy sequences, accessions and the JSON around them by the hundred per answer, faster than loops of single
// bytes.

/** Copies bytes start..end of `from` to `to` from `at` on, by words while four remain, then bytes; returns where they end in `to`. */
export function copyRun(to: DataView, at: number, from: DataView, start: number, end: number): number {
  let i = start;
  for (; i + 8 <= end; i += 8, at += 8) {
    to.setUint32(at, from.getUint32(i, true), true);
    to.setUint32(at + 4, from.getUint32(i + 4, true), true);
  }
  for (; i + 4 <= end; i += 4, at += 4) to.setUint32(at, from.getUint32(i, true), true);
  for (; i < end; i++) to.setUint8(at++, from.getUint8(i));
  return at;
}

/** A DataView of exactly the bytes `bytes` views. */
export const viewOf = (bytes: Uint8Array): DataView => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** Fixed text of at most 16 ASCII characters as four 32-bit words (little-endian, as copyRun moves them), for putPiece. */
export interface Piece {
  readonly w0: number;
  readonly w1: number;
  readonly w2: number;
  readonly w3: number;
  readonly length: number;
}

/** The Piece of `text` (ASCII, at most 16 characters). */
export function pieceOf(text: string): Piece {
  if (text.length > 16) throw new Error(`a piece holds at most 16 characters: ${text}`);
  const view = new DataView(new ArrayBuffer(16));
  for (let i = 0; i < text.length; i++) view.setUint8(i, text.charCodeAt(i));
  return {
    w0: view.getUint32(0, true),
    w1: view.getUint32(4, true),
    w2: view.getUint32(8, true),
    w3: view.getUint32(12, true),
    length: text.length,
  };
}

/**
 * Writes `piece` into `to` from `at` on, returning where its text ends: as four whole words, so 16 bytes must be free
 * there — those past its text are left for what is written next.
 */
export function putPiece(to: DataView, at: number, piece: Piece): number {
  to.setUint32(at, piece.w0, true);
  to.setUint32(at + 4, piece.w1, true);
  to.setUint32(at + 8, piece.w2, true);
  to.setUint32(at + 12, piece.w3, true);
  return at + piece.length;
}

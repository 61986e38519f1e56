// Sequences' letters in tests: text ↔ the character codes a decoded Shard holds (docs/format.md: capitals A–Z), by
// Node's latin1 codec rather than the runtime's own conversion.

/** The character codes of `text` (ASCII). */
export const letterBytes = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'latin1'));

/** Item i of letters cut at `ends` (ends[-1] = 0), as text. */
export const cutLetters = (letters: Uint8Array, ends: ArrayLike<number>, i: number): string =>
  Buffer.from(letters.buffer, letters.byteOffset, letters.byteLength).toString(
    'latin1',
    i === 0 ? 0 : ends[i - 1],
    ends[i],
  );

/** All of `letters` as text. */
export const lettersText = (letters: Uint8Array): string =>
  Buffer.from(letters.buffer, letters.byteOffset, letters.byteLength).toString('latin1');

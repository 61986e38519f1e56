// A request body's bytes: joined from the chunks it streams in, and how large one may grow once decompressed.

/** Decompressed bytes one body may grow to (413 beyond): a gzipped peak list is read whole, so it is bounded too. */
export const MAX_DECOMPRESSED_BYTES = 40 * 2 ** 20;

/** Chunks of `length` bytes in all, as one array. */
export function joinBytes(chunks: readonly Uint8Array[], length: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

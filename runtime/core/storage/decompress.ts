// The one place a dataset file's stored bytes become its content: the platform's decompression, pluggable.
// The default uses the web platform's DecompressionStream (Node, browsers and edge runtimes); Node entries pass
// zlib's synchronous codecs, which are faster for small files and read brotli everywhere.
import type { Compression } from '../../model/format.js';

/** Decompresses one file's stored bytes; throws when they are not a complete stream of that compression. */
export type Decompress = (bytes: Uint8Array, compression: Compression) => Uint8Array | Promise<Uint8Array>;

/** DecompressionStream's name for each compression. */
const STREAM_FORMAT: Record<Compression, string> = { br: 'brotli', gzip: 'gzip' };

export const streamDecompress: Decompress = async (bytes, compression) => {
  let stream: DecompressionStream;
  try {
    stream = new DecompressionStream(STREAM_FORMAT[compression] as CompressionFormat);
  } catch {
    throw new Error(
      `this platform cannot decompress ${compression} (DecompressionStream lacks "${STREAM_FORMAT[compression]}"; a gzip dataset reads everywhere)`,
    );
  }
  const body = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(body).arrayBuffer());
};

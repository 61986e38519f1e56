// Writing to a Node stream with backpressure: the CLI's output waits for a slow reader instead of buffering.
import type { Writable } from 'node:stream';

/** Writes a chunk, waiting for 'drain' when the stream's buffer is full; rejects when the stream fails or closes. */
export async function write(out: Writable, chunk: string | Uint8Array): Promise<void> {
  if (out.destroyed) throw out.errored ?? new Error('output closed');
  if (out.write(chunk)) return;
  await new Promise<void>((resolve, reject) => {
    const settle = (error?: Error | null) => {
      out.off('drain', onDrain).off('error', onError).off('close', onClose);
      if (error) reject(error);
      else resolve();
    };
    const onDrain = () => settle();
    const onError = (e: Error) => settle(e);
    const onClose = () => settle(out.errored ?? new Error('output closed'));
    out.on('drain', onDrain).on('error', onError).on('close', onClose);
  });
}

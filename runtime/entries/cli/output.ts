// The CLI's streams, and writing to one with backpressure: the output waits for a slow reader instead of buffering.
import type { Readable, Writable } from 'node:stream';

/** The streams a command reads and writes. */
export interface QueryIo {
  stdout: Writable;
  stderr: Writable;
  /** What `match -` reads (default: this process's standard input). */
  stdin?: Readable;
}

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

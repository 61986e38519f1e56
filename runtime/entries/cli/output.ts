// The CLI's streams, writing to one with backpressure (the output waits for a slow reader instead of buffering),
// and `--out FILE`: written beside its name and renamed when complete, so a failed run leaves no half-written file.
import { createWriteStream, renameSync, rmSync } from 'node:fs';
import { finished } from 'node:stream/promises';
import type { Readable, Writable } from 'node:stream';

/** The streams a command reads and writes. */
export interface QueryIo {
  stdout: Writable;
  stderr: Writable;
  /** What `match -` reads (default: this process's standard input). */
  stdin?: Readable;
  /** stdout is `--out`'s file, which a failed run removes. */
  toFile?: boolean;
}

/**
 * Where an API error's JSON body goes: stdout when the output is JSON (its reader parses it there), else stderr — and
 * stderr too when stdout is `--out`'s file, which the failure removes.
 */
export const errorOut = (io: QueryIo, format: unknown): Writable =>
  format === 'json' && !io.toFile ? io.stdout : io.stderr;

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

/** A file written through a temporary name: `commit` closes and renames it, `abort` removes it. */
export interface OutputFile {
  stream: Writable;
  commit(): Promise<void>;
  abort(): Promise<void>;
}

/** `--out FILE`: the output stream of a run that must not leave half a file behind. */
export function outputFile(path: string): OutputFile {
  const partial = `${path}.partial-${process.pid}`;
  const stream = createWriteStream(partial, { flags: 'wx' });
  const close = async () => {
    if (!stream.writableFinished) stream.end();
    await finished(stream);
  };
  return {
    stream,
    commit: async () => {
      await close();
      renameSync(partial, path);
    },
    abort: async () => {
      await close().catch(() => {});
      rmSync(partial, { force: true });
    },
  };
}

// Progress of a bulk copy (mirror) on a terminal: a cli-progress bar over files with the bytes fetched, their
// rate and an ETA, on stderr when it is a TTY (nothing otherwise); and the one-line summary at the end.
import { SingleBar } from 'cli-progress';
import type { QueryIo } from './output.js';

/** What a copy reports as it goes. */
export interface CopyProgress {
  /** The files the copy expects in all (an estimate first, exact once every file is known). */
  expected(files: number): void;
  /** One file done: `bytes` of it, `fetched` (else it was present and verified). */
  file(bytes: number, fetched: boolean): void;
}

export interface TransferBar extends CopyProgress {
  stop(): void;
}

/** Megabytes with one decimal (two below 10 MB). */
export const megabytes = (bytes: number): string => (bytes / 1e6).toFixed(bytes < 1e7 ? 2 : 1);

/** A bar on `io.stderr` when it is a terminal; does nothing otherwise. */
export function transferBar(io: QueryIo, label: string): TransferBar {
  if (!(io.stderr as { isTTY?: boolean }).isTTY) return { expected: () => {}, file: () => {}, stop: () => {} };
  const bar = new SingleBar({
    stream: io.stderr,
    format: `${label} |{bar}| {value}/{total} files | {fetched} MB fetched | {rate} MB/s | ETA {eta_formatted}`,
    hideCursor: true,
    etaBuffer: 100,
  });
  let started: number | undefined;
  let done = 0;
  let total = 0;
  let fetched = 0;
  const payload = () => ({
    fetched: megabytes(fetched),
    rate: started === undefined ? '0' : megabytes(fetched / Math.max(0.001, (performance.now() - started) / 1000)),
  });
  return {
    expected(files) {
      total = Math.max(files, done);
      if (started === undefined) {
        started = performance.now();
        bar.start(total, done, payload());
      } else bar.setTotal(total);
    },
    file(bytes, wasFetched) {
      done++;
      if (wasFetched) fetched += bytes;
      if (done > total) this.expected(done);
      bar.update(done, payload());
    },
    stop: () => {
      if (started !== undefined) bar.stop();
    },
  };
}

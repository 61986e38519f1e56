// Fingerprinting on every core: worker threads (fingerprintWorker.ts, on threadPool.ts) that each open the dataset
// and fingerprint a share of each batch of peak lists; the answers come back in the lists' order.
import type { Fingerprint, FingerprintQuery, NamedPeakList } from '../../core/fingerprint/fingerprint.js';
import { siblingModule, ThreadPool, type DatasetSetup } from './threadPool.js';

export class FingerprintWorkers {
  private readonly pool: ThreadPool<NamedPeakList[], Fingerprint[]>;

  /** `threads` workers over the dataset `setup` says, started with the first batch. */
  constructor(setup: DatasetSetup<FingerprintQuery>, threads: number) {
    this.pool = new ThreadPool(siblingModule('fingerprintWorker'), setup, threads, 'a fingerprinting thread');
  }

  /** The fingerprints of `lists`, in their order: a share of them (consecutive lists) to each thread. */
  async fingerprint(lists: readonly NamedPeakList[]): Promise<Fingerprint[]> {
    const share = Math.ceil(lists.length / this.pool.threads);
    const shares: NamedPeakList[][] = [];
    for (let at = 0; at < lists.length; at += share) shares.push(lists.slice(at, at + share));
    return (await Promise.all(shares.map((s) => this.pool.run(s)))).flat();
  }

  /** Stops the workers. */
  close(): Promise<void> {
    return this.pool.close();
  }
}

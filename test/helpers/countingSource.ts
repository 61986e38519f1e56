// A ShardSource that records every file read through it and the bytes it handed out (the API tests count the
// shards and index pages a query reads; the benchmark, the bytes).
import type { ShardSource } from '../../runtime/core/storage/source.js';

/** Whether a dataset file name is a shard's (`<20 hex>.msgpack.gz` or `.br`), not a page's, the taxonomy or the manifest. */
export const isShardFile = (file: string) => /^[0-9a-f]{20}\.msgpack\.(gz|br)$/.test(file);

export class CountingSource implements ShardSource {
  /** File names asked for, in order. */
  readonly reads: string[] = [];
  /** Bytes handed out. */
  bytes = 0;
  readonly description: string;

  constructor(private inner: ShardSource) {
    this.description = `counting ${inner.description}`;
  }

  async get(file: string): Promise<Uint8Array> {
    this.reads.push(file);
    const bytes = await this.inner.get(file);
    this.bytes += bytes.length;
    return bytes;
  }

  get shardReads(): string[] {
    return this.reads.filter(isShardFile);
  }

  get indexReads(): string[] {
    return this.reads.filter((f) => f.startsWith('index-'));
  }

  /** Forgets what was read so far. */
  reset(): void {
    this.reads.length = 0;
    this.bytes = 0;
  }
}

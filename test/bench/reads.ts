// What a query reads from a dataset: a ShardSource wrapper logging each file read with its kind, its stored
// (compressed) bytes and when it started and ended, and the depth of sequential round trips those reads form.
import type { ShardSource } from '../../runtime/core/storage/source.js';
import { MANIFEST_FILE } from '../../runtime/model/format.js';

export type FileKind = 'manifest' | 'index' | 'shard' | 'accessions' | 'proteins' | 'taxonomy' | 'other';

export interface Read {
  file: string;
  kind: FileKind;
  bytes: number;
  /** performance.now() when get() was called and when it resolved. */
  start: number;
  end: number;
}

/** The kind of a dataset file, by its name (runtime/model/format.ts names every kind apart). */
export function kindOf(file: string): FileKind {
  if (file === MANIFEST_FILE) return 'manifest';
  if (file.startsWith('index-')) return 'index';
  if (file.startsWith('accessions-')) return 'accessions';
  if (file.startsWith('proteins-')) return 'proteins';
  if (file.startsWith('taxonomy-')) return 'taxonomy';
  if (/^[0-9a-f]+\.msgpack(\.gz|\.br)?$/.test(file)) return 'shard';
  return 'other';
}

export class ReadLog implements ShardSource {
  readonly reads: Read[] = [];
  readonly description: string;

  constructor(private inner: ShardSource) {
    this.description = `logging ${inner.description}`;
  }

  async get(file: string): Promise<Uint8Array> {
    const start = performance.now();
    const bytes = await this.inner.get(file);
    this.reads.push({ file, kind: kindOf(file), bytes: bytes.length, start, end: performance.now() });
    return bytes;
  }

  /** Forgets what was read so far. */
  reset(): void {
    this.reads.length = 0;
  }

  of(kind: FileKind): Read[] {
    return this.reads.filter((r) => r.kind === kind);
  }

  get bytes(): number {
    return this.reads.reduce((sum, r) => sum + r.bytes, 0);
  }

  /** Sequential round trips of the reads so far (see roundTrips). */
  get roundTrips(): number {
    return roundTrips(this.reads);
  }
}

/**
 * The critical-path depth of `reads`: a read is one round trip after the deepest read that had ended before it
 * started; reads that overlap in time share a round trip. 0 when there are none.
 */
export function roundTrips(reads: readonly Pick<Read, 'start' | 'end'>[]): number {
  const sorted = [...reads].sort((a, b) => a.start - b.start);
  const depth: number[] = [];
  let deepest = 0;
  sorted.forEach((r, i) => {
    let before = 0;
    for (let j = 0; j < i; j++) if (sorted[j].end <= r.start) before = Math.max(before, depth[j]);
    depth.push(before + 1);
    deepest = Math.max(deepest, before + 1);
  });
  return deepest;
}

// Fault injection for the dataset's storage: a ShardSource wrapping another (a FileSource) that fails chosen
// files in chosen ways, for a chosen number of calls or until cleared; and the SourceError a get rejects with.
import { SourceError, type ShardSource } from '../../runtime/core/storage/source.js';
import { expect } from 'vitest';

export type FaultKind =
  /** A 404-like, non-transient failure. */
  | 'missing'
  /** The right length, one byte flipped (fails the sha256 check). */
  | 'corrupt'
  /** The first half of the bytes only. */
  | 'truncated'
  /** A transient storage error (503-like). */
  | 'transient'
  /** An error that is not a SourceError at all (a buggy source). */
  | 'throws'
  /** Never answers. */
  | 'hang'
  /** Answers correctly after `delayMs`. */
  | 'slow'
  /** Answers with other bytes than asked for (valid JSON garbage for manifest.json). */
  | 'garbage';

export interface Fault {
  kind: FaultKind;
  /** Calls it affects before the file is served normally again; unlimited when absent. */
  times?: number;
  delayMs?: number;
}

export class FaultySource implements ShardSource {
  readonly description = 'faulty test source';
  /** Faults by file name; '*' applies to every file without one of its own. */
  readonly faults = new Map<string, Fault>();
  readonly calls = new Map<string, number>();
  /** Calls currently waiting on a hang or a delay. */
  pending = 0;

  constructor(private inner: ShardSource) {}

  inject(file: string, fault: Fault): this {
    this.faults.set(file, { ...fault });
    return this;
  }

  clear(): this {
    this.faults.clear();
    return this;
  }

  callsTo(file: string): number {
    return this.calls.get(file) ?? 0;
  }

  get totalCalls(): number {
    return [...this.calls.values()].reduce((a, b) => a + b, 0);
  }

  async get(file: string): Promise<Uint8Array> {
    this.calls.set(file, this.callsTo(file) + 1);
    const fault = this.faults.get(file) ?? this.faults.get('*');
    if (!fault || fault.times === 0) return this.inner.get(file);
    if (fault.times !== undefined) fault.times--;
    switch (fault.kind) {
      case 'missing':
        throw new SourceError(`${file}: not found`, false);
      case 'transient':
        throw new SourceError(`${file}: HTTP 503`, true);
      case 'throws':
        throw new TypeError('Cannot read properties of undefined (reading "x")');
      case 'hang':
        this.pending++;
        return new Promise<Uint8Array>(() => {});
      case 'slow': {
        this.pending++;
        await new Promise((resolve) => setTimeout(resolve, fault.delayMs ?? 100));
        this.pending--;
        return this.inner.get(file);
      }
      case 'corrupt': {
        const bytes = new Uint8Array(await this.inner.get(file));
        bytes[bytes.length >> 1] ^= 0x20;
        return bytes;
      }
      case 'truncated': {
        const bytes = await this.inner.get(file);
        return bytes.subarray(0, bytes.length >> 1);
      }
      case 'garbage':
        return new TextEncoder().encode(
          file === 'manifest.json' ? '{"format":"something else","formatVersion":1,"shards":[]}' : 'garbage',
        );
    }
  }
}

/** The SourceError a source's get rejects with (fails the test when it resolves or rejects otherwise). */
export async function sourceFailure(promise: Promise<unknown>): Promise<SourceError> {
  const error = await promise.then(
    () => {
      throw new Error('resolved');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SourceError);
  return error as SourceError;
}

// Tests runtime/core/fetchFile.ts: sha256Hex against node:crypto on random inputs; fetchChecked with fake sources —
// good bytes, a bad body then a good one (one retry), bad twice (corrupt), a transient SourceError (unavailable), a
// non-transient one (corrupt), a hanging source (unavailable within its short timeout) — and that `schedule` runs every
// fetch; getWithin's timeout.
import { createHash, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DatasetError } from '../../../../runtime/core/errors.js';
import { fetchChecked, getWithin, sha256Hex } from '../../../../runtime/core/storage/fetchFile.js';
import { SourceError, type ShardSource } from '../../../../runtime/core/storage/source.js';

const hex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** A source answering each get with the next of `answers` (bytes, or an error to throw), recording the calls. */
function scripted(answers: (Uint8Array | Error | 'hang')[]) {
  const calls: string[] = [];
  const source: ShardSource = {
    description: 'scripted',
    get(file) {
      calls.push(file);
      const answer = answers[Math.min(calls.length - 1, answers.length - 1)];
      if (answer === 'hang') return new Promise<Uint8Array>(() => {});
      return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
    },
  };
  return { source, calls };
}

/** The DatasetError a promise rejects with, as plain data. */
async function failure(promise: Promise<unknown>) {
  const error = await promise.then(
    () => {
      throw new Error('resolved');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DatasetError);
  return { kind: (error as DatasetError).kind, message: (error as DatasetError).message };
}

const GOOD = new TextEncoder().encode('the right bytes');
const BAD = new TextEncoder().encode('the wrong bytes');

describe('sha256Hex', () => {
  it('is node:crypto sha256 as lower-case hex, for random inputs and edge sizes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 3000 }), async (bytes) => {
        expect(await sha256Hex(bytes)).toBe(hex(bytes));
      }),
      { numRuns: 200 },
    );
    for (const size of [0, 1, 55, 56, 63, 64, 65, 1 << 20]) {
      const bytes = randomBytes(size);
      expect(await sha256Hex(new Uint8Array(bytes))).toBe(hex(bytes));
    }
    expect(await sha256Hex(new Uint8Array(0))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('hashes only the view it is given, not its whole buffer', async () => {
    const whole = new Uint8Array(randomBytes(100));
    const view = whole.subarray(10, 60);
    expect(await sha256Hex(view)).toBe(hex(Buffer.from(whole.slice(10, 60))));
  });
});

describe('fetchChecked', () => {
  it('returns bytes whose sha256 matches, after one get', async () => {
    const { source, calls } = scripted([GOOD]);
    expect(await fetchChecked(source, 'a.msgpack', hex(GOOD), 1000)).toEqual(GOOD);
    expect(calls).toEqual(['a.msgpack']);
  });

  it('tries once more after a body that fails its check, and returns the good one', async () => {
    const { source, calls } = scripted([BAD, GOOD]);
    expect(await fetchChecked(source, 'a.msgpack', hex(GOOD), 1000)).toEqual(GOOD);
    expect(calls).toEqual(['a.msgpack', 'a.msgpack']);
  });

  it('fails as corrupt when the body fails its check twice, after exactly two gets', async () => {
    const { source, calls } = scripted([BAD, BAD, GOOD]);
    expect(await failure(fetchChecked(source, 'a.msgpack', hex(GOOD), 1000))).toEqual({
      kind: 'corrupt',
      message: 'a.msgpack failed its sha256 check',
    });
    expect(calls).toHaveLength(2);
  });

  it('fails as unavailable for a transient source failure and as corrupt for a permanent one, without retrying', async () => {
    const transient = scripted([new SourceError('a.msgpack: HTTP 500', true), GOOD]);
    expect(await failure(fetchChecked(transient.source, 'a.msgpack', hex(GOOD), 1000))).toEqual({
      kind: 'unavailable',
      message: 'dataset file unavailable: a.msgpack: HTTP 500',
    });
    expect(transient.calls).toHaveLength(1);
    const permanent = scripted([new SourceError('a.msgpack: not found', false), GOOD]);
    expect(await failure(fetchChecked(permanent.source, 'a.msgpack', hex(GOOD), 1000))).toEqual({
      kind: 'corrupt',
      message: 'dataset file unavailable: a.msgpack: not found',
    });
    expect(permanent.calls).toHaveLength(1);
  });

  it('fails as unavailable for a failure that is no SourceError', async () => {
    const { source } = scripted([new TypeError('socket hang up')]);
    expect(await failure(fetchChecked(source, 'a.msgpack', hex(GOOD), 1000))).toEqual({
      kind: 'unavailable',
      message: 'dataset file unavailable: socket hang up',
    });
  });

  it('fails as unavailable for a source that never answers, within the timeout', async () => {
    const { source } = scripted(['hang']);
    const started = performance.now();
    expect(await failure(fetchChecked(source, 'slow.msgpack', hex(GOOD), 50))).toEqual({
      kind: 'unavailable',
      message: 'dataset file unavailable: slow.msgpack: no answer within 50 ms',
    });
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('a retry after a bad body may still fail as the source fails', async () => {
    const { source } = scripted([BAD, new SourceError('a.msgpack: HTTP 429', true)]);
    expect(await failure(fetchChecked(source, 'a.msgpack', hex(GOOD), 1000))).toEqual({
      kind: 'unavailable',
      message: 'dataset file unavailable: a.msgpack: HTTP 429',
    });
  });

  it('runs every get through `schedule`', async () => {
    const { source, calls } = scripted([BAD, GOOD]);
    const scheduled: number[] = [];
    const schedule = <T>(task: () => Promise<T>): Promise<T> => {
      scheduled.push(calls.length);
      return task();
    };
    await fetchChecked(source, 'a.msgpack', hex(GOOD), 1000, schedule);
    expect(scheduled).toEqual([0, 1]); // each scheduled task made the next get
    const refused = scripted([GOOD]);
    const never = () => Promise.reject(new SourceError('queue full', true));
    expect(await failure(fetchChecked(refused.source, 'a.msgpack', hex(GOOD), 1000, never))).toMatchObject({
      kind: 'unavailable',
    });
    expect(refused.calls).toEqual([]);
  });
});

describe('getWithin', () => {
  it('passes an answer through and rejects a hanging get with a transient SourceError', async () => {
    expect(await getWithin(scripted([GOOD]).source, 'f', 1000)).toEqual(GOOD);
    const error = await getWithin(scripted(['hang']).source, 'f.bin', 20).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourceError);
    expect(error).toMatchObject({ transient: true, message: 'f.bin: no answer within 20 ms' });
  });
});

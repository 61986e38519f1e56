// interleave (test/bench/interleaved.ts): both sides asked every URL in every pass, in alternating order; the last
// pass timed; the first pass's answers compared but for their "duration" field; an answer but 200 refused.
import { describe, expect, it } from 'vitest';
import { interleave, type Answerer } from './interleaved.js';

const URLS = ['http://bench/a', 'http://bench/b', 'http://bench/c', 'http://bench/d'];

/** An answerer that logs each URL it is asked under `name`, answering `body(url)` with a clock-dependent duration. */
function fake(name: string, log: string[], body: (path: string) => string, status = 200): Answerer {
  return async ({ url }) => {
    log.push(`${name}${url.pathname}`);
    return { status, body: Buffer.from(`{"duration":"00:00:00.00${log.length % 10}",${body(url.pathname)}}`) };
  };
}

describe('interleave', () => {
  it('asks both sides every URL each pass, alternating which goes first, and times the last pass', async () => {
    const log: string[] = [];
    const run = await interleave([fake('A', log, () => '"x":1'), fake('B', log, () => '"x":1')], URLS, 2);
    const pass = ['B/a', 'A/a', 'A/b', 'B/b', 'B/c', 'A/c', 'A/d', 'B/d'];
    expect(log).toEqual([...pass, ...pass]);
    expect(run.sides.map((s) => s.count)).toEqual([4, 4]);
    expect(run.differing).toBe(0);
    expect(run.firstDifference).toBeUndefined();
  });

  it('counts the answers that differ but for their duration, and keeps the first', async () => {
    const run = await interleave(
      [fake('A', [], (p) => `"p":"${p}"`), fake('B', [], (p) => `"p":"${p === '/c' || p === '/d' ? 'other' : p}"`)],
      URLS,
    );
    expect(run.differing).toBe(2);
    expect(run.firstDifference).toContain('http://bench/c');
    expect(run.firstDifference).toContain('"p":"/c"');
    expect(run.firstDifference).toContain('"p":"other"');
  });

  it('refuses an answer but 200, naming the side and the URL', async () => {
    await expect(interleave([fake('A', [], () => ''), fake('B', [], () => '', 500)], URLS)).rejects.toThrow(
      'side 1: http://bench/a: HTTP 500',
    );
    await expect(
      interleave([fake('A', [], () => '', 404), fake('B', [], () => '')], URLS, 3, ['v1', 'v2']),
    ).rejects.toThrow('v1: http://bench/a: HTTP 404');
  });
});

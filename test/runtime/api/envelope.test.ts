// The envelope's text fields (runtime/api/envelope.ts): the duration and the memory of an answer.
import { describe, expect, it } from 'vitest';
import { formatDuration, memoryText } from '../../../runtime/api/envelope.js';

describe('envelope text fields', () => {
  it.each([
    [0, '00:00:00.000'],
    [7, '00:00:00.007'],
    [1234, '00:00:01.234'],
    [61_001, '00:01:01.001'],
    [3_723_004, '01:02:03.004'],
    [0.4, '00:00:00.000'],
    [-5, '00:00:00.000'],
  ])('formatDuration(%d) = %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
    expect(formatDuration(ms)).toMatch(/^\d{2}:\d{2}:\d{2}\.\d{3}$/);
  });

  it('memoryText is whole megabytes of what the probe says', () => {
    expect(memoryText(() => process.memoryUsage.rss())()).toMatch(/^\d+ MB$/);
    expect(memoryText(() => 41.4 * 2 ** 20)()).toBe('41 MB');
  });
});

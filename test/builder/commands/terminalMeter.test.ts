// Tests builder/commands/terminalMeter.ts and the build's routing of progress (builder/phases/progress.ts): on a
// terminal a build shows a bar per phase — digest over the input's bytes, shards over its partitions — counting up
// to 100 % with no artefacts, and every summary line still printed, after the bar it ends.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { terminalMeter } from '../../../builder/commands/terminalMeter.js';
import { build, removeTempDirs, sampleSubset, tempDir } from '../../helpers/datasets.js';
import { Collector } from '../../helpers/process.js';

afterAll(removeTempDirs);

describe('a build watched on a terminal', () => {
  it('draws a bar per phase up to 100 %, and prints the summary lines after the bars', async () => {
    const stderr = new Collector();
    Object.assign(stderr, { isTTY: true, columns: 140 });
    const lines: string[] = [];
    const meter = terminalMeter(stderr);
    await build([sampleSubset(2000)], join(tempDir('meter'), 'out'), {
      log: (line) => {
        lines.push(line);
        stderr.write(`${line}\n`);
      },
      meter,
    });
    meter.clear();
    const text = stderr.text;
    // Each frame ends at the terminal's next escape sequence: cut there into lines.
    const frameLines = text.split(String.fromCharCode(27)).join('\n');
    const frames = (phase: string) =>
      [...frameLines.matchAll(new RegExp(`${phase} +\\|[=-]+\\| (\\d+)% \\| ([^|]+) \\| ETA (.+)$`, 'gm'))].map(
        (m) => ({
          percent: Number(m[1]),
          detail: m[2].trim(),
          eta: m[3],
        }),
      );
    for (const [phase, detail] of [
      ['digest', /^[\d,]+ proteins$/],
      ['shards', /^[\d,]+ peptides, [\d,]+ shards$/],
    ] as const) {
      const shown = frames(phase);
      expect(shown.length, phase).toBeGreaterThan(0);
      expect(shown.at(-1)!.percent, phase).toBe(100);
      for (const [i, f] of shown.entries()) {
        expect(f.detail).toMatch(detail);
        expect(f.eta).toMatch(/^(…|<1s|\d+s|\d+m \d{2}s|\d+h \d{2}m)$/);
        if (i > 0) expect(f.percent).toBeGreaterThanOrEqual(shown[i - 1].percent);
      }
    }
    expect(text).not.toMatch(/NaN|Infinity|undefined|null/);
    // Progress went to the bars, summaries to the log: the periodic progress lines are not printed.
    expect(lines.some((l) => l.startsWith('built '))).toBe(true);
    expect(lines.filter((l) => /^digest: .* MB\/s/.test(l) || /^shards: partition/.test(l))).toEqual([]);
    expect(text.indexOf('built ')).toBeGreaterThan(text.lastIndexOf('shards |'));
  });
});

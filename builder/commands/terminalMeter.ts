// The build's progress as a bar on a terminal (stderr): one bar per phase (digest: input bytes; shards: partitions
// merged), its detail and a smoothed ETA; a line logged in between ends the bar where it stood.
import type { Writable } from 'node:stream';
import { SingleBar } from 'cli-progress';
import { durationText, Eta } from '../../runtime/model/eta.js';
import type { ProgressMeter } from '../phases/progress.js';

export function terminalMeter(stream: Writable): ProgressMeter {
  let current: { phase: string; bar: SingleBar; eta: Eta } | undefined;
  const clear = () => {
    current?.bar.stop();
    current = undefined;
  };
  return {
    show(phase, done, total, detail) {
      if (current?.phase !== phase) {
        clear();
        const bar = new SingleBar({
          stream,
          format: `${phase.padEnd(6)} |{bar}| {percentage}% | {detail} | ETA {left}`,
          hideCursor: true,
          fps: 5,
        });
        bar.start(total, 0, { detail, left: durationText(undefined) });
        current = { phase, bar, eta: new Eta(performance.now()) };
      }
      const left = durationText(current.eta.update(done, total, performance.now()));
      current.bar.setTotal(total);
      current.bar.update(Math.min(done, total), { detail, left });
    },
    clear,
  };
}

// Time left of a long task from its progress: the rate smoothed over the last seconds (an exponential moving average
// with a half-life), so the estimate does not jump with every uneven step, and written as people read it.

/** Seconds left of a task, from (done, total) readings over time. */
export class Eta {
  private rate = 0;
  private last: { at: number; done: number } | undefined;
  private readonly started: number;

  /**
   * `halfLife`: seconds after which an old rate counts half; `settle`: seconds before any estimate is given (the
   * first moments of a task say little of its rate).
   */
  constructor(
    now: number,
    private readonly halfLife = 5,
    private readonly settle = 1,
  ) {
    this.started = now;
  }

  /** Records `done` of `total` at `now` (ms); returns the seconds left, or undefined while unknown. */
  update(done: number, total: number, now: number): number | undefined {
    // The first reading only sets where the task stood: a rate needs two readings some time apart.
    if (this.last === undefined) this.last = { at: now, done };
    const seconds = (now - this.last.at) / 1000;
    if (seconds >= 0.2) {
      const rate = (done - this.last.done) / seconds;
      this.rate = this.rate === 0 ? rate : this.rate + (1 - 2 ** (-seconds / this.halfLife)) * (rate - this.rate);
      this.last = { at: now, done };
    }
    if (done >= total) return 0;
    if ((now - this.started) / 1000 < this.settle || !(this.rate > 0)) return undefined;
    return (total - done) / this.rate;
  }
}

/** `42s`, `3m 05s`, `1h 02m`; `<1s` under a second; `…` when unknown. */
export function durationText(seconds: number | undefined): string {
  if (seconds === undefined || !Number.isFinite(seconds)) return '…';
  if (seconds < 1) return '<1s';
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

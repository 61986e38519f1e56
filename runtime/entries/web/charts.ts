// The page's pictures, drawn by uPlot: a result page's candidates as ppm error against mass (or, for a mass window
// with no precursor, a histogram of its candidates across the window), and the dataset's peptides per mass bin on
// the home view, an identification's target and decoy scores. Each chart fills its container's width and follows it
// when the window is resized.
import uPlot from 'uplot';

/** Equal-width bins: bin i covers [starts[i], starts[i] + width). */
export interface Bins {
  starts: number[];
  counts: number[];
  width: number;
}

/** Values counted in `bins` equal bins over [low, high] (a value at `high` goes to the last bin). */
export function histogram(values: readonly number[], low: number, high: number, bins: number): Bins {
  const width = high > low ? (high - low) / bins : 1;
  const counts = new Array<number>(bins).fill(0);
  for (const v of values) counts[Math.min(bins - 1, Math.max(0, Math.floor((v - low) / width)))]++;
  return { starts: counts.map((_, i) => low + i * width), counts, width };
}

const charts = new WeakMap<HTMLElement, { chart: uPlot; observer: ResizeObserver }>();
const BLUE = '#1d4ed8';

/** Draws `data` into `target`, replacing its chart; `label` describes it to screen readers. */
function draw(
  target: HTMLElement,
  label: string,
  options: Omit<uPlot.Options, 'width' | 'height'>,
  data: uPlot.AlignedData,
  height = 220,
): void {
  const old = charts.get(target);
  old?.observer.disconnect();
  old?.chart.destroy();
  target.replaceChildren();
  target.setAttribute('role', 'img');
  target.setAttribute('aria-label', label);
  const width = () => Math.max(240, target.clientWidth);
  // No legend: the axes say what is plotted and the table beside gives every value (uPlot's legend stood empty
  // until a point was hovered). Room on the right for the last tick's text.
  const chart = new uPlot(
    { ...options, legend: { show: false }, padding: [12, 28, 0, 0], width: width(), height },
    data,
    target,
  );
  // Resized on the next frame, not inside the observer's callback (which would make it observe its own change).
  const observer = new ResizeObserver(() =>
    requestAnimationFrame(
      () => charts.get(target)?.chart === chart && chart.width !== width() && chart.setSize({ width: width(), height }),
    ),
  );
  observer.observe(target);
  charts.set(target, { chart, observer });
}

/** Tick text: fixed decimals, or counts in k and M. */
const count = (t: number) => (Math.abs(t) >= 1e6 ? `${t / 1e6}M` : Math.abs(t) >= 1e3 ? `${t / 1e3}k` : String(t));
const axis = (label: string, decimals?: number): uPlot.Axis => ({
  label,
  stroke: '#374151',
  grid: { stroke: '#e5e7eb' },
  size: 56,
  space: decimals === undefined ? 30 : 90,
  values: (_u: uPlot, ticks: number[]) => ticks.map((t) => (decimals === undefined ? count(t) : t.toFixed(decimals))),
});

/** Candidates as points: ppm error against modified mass. */
export function ppmChart(target: HTMLElement, points: readonly { mass: number; ppm: number }[]): void {
  const sorted = [...points].sort((a, b) => a.mass - b.mass);
  const ppms = sorted.map((p) => p.ppm);
  draw(
    target,
    `${sorted.length} candidates: ppm error from ${Math.min(...ppms)} to ${Math.max(...ppms)} against mass from ${sorted[0]?.mass} to ${sorted.at(-1)?.mass} Da`,
    {
      scales: { x: { time: false } },
      axes: [axis('modified mass (Da)', 3), axis('ppm error')],
      series: [
        { label: 'mass (Da)', value: (_u, v) => v?.toFixed(6) ?? '' },
        { label: 'ppm', stroke: BLUE, paths: () => null, points: { show: true, size: 7, fill: BLUE } },
      ],
    },
    [sorted.map((p) => p.mass), ppms],
  );
}

/** Counts per bin as bars; `what` names the counted things (candidates, peptides), `unit` the x axis. */
export function barChart(
  target: HTMLElement,
  bins: Bins,
  what: string,
  unit: string,
  decimals: number,
  height?: number,
): void {
  const total = bins.counts.reduce((a, b) => a + b, 0);
  const low = bins.starts[0] ?? 0;
  draw(
    target,
    `${total} ${what} in ${bins.counts.length} bins of ${bins.width.toFixed(decimals)} ${unit} from ${low.toFixed(decimals)}`,
    {
      scales: { x: { time: false, range: (_u, min, max) => [min, max + bins.width] } },
      axes: [axis(unit, decimals), axis(what)],
      series: [
        {
          label: unit,
          value: (_u, v) =>
            v === null || v === undefined ? '' : `${v.toFixed(decimals)}–${(v + bins.width).toFixed(decimals)}`,
        },
        {
          label: what,
          stroke: BLUE,
          fill: 'rgba(29, 78, 216, 0.35)',
          paths: uPlot.paths.bars!({ size: [1, Infinity], align: 1 }),
          points: { show: false },
        },
      ],
    },
    [bins.starts, bins.counts],
    height,
  );
}

const RED = '#c2410c';

/** Rank-1 hyperscores as two bar series over the same bins: targets (blue) and decoys (orange). */
export function scoreChart(target: HTMLElement, bins: Bins & { decoys: number[] }): void {
  const sum = (counts: number[]) => counts.reduce((a, b) => a + b, 0);
  const bars = uPlot.paths.bars!({ size: [1, Infinity], align: 1 });
  draw(
    target,
    `Best hyperscore of each spectrum: ${sum(bins.counts)} targets and ${sum(bins.decoys)} decoys in ${bins.counts.length} bins of ${bins.width.toFixed(2)}`,
    {
      scales: { x: { time: false, range: (_u, min, max) => [min, max + bins.width] } },
      axes: [axis('hyperscore', 0), axis('spectra')],
      series: [
        { label: 'hyperscore' },
        { label: 'targets', stroke: BLUE, fill: 'rgba(29, 78, 216, 0.35)', paths: bars, points: { show: false } },
        { label: 'decoys', stroke: RED, fill: 'rgba(194, 65, 12, 0.45)', paths: bars, points: { show: false } },
      ],
    },
    [bins.starts, bins.counts, bins.decoys],
    200,
  );
}

// A fingerprint's peaks drawn as SVG: the peak list as sticks (m/z × intensity, or all one height when the list gives
// no intensities), each explained peak coloured and labelled with the peptide that explains it, as the annotated
// spectrum labels its ions; and a protein's peak map, a thin strip of the same peaks along m/z with those the protein
// explains marked (its residue coverage is fingerprintCoverage.ts's).
import { svg, ticks } from './svg.js';
import type { Fingerprint, FingerprintPeak } from '../../core/fingerprint/fingerprint.js';
import { labelRows, mzAxis, stickHeights } from './fingerprintAnswer.js';

const WIDTH = 1000;
const PLOT = { left: 56, right: 16, top: 16, bottom: 300 };
const HEIGHT = 336;
/** Label rows above the sticks, and the room each takes. */
const ROW = 13;
const MAX_ROWS = 6;
/** A label's width in the SVG's units per character (11 px text). */
const CHAR = 6.4;

const scaleOf = (peaks: readonly FingerprintPeak[]) => {
  const [low, high] = mzAxis(peaks.map((p) => p.mz));
  return (mz: number) => PLOT.left + ((mz - low) / (high - low)) * (WIDTH - PLOT.left - PLOT.right);
};

const peakTitle = (peak: FingerprintPeak) =>
  `m/z ${peak.mz.toFixed(4)}${peak.intensity === undefined ? '' : `, intensity ${peak.intensity.toPrecision(4)}`}${peak.explainedBy ? `: ${peak.explainedBy.proforma} (${peak.explainedBy.accession})` : ''}${peak.error ? `: not searched, ${peak.error}` : ''}`;

/** The list's peaks as sticks, explained ones labelled; `label` names the plot to screen readers. */
export function peakListSvg(list: Fingerprint, label: string): SVGSVGElement {
  const { peaks } = list;
  const [low, high] = mzAxis(peaks.map((p) => p.mz));
  const x = scaleOf(peaks);
  const heights = stickHeights(peaks);
  const withIntensity = peaks.some((p) => p.intensity !== undefined);
  // The sticks stop below the label rows, so the tallest one's label has room.
  const top = PLOT.top + MAX_ROWS * ROW;
  const y = (height: number) => PLOT.bottom - height * (PLOT.bottom - top);
  const explained = peaks.flatMap((p, i) => (p.explainedBy ? [i] : []));
  const root = svg('svg', {
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
    class: 'spectrum peak-list',
    role: 'img',
    'aria-label': `${label}: ${peaks.length} peaks, ${explained.length} explained by a listed protein's peptides`,
  });
  root.append(
    svg('line', { x1: PLOT.left, x2: WIDTH - PLOT.right, y1: PLOT.bottom, y2: PLOT.bottom, class: 'axis' }),
    svg('line', { x1: PLOT.left, x2: PLOT.left, y1: top, y2: PLOT.bottom, class: 'axis' }),
    ...ticks(low, high, 8).map((t) =>
      svg('text', { x: x(t), y: PLOT.bottom + 16, class: 'tick', 'text-anchor': 'middle' }, String(t)),
    ),
    svg('text', { x: WIDTH - PLOT.right, y: PLOT.bottom + 32, class: 'tick', 'text-anchor': 'end' }, 'm/z'),
    ...(withIntensity
      ? [0, 50, 100].map((p) =>
          svg('text', { x: PLOT.left - 6, y: y(p / 100) + 4, class: 'tick', 'text-anchor': 'end' }, `${p} %`),
        )
      : []),
  );
  // Unexplained sticks first, the explained ones over them, then their labels in rows that never overlap.
  for (const explainedFirst of [false, true])
    peaks.forEach((peak, i) => {
      if (Boolean(peak.explainedBy) !== explainedFirst) return;
      const stick = svg('line', {
        x1: x(peak.mz),
        x2: x(peak.mz),
        y1: PLOT.bottom,
        y2: y(heights[i]),
        class: peak.explainedBy ? 'peak explained' : 'peak',
        'data-peak': i,
      });
      stick.append(svg('title', {}, peakTitle(peak)));
      root.append(stick);
    });
  // A label is centred over its stick, moved in where it would overflow the plot.
  const boxes = explained.map((i) => {
    const width = peaks[i].explainedBy!.proforma.length * CHAR;
    const centre = Math.min(Math.max(x(peaks[i].mz), PLOT.left + width / 2), WIDTH - PLOT.right - width / 2);
    return { x: centre, width };
  });
  const rows = labelRows(boxes);
  explained.forEach((i, k) => {
    if (rows[k] >= MAX_ROWS) return; // too crowded: the stick's title and the tables still say it
    const peak = peaks[i];
    // A dotted leader from the label down to its stick's top.
    root.append(
      svg('line', {
        x1: x(peak.mz),
        x2: x(peak.mz),
        y1: top - 2 - rows[k] * ROW,
        y2: y(heights[i]),
        class: 'leader',
      }),
    );
    const text = svg(
      'text',
      { x: boxes[k].x, y: top - 4 - rows[k] * ROW, class: 'peptide', 'text-anchor': 'middle', 'data-peak': i },
      peak.explainedBy!.proforma,
    );
    text.append(svg('title', {}, peakTitle(peak)));
    root.append(text);
  });
  return root;
}

/** A protein's peak map: every peak of the list as a tick along m/z, those in `explained` marked. */
export function peakMapSvg(peaks: readonly FingerprintPeak[], explained: ReadonlySet<number>, label: string) {
  const x = scaleOf(peaks);
  const root = svg('svg', {
    viewBox: `0 0 ${WIDTH} 40`,
    class: 'peak-map',
    role: 'img',
    'aria-label': `${label}: ${explained.size} of ${peaks.length} peaks along m/z`,
  });
  root.append(svg('line', { x1: PLOT.left, x2: WIDTH - PLOT.right, y1: 30, y2: 30, class: 'axis' }));
  peaks.forEach((peak, i) => {
    const hit = explained.has(i);
    const tick = svg('line', {
      x1: x(peak.mz),
      x2: x(peak.mz),
      y1: 30,
      y2: hit ? 4 : 20,
      class: hit ? 'peak explained' : 'peak',
    });
    tick.append(svg('title', {}, `m/z ${peak.mz.toFixed(4)}${hit ? ', explained' : ''}`));
    root.append(tick);
  });
  const [low, high] = mzAxis(peaks.map((p) => p.mz));
  root.append(
    svg('text', { x: PLOT.left - 6, y: 34, class: 'tick', 'text-anchor': 'end' }, String(low)),
    svg('text', { x: WIDTH - PLOT.right, y: 40, class: 'tick', 'text-anchor': 'end' }, `${high} m/z`),
  );
  return root;
}

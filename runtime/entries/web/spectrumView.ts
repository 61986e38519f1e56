// The annotated spectrum of a PSM, drawn as an SVG: the peaks it was scored against as grey sticks, the peaks its b
// and y ions matched in two colours with each ion's label (b3, y7²⁺) above, and the peptide's sequence with its b/y
// ladder under the axis. What it draws is annotate()'s (runtime/core/identify/annotate.ts): the scorer's own matches.
import { svg, ticks } from './svg.js';
import type { AnnotatedIon, Annotation } from '../../core/identify/annotate.js';

const WIDTH = 1000;
const PLOT = { left: 64, right: 16, top: 54, bottom: 300 };
const LADDER_Y = 360;
const HEIGHT = 392;

const SUPERSCRIPTS = '⁰¹²³⁴⁵⁶⁷⁸⁹';

/** An ion as people write it: `b3`, `y7²⁺`. */
export const ionLabel = (ion: Pick<AnnotatedIon, 'kind' | 'residues' | 'charge'>) =>
  `${ion.kind}${ion.residues}${ion.charge > 1 ? `${[...String(ion.charge)].map((d) => SUPERSCRIPTS[Number(d)]).join('')}⁺` : ''}`;

/** The annotated spectrum of `sequence` as an SVG; `label` names it to screen readers. */
export function spectrumSvg(annotation: Annotation, sequence: string, label: string): SVGSVGElement {
  const { peaks, ions } = annotation;
  const matched = ions.filter((ion) => ion.peak >= 0);
  const mzs = [...peaks.mz];
  const low = Math.max(0, Math.floor(Math.min(...mzs, 100) / 100) * 100);
  const high = Math.ceil(Math.max(...mzs, low + 100) / 100) * 100;
  const top = Math.max(0, ...peaks.intensity) || 1; // intensities may be normalised below 1
  const x = (mz: number) => PLOT.left + ((mz - low) / (high - low)) * (WIDTH - PLOT.left - PLOT.right);
  const y = (intensity: number) => PLOT.bottom - (intensity / top) * (PLOT.bottom - PLOT.top);
  const kinds = new Map<number, Set<string>>();
  for (const ion of matched) kinds.set(ion.peak, (kinds.get(ion.peak) ?? new Set()).add(ion.kind));
  const counts = { b: matched.filter((i) => i.kind === 'b').length, y: matched.filter((i) => i.kind === 'y').length };
  const root = svg('svg', {
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
    class: 'spectrum',
    role: 'img',
    'aria-label': `${label}: ${peaks.mz.length} scored peaks, ${counts.b} b ions and ${counts.y} y ions matched`,
  });
  // Axes: m/z below, relative intensity on the left.
  root.append(
    svg('line', { x1: PLOT.left, x2: WIDTH - PLOT.right, y1: PLOT.bottom, y2: PLOT.bottom, class: 'axis' }),
    svg('line', { x1: PLOT.left, x2: PLOT.left, y1: PLOT.top, y2: PLOT.bottom, class: 'axis' }),
    ...ticks(low, high, 8).map((t) =>
      svg('text', { x: x(t), y: PLOT.bottom + 16, class: 'tick', 'text-anchor': 'middle' }, String(t)),
    ),
    svg('text', { x: WIDTH - PLOT.right, y: PLOT.bottom + 32, class: 'tick', 'text-anchor': 'end' }, 'm/z'),
    ...[0, 50, 100].map((p) =>
      svg('text', { x: PLOT.left - 6, y: y((p / 100) * top) + 4, class: 'tick', 'text-anchor': 'end' }, `${p} %`),
    ),
  );
  // The grey sticks first, then the matched ones over them, then their labels stacked above each peak.
  peaks.mz.forEach((mz, i) => {
    const kind = kinds.get(i);
    const cls = kind ? (kind.size > 1 ? 'peak by' : `peak ${[...kind][0]}`) : 'peak';
    const stick = svg('line', { x1: x(mz), x2: x(mz), y1: PLOT.bottom, y2: y(peaks.intensity[i]), class: cls });
    stick.append(svg('title', {}, `m/z ${mz.toFixed(4)}, intensity ${peaks.intensity[i].toPrecision(4)}`));
    root.append(stick);
  });
  const stacked = new Map<number, number>();
  for (const ion of matched) {
    const level = stacked.get(ion.peak) ?? 0;
    stacked.set(ion.peak, level + 1);
    const text = svg(
      'text',
      {
        x: x(peaks.mz[ion.peak]),
        y: y(peaks.intensity[ion.peak]) - 4 - level * 13,
        class: `ion ${ion.kind}`,
        'text-anchor': 'middle',
        'data-ion': ionLabel(ion),
      },
      ionLabel(ion),
    );
    text.append(svg('title', {}, `${ionLabel(ion)}: m/z ${ion.mz.toFixed(4)}, peak ${peaks.mz[ion.peak].toFixed(4)}`));
    root.append(text);
  }
  root.append(ladder(sequence, matched));
  return root;
}

/** The sequence with a b hook above each bond a b ion covers and a y hook below each a y ion covers. */
function ladder(sequence: string, matched: readonly AnnotatedIon[]): SVGGElement {
  const n = sequence.length;
  const step = Math.min(28, (WIDTH - PLOT.left - PLOT.right) / Math.max(1, n));
  const start = (WIDTH - step * n) / 2;
  const group = svg('g', { class: 'ladder', 'aria-hidden': 'true' });
  [...sequence].forEach((residue, i) =>
    group.append(
      svg('text', { x: start + (i + 0.5) * step, y: LADDER_Y + 6, 'text-anchor': 'middle', class: 'residue' }, residue),
    ),
  );
  const b = new Set(matched.filter((i) => i.kind === 'b').map((i) => i.residues));
  const y = new Set(matched.filter((i) => i.kind === 'y').map((i) => i.residues));
  for (let bond = 1; bond < n; bond++) {
    const at = start + bond * step;
    if (b.has(bond))
      group.append(svg('path', { d: `M${at},${LADDER_Y + 2} V${LADDER_Y - 16} h-8`, class: 'ladder-b' }));
    if (y.has(n - bond))
      group.append(svg('path', { d: `M${at},${LADDER_Y - 6} V${LADDER_Y + 12} h8`, class: 'ladder-y' }));
  }
  return group;
}

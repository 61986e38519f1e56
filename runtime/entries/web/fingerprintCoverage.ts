// Fingerprint mode's coverage map: a protein's sequence in numbered rows of ten-residue blocks, the residues its
// matched peptides cover marked, as MS-Fit and Mascot print a protein's coverage.
import type { ProteinHit } from '../../core/fingerprint/fingerprint.js';
import { h } from './dom.js';

/** Residues a row, in blocks of BLOCK. */
const ROW = 50;
const BLOCK = 10;

/** A coverage figure as a percentage with one decimal. */
export const coverageText = (coverage: number) => `${(100 * coverage).toFixed(1)} %`;

/** Runs of residues [from, to) of the row [start, start + ROW), cut at `covered`'s edges and at blocks. */
function rowPieces(sequence: string, start: number, covered: readonly [number, number][]) {
  const end = Math.min(sequence.length, start + ROW);
  const edges = new Set([start, end]);
  for (let b = start + BLOCK; b < end; b += BLOCK) edges.add(b);
  for (const [from, to] of covered) for (const at of [from, to]) if (at > start && at < end) edges.add(at);
  const cuts = [...edges].sort((a, b) => a - b);
  return cuts.slice(1).map((to, i) => {
    const from = cuts[i];
    const isCovered = covered.some(([f, t]) => f <= from && to <= t);
    const text = sequence.slice(from, to);
    const gap = to % BLOCK === 0 && to < end ? ' ' : '';
    return [isCovered ? h('span', { class: 'covered' }, text) : text, gap];
  });
}

/** The coverage map of `hit` (null when the dataset holds no sequence for it). */
export function coverageMap(hit: ProteinHit): HTMLElement | null {
  const { sequence, covered, coverage } = hit;
  if (sequence === undefined || covered === undefined || coverage === undefined) return null;
  const residues = covered.reduce((sum, [from, to]) => sum + to - from, 0);
  const rows = [];
  for (let start = 0; start < sequence.length; start += ROW)
    rows.push(
      h('span', { class: 'pos' }, String(start + 1).padStart(5)),
      ' ',
      rowPieces(sequence, start, covered),
      '\n',
    );
  return h(
    'figure',
    { class: 'fp-coverage' },
    h(
      'figcaption',
      {},
      'Sequence coverage ',
      h('strong', { class: 'coverage' }, coverageText(coverage)),
      `: ${residues.toLocaleString('en-US')} of ${sequence.length.toLocaleString('en-US')} residues lie in its matched peptides (marked).`,
    ),
    h('pre', { class: 'coverage-map', 'aria-label': `Sequence of ${hit.accession}, covered residues marked` }, rows),
  );
}

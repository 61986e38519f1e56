// A fingerprint's answer as Fingerprint mode reads it (the JSON of POST /api/v1/fingerprint, on either data path):
// the lists' names, the peaks a protein explains, the stick plot's heights, axis and label rows, the numbers as the
// page writes them and an error's message. The types are the core's; no DOM: tested in Node.
import type { Fingerprint, FingerprintPeak, ProteinHit } from '../../core/fingerprint/fingerprint.js';

/** The endpoint's answer: one fingerprint per peak list of the input (the API adds memory and duration). */
export interface FingerprintAnswer {
  lists: Fingerprint[];
  memory?: string;
  duration?: string;
}

/** A list as the picker names it: its title, else its place in the input. */
export const listName = (list: Pick<Fingerprint, 'title'>, at: number): string =>
  list.title?.trim() ? list.title : `List ${at + 1}`;

/** The peaks (indexes into the list's) a protein's peptides explain, ascending, each once. */
export const explainedPeaks = (hit: Pick<ProteinHit, 'matches'>): number[] =>
  [...new Set(hit.matches.map((m) => m.peak))].sort((a, b) => a - b);

/** Each peak's stick height, 0–1: its intensity over the highest; every stick full height when the list gives none. */
export function stickHeights(peaks: readonly Pick<FingerprintPeak, 'intensity'>[]): number[] {
  const top = Math.max(0, ...peaks.map((p) => p.intensity ?? 0));
  return peaks.map((p) => (p.intensity === undefined || top === 0 ? 1 : p.intensity / top));
}

/** An m/z axis covering every peak, widened to whole hundreds (at least 100 wide). */
export function mzAxis(mzs: readonly number[]): [number, number] {
  if (mzs.length === 0) return [0, 100];
  const low = Math.max(0, Math.floor(Math.min(...mzs) / 100) * 100);
  return [low, Math.max(low + 100, Math.ceil(Math.max(...mzs) / 100) * 100)];
}

/** A label centred at `x`, `width` wide. */
export interface LabelBox {
  x: number;
  width: number;
}

/**
 * A row for each label, lowest first, so that labels of a row never overlap (`gap` apart at least): each label, from
 * left to right, takes the lowest row whose last label ends before it starts. Rows are returned in the labels' order.
 */
export function labelRows(labels: readonly LabelBox[], gap = 4): number[] {
  const order = labels.map((_, i) => i).sort((a, b) => labels[a].x - labels[b].x || a - b);
  const ends: number[] = [];
  const rows = new Array<number>(labels.length);
  for (const i of order) {
    const start = labels[i].x - labels[i].width / 2;
    let row = ends.findIndex((end) => end + gap <= start);
    if (row < 0) row = ends.push(0) - 1;
    ends[row] = labels[i].x + labels[i].width / 2;
    rows[i] = row;
  }
  return rows;
}

/** An E-value as people read one: two significant digits, in exponent form below 0.001 and from 10,000. */
export const expectText = (expect: number): string =>
  expect === 0 ? '0' : expect < 1e-3 || expect >= 1e4 ? expect.toExponential(1) : String(Number(expect.toPrecision(2)));

/** A score, −10·log10 of a chance, to one decimal. */
export const scoreText = (score: number): string => score.toFixed(1);

/** A download's name: the input's, then the run's whole query, in characters any file system takes. */
export function fingerprintFileName(input: string, query: string): string {
  const stem = input.replace(/\.gz$/i, '').replace(/\.[^.]*$/, '') || 'peaks';
  const params = query.replace(/%2C|,/gi, '+').replace(/[^A-Za-z0-9.@+]+/g, '-');
  return `${stem}-fingerprint-${params}`.slice(0, 200);
}

/** An answer's error message: the API's `{error}`, else its status. */
export function errorOf(answer: { status: number; text: string }): string {
  try {
    const { error } = JSON.parse(answer.text) as { error?: unknown };
    if (typeof error === 'string') return error;
  } catch {
    // not the API's JSON: say the status
  }
  return `the answer had status ${answer.status}`;
}

// A peak list as text, the way MALDI software exports one: one peak a line (m/z, then optionally its intensity,
// separated by spaces, tabs, commas or semicolons; `#` starts a comment), or a CSV/TSV table whose header names the
// m/z column and optionally the intensity column; a file written for Mascot may open with `KEY=value` parameters
// (read here, judged by mascotParameters.ts). A line that is not a peak is refused with its number, never skipped:
// a peak dropped silently is a peak not matched.

/** A peak list: m/z values and, when the input gives them, their intensities (same order). */
export interface PeakList {
  mz: Float64Array;
  intensity?: Float64Array;
}

/** One `KEY=value` line of a file's head: its key (upper case), value and line number. */
export interface EmbeddedParameter {
  key: string;
  value: string;
  line: number;
}

/** A text peak list and the Mascot parameters at its head (mascotParameters.ts), in file order. */
export interface PeakText extends PeakList {
  parameters: EmbeddedParameter[];
}

/** A text peak list that cannot be read: the message names the line. */
export class PeakTextError extends Error {}

/** Header names of the m/z and intensity columns, lower case, as exporters write them. */
const MZ_NAMES = /^(m\/z|mz|m\.z|mass|mass\/charge|centroid|centroid m\/z|peak|m\/z \(da\)|mass \(da\)|\[m\+h\]\+)$/;
const INTENSITY_NAMES = /^(intensity|int|int\.|abundance|height|area|counts|relative intensity|rel\. int\.)$/;

/** A field without the quotes a CSV writer may put around it. */
const unquoted = (field: string) =>
  field
    .trim()
    .replace(/^"(.*)"$/, '$1')
    .trim();

/** A decimal number (`1234.5678`, `1.2e3`), else NaN: `Number('')` and `Number('0x10')` are not peaks. */
const decimal = (text: string) => (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text) ? Number(text) : Number.NaN);

/** A Mascot parameter line at a file's head. */
const PARAMETER = /^([A-Za-z][A-Za-z0-9_]*)\s*=(.*)$/;
/** Lines Mascot's formats (MGF, its PMF text) treat as comments. */
export const COMMENT_LINE = /^[#;!/]/;

/**
 * The peaks of `text` and the parameters at its head; PeakTextError naming the first line that is neither a peak,
 * a header, a parameter before the peaks, a comment nor blank.
 */
export function readPeakText(text: string): PeakText {
  const parameters: EmbeddedParameter[] = [];
  const mz: number[] = [];
  const intensity: number[] = [];
  let columns: { mz: number; intensity?: number; split: RegExp } | undefined;
  let withIntensity: boolean | undefined;
  const lines = text.split(/\r\n|\n|\r/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].replace(/#.*$/, '').trim();
    if (line === '' || COMMENT_LINE.test(line)) continue;
    const at = `line ${i + 1}`;
    const parameter = mz.length === 0 && columns === undefined ? PARAMETER.exec(line) : null;
    if (parameter) {
      parameters.push({ key: parameter[1].toUpperCase(), value: parameter[2], line: i + 1 });
      continue;
    }
    if (mz.length === 0 && columns === undefined && Number.isNaN(decimal(unquoted(line.split(/[\t,;]|\s+/)[0])))) {
      columns = headerOf(line, at);
      continue;
    }
    const fields = line.split(columns?.split ?? /[\s,;]+/).map(unquoted);
    const mzField = fields[columns?.mz ?? 0];
    const value = decimal(mzField ?? '');
    if (!(value > 0)) throw new PeakTextError(`${at}: ${JSON.stringify(mzField ?? line)} is not a positive m/z`);
    const intensityAt = columns ? columns.intensity : fields.length > 1 ? 1 : undefined;
    if (withIntensity === undefined) withIntensity = intensityAt !== undefined;
    if (withIntensity !== (intensityAt !== undefined))
      throw new PeakTextError(
        `${at}: ${withIntensity ? 'no intensity, where the lines before give one' : 'an intensity, where the lines before give none'}`,
      );
    if (!columns && fields.length > 2)
      throw new PeakTextError(`${at}: ${fields.length} numbers; a peak is an m/z and optionally its intensity`);
    mz.push(value);
    if (intensityAt !== undefined) {
      const level = decimal(fields[intensityAt] ?? '');
      if (!(level >= 0))
        throw new PeakTextError(
          `${at}: ${JSON.stringify(fields[intensityAt] ?? '')} is not an intensity (a number ≥ 0)`,
        );
      intensity.push(level);
    }
  }
  if (mz.length === 0) throw new PeakTextError('no peak in the text: one m/z a line (optionally its intensity)');
  return {
    mz: Float64Array.from(mz),
    ...(withIntensity && { intensity: Float64Array.from(intensity) }),
    parameters,
  };
}

/** A table's header: which fields hold the m/z and the intensity, and what separates them. */
function headerOf(line: string, at: string): { mz: number; intensity?: number; split: RegExp } {
  const split = line.includes('\t') ? /\t/ : line.includes(';') ? /;/ : line.includes(',') ? /,/ : /\s+/;
  const names = line.split(split).map((name) => unquoted(name).toLowerCase());
  const mz = names.findIndex((name) => MZ_NAMES.test(name));
  if (mz < 0)
    throw new PeakTextError(
      `${at}: ${JSON.stringify(line)} is neither a peak nor a header naming an m/z column (m/z, mz, mass, centroid)`,
    );
  const intensity = names.findIndex((name) => INTENSITY_NAMES.test(name));
  return { mz, ...(intensity >= 0 && { intensity }), split };
}

/** The `count` most intense peaks (all when fewer, or without intensities), in m/z order. */
export function topPeaksOf(list: PeakList, count: number): PeakList {
  const { mz, intensity } = list;
  if (!intensity || mz.length <= count) return list;
  // Ties keep the lighter peak: the order is total, so the pick does not depend on the sort's stability.
  const order = Array.from(mz.keys()).sort((a, b) => intensity[b] - intensity[a] || mz[a] - mz[b] || a - b);
  const kept = order.slice(0, count).sort((a, b) => mz[a] - mz[b] || a - b);
  return { mz: Float64Array.from(kept, (i) => mz[i]), intensity: Float64Array.from(kept, (i) => intensity[i]) };
}

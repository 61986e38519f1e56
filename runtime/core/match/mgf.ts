// Mascot Generic Format (MGF) peak lists, read as instruments and converters write them: records from
// BEGIN IONS to END IONS with their TITLE, PEPMASS (m/z, optionally an intensity), CHARGE (`2+`, `2`, `3-`,
// `2+ and 3+`), RTINSECONDS and SCANS; CRLF or LF line ends; comment lines; peak lines of m/z, optional intensity and
// optional charge (kept only when asked for: a precursor search needs none, fragment scoring does). A record that cannot be searched is reported with its line
// number and skipped, never guessed at. Pure: the reader is fed lines, and readMgf splits text chunks into them.
import { MAX_PRECURSOR_MASS } from '../precursor/window.js';

/** Charges a search accepts, in absolute value (as a precursor search's charge). */
export const MAX_CHARGE = 10;

/** One record of the file that can be searched. */
export interface Spectrum {
  /** Ordinal of the record in the file, from 1 (malformed records are counted too). */
  index: number;
  /** Line of its BEGIN IONS, from 1. */
  line: number;
  title?: string;
  scans?: string;
  /** RTINSECONDS (its first value, when it gives a range). */
  rtSeconds?: number;
  /** Precursor m/z: PEPMASS's first value. */
  mz: number;
  /** PEPMASS's second value, when given. */
  intensity?: number;
  /** CHARGE's charges, signed (negative for `3-`); empty when the record gives none. */
  charges: number[];
  /** The record's peaks, ascending m/z, when the reader keeps them. */
  peaks?: PeakList;
}

/** Peaks of a spectrum: m/z and intensity, ascending m/z. */
export interface PeakList {
  mz: Float64Array;
  intensity: Float64Array;
}

/** A record (or a line outside any record) that could not be read. */
export interface Malformed {
  line: number;
  error: string;
}

export type MgfItem = { spectrum: Spectrum } | { malformed: Malformed };

/** Lines that say nothing: comments as Mascot allows them (`#`, `;`, `!`, `/`). */
const COMMENT = /^[#;!/]/;
/** `KEY=value`: a key starts with a letter (ION-MOBILITY, 1/K0 is a peak-like line and ignored as one). */
const PARAMETER = /^([A-Za-z][^=]*)=([\s\S]*)$/;
/** A peak line starts with a number (m/z), then intensity and an optional charge or annotation. */
const PEAK = /^[+-]?(\d|\.\d)/;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
/** RTINSECONDS: a number, or a range `start-end` or list `a,b` of summed scans (the first kept). */
const RT_FIRST = /^(\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+)(?:\s*[-,]\s*(?:\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+))*$/;
/** A charge: digits (a whole decimal such as `2.0` too), its sign before or after. */
const CHARGE = /^([+-]?)(\d{1,3})(?:\.0*)?([+-]?)$/;

const quoted = (text: string) => JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);

/**
 * Charges of a CHARGE value (`2+`, `+2`, `2`, `2.0+`, `3-`, `2+ and 3+`, `2+,3+`), distinct, in the order given;
 * a message when it is not one. Also reads a command line's or a query's list (`2,3`).
 */
export function parseCharges(text: string): number[] | string {
  const tokens = text
    .trim()
    .split(/\s*(?:,|\band\b|\s)\s*/i)
    .filter((t) => t !== '');
  if (tokens.length === 0) return 'is empty';
  const charges: number[] = [];
  for (const token of tokens) {
    const m = CHARGE.exec(token);
    if (!m || (m[1] && m[3])) return `${quoted(token)} is not a charge (such as 2+, 2 or 3-)`;
    const value = Number(m[2]) * (m[1] === '-' || m[3] === '-' ? -1 : 1);
    if (value === 0 || Math.abs(value) > MAX_CHARGE) return `${quoted(token)} is outside 1 to ${MAX_CHARGE}`;
    if (!charges.includes(value)) charges.push(value);
  }
  return charges;
}

interface Open {
  index: number;
  line: number;
  title?: string;
  scans?: string;
  rtSeconds?: number;
  pepmass?: string;
  charge?: string;
  /** The peaks read so far, m/z and intensity alternating, when they are kept. */
  peaks?: number[];
  /** Set once the record is known to be malformed: the rest of it is skipped. */
  error?: string;
}

/** Reads an MGF file line by line: `line` for each line in order, then `end`; each returns what it completes. */
export class MgfReader {
  private lineNumber = 0;
  private records = 0;
  private open: Open | undefined;
  /**
   * CHARGE given outside a record (Mascot's file-wide parameter): the charges of the records after it that give none.
   */
  private fileCharges: number[] = [];

  /** `keepPeaks`: read each peak line's m/z and intensity (a missing intensity, which MGF allows, is 1). */
  constructor(private readonly keepPeaks = false) {}

  line(raw: string): MgfItem | undefined {
    const n = ++this.lineNumber;
    const text = raw.trim(); // also a CR of a CRLF line end
    if (text === '' || COMMENT.test(text)) return undefined;
    const upper = text.length <= 10 ? text.toUpperCase() : '';
    if (upper === 'BEGIN IONS') {
      const unfinished = this.open && this.fail(this.open, `record has no END IONS before the BEGIN IONS of line ${n}`);
      this.open = { index: ++this.records, line: n, peaks: this.keepPeaks ? [] : undefined };
      return unfinished;
    }
    if (upper === 'END IONS') {
      const record = this.open;
      this.open = undefined;
      return record ? this.finish(record) : { malformed: { line: n, error: 'END IONS without a BEGIN IONS' } };
    }
    const parameter = PARAMETER.exec(text);
    if (!this.open) {
      if (!parameter)
        return {
          malformed: {
            line: n,
            error: `line ${n} is outside any BEGIN IONS … END IONS record and is not a parameter: ${quoted(text)}`,
          },
        };
      if (parameter[1].trim().toUpperCase() !== 'CHARGE') return undefined; // file-wide parameters (MASS, TOL, …) do not change a precursor
      const charges = parseCharges(parameter[2]);
      if (typeof charges === 'string') return { malformed: { line: n, error: `line ${n}: CHARGE ${charges}` } };
      this.fileCharges = charges;
      return undefined;
    }
    const record = this.open;
    if (record.error) return undefined;
    if (!parameter) {
      if (!PEAK.test(text)) record.error = `line ${n} is neither a parameter nor a peak: ${quoted(text)}`;
      else if (record.peaks) this.peak(record, record.peaks, text, n);
      return undefined;
    }
    const key = parameter[1].trim().toUpperCase();
    const value = parameter[2].trim();
    if (key === 'TITLE') record.title = value;
    else if (key === 'SCANS') record.scans = value;
    else if (key === 'RTINSECONDS') {
      const first = RT_FIRST.exec(value);
      if (first) record.rtSeconds = Number(first[1]);
    } else if (key === 'PEPMASS' || key === 'CHARGE') {
      const field = key === 'PEPMASS' ? 'pepmass' : 'charge';
      if (record[field] !== undefined) record.error = `line ${n}: ${key} is given twice in one record`;
      else record[field] = value;
    }
    return undefined;
  }

  private peak(record: Open, peaks: number[], text: string, n: number): void {
    const [mzText, intensityText = '1'] = text.split(/\s+/);
    const mz = NUMBER.test(mzText) ? Number(mzText) : NaN;
    const intensity = NUMBER.test(intensityText) ? Number(intensityText) : NaN;
    if (mz > 0 && intensity >= 0) peaks.push(mz, intensity);
    else record.error = `line ${n}: a peak needs an m/z above 0 and an intensity of at least 0: ${quoted(text)}`;
  }

  /** What the end of the file completes: an unfinished record is malformed. */
  end(): MgfItem | undefined {
    const record = this.open;
    this.open = undefined;
    return record && this.fail(record, 'record has no END IONS before the end of the file');
  }

  private fail(record: Open, error: string): MgfItem {
    return { malformed: { line: record.line, error: record.error ?? error } };
  }

  private finish(record: Open): MgfItem {
    if (record.error) return this.fail(record, record.error);
    if (record.pepmass === undefined) return this.fail(record, 'record has no PEPMASS');
    const [mzText, intensityText] = record.pepmass.split(/\s+/);
    const mz = NUMBER.test(mzText) ? Number(mzText) : NaN;
    if (!(mz > 0 && mz <= MAX_PRECURSOR_MASS))
      return this.fail(
        record,
        `PEPMASS ${quoted(record.pepmass)} is not an m/z above 0 and at most ${MAX_PRECURSOR_MASS}`,
      );
    const intensity = intensityText !== undefined && NUMBER.test(intensityText) ? Number(intensityText) : undefined;
    // An empty CHARGE= says no more than a missing one.
    const charges =
      record.charge === undefined || record.charge === '' ? [...this.fileCharges] : parseCharges(record.charge);
    if (typeof charges === 'string') return this.fail(record, `CHARGE ${charges}`);
    const { index, line, title, scans, rtSeconds } = record;
    const spectrum: Spectrum = { index, line, title, scans, rtSeconds, mz, intensity, charges };
    if (record.peaks) spectrum.peaks = peakList(record.peaks);
    return { spectrum };
  }
}

/** Peaks given as m/z, intensity pairs, in ascending m/z (files are mostly sorted; not all are). */
function peakList(pairs: readonly number[]): PeakList {
  const order = Array.from({ length: pairs.length / 2 }, (_, i) => i);
  if (order.some((i) => i > 0 && pairs[2 * i] < pairs[2 * i - 2])) order.sort((a, b) => pairs[2 * a] - pairs[2 * b]);
  return {
    mz: Float64Array.from(order, (i) => pairs[2 * i]),
    intensity: Float64Array.from(order, (i) => pairs[2 * i + 1]),
  };
}

/** The items of an MGF file given as text or byte chunks (UTF-8), in file order; `keepPeaks` as MgfReader's. */
export async function* readMgf(
  chunks: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>,
  keepPeaks = false,
): AsyncGenerator<MgfItem> {
  const reader = new MgfReader(keepPeaks);
  const decoder = new TextDecoder();
  let rest = '';
  for await (const chunk of chunks) {
    const text = rest + (typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
    const lines = text.split('\n');
    rest = lines.pop()!;
    for (const line of lines) {
      const item = reader.line(line);
      if (item) yield item;
    }
  }
  rest += decoder.decode();
  for (const line of rest === '' ? [] : rest.split('\n')) {
    const item = reader.line(line);
    if (item) yield item;
  }
  const last = reader.end();
  if (last) yield last;
}

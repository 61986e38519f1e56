// mzML (the PSI standard msconvert, OpenMS and ThermoRawFileParser write) read into the MGF reader's items: each MS2+
// spectrum with its precursor, charges, retention time and peaks, so the same searches take either format; or, for
// peptide mass fingerprinting, each MS1 spectrum with its peaks (readMzmlMs1). Files run to gigabytes, so only one
// <spectrum> element is held at a time; the reader is DOM-free and uses web APIs only (TextDecoder, atob,
// DecompressionStream), so the same code runs in Node and in the browser. A spectrum that cannot be read is reported
// by its id and the line of its start tag, never guessed at. Arrays may be zlib- or MS-Numpress-compressed.
import { MAX_PRECURSOR_MASS } from '../precursor/window.js';
import { MAX_CHARGE, type Malformed, type MgfItem, type PeakList } from './mgf.js';
import { decodeNumpress, NumpressError, type Numpress } from './numpress.js';

/** A cvParam: accession, name, value and unit. */
interface Param {
  accession: string;
  name: string;
  value: string;
  unitAccession?: string;
  unitName?: string;
}

/** A binaryDataArray: its cvParams and its base64 text. */
interface DataArray {
  params: Param[];
  base64: string;
}

/** What an element (a spectrum or a referenceableParamGroup) says, by where it says it. */
interface Parsed {
  id?: string;
  /** The element's own cvParams and its scans' (not its precursors' or arrays'). */
  own: Param[];
  /** The first selectedIon of the first precursor. */
  ion: Param[];
  arrays: DataArray[];
}

const MS_LEVEL = 'MS:1000511';
const MS1_SPECTRUM = 'MS:1000579';
const NEGATIVE_SCAN = 'MS:1000129';
const SCAN_START_TIME = 'MS:1000016';
const SELECTED_ION_MZ = 'MS:1000744';
const PEAK_INTENSITY = 'MS:1000042';
const CHARGE_STATE = 'MS:1000041';
const POSSIBLE_CHARGE_STATE = 'MS:1000633';
const MZ_ARRAY = 'MS:1000514';
const INTENSITY_ARRAY = 'MS:1000515';
const CENTROID_SPECTRUM = 'MS:1000127';
const PROFILE_SPECTRUM = 'MS:1000128';
const ZLIB = 'MS:1000574';
const NO_COMPRESSION = 'MS:1000576';
/** MS-Numpress linear, pic and slof, alone or followed by zlib. */
const NUMPRESS: Record<string, { scheme: Numpress; zlib: boolean }> = {
  'MS:1002312': { scheme: 'linear', zlib: false },
  'MS:1002313': { scheme: 'pic', zlib: false },
  'MS:1002314': { scheme: 'slof', zlib: false },
  'MS:1002746': { scheme: 'linear', zlib: true },
  'MS:1002747': { scheme: 'pic', zlib: true },
  'MS:1002748': { scheme: 'slof', zlib: true },
};
/** Binary data types: bytes per value and how to read one (little-endian, as mzML stores them). */
const TYPES: Record<string, [number, (view: DataView, at: number) => number]> = {
  'MS:1000521': [4, (v, at) => v.getFloat32(at, true)],
  'MS:1000523': [8, (v, at) => v.getFloat64(at, true)],
  'MS:1000519': [4, (v, at) => v.getInt32(at, true)],
  'MS:1000522': [8, (v, at) => Number(v.getBigInt64(at, true))],
};
/** Seconds per unit of scan start time, by unit accession and by unit name. */
const SECONDS: Record<string, number> = { 'UO:0000010': 1, second: 1, 'UO:0000031': 60, minute: 60 };

/** Start tags of the elements read; other names that begin alike (spectrumList, …Ref, …List) are not these. */
const START = /<(spectrum|referenceableParamGroup)[\s>]/;
/** Characters kept between chunks outside an element: enough for a start tag split by a chunk boundary. */
const CARRY = 32;
/** A start, end or empty-element tag; quoted attribute values may hold `>`. */
const TAG = /<(\/?)([A-Za-z_][\w.:-]*)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/g;
const ATTRIBUTE = /([^\s=]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
const ENTITY = /&(?:(amp|lt|gt|quot|apos)|#(\d+)|#x([\da-fA-F]+));/g;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

const quoted = (text: string) => JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);
const find = (params: readonly Param[], accession: string) => params.find((p) => p.accession === accession);

/** An attribute value with its XML character and entity references replaced (unknown ones kept). */
function decodeEntities(text: string): string {
  return text.replace(ENTITY, (all, name: string, dec: string, hex: string) => {
    if (name) return NAMED[name];
    const code = dec ? Number(dec) : Number.parseInt(hex, 16);
    return code <= 0x10ffff ? String.fromCodePoint(code) : all;
  });
}

const attributes = (text: string): Record<string, string> =>
  Object.fromEntries(Array.from(text.matchAll(ATTRIBUTE), (m) => [m[1], decodeEntities(m[2] ?? m[3])]));

/** An element's cvParams sorted by where they stand; `groups`' params stand in for their references. */
function parseElement(text: string, groups: ReadonlyMap<string, Param[]>): Parsed {
  const parsed: Parsed = { own: [], ion: [], arrays: [] };
  const stack: string[] = [];
  const tags = new RegExp(TAG.source, 'g');
  let precursors = 0;
  let ions = 0;
  for (let m = tags.exec(text); m; m = tags.exec(text)) {
    const [, close, name, attributeText, empty] = m;
    if (close) {
      stack.pop();
      continue;
    }
    const attrs = attributes(attributeText);
    if (stack.length === 0) parsed.id = attrs.id;
    else if (name === 'precursor') precursors++;
    else if (name === 'selectedIon' && precursors === 1 && stack.at(-1) === 'selectedIonList') ions++;
    else if (name === 'binaryDataArray') parsed.arrays.push({ params: [], base64: '' });
    else if (name === 'binary' && !empty && parsed.arrays.length > 0) {
      const end = text.indexOf('<', tags.lastIndex); // base64 holds no `<`
      parsed.arrays.at(-1)!.base64 = text.slice(tags.lastIndex, end < 0 ? text.length : end);
      if (end >= 0) tags.lastIndex = end;
    } else if (name === 'cvParam' || name === 'referenceableParamGroupRef') {
      const { accession = '', name: term = '', value = '', unitAccession, unitName } = attrs;
      const params: Param[] = name === 'cvParam' ? [{ accession, name: term, value, unitAccession, unitName }] : [];
      if (name === 'referenceableParamGroupRef') params.push(...(groups.get(attrs.ref) ?? []));
      if (stack.includes('binaryDataArray')) parsed.arrays.at(-1)?.params.push(...params);
      else if (!stack.includes('precursor')) parsed.own.push(...params);
      else if (stack.at(-1) === 'selectedIon' && precursors === 1 && ions === 1) parsed.ion.push(...params);
    }
    if (!empty) stack.push(name);
  }
  return parsed;
}

/** Bytes of base64 text (white space allowed), or undefined when it is not base64. */
function base64Bytes(text: string): Uint8Array | undefined {
  const clean = text.replace(/\s+/g, '');
  if (clean.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(clean)) return undefined;
  const binary = atob(clean);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

async function inflate(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream('deflate'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** The values of a binaryDataArray, or why they cannot be read. */
async function decodeArray(array: DataArray | undefined, kind: string): Promise<Float64Array | string> {
  if (!array) return `has no ${kind} array`;
  const numpress = array.params.map((p) => NUMPRESS[p.accession]).find((n) => n !== undefined);
  const type = array.params.find((p) => Object.hasOwn(TYPES, p.accession));
  // A numpress array's data type is that of the values it decodes to: the bytes are numpress's own.
  if (!type && !numpress) return `gives no binary data type (32- or 64-bit float or integer) for its ${kind} array`;
  const compression = array.params.find((p) => p.accession === ZLIB || /compression/i.test(p.name));
  const zlib = compression?.accession === ZLIB || numpress?.zlib;
  if (compression && !numpress && compression.accession !== ZLIB && compression.accession !== NO_COMPRESSION)
    return `has a ${kind} array in ${compression.name} (${compression.accession}), which this reader cannot decode`;
  let bytes = base64Bytes(array.base64);
  if (!bytes) return `has a ${kind} array that is not base64`;
  if (zlib && bytes.length > 0) {
    try {
      bytes = await inflate(bytes);
    } catch (e) {
      return `has a zlib-compressed ${kind} array that cannot be inflated (${(e as Error).message})`;
    }
  }
  if (numpress) {
    try {
      return decodeNumpress(numpress.scheme, bytes);
    } catch (e) {
      if (!(e instanceof NumpressError)) throw e;
      return `has an MS-Numpress ${numpress.scheme} ${kind} array that cannot be decoded (${e.message})`;
    }
  }
  const [width, read] = TYPES[type!.accession];
  if (bytes.length % width !== 0)
    return `has a ${kind} array of ${bytes.length} bytes, not a whole number of ${type!.name} values`;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const values = new Float64Array(bytes.length / width);
  for (let i = 0; i < values.length; i++) values[i] = read(view, i * width);
  return values;
}

/** Signed charges of the selected ion: its charge state, else its possible charge states; or why not. */
function chargesOf(ion: readonly Param[], negative: boolean): number[] | string {
  const stated = ion.filter((p) => p.accession === CHARGE_STATE);
  const given = stated.length > 0 ? stated : ion.filter((p) => p.accession === POSSIBLE_CHARGE_STATE);
  const charges: number[] = [];
  for (const { value } of given) {
    const z = value.trim() === '' ? NaN : Number(value);
    if (z === 0) continue; // some writers state 0 for an unknown charge
    if (!Number.isInteger(z) || Math.abs(z) > MAX_CHARGE)
      return `has a charge state ${quoted(value)} that is not a charge of 1 to ${MAX_CHARGE}`;
    const signed = negative || z < 0 ? -Math.abs(z) : z;
    if (!charges.includes(signed)) charges.push(signed);
  }
  return charges;
}

/** Scan start time in seconds (the unit mzML implies when none is given); undefined for an unknown unit. */
function seconds(param: Param | undefined): number | undefined {
  const value = param && param.value.trim() !== '' ? Number(param.value) : NaN;
  if (!param || !Number.isFinite(value)) return undefined;
  const units = [param.unitAccession, param.unitName].filter((u) => u !== undefined);
  const unit = units.find((u) => Object.hasOwn(SECONDS, u));
  if (unit !== undefined) return value * SECONDS[unit];
  return units.length === 0 ? value : undefined;
}

/** Peaks in ascending m/z (files are mostly sorted; not all are). */
function peakList(mz: Float64Array, intensity: Float64Array): PeakList {
  if (mz.every((v, i) => i === 0 || v >= mz[i - 1])) return { mz, intensity };
  const order = Array.from(mz, (_, i) => i).sort((a, b) => mz[a] - mz[b]);
  return { mz: Float64Array.from(order, (i) => mz[i]), intensity: Float64Array.from(order, (i) => intensity[i]) };
}

/** The ms level a spectrum states (an MS1 spectrum term says 1), NaN when it is not a number. */
function msLevel(own: readonly Param[]): number | undefined {
  const level = find(own, MS_LEVEL);
  if (level) return level.value.trim() === '' ? NaN : Number(level.value);
  return find(own, MS1_SPECTRUM) ? 1 : undefined;
}

const mzArrayOf = (parsed: Parsed) => parsed.arrays.find((a) => find(a.params, MZ_ARRAY));
const intensityArrayOf = (parsed: Parsed) => parsed.arrays.find((a) => find(a.params, INTENSITY_ARRAY));

/** A spectrum's m/z and intensity arrays decoded, as peaks in ascending m/z; or why they cannot be. */
async function peaksOf(parsed: Parsed): Promise<PeakList | string> {
  const mzs = await decodeArray(mzArrayOf(parsed), 'm/z');
  if (typeof mzs === 'string') return mzs;
  const intensities = await decodeArray(intensityArrayOf(parsed), 'intensity');
  if (typeof intensities === 'string') return intensities;
  if (mzs.length !== intensities.length) return `has ${mzs.length} m/z values but ${intensities.length} intensities`;
  return peakList(mzs, intensities);
}

/** A malformed item for the spectrum `title` whose start tag is at `line`. */
const malformedSpectrum = (title: string | undefined, line: number, error: string): { malformed: Malformed } => ({
  malformed: { line, error: `spectrum ${title === undefined ? 'without an id' : quoted(title)} ${error}` },
});

/** Why a spectrum's ms level cannot be read, if it cannot. */
function levelError(level: number | undefined): string | undefined {
  if (level === undefined) return `gives no ms level (${MS_LEVEL})`;
  if (!Number.isInteger(level) || level < 1) return `has an ms level (${MS_LEVEL}) that is not a whole number`;
  return undefined;
}

/** The item of an MS2+ spectrum: the spectrum with its peaks, or why it cannot be read. */
async function spectrumItem(parsed: Parsed, index: number, line: number): Promise<MgfItem> {
  const title = parsed.id;
  const fail = (error: string): MgfItem => malformedSpectrum(title, line, error);
  const unreadable = levelError(msLevel(parsed.own));
  if (unreadable) return fail(unreadable);
  const precursor = find(parsed.ion, SELECTED_ION_MZ);
  if (!precursor) return fail(`has no precursor m/z (selected ion m/z, ${SELECTED_ION_MZ})`);
  const mz = precursor.value.trim() === '' ? NaN : Number(precursor.value);
  if (!(mz > 0 && mz <= MAX_PRECURSOR_MASS))
    return fail(`has a precursor m/z ${quoted(precursor.value)} that is not above 0 and at most ${MAX_PRECURSOR_MASS}`);
  const charges = chargesOf(parsed.ion, find(parsed.own, NEGATIVE_SCAN) !== undefined);
  if (typeof charges === 'string') return fail(charges);
  const peaks = await peaksOf(parsed);
  if (typeof peaks === 'string') return fail(peaks);
  const intensityText = find(parsed.ion, PEAK_INTENSITY)?.value.trim();
  const intensity = intensityText ? Number(intensityText) : NaN;
  return {
    spectrum: {
      index,
      line,
      title,
      scans: title === undefined ? undefined : /(?:^|\s)scan=(\d+)/.exec(title)?.[1],
      rtSeconds: seconds(find(parsed.own, SCAN_START_TIME)),
      mz,
      intensity: Number.isFinite(intensity) ? intensity : undefined,
      charges,
      peaks,
    },
  };
}

/** An MS1 spectrum: its native id, where it starts, its peaks and whether they are centroids or a profile. */
export interface Ms1Spectrum {
  /** Ordinal among the file's MS1 spectra, from 1. */
  index: number;
  /** Line of its start tag, from 1. */
  line: number;
  title?: string;
  rtSeconds?: number;
  /** What the spectrum says its peaks are (MS:1000127, MS:1000128), when it says. */
  representation?: 'centroid' | 'profile';
  peaks: PeakList;
}

export type Ms1Item = { ms1: Ms1Spectrum } | { malformed: Malformed };

/** The item of an MS1 spectrum (or of one whose ms level cannot be read): its peaks, or why they cannot be read. */
async function ms1Item(parsed: Parsed, index: number, line: number): Promise<Ms1Item> {
  const title = parsed.id;
  const unreadable = levelError(msLevel(parsed.own));
  if (unreadable) return malformedSpectrum(title, line, unreadable);
  const peaks = await peaksOf(parsed);
  if (typeof peaks === 'string') return malformedSpectrum(title, line, peaks);
  const representation = find(parsed.own, CENTROID_SPECTRUM)
    ? 'centroid'
    : find(parsed.own, PROFILE_SPECTRUM)
      ? 'profile'
      : undefined;
  return {
    ms1: {
      index,
      line,
      title,
      rtSeconds: seconds(find(parsed.own, SCAN_START_TIME)),
      ...(representation && { representation }),
      peaks,
    },
  };
}

/** Line ends in `text` from `from` to `to`. */
function newlines(text: string, from = 0, to = text.length): number {
  let n = 0;
  for (let at = text.indexOf('\n', from); at >= 0 && at < to; at = text.indexOf('\n', at + 1)) n++;
  return n;
}

/** An element's text, gathered chunk by chunk until its end tag. */
interface Open {
  name: string;
  line: number;
  parts: string[];
  /** The last characters gathered, where the end tag may have begun. */
  tail: string;
}

/** The items of an mzML file given as text or byte chunks (UTF-8), in file order: MS2+ spectra with their peaks. */
export function readMzml(
  chunks: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>,
): AsyncGenerator<MgfItem> {
  return spectraOf(chunks, (level) => level !== 1, spectrumItem);
}

/**
 * The MS1 spectra of an mzML file given as text or byte chunks (UTF-8), in file order, with their peaks: what a
 * peptide mass fingerprint reads (a MALDI run, an imaging run's pixels). A spectrum whose ms level cannot be read is
 * reported too: it may be one.
 */
export function readMzmlMs1(
  chunks: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>,
): AsyncGenerator<Ms1Item> {
  return spectraOf(chunks, (level) => !(level !== undefined && Number.isInteger(level) && level > 1), ms1Item);
}

/**
 * The items `item` makes of the spectra whose ms level `wanted` takes (numbered from 1 in file order), each
 * parsed with the referenceableParamGroups before it; a spectrum cut short by the end of the file is malformed.
 */
async function* spectraOf<T>(
  chunks: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>,
  wanted: (level: number | undefined) => boolean,
  item: (parsed: Parsed, index: number, line: number) => Promise<T>,
): AsyncGenerator<T | { malformed: Malformed }> {
  const decoder = new TextDecoder();
  const groups = new Map<string, Param[]>();
  let lines = 0; // line ends before `rest` (or before the open element's text)
  let rest = ''; // text outside any element not yet searched
  let open: Open | undefined;
  let index = 0;
  async function* complete(element: Open): AsyncGenerator<T> {
    const text = element.parts.join('');
    lines += newlines(text);
    const parsed = parseElement(text, groups);
    if (element.name === 'referenceableParamGroup') groups.set(parsed.id ?? '', parsed.own);
    else if (wanted(msLevel(parsed.own))) yield await item(parsed, ++index, element.line);
  }
  function* elements(chunk: string): Generator<Open> {
    let text = chunk;
    while (text !== '') {
      if (open) {
        const end = `</${open.name}>`;
        const at = (open.tail + text).indexOf(end);
        if (at < 0) {
          open.parts.push(text);
          open.tail = (open.tail + text).slice(-end.length);
          return;
        }
        const cut = at + end.length - open.tail.length;
        open.parts.push(text.slice(0, cut));
        text = text.slice(cut);
        yield open;
        open = undefined;
      } else {
        const all = rest + text;
        const start = START.exec(all);
        const keep = start ? start.index : Math.max(0, all.length - CARRY);
        lines += newlines(all, 0, keep);
        rest = start ? '' : all.slice(keep);
        if (!start) return;
        open = { name: start[1], line: lines + 1, parts: [], tail: '' };
        text = all.slice(keep);
      }
    }
  }
  for await (const chunk of chunks) {
    const text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    for (const element of elements(text)) yield* complete(element);
  }
  for (const element of elements(decoder.decode())) yield* complete(element);
  if (open?.name === 'spectrum') {
    const { id } = parseElement(open.parts.join(''), groups);
    const name = id === undefined ? 'without an id' : quoted(id);
    yield {
      malformed: { line: open.line, error: `spectrum ${name} is cut short: the file ends before its </spectrum>` },
    };
  }
}

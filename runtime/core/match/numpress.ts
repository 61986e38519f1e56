// MS-Numpress, the compression msconvert and OpenMS may write mzML arrays in (Teleman et al., "Numerical compression
// schemes for proteomics mass spectrometry data", Mol Cell Proteomics 2014; the reference implementation is
// github.com/ms-numpress/ms-numpress): m/z and times as fixed-point integers predicted linearly from the two before
// (linear), intensities rounded to whole numbers (pic) or as short logarithms (slof). The integers of linear and pic
// are written in half-bytes: a count of leading zero (or, past 8, one) half-bytes, then the rest, lowest first.

/** A numpress scheme, by the name of its PSI-MS term. */
export type Numpress = 'linear' | 'pic' | 'slof';

/** Numpress data that cannot be decoded: the message says why. */
export class NumpressError extends Error {}

/** The values of numpress-encoded `bytes` (after any zlib that followed it is undone). */
export function decodeNumpress(scheme: Numpress, bytes: Uint8Array): Float64Array {
  if (scheme === 'slof') return decodeSlof(bytes);
  return scheme === 'linear' ? decodeLinear(bytes) : Float64Array.from(halfByteInts(bytes, 0));
}

/** The fixed point the encoder chose, a big-endian double at the start. */
function fixedPointOf(bytes: Uint8Array): number {
  if (bytes.length < 8) throw new NumpressError('fewer than 8 bytes: no fixed point');
  return new DataView(bytes.buffer, bytes.byteOffset, 8).getFloat64(0, false);
}

/**
 * Linear prediction: the first two values as little-endian 32-bit integers, then each value's difference from the
 * line through the two before it, as half-byte integers; every integer over the fixed point.
 */
function decodeLinear(bytes: Uint8Array): Float64Array {
  const fixedPoint = fixedPointOf(bytes);
  if (bytes.length === 8) return new Float64Array(0);
  if (bytes.length !== 12 && bytes.length < 16) throw new NumpressError('a first or second value cut short');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const first = view.getUint32(8, true);
  if (bytes.length === 12) return Float64Array.of(first / fixedPoint);
  const diffs = halfByteInts(bytes, 16);
  const values = new Float64Array(2 + diffs.length);
  // The integers are 64-bit in the reference: kept as doubles they stay exact (well below 2^53).
  let before = first;
  let last = view.getUint32(12, true);
  values[0] = before / fixedPoint;
  values[1] = last / fixedPoint;
  for (let i = 0; i < diffs.length; i++) {
    // The difference is a 32-bit signed integer.
    const next = 2 * last - before + (diffs[i] | 0);
    values[i + 2] = next / fixedPoint;
    before = last;
    last = next;
  }
  return values;
}

/** Short logged float: each value a little-endian 16-bit integer x, the value exp(x / fixed point) − 1. */
function decodeSlof(bytes: Uint8Array): Float64Array {
  const fixedPoint = fixedPointOf(bytes);
  if ((bytes.length - 8) % 2 !== 0) throw new NumpressError('an odd number of bytes after the fixed point');
  const values = new Float64Array((bytes.length - 8) / 2);
  for (let i = 0; i < values.length; i++)
    values[i] = Math.exp((bytes[8 + 2 * i] | (bytes[9 + 2 * i] << 8)) / fixedPoint) - 1;
  return values;
}

/** The unsigned 32-bit integers written in half-bytes from byte `start` to the end. */
function halfByteInts(bytes: Uint8Array, start: number): number[] {
  const halves = (bytes.length - start) * 2;
  const half = (h: number) => {
    const byte = bytes[start + (h >> 1)];
    return h & 1 ? byte & 0xf : byte >> 4;
  };
  const ints: number[] = [];
  let h = 0;
  // A last lone half-byte of 0 only pads the last byte.
  while (h < halves && !(h === halves - 1 && half(h) === 0)) {
    const head = half(h++);
    // head ≤ 8: that many leading zero half-bytes; head > 8: head − 8 leading 0xf half-bytes.
    const leading = head <= 8 ? head : head - 8;
    if (h + (8 - leading) > halves) throw new NumpressError('an integer cut short');
    let value = head <= 8 ? 0 : (0xffffffff << (4 * (8 - leading))) >>> 0;
    for (let i = 0; i < 8 - leading; i++) value = (value | (half(h++) << (4 * i))) >>> 0;
    ints.push(value);
  }
  return ints;
}

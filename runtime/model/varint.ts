// Unsigned LEB128 varints, the integer encoding of the format's columns: 7 bits per byte, low bits first, the high
// bit set on every byte but a value's last. Values are integers in [0, 2^32).

/** The varints of `values`, concatenated. */
export function encodeVarints(values: ArrayLike<number>): Uint8Array {
  const out = new Uint8Array(values.length * 5);
  let at = 0;
  for (let i = 0; i < values.length; i++) {
    let v = values[i];
    if (!(v >= 0 && v <= 0xffffffff && Number.isInteger(v)))
      throw new RangeError(`varint value ${v} is not an integer in [0, 2^32)`);
    while (v >= 0x80) {
      out[at++] = (v & 0x7f) | 0x80;
      v = Math.floor(v / 128);
    }
    out[at++] = v;
  }
  return out.slice(0, at);
}

/** The values of concatenated varints; throws when a varint is cut short or exceeds 32 bits. */
export function decodeVarints(bytes: Uint8Array): Uint32Array {
  let count = 0;
  for (let i = 0; i < bytes.length; i++) if (bytes[i] < 0x80) count++;
  const values = new Uint32Array(count);
  let at = 0;
  for (let i = 0; i < count; i++) {
    let byte = bytes[at++];
    if (byte < 0x80) {
      values[i] = byte; // the common case: one byte
      continue;
    }
    let value = byte & 0x7f;
    let scale = 128;
    do {
      byte = bytes[at++];
      value += (byte & 0x7f) * scale;
      scale *= 128;
    } while (byte >= 0x80);
    if (value > 0xffffffff) throw new RangeError('varint exceeds 32 bits');
    values[i] = value;
  }
  if (at !== bytes.length) throw new RangeError('varint column ends inside a value');
  return values;
}

// Text written into one growing byte buffer — ASCII as is, any other text as UTF-8 where the caller says it may
// come: how answers are assembled without building JS strings.

import { copyRun } from '../model/byteRun.js';

const utf8 = new TextEncoder();

const INT32_MAX = 2 ** 31 - 1;

/** Bytes a writer starts with; it doubles as needed. */
const INITIAL_BYTES = 1 << 14;

/** Runs of at most this many bytes are copied in a loop: a native copy's call and view cost more. */
const SHORT_COPY = 64;

/** ASCII text written into one growing byte buffer. */
export class AsciiWriter {
  private bytes = new Uint8Array(INITIAL_BYTES);
  /** The same bytes, for copyWords and room. */
  private words = new DataView(this.bytes.buffer);
  length = 0;

  /** Bytes the writer holds room for. */
  get capacity(): number {
    return this.bytes.length;
  }

  private reserve(n: number): void {
    if (this.length + n <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.length + n));
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
    this.words = new DataView(grown.buffer);
  }

  /** Characters start..end of `text`, which must be ASCII. */
  write(text: string, start = 0, end = text.length): void {
    this.reserve(end - start);
    const bytes = this.bytes;
    let at = this.length;
    for (let i = start; i < end; i++) bytes[at++] = text.charCodeAt(i);
    this.length = at;
  }

  /** Characters start..end of `text` as UTF-8: byte by byte while they are ASCII, the rest encoded natively. */
  writeUtf8(text: string, start = 0, end = text.length): void {
    this.reserve(end - start);
    const bytes = this.bytes;
    let at = this.length;
    for (let i = start; i < end; i++) {
      const code = text.charCodeAt(i);
      if (code >= 0x80) {
        this.length = at;
        this.reserve(3 * (end - i)); // UTF-8 takes at most 3 bytes for each UTF-16 unit
        this.length += utf8.encodeInto(text.slice(i, end), this.bytes.subarray(this.length)).written;
        return;
      }
      bytes[at++] = code;
    }
    this.length = at;
  }

  /** A non-negative integer in decimal (no string made). */
  writeInt(n: number): void {
    if (n >= 0 && n <= INT32_MAX && (n | 0) === n) return this.writeInt32(n);
    if (!(Number.isSafeInteger(n) && n >= 0)) return this.write(String(n));
    let digits = 1;
    for (let rest = n; rest >= 10; rest = Math.floor(rest / 10)) digits++;
    this.reserve(digits);
    for (let at = this.length + digits - 1, rest = n; at >= this.length; at--, rest = Math.floor(rest / 10))
      this.bytes[at] = 48 + (rest % 10);
    this.length += digits;
  }

  /**
   * writeInt of 0 ≤ n < 2^31, in 32-bit integer arithmetic (masses, ppm errors and taxIds are written by the million).
   */
  private writeInt32(n: number): void {
    const digits =
      n < 10
        ? 1
        : n < 100
          ? 2
          : n < 1000
            ? 3
            : n < 10000
              ? 4
              : n < 100000
                ? 5
                : n < 1000000
                  ? 6
                  : n < 10000000
                    ? 7
                    : n < 100000000
                      ? 8
                      : n < 1000000000
                        ? 9
                        : 10;
    this.reserve(digits);
    const bytes = this.bytes;
    for (let at = this.length + digits - 1, rest = n; at >= this.length; at--) {
      const tenth = (rest / 10) | 0;
      bytes[at] = 48 + rest - tenth * 10;
      rest = tenth;
    }
    this.length += digits;
  }

  /**
   * `whole`, a point and `fraction` (0 ≤ fraction < 10^places < 2^31) in `places` digits, zero-padded; `trimmed`:
   * trailing zeros dropped, and the point with them when the fraction is 0 (as String() writes a number).
   */
  writeDecimal(whole: number, fraction: number, places: number, trimmed: boolean): void {
    this.writeInt(whole);
    if (trimmed) {
      if (fraction === 0) return;
      for (let tenth = (fraction / 10) | 0; tenth * 10 === fraction; tenth = (fraction / 10) | 0)
        (fraction = tenth), places--;
    }
    this.reserve(places + 1);
    const bytes = this.bytes;
    bytes[this.length] = 46; // '.'
    for (let at = this.length + places; at > this.length; at--) {
      const tenth = (fraction / 10) | 0;
      bytes[at] = 48 + fraction - tenth * 10;
      fraction = tenth;
    }
    this.length += places + 1;
  }

  /** Bytes start..end of `source` (ASCII): byte by byte when short (an accession), else in one native copy. */
  copy(source: Uint8Array, start: number, end: number): void {
    this.reserve(end - start);
    if (end - start <= SHORT_COPY) {
      const bytes = this.bytes;
      let at = this.length;
      for (let i = start; i < end; i++) bytes[at++] = source[i];
    } else {
      this.bytes.set(source.subarray(start, end), this.length);
    }
    this.length += end - start;
  }

  /**
   * Bytes start..end of the bytes `source` views whole (ASCII), by words (copyRun): for the short runs an answer copies
   * by the thousand (a cached entry's head, its accessions), two to four times faster than copy's loop or native copy.
   */
  copyWords(source: DataView, start: number, end: number): void {
    this.reserve(end - start);
    this.length = copyRun(this.words, this.length, source, start, end);
  }

  /**
   * The buffer as a DataView, with room for `n` more bytes from `length` on: for a caller that writes them itself
   * (copyRun copies into it), then sets `length`. Valid until the writer next grows.
   */
  room(n: number): DataView {
    this.reserve(n);
    return this.words;
  }

  /** Starts a text, keeping `headroom` bytes free in front of it for a prefix written last. */
  start(headroom: number): void {
    this.length = 0;
    this.reserve(headroom);
    this.length = headroom;
  }

  /** `prefix` (ASCII, at most `headroom` long) and the bytes written since start(headroom), copied out. */
  take(prefix: string, headroom: number): Uint8Array<ArrayBuffer> {
    if (prefix.length > headroom) throw new Error('prefix longer than its headroom');
    const from = headroom - prefix.length;
    for (let i = 0; i < prefix.length; i++) this.bytes[from + i] = prefix.charCodeAt(i);
    return this.takeBytes(from);
  }

  /** Drops the last `n` bytes written. */
  unwrite(n: number): void {
    this.length -= n;
  }

  /** A copy of the bytes written from `from` on; the writer is empty again. */
  takeBytes(from = 0): Uint8Array<ArrayBuffer> {
    const bytes = this.bytes.slice(from, this.length);
    this.length = 0;
    return bytes;
  }
}

const idle: AsciiWriter[] = [];

/**
 * `write(writer)` with a writer from a small pool (answers are written synchronously, so one is rarely out at a
 * time): a buffer grown by one large answer serves the next ones, as buffers of a fresh writer would not.
 */
export function withWriter<T>(write: (w: AsciiWriter) => T): T {
  const w = idle.pop() ?? new AsciiWriter();
  try {
    return write(w);
  } finally {
    w.length = 0;
    if (idle.length < 4 && w.capacity <= 1 << 24) idle.push(w); // a huge buffer is not kept
  }
}

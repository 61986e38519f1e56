// Tests runtime/api/asciiWriter.ts: writeInt against String(); writeUtf8 against TextEncoder; write (whole and slices),
// copy and copyWords (every length 0..40 from every offset mod 8, of a subarray's view, into a writer at every
// alignment), growing past the initial 16 KiB and past double it in one write; start/take with headroom for a prefix
// written last; room for bytes put by the caller; unwrite; takeBytes copies out and leaves the writer empty and
// reusable.
import { describe, expect, it } from 'vitest';
import { AsciiWriter } from '../../../runtime/api/asciiWriter.js';

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');
/** The writer's initial 16 KiB. */
const INITIAL_ROOM = 1 << 14;

/** Deterministic ASCII text of `n` characters that differs at every position mod 95. */
const ascii = (n: number, shift = 0) =>
  Array.from({ length: n }, (_, i) => String.fromCharCode(32 + ((i + shift) % 95))).join('');

describe('AsciiWriter', () => {
  it('writeInt writes a number as String() does: every digit count, the safe limit, and the rest as text', () => {
    const w = new AsciiWriter();
    const numbers = [
      0,
      7,
      9,
      10,
      99,
      100,
      9606,
      2_147_483_647,
      4_294_967_295,
      Number.MAX_SAFE_INTEGER,
      -5,
      1.5,
      2 ** 60,
    ];
    for (const n of numbers) w.writeInt(n), w.write(',');
    expect(text(w.takeBytes())).toBe(numbers.map((n) => `${String(n)},`).join(''));
    // Each digit count on both sides of the 32-bit fast path: 10^k − 1 and 10^k, and 2^31 − 1 and 2^31.
    const edges = Array.from({ length: 16 }, (_, k) => [10 ** k - 1, 10 ** k])
      .flat()
      .concat([2 ** 31 - 1, 2 ** 31, 2 ** 31 + 1]);
    for (const n of edges) w.writeInt(n), w.write(',');
    expect(text(w.takeBytes())).toBe(edges.map((n) => `${String(n)},`).join(''));
    w.write(ascii(16383));
    w.writeInt(123456789); // grows the buffer mid-number
    expect(text(w.takeBytes()).slice(16383)).toBe('123456789');
  });

  it('writeDecimal writes whole.fraction zero-padded to its places, or as String() writes the number when trimmed', () => {
    let seed = 99;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const w = new AsciiWriter();
    for (let places = 1; places <= 9; places++) {
      const fractions = [
        0,
        1,
        10 % 10 ** places,
        10 ** places - 1,
        ...Array.from({ length: 200 }, () => Math.floor(random() * 10 ** places)),
        ...Array.from({ length: 50 }, () => Math.floor(random() * 10) * 10 ** (places - 1)),
      ];
      for (const fraction of fractions) {
        const whole = Math.floor(random() * 100_000);
        const padded = `${whole}.${String(fraction).padStart(places, '0')}`;
        w.writeDecimal(whole, fraction, places, false);
        expect(text(w.takeBytes())).toBe(padded);
        w.writeDecimal(whole, fraction, places, true);
        expect(text(w.takeBytes()), padded).toBe(String(Number(padded)));
      }
    }
  });

  it('writes text and slices of it', () => {
    const w = new AsciiWriter();
    w.write('hello');
    w.write('[abc]', 1, 4);
    w.write('xyz', 3);
    w.write('');
    expect(w.length).toBe(8);
    expect(text(w.takeBytes())).toBe('helloabc');
  });

  it('writeUtf8 writes any text as TextEncoder encodes it: ASCII, 2-, 3- and 4-byte characters, slices, lone surrogates, past the buffer', () => {
    const w = new AsciiWriter();
    const texts = [
      'plain',
      'Zürich µg/mL',
      'naïve café',
      '試料 №7',
      'scan 😀 end',
      '\uD800 lone',
      ascii(16380) + 'éé€',
    ];
    for (const t of texts) w.writeUtf8(t), w.write('|');
    w.writeUtf8('xxÅngström yy', 2, 11);
    expect(new TextDecoder().decode(w.takeBytes())).toBe(
      new TextDecoder().decode(new TextEncoder().encode(texts.join('|') + '|' + 'Ångström ')),
    );
    // A slice that starts after a non-ASCII character and holds only ASCII: nothing before `start` is written.
    w.writeUtf8('é abc', 1);
    expect(text(w.takeBytes())).toBe(' abc');
  });

  it('copies byte ranges', () => {
    const w = new AsciiWriter();
    const source = new TextEncoder().encode('0123456789');
    w.copy(source, 2, 5);
    w.copy(source, 0, 0);
    w.copy(source, 9, 10);
    expect(text(w.takeBytes())).toBe('2349');
    // Runs on either side of the length copied byte by byte, from several offsets.
    const long = ascii(64, 3);
    const bytes = new TextEncoder().encode(long);
    let expected = '';
    for (let n = 0; n <= 40; n++) {
      w.copy(bytes, n % 7, (n % 7) + n);
      expected += long.slice(n % 7, (n % 7) + n);
    }
    expect(text(w.takeBytes())).toBe(expected);
  });

  it('copyWords copies what copy does: every length and source offset, any alignment, a view of a subarray, across growth', () => {
    const whole = Uint8Array.from(ascii(300), (c) => c.charCodeAt(0));
    const source = whole.subarray(13, 250); // a view with a byte offset, as a cached entry's bytes may be
    const words = new DataView(source.buffer, source.byteOffset, source.byteLength);
    const [a, b] = [new AsciiWriter(), new AsciiWriter()];
    for (let lead = 0; lead < 8; lead++) {
      a.write('x'.repeat(lead));
      b.write('x'.repeat(lead));
      for (let start = 0; start < 8; start++) {
        for (let length = 0; length <= 40; length++) {
          a.copy(source, start, start + length);
          b.copyWords(words, start, start + length);
        }
      }
    }
    expect(b.length).toBeGreaterThan(1 << 14); // past the initial buffer: the writer's own view follows it
    expect(text(b.takeBytes())).toBe(text(a.takeBytes()));
  });

  it('grows across the initial size by many small writes, keeping every byte', () => {
    const w = new AsciiWriter();
    let expected = '';
    for (let i = 0; i < 5000; i++) {
      const piece = ascii(1 + (i % 23), i);
      w.write(piece);
      expected += piece;
    }
    expect(expected.length).toBeGreaterThan(3 * 16384);
    expect(w.length).toBe(expected.length);
    expect(text(w.takeBytes())).toBe(expected);
  });

  it('grows past double its size in one write or copy', () => {
    const w = new AsciiWriter();
    const big = ascii(100_000);
    w.write('<');
    w.write(big);
    const bytes = new TextEncoder().encode(ascii(70_000, 5));
    w.copy(bytes, 10, 70_000);
    expect(text(w.takeBytes())).toBe('<' + big + ascii(70_000, 5).slice(10));
  });

  it('room gives the buffer as a DataView with room for n more bytes, keeping what was written; bytes put there count once length moves past them', () => {
    const w = new AsciiWriter();
    w.write('abc');
    for (const n of [0, 10, INITIAL_ROOM, 3 * INITIAL_ROOM]) {
      const view = w.room(n);
      expect(view.byteLength).toBeGreaterThanOrEqual(w.length + n);
      expect(String.fromCharCode(view.getUint8(0), view.getUint8(1), view.getUint8(2))).toBe('abc');
    }
    const view = w.room(2);
    view.setUint8(w.length, 100);
    view.setUint8(w.length + 1, 101);
    w.length += 2;
    w.write('f');
    expect(Buffer.from(w.takeBytes()).toString('latin1')).toBe('abcdef');
  });

  it('take writes the prefix just before the text started with headroom', () => {
    const w = new AsciiWriter();
    w.start(16);
    w.write('"body"');
    expect(text(w.take('{"a":', 16))).toBe('{"a":"body"');
    w.start(8);
    w.write('x');
    expect(text(w.take('12345678', 8))).toBe('12345678x');
    w.start(4);
    expect(text(w.take('', 4))).toBe('');
  });

  it('take keeps the prefix after the buffer grew', () => {
    const w = new AsciiWriter();
    const body = ascii(50_000);
    w.start(256);
    w.write(body);
    expect(text(w.take('{"result":', 256))).toBe('{"result":' + body);
  });

  it('take refuses a prefix longer than its headroom', () => {
    const w = new AsciiWriter();
    w.start(3);
    w.write('x');
    expect(() => w.take('abcd', 3)).toThrow('prefix longer than its headroom');
  });

  it('unwrite drops the last bytes written', () => {
    const w = new AsciiWriter();
    w.write('[1,2,');
    w.unwrite(1);
    w.write(']');
    expect(text(w.takeBytes())).toBe('[1,2]');
    w.start(2);
    w.write('ab,');
    w.unwrite(1);
    expect(text(w.take('<>', 2))).toBe('<>ab');
  });

  it('takeBytes returns a copy from `from` on and leaves the writer empty and reusable', () => {
    const w = new AsciiWriter();
    w.write('abcdef');
    const first = w.takeBytes(2);
    expect(text(first)).toBe('cdef');
    expect(w.length).toBe(0);
    expect(first.byteOffset).toBe(0);
    expect(first.buffer.byteLength).toBe(4);
    w.write('XY');
    expect(text(first)).toBe('cdef');
    expect(text(w.takeBytes())).toBe('XY');
    expect(text(w.takeBytes())).toBe('');
  });

  it('start keeps headroom larger than the writer has yet: take still writes its prefix', () => {
    const w = new AsciiWriter();
    w.start(100_000);
    expect(text(w.take('{"x":', 100_000))).toBe('{"x":');
  });
});

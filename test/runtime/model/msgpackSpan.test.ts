// runtime/model/msgpackSpan.ts (strSpan) against maps written by @msgpack/msgpack: where a str value lies is found
// independently by writing the map twice, the value replaced by a string of the same length differing at every
// character — the bytes that differ are the value's, and nothing else.
import { encode } from '@msgpack/msgpack';
import { describe, expect, it } from 'vitest';
import { strSpan } from '../../../runtime/model/msgpackSpan.js';
import { prng } from '../../helpers/prng.js';

const random = prng(20261125);
const below = (n: number) => Math.floor(random() * n);
/** Lengths across every header size: fixstr (≤ 31), str8 (≤ 255), str16 (≤ 65,535), str32. */
const LENGTHS = [0, 1, 5, 30, 31, 32, 33, 200, 255, 256, 257, 1000, 65_535, 65_536, 70_000];
const text = (length: number, alphabet = 'ACDEFGHIKLMNPQRSTVWY') => Array.from({ length }, () => alphabet[below(alphabet.length)]).join('');
/** A string as long as `s` with a different character at every place. */
const unlike = (s: string) => Array.from(s, (c) => (c === 'a' ? 'b' : 'a')).join('');

/** The reference: the bytes where two writings of the map differ when only `key`'s str value changes. */
function referenceSpan(map: Record<string, unknown>, key: string): { start: number; end: number } {
  const a = encode(map);
  const b = encode({ ...map, [key]: unlike(map[key] as string) });
  expect(b.length).toBe(a.length);
  const differing = [...a.keys()].filter((i) => a[i] !== b[i]);
  const length = (map[key] as string).length;
  if (length === 0) return { start: a.length, end: a.length }; // checked apart: an empty str has no bytes to differ
  expect(differing.length).toBe(length);
  return { start: differing[0], end: differing[differing.length - 1] + 1 };
}

/** A random map of ints (every width, either sign), strs and bins under distinct random keys. */
function randomMap(entries: number): Record<string, unknown> {
  const map: Record<string, unknown> = {};
  while (Object.keys(map).length < entries) {
    const key = text(1 + below(40), 'abcdefghijklmnopqrstuvwxyz');
    const kind = below(3);
    const length = LENGTHS[below(LENGTHS.length)];
    map[key] = kind === 0 ? (below(2) ? 1 : -1) * Math.floor(2 ** (random() * 53)) : kind === 1 ? text(length) : Uint8Array.from({ length }, () => below(256));
  }
  return map;
}

describe('strSpan', () => {
  it('finds every str value of random maps where the map writes it, and no other kind of value', () => {
    let strs = 0;
    for (let trial = 0; trial < 300; trial++) {
      const map = randomMap(1 + below(trial % 10 === 0 ? 40 : 8)); // past 15 entries: map16
      const bytes = encode(map);
      for (const key of Object.keys(map)) {
        const value = map[key];
        if (typeof value === 'string' && value.length > 0) {
          expect(strSpan(bytes, key), key).toEqual(referenceSpan(map, key));
          strs++;
        } else if (typeof value === 'string') {
          const span = strSpan(bytes, key)!;
          expect([span.end - span.start, bytes[span.start - 1]]).toEqual([0, 0xa0]); // right behind its fixstr header
        } else {
          expect(strSpan(bytes, key), key).toBeUndefined();
        }
      }
      expect(strSpan(bytes, 'NOT-A-KEY')).toBeUndefined();
    }
    expect(strs).toBeGreaterThan(300);
  });

  it('keeps the last of a key given twice, as a decoder does', () => {
    const first = encode({ sequences: 'PEPTIDEK', other: 1 });
    const second = encode({ sequences: 'WWWWK' });
    // Two maps' entries under one fixmap header of three.
    const bytes = Uint8Array.from([0x83, ...first.subarray(1), ...second.subarray(1)]);
    const span = strSpan(bytes, 'sequences')!;
    expect(new TextDecoder().decode(bytes.subarray(span.start, span.end))).toBe('WWWWK');
  });

  it('answers undefined for a map holding a type it does not read, and for bytes that are not a map', () => {
    for (const other of [1.5, null, true, false, [1, 2], { a: 1 }]) {
      expect(strSpan(encode({ before: other, sequences: 'PEPTIDEK' }), 'sequences')).toBeUndefined();
    }
    for (const bytes of [encode('sequences'), encode([1, 2, 3]), encode(7), new Uint8Array(0)]) expect(strSpan(bytes, 'sequences')).toBeUndefined();
  });

  it('never answers a span past the end of cut bytes', () => {
    const bytes = encode({ massKeys: new Uint8Array(300), sequences: text(1000), refs: new Uint8Array(40) });
    const whole = strSpan(bytes, 'sequences')!;
    for (let cut = 0; cut < bytes.length; cut++) {
      const span = strSpan(bytes.subarray(0, cut), 'sequences');
      // Cut inside the map, the span is either not found or the whole one, inside the bytes left.
      if (span) expect([span, span.end <= cut]).toEqual([whole, true]);
      if (cut < whole.end) expect(span).toBeUndefined();
    }
  });
});

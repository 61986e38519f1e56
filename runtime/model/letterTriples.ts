// Peptide sequences packed three letters to two bytes — base 27, A = 1 … Z = 26, 0 padding the last triple — for a
// match batch's millions of candidates: two thirds of the bytes, and order-kept (each triple big-endian), so packed
// sequences compare byte by byte as their letters do and sort unpacked; a triple's residue mass is one table lookup.
import { RESIDUE_UNITS } from './chemistry.js';

const TRIPLES = 27 ** 3;
/** 'A' → 1 … 'Z' → 26. */
function codeOf(charCode: number): number {
  if (charCode < 65 || charCode > 90)
    throw new RangeError(`only capital letters pack, not ${JSON.stringify(String.fromCharCode(charCode))}`);
  return charCode - 64;
}

/** Bytes `letters` letters take packed. */
export const packedLength = (letters: number): number => 2 * Math.ceil(letters / 3);

/** Letters from..to of `letters` (character codes of capitals A–Z) packed into `out` from `at`; returns the bytes written. */
export function packLetters(letters: Uint8Array, from: number, to: number, out: Uint8Array, at: number): number {
  const start = at;
  for (let i = from; i < to; i += 3) {
    const a = codeOf(letters[i]);
    const b = i + 1 < to ? codeOf(letters[i + 1]) : 0;
    const c = i + 2 < to ? codeOf(letters[i + 2]) : 0; // padding: 0, before any letter
    const word = (a * 27 + b) * 27 + c;
    out[at++] = word >>> 8;
    out[at++] = word & 0xff;
  }
  return at - start;
}

/** The letters of each triple (three character codes, 0 for padding). */
const LETTERS = (() => {
  const table = new Uint8Array(3 * TRIPLES);
  for (let word = 0; word < TRIPLES; word++) {
    const codes = [Math.floor(word / 729), Math.floor(word / 27) % 27, word % 27];
    codes.forEach((code, k) => (table[3 * word + k] = code === 0 ? 0 : code + 64));
  }
  return table;
})();

/** The packed bytes from..to unpacked into `out` from `at` as character codes; returns the letters written. */
export function unpackLetters(packed: Uint8Array, from: number, to: number, out: Uint8Array, at: number): number {
  const start = at;
  for (let i = from; i < to; i += 2) {
    const t = 3 * ((packed[i] << 8) | packed[i + 1]);
    for (let k = t; k < t + 3 && LETTERS[k] !== 0; k++) out[at++] = LETTERS[k];
  }
  return at - start;
}

/** Residue mass of each triple, units of 1e-10 Da (padding weighs nothing). */
const TRIPLE_UNITS = (() => {
  const table = new Float64Array(TRIPLES);
  for (let word = 0; word < TRIPLES; word++) {
    for (let k = 3 * word; k < 3 * word + 3; k++) if (LETTERS[k] !== 0) table[word] += RESIDUE_UNITS[LETTERS[k]];
  }
  return table;
})();

/** Residue mass of the packed bytes from..to, exactly (integer units). */
export function packedResidueUnits(packed: Uint8Array, from: number, to: number): number {
  let units = 0;
  for (let i = from; i < to; i += 2) units += TRIPLE_UNITS[(packed[i] << 8) | packed[i + 1]];
  return units;
}

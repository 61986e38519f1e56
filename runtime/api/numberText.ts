// Exact decimal texts of masses, mass keys and ppm errors written as digits into an AsciiWriter — the very texts
// toFixed and String() and Double.toString give (differential tests), without making a string per number: answers write
// millions of them.
import { UNITS_PER_DA } from '../model/chemistry.js';
import { formatMassKey, KEYS_PER_DA } from '../model/massKey.js';
import type { AsciiWriter } from './asciiWriter.js';

/** (observed − theoretical) / theoretical × 10^6 to 2 decimals (never -0). */
export const ppmOf = (centre: number, mass: number) => Number((((centre - mass) / mass) * 1e6).toFixed(2)) || 0;

/** Units in a millionth of a dalton, the last decimal a mass is written with. */
const UNITS_PER_MICRODALTON = UNITS_PER_DA / 1e6;

/**
 * Writes `(units / UNITS_PER_DA).toFixed(6)` — the same text — from the integer `units` without making a string;
 * `trimmed`: as JSON writes that number (`String(Number(...))`: no trailing zeros, no point without decimals).
 * Exact: rounding the integer half up agrees with toFixed on the quotient except at an exact half (a remainder of
 * 5,000 units), where the quotient's binary error decides; that case, and any non-integer, is left to toFixed.
 */
export function writeMassText(w: AsciiWriter, units: number, trimmed = false): void {
  const remainder = units % UNITS_PER_MICRODALTON;
  if (!(Number.isSafeInteger(units) && units >= 0) || remainder === UNITS_PER_MICRODALTON / 2) {
    const text = (units / UNITS_PER_DA).toFixed(6);
    return w.write(trimmed ? String(Number(text)) : text);
  }
  const micro = (units - remainder) / UNITS_PER_MICRODALTON + (remainder > UNITS_PER_MICRODALTON / 2 ? 1 : 0);
  // micro < 2^53 / 10^4, so micro / 10^6 is off by far less than 10^-6 and its floor is the whole daltons.
  const whole = Math.floor(micro / 1e6);
  w.writeDecimal(whole, micro - whole * 1e6, 6, trimmed);
}

/**
 * Writes `String(ppmOf(centre, mass))` — the same text: the error rounded to 2 decimals, trailing zeros dropped, no
 * minus zero — without making a string. Rounding the scaled error agrees with toFixed(2) unless it lies within 1e-6 of
 * a half (its binary error is far smaller below 1e6); that case, and errors of 10,000 ppm or more, are left to ppmOf.
 */
export function writePpmText(w: AsciiWriter, centre: number, mass: number): void {
  const scaled = ((centre - mass) / mass) * 1e6 * 100;
  // scaled - trunc(scaled) is scaled % 1 exactly (both operands within 1 of each other), without a floating-point
  // modulo.
  if (!(Math.abs(scaled) < 1e6) || Math.abs(Math.abs(scaled - Math.trunc(scaled)) - 0.5) < 1e-6)
    return w.write(String(ppmOf(centre, mass)));
  let hundredths = Math.round(scaled);
  if (hundredths < 0) {
    w.write('-');
    hundredths = -hundredths;
  }
  const whole = (hundredths / 100) | 0;
  w.writeDecimal(whole, hundredths - whole * 100, 2, true);
}

/**
 * Writes formatMassKey(key) — the same text, Java's Double.toString of key / 10^4 — without making a string: a page
 * writes one per mass group.
 */
export function writeMassKeyText(w: AsciiWriter, key: number): void {
  if (!(Number.isSafeInteger(key) && key >= 0)) return w.write(formatMassKey(key));
  const whole = Math.floor(key / KEYS_PER_DA);
  const fraction = key - whole * KEYS_PER_DA;
  if (fraction > 0) return w.writeDecimal(whole, fraction, 4, true);
  w.writeInt(whole);
  w.write('.0');
}

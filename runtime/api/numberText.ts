// Exact decimal texts of masses and ppm errors written as digits into an AsciiWriter — the very texts toFixed and
// String() give (differential tests), without making a string per number: answers write millions of them.
import { UNITS_PER_DA } from '../model/chemistry.js';
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
  let fraction = micro % 1e6;
  w.writeInt((micro - fraction) / 1e6);
  let places = 6;
  if (trimmed) {
    if (fraction === 0) return;
    for (; fraction % 10 === 0; fraction /= 10) places--;
  }
  w.write('.');
  let digits = 1;
  for (let rest = fraction; rest >= 10; rest = Math.floor(rest / 10)) digits++;
  w.write('000000', 0, places - digits);
  w.writeInt(fraction);
}

/**
 * Writes `String(ppmOf(centre, mass))` — the same text: the error rounded to 2 decimals, trailing zeros dropped, no
 * minus zero — without making a string. Rounding the scaled error agrees with toFixed(2) unless it lies within 1e-6
 * of a half (its binary error is far smaller below 1e6); that case, and errors of 10,000 ppm or more, are left to ppmOf.
 */
export function writePpmText(w: AsciiWriter, centre: number, mass: number): void {
  const scaled = ((centre - mass) / mass) * 1e6 * 100;
  if (!(Math.abs(scaled) < 1e6) || Math.abs(Math.abs(scaled % 1) - 0.5) < 1e-6) return w.write(String(ppmOf(centre, mass)));
  let hundredths = Math.round(scaled);
  if (hundredths < 0) {
    w.write('-');
    hundredths = -hundredths;
  }
  const fraction = hundredths % 100;
  w.writeInt((hundredths - fraction) / 100);
  if (fraction === 0) return;
  w.write(fraction < 10 ? '.0' : '.');
  w.writeInt(fraction % 10 === 0 ? fraction / 10 : fraction);
}

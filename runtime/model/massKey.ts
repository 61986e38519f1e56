// Mass keys: a mass rounded half-up to 4 decimals, as an integer; exact parsing of user-typed masses into key
// bounds, and the key's text as Java writes a double.
import { UNITS_PER_DA } from './chemistry.js';

/** A mass key is a mass rounded half-up to 4 decimals, as an integer count of 0.0001 Da. */
export const KEYS_PER_DA = 10_000;
export const UNITS_PER_KEY = UNITS_PER_DA / KEYS_PER_DA;

/** Mass key of a mass in units: rounded half-up to 0.0001 Da, computed exactly on integers. */
export function massKey(units: number): number {
  const remainder = units % UNITS_PER_KEY;
  return (units - remainder) / UNITS_PER_KEY + (remainder >= UNITS_PER_KEY / 2 ? 1 : 0);
}

/** Decimal number text as Java's Double.parseDouble reads it, less hex, NaN, Infinity and type suffixes. */
const DECIMAL = /^\s*([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?\s*$/;

/** Any key bound beyond this is as good as infinite: keys are 32-bit. */
const KEY_CEILING = 2 ** 40;

export interface MassText {
  value: number;
  /** Smallest key k with k / 10^4 >= value (exact): the lower bound of a range starting at value. */
  ceilKey: number;
  /** Largest key k with k / 10^4 <= value (exact): the upper bound of a range ending at value. */
  floorKey: number;
}

/** Parses a non-negative decimal mass in Da, exactly; undefined when the text is not a finite number. */
export function parseMass(text: string): MassText | undefined {
  const match = DECIMAL.exec(text);
  if (!match) return undefined;
  const [, sign, whole = '', fraction = '', exponent = '0'] = match;
  if (whole === '' && fraction === '') return undefined;
  const value = Number(`${sign}${whole || '0'}.${fraction || '0'}e${exponent}`);
  if (!Number.isFinite(value)) return undefined;
  const digits = (whole + fraction).replace(/^0+/, '');
  if (digits === '' || value === 0) return { value: Math.abs(value), ceilKey: 0, floorKey: 0 };
  // value * 10^4 = digits * 10^shift, exactly.
  const shift = Number(exponent) - fraction.length + Math.log10(KEYS_PER_DA);
  let integer: number;
  let exact: boolean;
  if (shift >= 0) {
    integer = digits.length + shift > 15 ? KEY_CEILING : Number(digits + '0'.repeat(shift));
    exact = true;
  } else {
    const cut = digits.length + shift;
    const head = cut > 0 ? digits.slice(0, cut) : '';
    integer = head.length > 15 ? KEY_CEILING : Number(head || '0');
    exact = !/[1-9]/.test(cut > 0 ? digits.slice(cut) : digits);
  }
  return { value, ceilKey: exact ? integer : integer + 1, floorKey: integer };
}

/**
 * A key as Java's Double.toString writes key / 10^4: shortest decimal, at least one decimal digit
 * ("1500.6", "1000.0", "1247.6087"). Exact, from the integer.
 */
export function formatMassKey(key: number): string {
  const whole = Math.floor(key / KEYS_PER_DA);
  const fraction = String(key % KEYS_PER_DA)
    .padStart(4, '0')
    .replace(/0+$/, '');
  return `${whole}.${fraction || '0'}`;
}

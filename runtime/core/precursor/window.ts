// The mass window of a precursor: the neutral mass of an m/z and charge, and the mass keys within a tolerance of it.
import { KEYS_PER_DA } from '../../model/massKey.js';

/** Heaviest precursor searched, in Da (a neutral mass, or an m/z). */
export const MAX_PRECURSOR_MASS = 100_000;

/** A tolerance window's widths below and above a precursor mass, in its unit. */
export interface Tolerance {
  unit: 'ppm' | 'Da';
  below: number;
  above: number;
}

/** Why an m/z with a charge cannot be searched: its neutral mass is not above 0. */
export const noPositiveMass = (mz: number, charge: number) =>
  `mz ${mz} with charge ${charge} gives no positive neutral mass`;

/** The window of mass keys [M − below, M + above] around a neutral mass M (a ppm width is of M). */
export function keyWindow(centre: number, { unit, below, above }: Tolerance): { lowKey: number; highKey: number } {
  const [low, high] = [below, above].map((t) => (unit === 'ppm' ? (centre * t) / 1e6 : t));
  return {
    lowKey: Math.max(0, Math.ceil((centre - low) * KEYS_PER_DA)),
    highKey: Math.floor((centre + high) * KEYS_PER_DA),
  };
}

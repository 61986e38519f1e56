// The windows of isotope errors (runtime/core/precursor/isotopeErrors.ts): each error's mass and key window. The search
// of them is compared with the brute-force reference in isotopeSearch.differential.test.ts.
import { describe, expect, it } from 'vitest';
import { isotopeWindows, lessIsotopes } from '../../../../runtime/core/precursor/isotopeErrors.js';
import { keyWindow } from '../../../../runtime/core/precursor/window.js';

describe('isotopeWindows', () => {
  it('is, for each error in the order given, the mass less that many 13C − 12C spacings and its key window', () => {
    const tolerance = { unit: 'ppm', below: 10, above: 20 } as const;
    const windows = isotopeWindows(1500, tolerance, [1, 0, -1, 3]);
    expect(windows.map((w) => w.isotopeError)).toEqual([1, 0, -1, 3]);
    expect(windows.map((w) => w.centre)).toEqual([
      1500 - 1.0033548378,
      1500,
      1500 + 1.0033548378,
      1500 - 3 * 1.0033548378,
    ]);
    for (const w of windows) expect(w).toMatchObject(keyWindow(w.centre, tolerance)); // ppm of the window's own mass
    expect(lessIsotopes(1500, 2)).toBe(1500 - 2 * 1.0033548378);
  });
});

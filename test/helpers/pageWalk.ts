// The differential tests' page walk: every page of a paged API query, up to the first page past the end, asked
// of the handler and compared whole with the reference's answer for that page.
import type { Handler } from '../../runtime/api/handler.js';
import { call, expectEnvelope, stable } from './api.js';
import { firstDifference, type RefAnswer } from './referencePrecursor.js';

export interface Mismatch {
  path: string;
  difference: string;
}

/** What the walks compared, summed over a test file. */
export interface WalkTotals {
  pages: number;
  groups: number;
  entries: number;
}

/**
 * Asks `pathOf(page)` for pages 1, 2, ... until one lies past the end (`size` groups a page), each compared with
 * `expectedOf(page)`; the first difference is recorded in `mismatches` and ends the walk.
 */
export async function walkPages(
  handler: Handler,
  pathOf: (page: number) => string,
  expectedOf: (page: number) => RefAnswer,
  size: number,
  totals: WalkTotals,
  mismatches: Mismatch[],
): Promise<void> {
  for (let page = 1; ; page++) {
    const path = pathOf(page);
    const expected = expectedOf(page);
    const got = await call(handler, path);
    totals.pages++;
    for (const group of expected.result) {
      totals.groups++;
      totals.entries += Object.values(group)[0].length;
    }
    if (got.status !== 200) {
      mismatches.push({ path, difference: `status ${got.status}: ${got.text}` });
      return;
    }
    expectEnvelope(got.body);
    const body = stable(got.body);
    if (JSON.stringify(body) !== JSON.stringify(expected)) {
      mismatches.push({ path, difference: firstDifference(expected, body) ?? 'same values, different JSON text' });
      return; // later pages of a wrong query add nothing
    }
    if ((page - 1) * size >= expected.totalResult) return; // this page was past the end
  }
}

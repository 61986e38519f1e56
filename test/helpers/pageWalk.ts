// The differential tests' page walk: every page of a paged API query, up to the first page past the end, asked
// of the handler and compared whole with the reference's answer for that page.
import type { Handler } from '../../runtime/api/handler.js';
import { call, DURATION, ENVELOPE_KEYS, expectEnvelope, MEMORY, stable } from './api.js';
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
    if (!envelopeHolds(got.body)) expectEnvelope(got.body); // fails, saying which field is wrong
    const body = stable(got.body);
    if (JSON.stringify(body) !== JSON.stringify(expected)) {
      mismatches.push({ path, difference: firstDifference(expected, body) ?? 'same values, different JSON text' });
      return; // later pages of a wrong query add nothing
    }
    if ((page - 1) * size >= expected.totalResult) return; // this page was past the end
  }
}

/**
 * expectEnvelope's checks as one boolean, without an assertion per field: thousands of pages are walked, and an
 * assertion costs far more than the check.
 */
function envelopeHolds(got: unknown): boolean {
  if (got === null || typeof got !== 'object') return false;
  const body = got as Record<string, unknown>;
  const keys = Object.keys(body);
  return (
    keys.length === ENVELOPE_KEYS.length &&
    keys.every((key, i) => key === ENVELOPE_KEYS[i]) &&
    Number.isInteger(body.totalResult) &&
    (body.totalResult as number) >= 0 &&
    typeof body.memory === 'string' &&
    MEMORY.test(body.memory) &&
    typeof body.duration === 'string' &&
    DURATION.test(body.duration) &&
    Number.isInteger(body.page) &&
    Number.isInteger(body.pageSize) &&
    Array.isArray(body.result)
  );
}

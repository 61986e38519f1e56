// The contract's guard: every recorded answer of the three .php endpoints (ranges, peptides, paging, errors, methods,
// ETags) is replayed against the current handler and must be byte-identical.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { folderHandler } from '../helpers/api.js';
import { bundledDataset, readManifest, removeTempDirs, SAMPLE_FASTA } from '../helpers/datasets.js';
import { GOLDEN_FILE, record, type GoldenAnswer } from './golden.js';
import { goldenRequests } from './queries.js';

const golden = JSON.parse(readFileSync(GOLDEN_FILE, 'utf8')) as GoldenAnswer[];
let dir: string;

beforeAll(async () => {
  dir = await bundledDataset();
});
afterAll(removeTempDirs);

describe('golden answers', () => {
  it('the recorded request set is the generated one (at least 2,000 requests, every status kind)', () => {
    expect(golden.length).toBeGreaterThanOrEqual(2000);
    expect(golden.map((g) => g.request)).toEqual(goldenRequests(SAMPLE_FASTA));
    expect(new Set(golden.map((g) => g.status))).toEqual(new Set([200, 304, 400, 404, 405, 414, 500]));
  });

  it('every answer is byte-identical to the recorded one (memory and duration aside)', async () => {
    const handler = folderHandler(dir);
    const etag = `W/"${readManifest(dir).datasetVersion}"`;
    const mismatches: string[] = [];
    for (const expected of golden) {
      const got = await record(handler, expected.request, etag);
      if (JSON.stringify(got) === JSON.stringify(expected)) continue;
      // The one recorded text that may grow: a 404 lists the endpoints there are, the recorded ones first.
      const grownList =
        expected.status === 404 &&
        expected.body !== undefined &&
        got.body?.startsWith(expected.body.slice(0, -2) + ', ') &&
        got.body.endsWith('"}');
      const rest = (a: GoldenAnswer) =>
        JSON.stringify({ ...a, body: undefined, bodyBytes: undefined, bodySha256: undefined });
      if (grownList && rest(got) === rest(expected)) continue;
      mismatches.push(`${expected.request.method} ${expected.request.path.slice(0, 120)}`);
    }
    expect(mismatches.slice(0, 10)).toEqual([]);
    expect(mismatches.length).toBe(0);
  });
});

// Fingerprint mode's URL (runtime/entries/web/state.ts) in Node: `?mode=fingerprint&…` read with the endpoint's
// defaults (50 ppm, [M+H]+, species) and written back unchanged; the request it makes answered by the real handler
// exactly as the URL's own query is; names the endpoint does not take refused as the API refuses them; its
// parser's messages and the body's placed on the fields they are about; the tolerance a mode starts from.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Handler } from '../../../../runtime/api/handler.js';
import {
  defaultTolerance,
  fieldOfError,
  fingerprintQuery,
  fingerprintRefusal,
  pageQueryRefusal,
  queryOfState,
  stateOfQuery,
} from '../../../../runtime/entries/web/state.js';
import { folderHandler } from '../../../helpers/api.js';
import { bundledDataset } from '../../../helpers/datasets.js';

let handler: Handler;
beforeAll(async () => {
  handler = folderHandler(await bundledDataset());
});

const state = (query: string) => stateOfQuery(new URLSearchParams(query))!;

/** POST /api/v1/fingerprint with `body`: the status and the text without its memory and duration. */
async function fingerprint(query: string, body: string): Promise<{ status: number; text: string }> {
  const response = await handler(new Request(`http://127.0.0.1/api/v1/fingerprint?${query}`, { method: 'POST', body }));
  const text = (await response.text()).replace(/,"memory":"[^"]*","duration":"[^"]*"\}$/, '}');
  return { status: response.status, text };
}

const PEAKS = '842.5094 1520\n1045.5642 980\n1179.6010 2310\n1475.7566 400\n2211.1040 3000\n';

describe('the URL of Fingerprint mode', () => {
  it("reads the endpoint's defaults and writes the URL back unchanged; the peaks are not in it", () => {
    expect(state('mode=fingerprint')).toMatchObject({
      mode: 'fingerprint',
      tolerance: '50',
      unit: 'ppm',
      ion: 'mh',
      ionCharge: '',
      topPeaks: '',
      rank: 'species',
      fixed: [],
      more: [],
    });
    for (const query of [
      'mode=fingerprint&tolerance=50&unit=ppm&fixed=Carbamidomethyl@C',
      'mode=fingerprint&tolerance=0.2&unit=Da&ion=neutral&topPeaks=40&variable=Oxidation@M&maxVariable=1',
      'mode=fingerprint&tolerance=20&unit=ppm&charge=2&taxon=9606,10090&reviewed=true&rank=genus',
      'mode=fingerprint&tolerance=50&unit=ppm&proteins=50&organisms=5',
      'mode=fingerprint&tolerance=50&unit=ppm&ion=mh&charge=1',
    ])
      expect(queryOfState(state(query))).toBe(query);
    expect(state('mode=fingerprint&charge=3')).toMatchObject({ ion: 'charge', ionCharge: '3' });
    expect(state('mode=fingerprint&proteins=50').more).toEqual([['proteins', '50']]);
  });

  it("asks /api/v1/fingerprint what the URL's own query asks: the same answer", async () => {
    for (const query of [
      'mode=fingerprint',
      'mode=fingerprint&tolerance=0.05&unit=Da&ion=neutral&topPeaks=3&fixed=Carbamidomethyl@C',
      'mode=fingerprint&tolerance=30&unit=ppm&charge=2&rank=genus&proteins=5&organisms=3',
      'mode=fingerprint&reviewed=false&variable=Oxidation@M&maxVariable=1',
    ]) {
      const own = new URLSearchParams(query);
      own.delete('mode');
      const [fromPage, direct] = await Promise.all([
        fingerprint(fingerprintQuery(state(query)), PEAKS),
        fingerprint(own.toString(), PEAKS),
      ]);
      expect(fromPage.status, query).toBe(200);
      expect(fromPage.text).toBe(direct.text);
      expect(JSON.parse(fromPage.text).lists[0].proteins.length).toBeGreaterThan(0);
    }
  });

  it('refuses names the endpoint does not take, as the API does, and the answer format (the page asks JSON)', () => {
    const refusal = (query: string) => pageQueryRefusal(new URLSearchParams(query));
    expect(refusal('mode=fingerprint&tolerance=20&ion=neutral&topPeaks=5&rank=family&organisms=3')).toBeUndefined();
    expect(refusal('mode=fingerprint&format=tsv')).toMatch(/^unknown parameter "format"/);
    expect(refusal('mode=fingerprint&fragmentTolerance=20')).toMatch(/^unknown parameter "fragmentTolerance"/);
    expect(refusal('mode=fingerprint&topPeak=5')).toMatch(/did you mean topPeaks\?/);
    expect(refusal('mode=identify&rank=genus')).toMatch(/^unknown parameter "rank"/);
  });

  it("refuses before running what the endpoint's parser refuses, with its words, next to the field they name", async () => {
    for (const [query, field] of [
      ['charge=0', 'ionCharge'],
      ['ion=neutral&charge=2', 'ion'],
      ['ion=mh&charge=2', 'ion'],
      ['topPeaks=0', 'topPeaks'],
      ['tolerance=5000', 'tolerance'],
      ['unit=Da', 'tolerance'],
      ['rank=tribe', 'rank'],
      ['fixed=Carbamidomethy@C', 'fixed'],
      ['variable=Oxidation@M&maxVariable=9', 'maxVariable'],
    ]) {
      const s = state(`mode=fingerprint&${query}`);
      const refused = fingerprintRefusal(s);
      const answer = await fingerprint(fingerprintQuery(s), PEAKS);
      expect(answer.status, query).toBe(400);
      expect(refused, query).toBe(JSON.parse(answer.text).error);
      expect(fieldOfError(refused!, s), `${query}: ${refused}`).toBe(field);
    }
    expect(fingerprintRefusal(state('mode=fingerprint&charge=2&topPeaks=30'))).toBeUndefined();
  });

  it("places the body's refusals on the peak list", async () => {
    const s = state('mode=fingerprint');
    for (const body of ['1045.5642\nabc\n', 'hello\n', '>sp|P1|X\nMKR\n']) {
      const answer = await fingerprint(fingerprintQuery(s), body);
      expect(answer.status).toBe(400);
      expect(fieldOfError(JSON.parse(answer.text).error, s), answer.text).toBe('peaks');
    }
  });

  it("starts Fingerprint mode at its endpoint's 50 ppm, the other modes at 10 ppm", () => {
    expect(defaultTolerance('fingerprint')).toBe('50');
    for (const mode of ['precursor', 'peptide', 'identify'] as const) expect(defaultTolerance(mode)).toBe('10');
  });
});

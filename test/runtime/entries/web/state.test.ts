// The page's URL state (runtime/entries/web/state.ts) in Node: the shared URL forms read and written back, the API
// requests a URL makes answered by the real handler exactly as the URL's own query is, API error messages of real
// refusals placed on the field they name, the peptide view's modified mass found by the API's own search, and
// Identify mode's URL.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Handler } from '../../../../runtime/api/handler.js';
import { parseIdentifyQuery } from '../../../../runtime/api/identifyParams.js';
import {
  fieldOfError,
  FORM_DEFAULTS,
  identifyQuery,
  isobaricPath,
  modifiedPeptideMass,
  pageQueryRefusal,
  peptidePath,
  queryOfState,
  searchPath,
  stateOfQuery,
  type SearchState,
} from '../../../../runtime/entries/web/state.js';
import { call, folderHandler, stableText } from '../../../helpers/api.js';
import { bundledDataset } from '../../../helpers/datasets.js';

let handler: Handler;
beforeAll(async () => {
  handler = folderHandler(await bundledDataset());
});

const state = (query: string) => stateOfQuery(new URLSearchParams(query));

describe('the URL of a search', () => {
  it('is the home view when it asks for no search', () => {
    for (const query of ['', '?', 'page=2', 'fixed=Carbamidomethyl@C', 'mz=', 'x=1']) expect(state(query)).toBeNull();
  });

  it('reads the shared URL forms and writes them back unchanged', () => {
    for (const query of [
      'mz=650.32&charge=2&tolerance=10&unit=ppm&fixed=Carbamidomethyl@C',
      'mass1=1000&mass2=1000.5',
      'peptide=EDQLEPVTK&tolerance=10&unit=ppm',
      'mass=1500&tolerance=20&unit=ppm&variable=Oxidation@M,Phospho@STY&maxVariable=3&taxon=9606,2&reviewed=true&page=3&pageSize=250',
      'peptide=GKTLAFIGDSVAR&equateIL=true&tolerance=0.02&unit=Da&fixed=Custom:%2B12.5@K',
    ]) {
      expect(queryOfState(state(query)!)).toBe(query);
    }
    expect(state('peptide=EDQLEPVTK')).toMatchObject({
      mode: 'peptide',
      peptide: 'EDQLEPVTK',
      tolerance: '10',
      unit: 'ppm',
      fixed: [],
      page: '1',
      pageSize: '100',
    });
    expect(state('mass1=1000&mass2=1000.5')).toMatchObject({ mode: 'range', mass1: '1000', mass2: '1000.5' });
    expect(state('fixed=Custom:%2B12.5@K&mz=1&charge=2')!.fixed).toEqual(['Custom:+12.5@K']);
  });

  it('asks the API exactly what the URL says (the same answer as its own query), with proteins', async () => {
    for (const query of [
      'mz=650.3188&charge=2&tolerance=10&unit=ppm&fixed=Carbamidomethyl@C&variable=Oxidation@M',
      'mass1=1000&mass2=1003&pageSize=250&page=2',
      'mass=1500&tolerance=50&taxon=2&reviewed=false',
    ]) {
      const fromPage = await call(handler, searchPath(state(query)!));
      const direct = await call(handler, `/api/v1/search?${query}&proteins=true`);
      expect(fromPage.status).toBe(200);
      expect(stableText(fromPage.text)).toBe(stableText(direct.text));
      expect(fromPage.body.result.length).toBeGreaterThan(0);
    }
    const peptide = state('peptide=gktlafigdsvar&equateIL=true&taxon=33090')!;
    expect(stableText((await call(handler, peptidePath(peptide))).text)).toBe(
      stableText((await call(handler, '/api/v1/peptide?sequence=gktlafigdsvar&equateIL=true&taxon=33090')).text),
    );
  });

  it("the peptide view's mass is the peptide's own, with its fixed modifications: the API finds the peptide at it", async () => {
    for (const [sequence, fixed] of [
      ['EDQLEPVTK', ''],
      ['EWECFCGK', 'Carbamidomethyl@C'],
      ['SNFEGCNCK', 'Carbamidomethyl@C,TMT6plex@K'],
    ]) {
      const s: SearchState = {
        ...FORM_DEFAULTS,
        mode: 'peptide',
        peptide: sequence,
        fixed: fixed ? fixed.split(',') : [],
        tolerance: '0.5',
      };
      const mass = modifiedPeptideMass(s)!;
      const answer = await call(handler, isobaricPath(s, mass));
      const entries = (answer.body.result as Record<string, { seq: string; mass: number; ppm: number }[]>[]).flatMap(
        (g) => Object.values(g)[0],
      );
      const self = entries.find((e) => e.seq === sequence);
      expect(self, `${sequence} with ${fixed}`).toBeDefined();
      expect(self!.mass).toBe(Number(mass.toFixed(6)));
      expect(self!.ppm).toBe(0);
    }
    expect(modifiedPeptideMass({ ...FORM_DEFAULTS, peptide: 'PEPBIDE' })).toBeUndefined();
  });
});

describe('API errors on the form', () => {
  it('go next to the field the real message names, among the fields shown', async () => {
    const cases: [string, string | undefined][] = [
      ['mz=650&charge=11', 'charge'],
      ['mz=abc&charge=2', 'mz'],
      ['mass=1000&fixed=Carbamidomethy@C', 'fixed'],
      ['mass=1000&fixed=Carbamidomethyl@C&variable=Oxidation@C', 'variable'],
      ['mass=1000&variable=Oxidation@M&maxVariable=9', 'maxVariable'],
      ['mass=1000&tolerance=5000', 'tolerance'],
      ['mass=1000&unit=Da', 'tolerance'],
      ['mass1=1000&mass2=1020', 'mass1'],
      ['mass1=1000', 'mass2'],
      ['mass=1000&taxon=999999999', 'taxon'],
      ['mass=1000&pageSize=5000', 'pageSize'],
    ];
    for (const [query, field] of cases) {
      const s = state(query)!;
      const answer = await call(handler, searchPath(s));
      expect(answer.status, query).toBe(400);
      expect(fieldOfError(answer.body.error, s), `${query}: ${answer.body.error}`).toBe(field);
    }
    const peptide = state('peptide=PEPBIDE')!;
    const refused = await call(handler, peptidePath(peptide));
    expect(fieldOfError(refused.body.error, peptide)).toBe('peptide');
    // A field of another mode is not where a message goes: mass is not shown in the m/z form.
    expect(fieldOfError('give the precursor once: mass and mz are both given', state('mz=1&charge=2')!)).toBe('mz');
    expect(fieldOfError('internal error', state('mz=1&charge=2')!)).toBeUndefined();
  });
});

describe('the URL of Identify mode', () => {
  it('holds /api/v1/identify parameters after mode=identify, written back unchanged; the file is not in it', () => {
    expect(state('mode=identify')).toMatchObject({
      mode: 'identify',
      tolerance: '10',
      unit: 'ppm',
      charges: '2,3,4',
      isotopeErrors: '0',
      fragmentTolerance: '20',
      fragmentUnit: 'ppm',
      fixed: [],
      more: [],
    });
    for (const query of [
      'mode=identify&tolerance=10&unit=ppm&fragmentTolerance=20&fragmentUnit=ppm&fixed=Carbamidomethyl@C',
      'mode=identify&tolerance=20&unit=ppm&fragmentTolerance=0.5&fragmentUnit=Da&charges=2,3&isotopeErrors=0,1&variable=Oxidation@M&maxVariable=1&taxon=10090&reviewed=true',
      'mode=identify&tolerance=10&unit=ppm&fragmentTolerance=20&fragmentUnit=ppm&topPeaks=100&minMatched=6',
    ])
      expect(queryOfState(state(query)!)).toBe(query);
    expect(state('mode=identify&topPeaks=100')!.more).toEqual([['topPeaks', '100']]);
  });

  it('is /api/v1/identify’s query less mode, read by the API’s parser as the URL says', () => {
    const query =
      'mode=identify&tolerance=20&unit=ppm&fragmentTolerance=0.5&fragmentUnit=Da&charges=2,3&isotopeErrors=0,1&fixed=Carbamidomethyl@C&topPeaks=100';
    const params = new URLSearchParams(identifyQuery(state(query)!));
    expect(params.has('mode')).toBe(false);
    const own = new URLSearchParams(query);
    expect(parseIdentifyQuery((name) => params.getAll(name))).toEqual(parseIdentifyQuery((name) => own.getAll(name)));
  });

  it("refuses names /api/v1/identify does not take, as the API does, and places its parser's messages on their fields", () => {
    expect(pageQueryRefusal(new URLSearchParams('mode=identify&fragmentUnit=Da&isotopeErrors=1'))).toBeUndefined();
    expect(pageQueryRefusal(new URLSearchParams('mode=identify&pageSize=100'))).toMatch(
      /^unknown parameter "pageSize"/,
    );
    expect(pageQueryRefusal(new URLSearchParams('mode=identify&topPeak=5'))).toMatch(/did you mean topPeaks\?/);
    expect(pageQueryRefusal(new URLSearchParams('mz=650&charge=2&charges=2,3'))).toMatch(
      /^unknown parameter "charges"/,
    );
    for (const [query, field] of [
      ['isotopeErrors=7', 'isotopeErrors'],
      ['fragmentTolerance=3&fragmentUnit=Da', 'fragmentTolerance'],
      ['charges=2,x', 'charges'],
      ['tolerance=5000', 'tolerance'],
      ['fixed=Carbamidomethy@C', 'fixed'],
    ]) {
      const s = state(`mode=identify&${query}`)!;
      const params = new URLSearchParams(identifyQuery(s));
      let message = '';
      try {
        parseIdentifyQuery((name) => params.getAll(name));
      } catch (e) {
        message = (e as Error).message;
      }
      expect(fieldOfError(message, s), `${query}: ${message}`).toBe(field);
    }
  });
});

// Precursor search's bounds (runtime/core/precursor.ts, hypotheses.ts) through the handler on the bundled dataset: a
// search too open-ended to answer in time is a 400 naming what to narrow, never a 500 or a hang; a hypothesis no
// peptide can hold (by the index's residue maxima) is not made, nor read for; a complete view whose keys no count of
// its variable modification gives is refused (502), never answered; and Hall's condition for variable modifications
// sharing slots (variableFits) on hand-made peptides.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Handler } from '../../../../runtime/api/handler.js';
import { Dataset } from '../../../../runtime/core/storage/dataset.js';
import {
  compile,
  Found,
  MAX_SCANNED,
  needsOf,
  scanHypothesis,
  variableFits,
} from '../../../../runtime/core/precursor/precursor.js';
import { hypothesesOf } from '../../../../runtime/core/precursor/searchPlan.js';
import { hypotheses, keyWindowUnits } from '../../../../runtime/core/precursor/hypotheses.js';
import { parsePrecursorQuery } from '../../../../runtime/api/precursorParams.js';
import { FileSource } from '../../../../runtime/entries/node/fileSource.js';
import { nodeCodecs } from '../../../../runtime/entries/node/platform.js';
import { residueBound } from '../../../../runtime/model/format.js';
import { parseModifications } from '../../../../runtime/model/modifications.js';
import { createHandler, datasetOnce } from '../../../../runtime/api/handler.js';
import { call, folderHandler } from '../../../helpers/api.js';
import { bundledDataset } from '../../../helpers/datasets.js';
import { prng } from '../../../helpers/prng.js';

let handler: Handler;

beforeAll(async () => {
  handler = folderHandler(await bundledDataset());
});

describe('bounds', () => {
  it(`refuses with 400 a search that would examine more than ${MAX_SCANNED} stored peptides`, async () => {
    const got = await call(
      handler,
      `/api/v1/search?mass1=2000&mass2=2010&fixed=Carbamidomethyl@C&variable=${encodeURIComponent('Phospho@STY,Oxidation@M,Deamidated@NQ,Acetyl@N-term,Methyl@KR,Dimethyl@KR,GG@K,Carbamyl@K')}&maxVariable=4`,
    );
    expect(got.status).toBe(400);
    expect(got.body.error).toMatch(
      /would examine more than 2,000,000 peptides; narrow the window .* or the variable modifications/,
    );
  });

  it('refuses with 400 (not 500) modifications that give too many mass hypotheses', async () => {
    const fixed = 'Carbamidomethyl@C,Methyl@K,Dimethyl@R,Acetyl@S,Phospho@T,Oxidation@M,Deamidated@N,Carbamyl@Y';
    const got = await call(handler, `/api/v1/search?mass1=6000&mass2=6001&fixed=${encodeURIComponent(fixed)}`);
    expect(got.status).toBe(400);
    expect(got.body.error).toMatch(/more than 20,000 mass hypotheses in this window/);
  });

  it('answers the same modifications in a narrow window', async () => {
    const got = await call(
      handler,
      '/api/v1/search?mz=650.3188&charge=2&fixed=Carbamidomethyl@C&variable=Phospho@STY,Oxidation@M&maxVariable=4',
    );
    expect(got.status).toBe(200);
    expect(got.body.totalResult).toBeGreaterThan(0);
  });
});

describe('a complete view', () => {
  it('whose keys are not its peptides’ modified masses is refused with a 502 naming it, not answered', async () => {
    const inner = new FileSource(await bundledDataset());
    const manifest = JSON.parse(new TextDecoder().decode(await inner.get('manifest.json')));
    expect(manifest.views[1].fixed).toBe('fixed=Carbamidomethyl@C&variable=Oxidation@M&maxVariable=2');
    // The complete view's entry pointing at the dataset's own shards: unmodified keys, where a peptide with C is not.
    const { shards, shardIndex } = manifest;
    manifest.views[1] = { ...manifest.views[1], shards, shardIndex };
    const text = new TextEncoder().encode(JSON.stringify(manifest));
    const wrong = createHandler(
      datasetOnce(() => ({
        description: 'a wrong view',
        get: async (file: string) => (file === 'manifest.json' ? text : inner.get(file)),
      })),
    );
    const query = '/api/v1/search?mass1=1400&mass2=1410&fixed=Carbamidomethyl@C&variable=Oxidation@M&maxVariable=2';
    const got = await call(wrong, query);
    expect(got.status).toBe(502);
    expect(got.body.error).toMatch(
      /a shard of the complete view has peptide [A-Z]*C[A-Z]* at key \d+, which no count of its variable modification gives/,
    );
    // The same query over the dataset's own shards (maxVariable 3: no complete view serves it) is answered.
    expect((await call(wrong, query.replace('maxVariable=2', 'maxVariable=3'))).status).toBe(200);
  });
});

describe('hypotheses no peptide of the dataset can hold', () => {
  it('are not made nor looked up: more cysteines than any peptide has reads no index page and no shard', async () => {
    const inner = new FileSource(await bundledDataset());
    const reads: string[] = [];
    const dataset = await Dataset.open(
      { description: inner.description, get: async (file) => (reads.push(file), inner.get(file)) },
      nodeCodecs,
    );
    reads.length = 0; // the manifest
    const most = residueBound(dataset.index.all, 'C');
    expect(most).toBeGreaterThan(2);
    expect(most).toBeLessThan(35); // a real bound, not "unknown"
    // Carbamyl, not Carbamidomethyl: the bundled dataset's view is of the latter, and these are its own shards' bounds.
    const query = parsePrecursorQuery(
      (name) => ({ mass: ['4000'], tolerance: ['50'], fixed: ['Carbamyl@C'] })[name] ?? [],
    );
    const all = hypothesesOf(dataset, query);
    const compiled = compile(query);
    // None is made for more cysteines than that; without the bound, the lengths alone allow them.
    expect(Math.max(...all.map((h) => h.fixedCounts[0]))).toBe(most);
    const { minLength, maxLength } = dataset.manifest.parameters;
    const unbounded = hypotheses(
      query.fixed,
      query.variable,
      query.maxVariable,
      keyWindowUnits(query.lowKey, query.highKey),
      { minLength, maxLength },
    );
    const futile = unbounded.filter((h) => h.fixedCounts[0] > most);
    expect(futile.length).toBeGreaterThan(5);
    expect(unbounded.filter((h) => h.fixedCounts[0] <= most)).toEqual(all);
    // Nor is one looked up, should it be asked for.
    for (const h of futile)
      expect(scanHypothesis(dataset, query, h, needsOf(compiled, h), 0, new Found(undefined))).toBeUndefined();
    expect(reads).toEqual([]);
    // As many as the most any peptide holds: looked up, its index page and shards read.
    const held = all.find((h) => h.fixedCounts[0] === most)!;
    await scanHypothesis(dataset, query, held, needsOf(compiled, held), 0, new Found(undefined));
    expect(reads.length).toBeGreaterThan(0);
  });
});

describe('any input', () => {
  it('gets 200 or a 400 naming a parameter, never a 500: 600 seeded random queries of odd values', async () => {
    const random = prng(4242);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)];
    const values: Record<string, readonly string[]> = {
      mass: ['1000', '-1', '0', 'abc', '1e400', '', ' 1500.5 ', 'NaN', '99999', '0x10', '1,5'],
      mz: ['650.3188', '0', '-5', 'x', '1e-9', '500'],
      charge: ['2', '0', '11', '1.5', '-1', '', 'two'],
      mass1: ['1000', '999.99', '-1', 'x', '1e3'],
      mass2: ['1000.02', '1010', '1', 'x', ''],
      tolerance: ['10', '0', '-1', '1000', '1001', '5', '6', 'x', ''],
      toleranceLow: ['0', '2', '-1', 'x'],
      toleranceHigh: ['0', '3', '9999', 'x'],
      unit: ['ppm', 'Da', 'da', 'mmu', ''],
      fixed: [
        'Carbamidomethyl@C',
        'Carbamidomethyl@C,Carbamidomethyl@C',
        'Nope@C',
        '@C',
        'Oxidation@',
        'Oxidation@B',
        'X:+1@K',
        'X:+1.12345678901@K',
        ',',
        'TMT6plex@K,TMT6plex@N-term',
      ],
      variable: [
        'Oxidation@M',
        'Oxidation@C',
        'Phospho@STY',
        'Gln->pyro-Glu@Q@N-term',
        'Acetyl@Nterm',
        'a@b@c',
        'UNIMOD:35@M',
        'UNIMOD:999999@M',
      ],
      maxVariable: ['0', '2', '4', '5', '-1', 'x'],
      page: ['1', '2', '0', 'x', '99999999999'],
      pageSize: ['1', '1000', '1001', '0', 'x'],
    };
    const statuses = new Map<number, number>();
    for (let i = 0; i < 600; i++) {
      // Half the queries start from a valid precursor and vary only the rest, so that many are answered.
      const valid = random() < 0.5;
      const params = new URLSearchParams(valid ? 'mz=650.3188&charge=2' : '');
      for (const [name, options] of Object.entries(values)) {
        if (valid && ['mass', 'mz', 'charge', 'mass1', 'mass2'].includes(name)) continue;
        if (random() < (valid ? 0.15 : 0.3)) params.append(name, pick(options));
      }
      const got = await call(handler, `/api/v1/search?${params}`);
      statuses.set(got.status, (statuses.get(got.status) ?? 0) + 1);
      expect([200, 400], `${params}: ${got.text.slice(0, 200)}`).toContain(got.status);
      if (got.status === 400) expect(Object.keys(got.body)).toEqual(['error']);
    }
    expect(statuses.get(200)).toBeGreaterThan(10);
    expect(statuses.get(400)).toBeGreaterThan(100);
  });
});

describe('variableFits: each variable modification on its own slot (Hall)', () => {
  const specs = parseModifications('Deamidated@Q,Gln->pyro-Glu@Q@N-term');
  it.each([
    // sequence, [Deamidated count, pyro-Glu count], fits: QAQK has 2 Q, one of them N-terminal.
    ['QAQK', [2, 0], true],
    ['QAQK', [1, 1], true],
    ['QAQK', [2, 1], false], // three modifications on two Q
    ['AQAK', [0, 1], false], // no N-terminal Q
    ['QAAK', [1, 1], false], // both want the only Q
    ['QAAK', [0, 1], true],
  ] as const)('%s with %j: %s', (sequence, counts, fits) => {
    expect(variableFits(specs, counts, sequence)).toBe(fits);
  });
});

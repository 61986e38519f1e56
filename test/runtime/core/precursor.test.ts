// Precursor search's bounds (runtime/core/precursor.ts, hypotheses.ts) through the handler on the bundled
// dataset: a search too open-ended to answer in time is a 400 naming what to narrow, never a 500 or a hang;
// and Hall's condition for variable modifications sharing slots (variableFits) on hand-made peptides.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Handler } from '../../../runtime/api/handler.js';
import { MAX_SCANNED, variableFits } from '../../../runtime/core/precursor.js';
import { parseModifications } from '../../../runtime/model/modifications.js';
import { call, folderHandler } from '../../helpers/api.js';
import { bundledDataset } from '../../helpers/datasets.js';

let handler: Handler;

beforeAll(async () => {
  handler = folderHandler(await bundledDataset());
});

describe('bounds', () => {
  it(`refuses with 400 a search that would examine more than ${MAX_SCANNED} stored peptides`, async () => {
    const got = await call(handler, `/api/v1/search?mass1=2000&mass2=2010&fixed=Carbamidomethyl@C&variable=${encodeURIComponent('Phospho@STY,Oxidation@M,Deamidated@NQ,Acetyl@N-term,Methyl@KR,Dimethyl@KR,GG@K,Carbamyl@K')}&maxVariable=4`);
    expect(got.status).toBe(400);
    expect(got.body.error).toMatch(/would examine more than 2,000,000 peptides; narrow the window .* or the variable modifications/);
  });

  it('refuses with 400 (not 500) modifications that give too many mass hypotheses', async () => {
    const fixed = 'Carbamidomethyl@C,Methyl@K,Dimethyl@R,Acetyl@S,Phospho@T,Oxidation@M,Deamidated@N,Carbamyl@Y';
    const got = await call(handler, `/api/v1/search?mass1=6000&mass2=6001&fixed=${encodeURIComponent(fixed)}`);
    expect(got.status).toBe(400);
    expect(got.body.error).toMatch(/more than 20,000 mass hypotheses in this window/);
  });

  it('answers the same modifications in a narrow window', async () => {
    const got = await call(handler, '/api/v1/search?mz=650.3188&charge=2&fixed=Carbamidomethyl@C&variable=Phospho@STY,Oxidation@M&maxVariable=4');
    expect(got.status).toBe(200);
    expect(got.body.totalResult).toBeGreaterThan(0);
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

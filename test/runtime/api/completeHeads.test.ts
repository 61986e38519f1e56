// Tests runtime/api/completeHeads.ts against the brute-force precursor reference (test/helpers/referencePrecursor.ts:
// its own residue and Unimod tables, every peptide × every count of oxidised M): the heads of EVERY shard of a
// complete view (Carbamidomethyl@C fixed, Oxidation@M up to 2), read back as JSON, are exactly the reference's
// entries — sequence, ProForma and modified mass, by key — with the ppm key at their end and a comma in front. The
// answers that copy them are the precursor differential's to check.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeHeads, HEAD_COMMA, HEAD_PPM_KEY } from '../../../runtime/api/completeHeads.js';
import { Dataset } from '../../../runtime/core/storage/dataset.js';
import { FileSource } from '../../../runtime/entries/node/fileSource.js';
import { nodeCodecs } from '../../../runtime/entries/node/platform.js';
import { parseModifications } from '../../../runtime/model/modifications.js';
import { removeTempDirs, sampleSubset, shardEntries, subsetDataset } from '../../helpers/datasets.js';
import {
  parseRefMods,
  ReferencePrecursor,
  referenceKeyText,
  referencePeptides,
} from '../../helpers/referencePrecursor.js';

/** Records of the sample: a complete view of about a hundred shards, thousands of its entries oxidised twice. */
const RECORDS = 400;
const COMPLETE = 'fixed=Carbamidomethyl@C&variable=Oxidation@M&maxVariable=2';

let dir: string;
beforeAll(async () => {
  // The precursor differential's views (built in this file's own temporary folder, of fewer records).
  dir = await subsetDataset(RECORDS, 16_384, ['Carbamidomethyl@C', COMPLETE]);
}, 120_000);
afterAll(removeTempDirs);

describe('completeHeads', () => {
  it('writes, for every entry of every shard of a complete view, the reference’s seq, proforma and mass, as ,{…,"ppm":', async () => {
    const dataset = await Dataset.open(new FileSource(dir), nodeCodecs);
    const view = dataset.views.findIndex((v) => v.variable);
    expect(view).toBe(1);
    const [fixed, variable] = [parseModifications('Carbamidomethyl@C'), parseModifications('Oxidation@M')];
    const got: Record<string, { seq: string; proforma: string; mass: number }[]> = {};
    const decoder = new TextDecoder();
    const misframed: string[] = [];
    for (const entry of shardEntries(dir, view)) {
      const shard = await dataset.shard(entry);
      const heads = completeHeads(dataset, dataset.views[view], shard, fixed, variable).value;
      for (let g = 0, p = 0; g < shard.massKeys.length; g++) {
        for (; p < shard.groupEnds[g]; p++) {
          const text = decoder.decode(heads.bytes.subarray(p === 0 ? 0 : heads.ends[p - 1], heads.ends[p]));
          if (text.slice(0, HEAD_COMMA + 1) !== ',{' || text.slice(-HEAD_PPM_KEY) !== ',"ppm":') misframed.push(text);
          (got[referenceKeyText(shard.massKeys[g])] ??= []).push(
            JSON.parse(text.slice(HEAD_COMMA, -HEAD_PPM_KEY) + '}'),
          );
        }
      }
    }
    expect(misframed).toEqual([]);
    const reference = new ReferencePrecursor(referencePeptides(readFileSync(sampleSubset(RECORDS))), {
      fixed: parseRefMods('Carbamidomethyl@C'),
      variable: parseRefMods('Oxidation@M'),
      maxVariable: 2,
    });
    const all = reference.answer(0, 2 ** 31, 1, 2 ** 31);
    const expected = Object.fromEntries(
      all.result.map(
        (group) =>
          Object.entries(group).map(([key, entries]) => [
            key,
            entries.map(({ seq, proforma, mass }) => ({ seq, proforma, mass })),
          ])[0],
      ),
    );
    expect(Object.keys(got).length).toBe(all.totalResult);
    expect(
      Object.values(got)
        .flat()
        .filter((e) => e.proforma.includes('[Oxidation]^2?') || /M\[Oxidation\].*M\[Oxidation\]/.test(e.proforma))
        .length,
    ).toBeGreaterThan(100);
    // Compared as JSON text first (the same keys in the same order: equal); on a difference, deeply, for the report.
    if (JSON.stringify(got) !== JSON.stringify(expected)) expect(got).toEqual(expected);
  }, 120_000);
});

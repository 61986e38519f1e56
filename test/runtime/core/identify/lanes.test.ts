// Tests runtime/core/identify/lanes.ts: identifyAll with its batches in lanes (identified elsewhere, several at once)
// against the same file identified batch by batch in one thread: Casanovo's labelled spectra with malformed records
// among them give the same PSMs, q-values, malformed records and counts, for lanes of several sizes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identifyAll } from '../../../../runtime/core/identify/identification.js';
import { identifyBatch, inLanes } from '../../../../runtime/core/identify/lanes.js';
import { readMgf } from '../../../../runtime/core/match/mgf.js';
import type { Spectrum } from '../../../../runtime/core/match/mgf.js';
import { Dataset } from '../../../../runtime/core/storage/dataset.js';
import { FileSource } from '../../../../runtime/entries/node/fileSource.js';
import { casanovoDataset, removeTempDirs } from '../../../helpers/datasets.js';
import { identifyQuery } from '../../../helpers/identifyQuery.js';
import { REPO } from '../../../helpers/process.js';

const MGF = readFileSync(join(REPO, 'test/fixtures/mgf/casanovo_sample_preprocessed_spectra.mgf'), 'utf8');
// Two records broken: one without PEPMASS, one with a peak that is no number.
const BROKEN = MGF.replace(/^PEPMASS=.*\n/m, '').replace(/(BEGIN IONS\n(?:.*\n){40}?)(\d+\.\d+) /, '$1x$2 ');

const query = identifyQuery({ report: 2 });

let dataset: Dataset;
beforeAll(async () => {
  dataset = await Dataset.open(new FileSource(await casanovoDataset()));
});
afterAll(removeTempDirs);

describe('identifyAll in lanes', () => {
  it('identifies as one thread does, whatever the lanes, malformed records told once in file order', async () => {
    const told: number[] = [];
    const plain = await identifyAll(dataset, query, readMgf([BROKEN], true), {
      batch: 50,
      malformed: (m) => told.push(m.line),
    });
    expect(plain.malformed.length).toBe(2);
    expect(told).toEqual(plain.malformed.map((m) => m.line));
    for (const [size, count] of [
      [7, 2],
      [20, 3],
      [125, 2],
      [500, 2],
    ]) {
      const sent: number[] = [];
      const identify = (spectra: Spectrum[]) => {
        sent.push(spectra.length);
        return identifyBatch(dataset, query, spectra);
      };
      const toldHere: number[] = [];
      const lanes = await identifyAll(dataset, query, readMgf([BROKEN], true), {
        batches: inLanes(dataset, query, { identify, count, size }),
        malformed: (m) => toldHere.push(m.line),
      });
      expect(lanes, `lanes of ${size}`).toEqual(plain);
      expect(toldHere).toEqual(told);
      // Every full lane and the rest go to the lanes; a file smaller than a lane is identified here.
      const spectra = plain.spectra;
      expect(sent, `lanes of ${size}`).toEqual(
        size > spectra
          ? []
          : [...Array(Math.floor(spectra / size)).fill(size), ...(spectra % size ? [spectra % size] : [])],
      );
    }
  });
});

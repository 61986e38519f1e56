// Fingerprint mode's reading of an answer in Node (runtime/entries/web/fingerprintAnswer.ts, and the proteins' names
// of ./fingerprintRun.ts), on real answers of POST /api/v1/fingerprint over the bundled dataset (peaks of proteins'
// tryptic peptides among random ones, and random peaks alone): a protein's explained peaks are exactly the peaks it
// does not leave unmatched; every listed protein is named as its FASTA header names it and its organism, by as few
// lookups as the answer needs; the stick heights, the m/z axis, the label rows (checked by brute force on random
// labels), the numbers, names and error messages as written.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Handler } from '../../../../runtime/api/handler.js';
import type { Fingerprint } from '../../../../runtime/core/fingerprint/fingerprint.js';
import {
  errorOf,
  expectText,
  explainedPeaks,
  fingerprintFileName,
  labelRows,
  listName,
  mzAxis,
  stickHeights,
  type FingerprintAnswer,
  type LabelBox,
} from '../../../../runtime/entries/web/fingerprintAnswer.js';
import { proteinNames } from '../../../../runtime/entries/web/fingerprintRun.js';
import { call, folderHandler } from '../../../helpers/api.js';
import { bundledDataset } from '../../../helpers/datasets.js';
import { prng } from '../../../helpers/prng.js';
import { sampleProtein, trypticPeaks } from './fingerprintPeaks.js';

const PROTEINS = ['Q8TDQ1', 'Q96P15', 'P02654'];
let handler: Handler;
let lists: Fingerprint[];

beforeAll(async () => {
  handler = folderHandler(await bundledDataset());
  const random = prng(2207);
  const noise = (n: number) => Array.from({ length: n }, () => 700 + random() * 2500);
  const records = [
    ...PROTEINS.map((accession) => {
      const peptides = trypticPeaks(accession).filter((p) => p.mh > 700 && p.mh < 3500);
      return { title: accession, mz: [...peptides.slice(0, 8).map((p) => p.mh), ...noise(5)] };
    }),
    { title: 'noise', mz: noise(25) },
  ];
  // An MGF record per list: its TITLE names the list, its peaks have intensities.
  const mgf = records
    .map(
      ({ title, mz }) =>
        `BEGIN IONS\nTITLE=${title}\n${mz.map((m) => `${m.toFixed(5)} ${(1 + random() * 99).toFixed(1)}`).join('\n')}\nEND IONS\n`,
    )
    .join('');
  const got = await call(handler, '/api/v1/fingerprint?tolerance=50&unit=ppm&proteins=30', {
    method: 'POST',
    body: mgf,
  });
  expect(got.status, got.text).toBe(200);
  lists = (got.body as FingerprintAnswer).lists;
});

describe("a fingerprint's answer on the page", () => {
  it('explains, for each protein, exactly the peaks it does not leave unmatched, each once, ascending', () => {
    for (const list of lists)
      for (const hit of list.proteins) {
        const explained = explainedPeaks(hit);
        expect(explained).toEqual([...explained].sort((a, b) => a - b));
        expect(new Set(explained).size).toBe(explained.length);
        expect(explained.length).toBe(hit.matched);
        const all = [...explained, ...hit.unmatched].sort((a, b) => a - b);
        expect(all).toEqual(list.peaks.map((_, i) => i));
      }
    expect(lists.map((list) => list.title)).toEqual([...PROTEINS, 'noise']);
    expect(lists.slice(0, 3).map((list) => list.proteins[0].accession)).toEqual(PROTEINS);
  });

  it('names every listed protein as its FASTA header does, asking a peptide of each protein not yet named', async () => {
    for (const list of lists) {
      const asked: string[] = [];
      const ask = async (path: string) => {
        asked.push(path);
        const got = await call(handler, path);
        return { status: got.status, text: got.text, ms: 0 };
      };
      const proteins = list.proteins.map((hit) => ({ accession: hit.accession, sequence: hit.matches[0].sequence }));
      const names = await proteinNames(ask, proteins);
      for (const { accession } of proteins) {
        const { header } = sampleProtein(accession);
        const [, protein, organism] = /^\S+ (.*?) OS=(.*?) OX=/.exec(header)!;
        expect(names.get(accession), accession).toEqual({ protein, organism });
      }
      // A lookup names every protein holding its peptide: a protein already named is not looked up again.
      expect(asked.length).toBeLessThanOrEqual(proteins.length);
      expect(new Set(asked).size).toBe(asked.length);
      for (const path of asked) expect(path).toMatch(/^\/api\/v1\/peptide\?sequence=[A-Z]+$/);
    }
    expect(lists.at(-1)!.proteins.length).toBeGreaterThan(5);
  });

  it('draws sticks by intensity over the highest, or all full height without intensities', () => {
    expect(stickHeights([{ intensity: 5 }, { intensity: 20 }, { intensity: 0 }])).toEqual([0.25, 1, 0]);
    expect(stickHeights([{}, {}])).toEqual([1, 1]);
    expect(stickHeights([{ intensity: 0 }, { intensity: 0 }])).toEqual([1, 1]);
    const heights = stickHeights(lists[1].peaks);
    expect(lists[1].peaks.every((p) => p.intensity! > 0)).toBe(true);
    expect(Math.max(...heights)).toBe(1);
    expect(heights.every((v) => v > 0 && v <= 1)).toBe(true);
  });

  it('puts the m/z axis on whole hundreds around every peak', () => {
    expect(mzAxis([812.4, 2950.1])).toEqual([800, 3000]);
    expect(mzAxis([1000])).toEqual([1000, 1100]);
    expect(mzAxis([1000, 1000.5])).toEqual([1000, 1100]);
    expect(mzAxis([])).toEqual([0, 100]);
    expect(mzAxis([42])).toEqual([0, 100]);
  });

  it('puts labels in rows where none overlaps, each in the lowest row free when its turn comes', () => {
    const random = prng(31);
    const gap = 4;
    for (let round = 0; round < 200; round++) {
      const labels: LabelBox[] = Array.from({ length: 1 + Math.floor(random() * 25) }, () => ({
        x: random() * 1000,
        width: 20 + random() * 150,
      }));
      const rows = labelRows(labels, gap);
      const apart = (a: LabelBox, b: LabelBox) =>
        a.x + a.width / 2 + gap <= b.x - b.width / 2 || b.x + b.width / 2 + gap <= a.x - a.width / 2;
      // Left to right (ties by index), as the rows are filled.
      const order = labels.map((_, i) => i).sort((a, b) => labels[a].x - labels[b].x || a - b);
      order.forEach((i, at) => {
        const before = order.slice(0, at);
        for (const j of before) if (rows[j] === rows[i]) expect(apart(labels[i], labels[j])).toBe(true);
        // Every lower row is blocked by the label it ends with so far.
        for (let row = 0; row < rows[i]; row++) {
          const last = before.filter((j) => rows[j] === row).at(-1);
          expect(last, `row ${row} below label ${i}`).toBeDefined();
          expect(labels[last!].x + labels[last!].width / 2 + gap > labels[i].x - labels[i].width / 2).toBe(true);
        }
      });
    }
    expect(labelRows([])).toEqual([]);
    expect(
      labelRows([
        { x: 100, width: 50 },
        { x: 120, width: 50 },
        { x: 200, width: 50 },
      ]),
    ).toEqual([0, 1, 0]);
  });

  it('writes E-values, list names and download names as people read them', () => {
    expect(expectText(3.8e-9)).toBe('3.8e-9');
    expect(expectText(0.00123)).toBe('0.0012');
    expect(expectText(0.5)).toBe('0.5');
    expect(expectText(12.345)).toBe('12');
    expect(expectText(123456)).toBe('1.2e+5');
    expect(expectText(0)).toBe('0');
    expect(listName({ title: 'spot A1' }, 0)).toBe('spot A1');
    expect(listName({}, 2)).toBe('List 3');
    expect(listName({ title: '  ' }, 0)).toBe('List 1');
    expect(fingerprintFileName('run.mgf.gz', 'tolerance=50&unit=ppm&fixed=Carbamidomethyl@C,Oxidation@M')).toBe(
      'run-fingerprint-tolerance-50-unit-ppm-fixed-Carbamidomethyl@C+Oxidation@M',
    );
    expect(fingerprintFileName('', 'tolerance=50')).toBe('peaks-fingerprint-tolerance-50');
    expect(errorOf({ status: 400, text: '{"error":"the body: line 2: \\"abc\\" is not a positive m/z"}' })).toBe(
      'the body: line 2: "abc" is not a positive m/z',
    );
    expect(errorOf({ status: 502, text: '<html>Bad gateway</html>' })).toBe('the answer had status 502');
  });
});

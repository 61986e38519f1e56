// Fingerprint mode's reading of an answer (runtime/entries/web/fingerprintAnswer.ts) in Node: on real answers of the
// bundled dataset (peaks of a protein's tryptic peptides among random ones), every organism it names for a protein
// lies on that protein's lineage in the taxonomy file, and a protein's explained peaks are exactly the peaks it does
// not leave unmatched; the stick heights, the m/z axis, the label rows (checked by brute force on random labels),
// the numbers and names as written.
import { gunzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fingerprint, type Fingerprint } from '../../../../runtime/core/fingerprint/fingerprint.js';
import { Dataset } from '../../../../runtime/core/storage/dataset.js';
import { FileSource } from '../../../../runtime/entries/node/fileSource.js';
import {
  expectText,
  explainedPeaks,
  fingerprintFileName,
  labelRows,
  listName,
  mzAxis,
  organismsByAccession,
  stickHeights,
  type LabelBox,
} from '../../../../runtime/entries/web/fingerprintAnswer.js';
import { TaxonomyWalk } from '../../../helpers/fingerprintReference.js';
import { bundledDataset, readTaxonomyFile } from '../../../helpers/datasets.js';
import { prng } from '../../../helpers/prng.js';
import { REPO } from '../../../helpers/process.js';

/** Monoisotopic residue masses (Da), water and the proton. */
const RESIDUE: Record<string, number> = {
  G: 57.021464,
  A: 71.037114,
  S: 87.032028,
  P: 97.052764,
  V: 99.068414,
  T: 101.047679,
  C: 103.009185,
  L: 113.084064,
  I: 113.084064,
  N: 114.042927,
  D: 115.026943,
  Q: 128.058578,
  K: 128.094963,
  E: 129.042593,
  M: 131.040485,
  H: 137.058912,
  F: 147.068414,
  R: 156.101111,
  Y: 163.06332,
  W: 186.079313,
};
const WATER = 18.010565;
const PROTON = 1.007276;

/** [M+H]+ of the tryptic peptides (no missed cleavage, 6 to 30 residues) of a protein of the bundled sample. */
function trypticPeaks(accession: string): number[] {
  const fasta = gunzipSync(readFileSync(join(REPO, 'data/uniprot-sample.fasta.gz'))).toString('latin1');
  const record = fasta.split('\n>').find((r) => r.split('|')[1] === accession)!;
  const sequence = record.split('\n').slice(1).join('');
  return sequence
    .replace(/([KR])(?!P)/g, '$1,')
    .split(',')
    .filter((p) => p.length >= 6 && p.length <= 30)
    .map((p) => [...p].reduce((sum, residue) => sum + RESIDUE[residue], WATER + PROTON));
}

let lists: Fingerprint[];
let walk: TaxonomyWalk;

beforeAll(async () => {
  const dir = await bundledDataset();
  const dataset = await Dataset.open(new FileSource(dir));
  walk = new TaxonomyWalk(readTaxonomyFile(dir)!);
  const random = prng(2207);
  const noise = () => Array.from({ length: 5 }, () => 700 + random() * 2500);
  const inputs = ['Q8TDQ1', 'Q96P15', 'P02654'].map((accession, i) => {
    const mz = [...trypticPeaks(accession).slice(0, 8), ...noise()].sort((a, b) => a - b);
    return { title: accession, mz: Float64Array.from(mz), ...(i === 1 && { intensity: mz.map(() => random()) }) };
  });
  lists = await fingerprint(
    dataset,
    {
      tolerance: { unit: 'ppm', below: 50, above: 50 },
      fixed: [],
      variable: [],
      maxVariable: 2,
      filter: { taxa: [] },
      ion: 'mh',
      rank: 'species',
      proteins: 20,
      organisms: 10,
    },
    inputs.map((list) => ({ ...list, intensity: list.intensity && Float64Array.from(list.intensity) })),
  );
});

/** Whether `ancestor` is `taxId` or above it. */
function within(taxId: number, ancestor: number): boolean {
  for (let t = taxId; ; t = walk.parent(t)) {
    if (t === ancestor) return true;
    if (walk.parent(t) === t) return false;
  }
}

describe("a fingerprint's answer on the page", () => {
  it('names a protein’s organism only by a taxon on its lineage, and names those of the listed taxa', () => {
    let named = 0;
    for (const list of lists) {
      const names = organismsByAccession(list);
      const taxa = list.organisms!;
      for (const hit of list.proteins) {
        const name = names.get(hit.accession);
        const candidates = taxa.filter((t) => within(hit.taxId, t.taxId));
        if (name === undefined) {
          expect(candidates.filter((t) => t.proteins.includes(hit.accession) || t.taxId === hit.taxId)).toEqual([]);
          continue;
        }
        named++;
        expect(candidates.map((t) => t.name)).toContain(name);
      }
      for (const taxon of taxa)
        for (const accession of taxon.proteins) expect(names.has(accession), accession).toBe(true);
    }
    expect(named).toBeGreaterThan(0);
  });

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
    expect(lists.map((list) => list.proteins[0].accession)).toEqual(['Q8TDQ1', 'Q96P15', 'P02654']);
  });

  it('draws sticks by intensity over the highest, or all full height without intensities', () => {
    expect(stickHeights([{ intensity: 5 }, { intensity: 20 }, { intensity: 0 }])).toEqual([0.25, 1, 0]);
    expect(stickHeights([{}, {}])).toEqual([1, 1]);
    expect(stickHeights([{ intensity: 0 }, { intensity: 0 }])).toEqual([1, 1]);
    const heights = stickHeights(lists[1].peaks);
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
  });
});

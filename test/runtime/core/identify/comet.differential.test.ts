// Identification against an established engine: Debian's Comet (comet-ms; test/helpers/comet.ts) and our identify
// search Casanovo's 128 labelled mouse spectra against their proteome with the same parameters (trypsin, 2 missed
// cleavages, 6–50 residues, Carbamidomethyl@C fixed, Oxidation@M variable, ±10 ppm precursors with isotope errors 0
// and 1, high-resolution fragments) and the same FDR, (decoys + 1) / targets over each spectrum's best PSM (Comet's
// by E-value). At 2 % — the least a file of 128 spectra reaches — we identify at least as many spectra as Comet, and
// where both identify a spectrum they name the same peptide (I = L) at least 95 % of the time. The same on
// low-resolution data: compomics' 1,000 ion-trap E. coli spectra against OpenMS's E. coli K-12 proteome, ±0.5 Da
// precursors and fragments (Comet's low-resolution bins), at 1 %.
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identifyAll } from '../../../../runtime/core/identify/identification.js';
import { readMgf } from '../../../../runtime/core/match/mgf.js';
import { Dataset } from '../../../../runtime/core/storage/dataset.js';
import { FileSource } from '../../../../runtime/entries/node/fileSource.js';
import { cometInstalled, passingScans, runComet } from '../../../helpers/comet.js';
import { casanovoDataset, ECOLI_FASTA, ecoliDataset, removeTempDirs, tempDir } from '../../../helpers/datasets.js';
import { identifyQuery } from '../../../helpers/identifyQuery.js';
import { REPO } from '../../../helpers/process.js';

const FASTA = join(REPO, 'test/fixtures/casanovo/preprocessed_mouse.fasta');
const MGF = join(REPO, 'test/fixtures/mgf/casanovo_sample_preprocessed_spectra.mgf');
const FDR = 0.02;

const il = (peptide: string) => peptide.replace(/\[[^\]]*\]/g, '').replaceAll('I', 'L');

let ours: Map<number, string>;
let comet: Map<number, string>;
let labels: string[];

beforeAll(async () => {
  if (!cometInstalled()) return;
  const dir = tempDir('comet');
  copyFileSync(FASTA, join(dir, 'proteome.fasta'));
  copyFileSync(MGF, join(dir, 'spectra.mgf'));
  const run = runComet(dir, 'proteome.fasta', join(dir, 'spectra.mgf'), { isotope_error: '1' });
  comet = new Map(passingScans(run.best, FDR).map((scan) => [scan, il(run.best.get(scan)!.peptide)]));

  const shards = await casanovoDataset();
  const result = await identifyAll(
    await Dataset.open(new FileSource(shards)),
    identifyQuery(),
    readMgf([readFileSync(MGF)], true),
  );
  // Comet numbers an MGF's spectra from 1 in file order, as our index does.
  ours = new Map(
    result.psms.filter((p) => !p.decoy && p.spectrumQ <= FDR).map((p) => [p.spectrum.index, il(p.sequence)]),
  );
  labels = [...readFileSync(MGF, 'utf8').matchAll(/^SEQ=(.*)$/gm)].map((m) => il(m[1]));
});
afterAll(removeTempDirs);

describe.skipIf(!cometInstalled())('identify beside Comet (comet-ms)', () => {
  it(`identifies at least as many spectra at ${FDR * 100} % FDR, and agrees on the peptide of those both identify`, () => {
    expect(comet.size).toBeGreaterThan(50); // Comet ran and identified
    expect(ours.size).toBeGreaterThanOrEqual(comet.size);
    const both = [...ours.keys()].filter((scan) => comet.has(scan));
    expect(both.length).toBeGreaterThan(0.8 * comet.size);
    const agree = both.filter((scan) => ours.get(scan) === comet.get(scan)).length;
    expect(agree / both.length).toBeGreaterThanOrEqual(0.95);
  });

  it('names the labelled peptide where it identifies a spectrum, as Comet does', () => {
    const right = (found: Map<number, string>) =>
      [...found].filter(([scan, peptide]) => peptide === labels[scan - 1]).length;
    expect(right(ours) / ours.size).toBeGreaterThanOrEqual(0.95);
    expect(right(ours)).toBeGreaterThanOrEqual(right(comet));
  });
});

const ION_TRAP = join(REPO, 'test/fixtures/mgf/mpa_Test1000Ecoli.mgf');

describe.skipIf(!cometInstalled())('identify beside Comet on low-resolution spectra', () => {
  let ours: Map<number, string>;
  let comet: Map<number, string>;
  beforeAll(async () => {
    const dir = tempDir('comet-ion-trap');
    copyFileSync(ECOLI_FASTA, join(dir, 'proteome.fasta'));
    // Comet numbers a record without CHARGE once per charge it tries, unless the record says its scan: each gets
    // SCANS=<its ordinal> (a line our reader ignores), so that both number spectra alike.
    let n = 0;
    const text = readFileSync(ION_TRAP, 'latin1').replace(/^BEGIN IONS\r?\n/gm, (line) => `${line}SCANS=${++n}\n`);
    writeFileSync(join(dir, 'spectra.mgf'), text, 'latin1');
    const run = runComet(dir, 'proteome.fasta', join(dir, 'spectra.mgf'), {
      peptide_mass_tolerance: '0.5',
      peptide_mass_units: '0',
      fragment_bin_tol: '1.0005',
      fragment_bin_offset: '0.4',
      theoretical_fragment_ions: '1',
    });
    comet = new Map(passingScans(run.best, 0.01).map((scan) => [scan, il(run.best.get(scan)!.peptide)]));
    const result = await identifyAll(
      await Dataset.open(new FileSource(await ecoliDataset())),
      identifyQuery({
        tolerance: { unit: 'Da', below: 0.5, above: 0.5 },
        charges: [2, 3, 4],
        isotopeErrors: [0],
        fragmentTolerance: { value: 0.5, unit: 'Da' },
      }),
      readMgf([readFileSync(ION_TRAP)], true),
    );
    ours = new Map(
      result.psms.filter((p) => !p.decoy && p.spectrumQ <= 0.01).map((p) => [p.spectrum.index, il(p.sequence)]),
    );
  });

  it('identifies at least as many spectra at 1 % FDR, and agrees on the peptide of those both identify', () => {
    expect(comet.size).toBeGreaterThan(80); // Comet ran and identified
    expect(ours.size).toBeGreaterThanOrEqual(comet.size);
    const both = [...ours.keys()].filter((scan) => comet.has(scan));
    expect(both.length).toBeGreaterThan(0.8 * comet.size);
    const agree = both.filter((scan) => ours.get(scan) === comet.get(scan)).length;
    expect(agree / both.length).toBeGreaterThanOrEqual(0.95);
  });
});

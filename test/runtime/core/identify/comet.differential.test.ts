// Identification against an established engine: Debian's Comet (comet-ms) and our identify search Casanovo's 128
// labelled mouse spectra against their proteome with the same parameters (trypsin, 2 missed cleavages, 6–50 residues,
// Carbamidomethyl@C fixed, Oxidation@M variable, ±10 ppm precursors with isotope errors 0 and 1, high-resolution
// fragments) and the same FDR, (decoys + 1) / targets over each spectrum's best PSM (Comet's by E-value, with its
// concatenated reversed decoys). At 2 % — the least a file of 128 spectra reaches — we identify at least as many
// spectra as Comet, and where both identify a spectrum they name the same peptide (I = L) at least 95 % of the time.
import { execFileSync } from 'node:child_process';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identifyAll } from '../../../../runtime/core/identify/identification.js';
import { readMgf } from '../../../../runtime/core/match/mgf.js';
import { Dataset } from '../../../../runtime/core/storage/dataset.js';
import { FileSource } from '../../../../runtime/entries/node/fileSource.js';
import { parseModifications } from '../../../../runtime/model/modifications.js';
import { buildOnce, DEFAULT_SHARD_BYTES, removeTempDirs, SAMPLE_TAXDUMP, tempDir } from '../../../helpers/datasets.js';
import { REPO } from '../../../helpers/process.js';

const FASTA = join(REPO, 'test/fixtures/casanovo/preprocessed_mouse.fasta');
const MGF = join(REPO, 'test/fixtures/mgf/casanovo_sample_preprocessed_spectra.mgf');
const FDR = 0.02;

/** Comet's parameters: its own defaults (`comet-ms -p`) with ours set over them. */
const COMET = {
  database_name: 'proteome.fasta',
  decoy_search: '1',
  num_threads: '2',
  peptide_mass_tolerance: '10.00',
  peptide_mass_units: '2',
  isotope_error: '1',
  fragment_bin_tol: '0.02',
  fragment_bin_offset: '0.0',
  theoretical_fragment_ions: '0',
  allowed_missed_cleavage: '2',
  peptide_length_range: '6 50',
  digest_mass_range: '500.0 6000.0',
  variable_mod01: '15.9949 M 0 3 -1 0 0 0.0',
  max_variable_mods_in_peptide: '2',
  add_C_cysteine: '57.021464',
  output_txtfile: '1',
  output_pepxmlfile: '0',
  num_output_lines: '1',
};

/** q-values by (decoys + 1) / targets of scored items, higher scores better; by key. */
function qValuesOf(items: { key: number; score: number; decoy: boolean }[]): Map<number, number> {
  const sorted = [...items].sort((a, b) => b.score - a.score);
  const fdr: number[] = [];
  let [targets, decoys] = [0, 0];
  for (const item of sorted) {
    if (item.decoy) decoys++;
    else targets++;
    fdr.push(targets === 0 ? 1 : Math.min(1, (decoys + 1) / targets));
  }
  for (let i = fdr.length - 2; i >= 0; i--) fdr[i] = Math.min(fdr[i], fdr[i + 1]);
  return new Map(sorted.map((item, i) => [item.key, fdr[i]]));
}

const il = (peptide: string) => peptide.replace(/\[[^\]]*\]/g, '').replaceAll('I', 'L');

let ours: Map<number, string>;
let comet: Map<number, string>;
let labels: string[];

/** Comet is a Debian package (.ci/run installs it); without it this comparison is skipped, as the README says. */
const hasComet = (() => {
  try {
    execFileSync('comet-ms', [], { stdio: 'ignore' });
    return true;
  } catch (e) {
    return (e as { status?: number }).status !== undefined; // it ran (and said how to use it): it is there
  }
})();

beforeAll(async () => {
  if (!hasComet) return;
  const dir = tempDir('comet');
  copyFileSync(FASTA, join(dir, 'proteome.fasta'));
  copyFileSync(MGF, join(dir, 'spectra.mgf'));
  execFileSync('comet-ms', ['-p'], { cwd: dir, stdio: 'ignore' });
  let params = readFileSync(join(dir, 'comet.params.new'), 'utf8');
  for (const [key, value] of Object.entries(COMET)) {
    const line = new RegExp(`^${key} = .*$`, 'm');
    expect(params, key).toMatch(line);
    params = params.replace(line, `${key} = ${value}`);
  }
  writeFileSync(join(dir, 'comet.params'), params);
  execFileSync('comet-ms', ['-Pcomet.params', 'spectra.mgf'], { cwd: dir, stdio: 'ignore' });
  // scan, num, charge, exp_neutral_mass, calc_neutral_mass, e-value, xcorr, …, plain_peptide (11), …, protein (15)
  const rows = readFileSync(join(dir, 'spectra.txt'), 'utf8')
    .trimEnd()
    .split('\n')
    .slice(2)
    .map((l) => l.split('\t'));
  const best = new Map<number, string[]>();
  for (const row of rows) {
    const scan = Number(row[0]);
    if (!best.has(scan) || Number(row[5]) < Number(best.get(scan)![5])) best.set(scan, row);
  }
  const cometQ = qValuesOf(
    [...best].map(([scan, row]) => ({
      key: scan,
      score: -Math.log10(Number(row[5])),
      decoy: row[15].startsWith('DECOY_'),
    })),
  );
  comet = new Map(
    [...best]
      .filter(([scan, row]) => cometQ.get(scan)! <= FDR && !row[15].startsWith('DECOY_'))
      .map(([scan, row]) => [scan, il(row[11])]),
  );

  const dataset = await Dataset.open(
    new FileSource(await buildOnce('casanovo-mouse', [FASTA], DEFAULT_SHARD_BYTES, SAMPLE_TAXDUMP)),
  );
  const result = await identifyAll(
    dataset,
    {
      tolerance: { unit: 'ppm', below: 10, above: 10 },
      fixed: parseModifications('Carbamidomethyl@C'),
      variable: parseModifications('Oxidation@M'),
      maxVariable: 2,
      filter: { taxa: [] },
      charges: [2, 3],
      isotopeErrors: [0, 1],
      fragmentTolerance: { value: 20, unit: 'ppm' },
      maxFragmentCharge: 3,
      topPeaks: 150,
      minMatched: 4,
      report: 1,
    },
    readMgf([readFileSync(MGF)], true),
  );
  // Comet numbers an MGF's spectra from 1 in file order, as our index does.
  ours = new Map(
    result.psms.filter((p) => !p.decoy && p.spectrumQ <= FDR).map((p) => [p.spectrum.index, il(p.sequence)]),
  );
  labels = [...readFileSync(MGF, 'utf8').matchAll(/^SEQ=(.*)$/gm)].map((m) => il(m[1]));
});
afterAll(removeTempDirs);

describe.skipIf(!hasComet)('identify beside Comet', () => {
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

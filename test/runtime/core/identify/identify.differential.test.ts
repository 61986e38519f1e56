// Tests runtime/core/identify/identify.ts end to end against the brute-force reference (test/helpers/
// referenceIdentify.ts) on real data: Casanovo's 128 labelled mouse spectra searched against their 148-protein
// proteome, under settings that exercise variable modifications, isotope errors, unknown charges, ppm and Da fragment
// tolerances and fragment charges. Each spectrum's best PSM has the reference's best score, peptide, side and
// placements, its ion counts and the number of forms scored; the labelled peptides are what both find.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identification } from '../../../../runtime/core/identify/identification.js';
import { identifySpectra, type FilePsm, type IdentifyQuery } from '../../../../runtime/core/identify/identify.js';
import { N_TERM } from '../../../../runtime/core/identify/forms.js';
import { readMgf } from '../../../../runtime/core/match/mgf.js';
import { Dataset } from '../../../../runtime/core/storage/dataset.js';
import { FileSource } from '../../../../runtime/entries/node/fileSource.js';
import { parseModifications } from '../../../../runtime/model/modifications.js';
import { casanovoDataset, removeTempDirs } from '../../../helpers/datasets.js';
import { REPO } from '../../../helpers/process.js';
import { referencePeptides, ReferencePrecursor, parseRefMods } from '../../../helpers/referencePrecursor.js';
import { referencePsms, refSpectra, type RefScoring } from '../../../helpers/referenceIdentify.js';

const FASTA = join(REPO, 'test/fixtures/casanovo/preprocessed_mouse.fasta');
const MGF = join(REPO, 'test/fixtures/mgf/casanovo_sample_preprocessed_spectra.mgf');

interface Setting {
  name: string;
  fixed: string;
  variable: string;
  maxVariable: number;
  scoring: RefScoring;
  /** The MGF's CHARGE lines dropped: every charge of `charges` is tried. */
  unknownCharge?: boolean;
}

const SETTINGS: Setting[] = [
  {
    name: 'Carbamidomethyl@C fixed, Oxidation@M and Deamidated@NQ variable (2), isotope errors 0 and 1, 20 ppm',
    fixed: 'Carbamidomethyl@C',
    variable: 'Oxidation@M,Deamidated@NQ',
    maxVariable: 2,
    scoring: {
      tolerancePpm: 10,
      isotopeErrors: [0, 1],
      charges: [2, 3],
      fragment: { value: 20, unit: 'ppm' },
      maxFragmentCharge: 3,
      topPeaks: 150,
      minMatched: 4,
    },
  },
  {
    name: 'no fixed, Acetyl@N-term and Carbamidomethyl@C variable, charges unknown (2, 3, 4), 0.05 Da, 40 peaks',
    fixed: '',
    variable: 'Acetyl@N-term,Carbamidomethyl@C',
    maxVariable: 3,
    unknownCharge: true,
    scoring: {
      tolerancePpm: 20,
      isotopeErrors: [0],
      charges: [2, 3, 4],
      fragment: { value: 0.05, unit: 'Da' },
      maxFragmentCharge: 2,
      topPeaks: 40,
      minMatched: 3,
    },
  },
];

let dataset: Dataset;
const peptides = referencePeptides(readFileSync(FASTA));

beforeAll(async () => {
  const dir = await casanovoDataset();
  dataset = await Dataset.open(new FileSource(dir));
});
afterAll(removeTempDirs);

describe.each(SETTINGS)('identify: $name', (setting) => {
  const text = readFileSync(MGF, 'utf8');
  const mgf = setting.unknownCharge ? text.replace(/^CHARGE=.*\n/gm, '') : text;
  let psms: FilePsm[];
  let spectra: number;
  const query = (): IdentifyQuery => ({
    tolerance: { unit: 'ppm', below: setting.scoring.tolerancePpm, above: setting.scoring.tolerancePpm },
    fixed: setting.fixed ? parseModifications(setting.fixed) : [],
    variable: parseModifications(setting.variable),
    maxVariable: setting.maxVariable,
    filter: { taxa: [] },
    charges: setting.scoring.charges,
    isotopeErrors: setting.scoring.isotopeErrors,
    fragmentTolerance: setting.scoring.fragment,
    maxFragmentCharge: setting.scoring.maxFragmentCharge,
    topPeaks: setting.scoring.topPeaks,
    minMatched: setting.scoring.minMatched,
    report: 3,
  });

  beforeAll(async () => {
    psms = [];
    spectra = 0;
    for await (const batch of identifySpectra(dataset, query(), readMgf([mgf], true), { batch: 50 })) {
      psms.push(...batch.psms);
      spectra += batch.spectra;
    }
  });

  it("gives each spectrum the reference's best PSMs", () => {
    const reference = new ReferencePrecursor(peptides, {
      fixed: parseRefMods(setting.fixed),
      variable: parseRefMods(setting.variable),
      maxVariable: setting.maxVariable,
    });
    const variable = parseRefMods(setting.variable);
    expect(spectra).toBe(128);
    let identified = 0;
    for (const spectrum of refSpectra(mgf)) {
      const expected = referencePsms(spectrum, reference, setting.scoring);
      const ours = psms.filter((p) => p.spectrum.index === spectrum.index);
      expect(ours.length, `spectrum ${spectrum.index}`).toBe(Math.min(3, expected.psms.length));
      ours.forEach((psm, rank) => {
        const where = `spectrum ${spectrum.index} rank ${rank + 1}`;
        expect(psm.rank, where).toBe(rank + 1);
        expect(psm.hyperscore, where).toBeCloseTo(expected.psms[rank].hyperscore, 9);
        expect(psm.scoredCandidates, where).toBe(expected.scored);
        // Poisson's P(k) at λ the mean ions matched per form scored, from its definition.
        const lambda = expected.matchedIons / expected.scored;
        const k = psm.matched.b + psm.matched.y;
        let pmf = Math.exp(-lambda);
        for (let i = 1; i <= k; i++) pmf *= lambda / i;
        expect(psm.poisson, where).toBeCloseTo(Math.log10(pmf), 9);
        const L = psm.sequence.length;
        const placed = psm.form.placed.map(
          (p) => `${p.slot === N_TERM ? L : p.slot === L ? L + 1 : p.slot}:${variable[p.spec].text}`,
        );
        // Equal scores may come in another order: ours is one of the reference's PSMs of that score.
        const tied = expected.psms.filter((e) => Math.abs(e.hyperscore - psm.hyperscore) < 1e-9);
        const same = tied.find(
          (e) =>
            e.sequence === psm.sequence &&
            e.decoy === psm.decoy &&
            e.charge === psm.charge &&
            e.isotopeError === psm.isotopeError &&
            e.placed.join() === [...placed].sort((a, b) => Number.parseInt(a, 10) - Number.parseInt(b, 10)).join(),
        );
        expect(same, `${where}: ${psm.sequence} ${placed} not among ${JSON.stringify(tied)}`).toBeDefined();
        expect([psm.matched.b, psm.matched.y], where).toEqual([same!.b, same!.y]);
        expect(psm.ref.accessions, where).toEqual(same!.accessions);
      });
      if (ours[0] && !ours[0].decoy) identified++;
    }
    expect(identified).toBeGreaterThan(60);
  });

  it('finds the labelled peptide (I = L) in at least 95 % of the best targets at 2 % FDR', () => {
    const il = (sequence: string) => sequence.replaceAll('I', 'L');
    const labels = [...mgf.matchAll(/^SEQ=(.*)$/gm)].map((m) => il(m[1].replace(/\[[^\]]*\]/g, '')));
    const result = identification(query(), spectra, psms, [], undefined);
    // 128 spectra: (decoys + 1) / targets is at least 1/83 here, so 1 % is out of reach whatever the engine.
    const passing = result.psms.filter((p) => p.rank === 1 && !p.decoy && p.spectrumQ <= 0.02);
    const agree = passing.filter((p) => il(p.sequence) === labels[p.spectrum.index - 1]).length;
    expect(passing.length).toBeGreaterThan(50);
    expect(agree / passing.length).toBeGreaterThanOrEqual(0.95);
  });
});

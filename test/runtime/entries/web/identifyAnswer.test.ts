// Identify mode's reading of an answer (runtime/entries/web/identifyAnswer.ts) in Node, on the JSON `npm run query
// -- identify` writes for Casanovo's mouse spectra: its TSV download is the command line's TSV byte for byte, the
// table shows passing PSMs (else the best targets), the histograms count every spectrum's best PSM once, and the
// organisms and the taxon chart pick what they say they pick.
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../../../runtime/entries/cli/query.js';
import {
  BEST_SHOWN,
  chartTaxa,
  identifyTsv,
  organismsOf,
  scoreHistograms,
  shownPsms,
  type IdentifyAnswer,
  type PsmRow,
} from '../../../../runtime/entries/web/identifyAnswer.js';
import { casanovoDataset } from '../../../helpers/datasets.js';
import { Collector, REPO } from '../../../helpers/process.js';

const MGF = join(REPO, 'test/fixtures/mgf/casanovo_sample_preprocessed_spectra.mgf');
// Two PSMs per spectrum and a variable modification: ranks, decoys and bracketed deltas in the columns.
const FLAGS = ['--fixed', 'Carbamidomethyl@C', '--variable', 'Oxidation@M', '--report-psms', '2'];

let answer: IdentifyAnswer;
let tsv: string;

async function identify(shards: string, format: string): Promise<string> {
  const stdout = new Collector();
  const stderr = new Collector();
  expect(await main(['identify', MGF, '--shards', shards, ...FLAGS, '--format', format], { stdout, stderr })).toBe(0);
  return stdout.text;
}

beforeAll(async () => {
  const shards = await casanovoDataset();
  const [json, text] = await Promise.all([identify(shards, 'json'), identify(shards, 'tsv')]);
  answer = JSON.parse(json);
  tsv = text;
});

describe("an identification's answer on the page", () => {
  it('downloads as the TSV of npm run query -- identify, byte for byte', () => {
    expect(answer.psms.some((p) => p.rank === 2)).toBe(true);
    expect(identifyTsv(answer)).toBe(tsv);
  });

  it('shows the PSMs passing the FDR best first, else the best targets, which do not pass', () => {
    const none = shownPsms(answer);
    expect(none.passing).toBe(false);
    expect(none.psms).toHaveLength(BEST_SHOWN);
    expect(none.psms.every((p) => p.rank === 1 && p.label === 1)).toBe(true);
    const scores = none.psms.map((p) => p.hyperscore);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    const worstShown = scores.at(-1)!;
    const left = answer.psms.filter((p) => p.rank === 1 && p.label === 1 && !none.psms.includes(p));
    expect(left.every((p) => p.hyperscore <= worstShown)).toBe(true);
    // Made to pass: the table is then exactly those, whatever their number.
    const passingIds = new Set(
      answer.psms
        .filter((p) => p.rank === 1)
        .map((p) => p.psm_id)
        .slice(0, 70),
    );
    const passed: IdentifyAnswer = {
      ...answer,
      psms: answer.psms.map((p) => ({ ...p, spectrum_q: passingIds.has(p.psm_id) ? 0.005 : p.spectrum_q })),
    };
    const shown = shownPsms(passed);
    expect(shown.passing).toBe(true);
    expect(shown.psms.map((p) => p.psm_id).sort((a, b) => a - b)).toEqual(
      passed.psms.filter((p) => passingIds.has(p.psm_id) && p.label === 1).map((p) => p.psm_id),
    );
  });

  it("bins every spectrum's best PSM once, targets and decoys apart", () => {
    const bins = scoreHistograms(answer, 20);
    const best = answer.psms.filter((p) => p.rank === 1);
    const sum = (counts: number[]) => counts.reduce((a, b) => a + b, 0);
    expect(sum(bins.counts)).toBe(best.filter((p) => p.label === 1).length);
    expect(sum(bins.decoys)).toBe(best.filter((p) => p.label === -1).length);
    expect(bins.starts[0]).toBe(0);
    expect(bins.starts.at(-1)! + bins.width).toBeCloseTo(Math.max(...best.map((p) => p.hyperscore)), 9);
  });

  it('counts distinct peptides per organism, and charts species and genera first', () => {
    const psm = (peptide: string, lca: number | '', organism: string) => ({ peptide, lca, organism }) as PsmRow;
    expect(
      organismsOf([
        psm('AAK', 10090, 'Mus musculus'),
        psm('AAK', 10090, 'Mus musculus'),
        psm('CCK', 10090, 'Mus musculus'),
        psm('DDK', 9606, 'Homo sapiens'),
        psm('EEK', '', ''),
      ]).map((t) => [t.name, t.within, t.assigned]),
    ).toEqual([
      ['Mus musculus', 2, 2],
      ['Homo sapiens', 1, 1],
    ]);
    const taxon = (name: string, rank: string, within: number) => ({
      taxId: within,
      name,
      rank,
      parent: 1,
      assigned: 0,
      within,
    });
    const taxa = [taxon('root', 'no rank', 9), taxon('Mus', 'genus', 8), taxon('Mus musculus', 'species', 7)];
    expect(chartTaxa(taxa).map((t) => t.name)).toEqual(['Mus', 'Mus musculus']);
    expect(chartTaxa(taxa.slice(0, 1)).map((t) => t.name)).toEqual(['root']);
  });
});

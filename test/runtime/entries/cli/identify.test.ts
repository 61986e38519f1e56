// The `identify` command of the offline query tool (runtime/entries/cli/identify.ts through query.ts's main) on
// Casanovo's labelled mouse spectra and their proteome: the TSV, PIN and JSON carry the same PSMs, each column
// checked against what it is defined from (the spectrum's fields, the other columns); errors, usage and --out.
import { cpSync, existsSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../../../runtime/entries/cli/query.js';
import { casanovoDataset, removeTempDirs, tempDir } from '../../../helpers/datasets.js';
import { Collector, REPO, type Run } from '../../../helpers/process.js';
import { refSpectra } from '../../../helpers/referenceIdentify.js';

const FASTA = join(REPO, 'test/fixtures/casanovo/preprocessed_mouse.fasta');
const MGF = join(REPO, 'test/fixtures/mgf/casanovo_sample_preprocessed_spectra.mgf');
const SAGE_COLUMNS =
  'psm_id peptide proteins num_proteins filename scannr rank label expmass calcmass charge peptide_len missed_cleavages isotope_error precursor_ppm fragment_ppm hyperscore delta_next matched_peaks matched_intensity_pct scored_candidates poisson discriminant_score spectrum_q peptide_q protein_q rt'.split(
    ' ',
  );
const FLAGS = [
  '--fixed',
  'Carbamidomethyl@C',
  '--variable',
  'Oxidation@M',
  '--isotope-errors',
  '0,1',
  '--report-psms',
  '2',
];

let shards: string;
let dir: string;

beforeAll(async () => {
  shards = await casanovoDataset();
  dir = tempDir('identify');
});
afterAll(removeTempDirs);

async function identify(argv: string[]): Promise<Run> {
  const stdout = new Collector();
  const stderr = new Collector();
  const code = await main(['identify', ...argv], { stdout, stderr });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

const rowsOf = (tsv: string) => {
  const [header, ...lines] = tsv.trimEnd().split('\n');
  const names = header.split('\t');
  return { names, rows: lines.map((line) => Object.fromEntries(line.split('\t').map((v, i) => [names[i], v]))) };
};

describe('npm run query -- identify', () => {
  let tsv: Run;
  let json: Run;
  let pin: Run;
  beforeAll(async () => {
    [tsv, json, pin] = await Promise.all(
      ['tsv', 'json', 'pin'].map((format) => identify([MGF, '--shards', shards, ...FLAGS, '--format', format])),
    );
  });

  it("writes Sage's columns (ours, discriminant_score, among them), then proforma, lca and organism, one row per PSM, as the JSON has them", () => {
    expect(tsv.code, tsv.stderr).toBe(0);
    const { names, rows } = rowsOf(tsv.stdout);
    expect(names).toEqual([...SAGE_COLUMNS, 'proforma', 'lca', 'organism']);
    const answer = JSON.parse(json.stdout);
    expect(rows.length).toBe(answer.psms.length);
    rows.forEach((row, i) => {
      for (const name of names) expect(row[name], `${i} ${name}`).toBe(String(answer.psms[i][name]));
    });
    expect(answer.spectra).toBe(128);
    expect(tsv.stderr).toMatch(
      /^identify: 128 spectra, [\d,]+ PSMs; at 1% FDR \d+ PSMs, \d+ peptides, \d+ proteins; [\d.]+ s\n$/,
    );
  });

  it('fills each column from what it is defined by', () => {
    const { rows } = rowsOf(tsv.stdout);
    const spectra = refSpectra(readFileSync(MGF, 'utf8'));
    const rt = new Map(
      [...readFileSync(MGF, 'utf8').matchAll(/^TITLE=(.*)\n(?:.*\n)*?RTINSECONDS=(.*)$/gm)].map((m) => [
        m[1],
        Number(m[2]),
      ]),
    );
    let previous = '';
    for (const row of rows) {
      const spectrum = spectra.find((s) => s.title === row.scannr)!;
      expect(spectrum, row.scannr).toBeDefined();
      expect(row.filename).toBe('casanovo_sample_preprocessed_spectra.mgf');
      const charge = Number(row.charge);
      expect(Number(row.expmass)).toBeCloseTo((spectrum.mz - 1.007276466621) * charge, 5);
      const calc = Number(row.calcmass);
      const ppm = ((Number(row.expmass) - Number(row.isotope_error) - calc) / calc) * 1e6;
      expect(Number(row.precursor_ppm)).toBeCloseTo(ppm, 1);
      expect(Math.abs(ppm)).toBeLessThanOrEqual(10.01);
      expect([0, 1.003355]).toContain(Number(row.isotope_error));
      const decoy = row.label === '-1';
      expect(row.label).toMatch(/^(1|-1)$/);
      const proteins = row.proteins.split(';');
      expect(proteins.every((p) => p.startsWith('rev_') === decoy)).toBe(true);
      expect(Number(row.num_proteins)).toBe(proteins.length);
      const plain = row.peptide.replace(/\[[^\]]*\]-?|-\[[^\]]*\]/g, '');
      expect(Number(row.peptide_len)).toBe(plain.length);
      expect(row.proforma.replace(/<[^>]*>/g, '').replace(/\[[^\]]*\]-?|-\[[^\]]*\]/g, '')).toBe(plain);
      // Every cysteine carries the fixed modification, written inline in `peptide`.
      expect(row.peptide.match(/C\[\+57\.021464\]/g)?.length ?? 0).toBe(plain.split('C').length - 1);
      expect(Number(row.missed_cleavages)).toBe(plain.slice(0, -1).match(/[KR](?!P)/g)?.length ?? 0);
      expect(Number(row.rt)).toBeCloseTo(rt.get(row.scannr)! / 60, 5);
      expect(Number(row.delta_next)).toBeGreaterThanOrEqual(0);
      expect(Number(row.matched_peaks)).toBeGreaterThanOrEqual(4);
      for (const q of ['spectrum_q', 'peptide_q', 'protein_q']) expect(Number(row[q])).toBeLessThanOrEqual(1);
      if (decoy) expect([row.lca, row.organism]).toEqual(['', '']);
      else expect([row.lca, row.organism]).toEqual(['10090', 'Mus musculus']);
      // Ranks count up within a spectrum.
      expect(row.rank).toBe(previous === row.scannr ? '2' : '1');
      previous = row.scannr;
    }
    // Spectrum q never rises as the best PSMs' discriminant score rises.
    const best = rows
      .filter((r) => r.rank === '1')
      .map((r) => ({ s: Number(r.discriminant_score), q: Number(r.spectrum_q) }));
    for (const a of best) for (const b of best) if (a.s > b.s) expect(a.q).toBeLessThanOrEqual(b.q);
  });

  it('writes the same PSMs as a Percolator input file', () => {
    expect(pin.code, pin.stderr).toBe(0);
    const lines = pin.stdout.trimEnd().split('\n');
    const header = lines[0].split('\t');
    expect(header.slice(0, 3)).toEqual(['SpecId', 'Label', 'ScanNr']);
    expect(header.slice(-2)).toEqual(['Peptide', 'Proteins']);
    const { rows } = rowsOf(tsv.stdout);
    expect(lines.length - 1).toBe(rows.length);
    lines.slice(1).forEach((line, i) => {
      const cells = line.split('\t');
      expect(cells[1]).toBe(rows[i].label);
      expect(Number(cells[header.indexOf('hyperscore')])).toBeCloseTo(Number(rows[i].hyperscore), 5);
      expect(cells[header.indexOf(`z=${rows[i].charge}`)]).toBe('1');
      expect(cells[header.length - 2]).toBe(`-.${rows[i].peptide}.-`);
      expect(cells.slice(header.length - 1).join(';')).toBe(rows[i].proteins);
    });
  });

  it('reads a gzipped file as the plain one, and writes --out only on success', async () => {
    const gz = join(dir, 'casanovo.mgf.gz');
    writeFileSync(gz, gzipSync(readFileSync(MGF)));
    const out = join(dir, 'out.tsv');
    const run = await identify([gz, '--shards', shards, ...FLAGS, '--out', out]);
    expect(run.code, run.stderr).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(
      tsv.stdout.replaceAll('casanovo_sample_preprocessed_spectra.mgf', 'casanovo.mgf.gz'),
    );
    const failed = join(dir, 'failed.tsv');
    expect((await identify([join(REPO, 'README.md'), '--shards', shards, '--out', failed])).code).toBe(1);
    expect(existsSync(failed)).toBe(false);
  });

  it('scores on worker threads exactly as in one, the file read in batches a thread each', async () => {
    // Batches of 60 on three threads: lanes of 20 spectra, seven for the 128 (the last of 8).
    const args = [MGF, '--shards', shards, ...FLAGS, '--batch', '60'];
    const [three, one] = await Promise.all([
      identify([...args, '--threads', '3']),
      identify([...args, '--threads', '1']),
    ]);
    expect([three.code, one.code], three.stderr + one.stderr).toEqual([0, 0]);
    expect(three.stdout).toBe(tsv.stdout);
    expect(one.stdout).toBe(tsv.stdout);
    const summary = (run: Run) => run.stderr.replace(/[\d.]+ s\n$/, '');
    expect(summary(three)).toBe(summary(one));
    // A dataset that fails under the threads: its error in one line, nothing written.
    const broken = join(dir, 'broken');
    cpSync(shards, broken, { recursive: true });
    for (const name of readdirSync(broken).filter((n) => n.endsWith('.msgpack.gz'))) unlinkSync(join(broken, name));
    const out = join(dir, 'broken.tsv');
    const failed = await identify([MGF, '--shards', broken, '--batch', '60', '--threads', '2', '--out', out]);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/^[^\n]*msgpack\.gz[^\n]*\n$/);
    expect(existsSync(out)).toBe(false);
  });

  it('refuses mistakes in one line', async () => {
    const cases: [string[], number, RegExp][] = [
      [[MGF, '--shards', shards, '--format', 'xml'], 2, /--format must be tsv, pin, json, got "xml"/],
      [[MGF, '--shards', shards, '--isotope-errors', '0,9'], 1, /isotopeErrors must be whole numbers from -1 to 3/],
      [
        [MGF, '--shards', shards, '--fragment-tolerance', '20', '--fragment-unit', 'Da'],
        1,
        /fragmentTolerance in Da must be at most 2/,
      ],
      [[MGF, '--shards', shards, '--fragment-tol', '0.5'], 2, /--fragment-tol.*--fragment-tolerance/],
      [
        [join(REPO, 'README.md'), '--shards', shards],
        1,
        /is not an MGF or mzML peak list: it looks like text without a BEGIN IONS line/,
      ],
      [[FASTA, '--shards', shards], 1, /it looks like a FASTA file/],
      [[MGF, MGF, '--shards', shards], 2, /identify takes one peak list, MGF or mzML/],
      [[MGF, '--shards', shards, '--threads', '0'], 2, /--threads must be a whole number from 1 to 256, got "0"/],
      [[join(dir, 'none.mgf'), '--shards', shards], 1, /cannot read .*none\.mgf: no such file/],
    ];
    for (const [argv, code, message] of cases) {
      const run = await identify(argv);
      expect([run.code, run.stderr || run.stdout], argv.join(' ')).toEqual([code, expect.stringMatching(message)]);
      expect(run.stderr, argv.join(' ')).not.toMatch(/\n\s+at /);
    }
    const help = await identify(['--help']);
    expect(help.code).toBe(0);
    for (const flag of ['--fragment-tolerance', '--isotope-errors', '--report-psms', '--format', '--threads', '--out'])
      expect(help.stdout).toContain(flag);
  });
});

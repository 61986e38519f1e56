// Debian's Comet (comet-ms), the established engine identification is compared with: run on a peak list and a FASTA
// with its own default parameters (`comet-ms -p`) and ours set over them, concatenated reversed decoys; each
// spectrum's best PSM by E-value, and q-values by (decoys + 1) / targets as ours are computed.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Whether comet-ms is installed (.ci/run installs it); run without arguments it prints its usage and exits 1. */
export function cometInstalled(): boolean {
  try {
    execFileSync('comet-ms', [], { stdio: 'ignore' });
    return true;
  } catch (e) {
    return (e as { status?: number }).status !== undefined;
  }
}

/** Our search as Comet's parameters: trypsin, 2 missed cleavages, 6–50 residues, Oxidation@M, high-res fragments. */
export const COMET_PARAMS: Readonly<Record<string, string>> = {
  decoy_search: '1',
  num_threads: '2',
  peptide_mass_tolerance: '10.00',
  peptide_mass_units: '2',
  isotope_error: '0',
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

/** A spectrum's best Comet PSM: its plain peptide, whether a decoy, and its q-value. */
export interface CometPsm {
  peptide: string;
  decoy: boolean;
  q: number;
}

export interface CometRun {
  seconds: number;
  version: string;
  /** By scan: Comet numbers an MGF's spectra from 1 in file order. */
  best: Map<number, CometPsm>;
}

/** q-values by (decoys + 1) / targets of scored items, higher scores better, by key. */
export function qValuesOf<K>(items: readonly { key: K; score: number; decoy: boolean }[]): Map<K, number> {
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

/** Comet on `mgf` against `fasta` (both paths; its output is written in `dir`), with `overrides` over COMET_PARAMS. */
export function runComet(dir: string, fasta: string, mgf: string, overrides: Record<string, string> = {}): CometRun {
  execFileSync('comet-ms', ['-p'], { cwd: dir, stdio: 'ignore' });
  let params = readFileSync(join(dir, 'comet.params.new'), 'utf8');
  for (const [key, value] of Object.entries({ ...COMET_PARAMS, database_name: fasta, ...overrides })) {
    const line = new RegExp(`^${key} = .*$`, 'm');
    if (!line.test(params)) throw new Error(`comet.params has no ${key}`);
    params = params.replace(line, `${key} = ${value}`);
  }
  writeFileSync(join(dir, 'comet.params'), params);
  const started = performance.now();
  const log = execFileSync('comet-ms', ['-Pcomet.params', mgf], { cwd: dir, encoding: 'utf8' });
  const seconds = (performance.now() - started) / 1000;
  // scan, num, charge, exp_neutral_mass, calc_neutral_mass, e-value, xcorr, …, plain_peptide (11), …, protein (15)
  const rows = readFileSync(mgf.replace(/\.mgf$/, '.txt'), 'utf8')
    .trimEnd()
    .split('\n')
    .slice(2)
    .map((l) => l.split('\t'));
  const top = new Map<number, string[]>();
  for (const row of rows) {
    const scan = Number(row[0]);
    if (!top.has(scan) || Number(row[5]) < Number(top.get(scan)![5])) top.set(scan, row);
  }
  const decoy = (row: string[]) => row[15].startsWith('DECOY_');
  const q = qValuesOf([...top].map(([key, row]) => ({ key, score: -Math.log10(Number(row[5])), decoy: decoy(row) })));
  const best = new Map([...top].map(([scan, row]) => [scan, { peptide: row[11], decoy: decoy(row), q: q.get(scan)! }]));
  return { seconds, version: /Comet version "([^"]+)"/.exec(log)?.[1] ?? 'unknown', best };
}

/** Target spectra at or below `fdr`. */
export const passingScans = (best: Map<number, { decoy: boolean; q: number }>, fdr: number) =>
  [...best].filter(([, psm]) => !psm.decoy && psm.q <= fdr).map(([scan]) => scan);

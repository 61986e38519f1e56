// Fingerprinting benchmark: seeded 100-peak lists — the [M+H]+ of half the tryptic peptides of 800–3,500 Da of one
// protein of the benchmark's FASTA, as many random peaks — against the Swiss-Prot-sized dataset. Single lists warm
// (latency, at ±50 and ±10 ppm), then a MALDI-imaging-sized run (many lists): by the core in a child process of its
// own, and by `npm run query -- fingerprint` on two threads (its MGF file written first), with their peak RSS.
// Run as a script (`tsx test/bench/fingerprint.ts <shards> <fasta> <lists> <ppm> [threads]`) it is that child: it
// prints one JSON line. The smoke test makes the core's run in its own process: it checks that run's time only.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import {
  fingerprint,
  peakMass,
  SWEEP_PEAKS,
  type FingerprintQuery,
  type NamedPeakList,
} from '../../runtime/core/fingerprint/fingerprint.js';
import { findPeaks } from '../../runtime/core/fingerprint/finds.js';
import { MATCH_CACHE_BYTES } from '../../runtime/core/match/match.js';
import { Dataset } from '../../runtime/core/storage/dataset.js';
import { main } from '../../runtime/entries/cli/query.js';
import { FileSource } from '../../runtime/entries/node/fileSource.js';
import { peptideMass, PROTON_MASS_DA, UNITS_PER_DA } from '../../runtime/model/chemistry.js';
import { cleavageSites, ENZYMES } from '../../runtime/model/enzymes.js';
import { peakRssMb } from './http.js';
import { summarize } from './measure.js';
import { prng } from './synthetic.js';

/**
 * Single lists timed; lists of the imaging run (a 10,000-list file's rate, measured on a tenth of it: at ±50 ppm in
 * a Swiss-Prot-sized dataset the whole file takes the best part of an hour); peaks a list.
 */
export const FINGERPRINT = { lists: 200, imaging: 1000, peaks: 100 };

/** Peak lists handed to fingerprint() at a time in the imaging run (it sweeps SWEEP_PEAKS peaks at a time). */
const IMAGING_BATCH = 200;

const query = (ppm: number): FingerprintQuery => ({
  tolerance: { unit: 'ppm', below: ppm, above: ppm },
  fixed: [],
  variable: [],
  maxVariable: 0,
  filter: { taxa: [] },
  ion: 'mh',
  rank: 'species',
  proteins: 20,
  organisms: 10,
});

/** The protein sequences of a FASTA file, in order. */
const proteinsOf = (fasta: string) =>
  readFileSync(fasta, 'utf8')
    .split('>')
    .slice(1)
    .map((record) => record.slice(record.indexOf('\n') + 1).replace(/\s/g, ''));

/** `count` seeded peak lists of `peaks` peaks each, from the proteins of `fasta`. */
export function benchPeakLists(fasta: string, count: number, peaks = FINGERPRINT.peaks, seed = 47): NamedPeakList[] {
  const random = prng(seed);
  const proteins = proteinsOf(fasta);
  return Array.from({ length: count }, (_, i) => {
    const mz: number[] = [];
    while (mz.length === 0) {
      const protein = proteins[Math.floor(random() * proteins.length)];
      const sites = cleavageSites(protein, ENZYMES.trypsin);
      for (let k = 0; k + 1 < sites.length && mz.length < peaks / 2; k++) {
        const mass = peptideMass(protein.slice(sites[k], sites[k + 1]));
        if (!('units' in mass)) continue;
        const da = mass.units / UNITS_PER_DA;
        if (da >= 800 && da <= 3500 && random() < 0.5) mz.push(da + PROTON_MASS_DA);
      }
    }
    while (mz.length < peaks) mz.push(800 + random() * 2700);
    return { title: `list ${i + 1}`, mz: Float64Array.from(mz).sort() };
  });
}

export interface FingerprintRuns {
  peptides: number;
  /** Warm single-list latencies (ms) by tolerance, and of the sweep alone (every peptide of the windows found). */
  single: { ppm: number; p50: number; p99: number; inWindow: number; sweepP50?: number }[];
  /** The imaging run by the core in a child process, then by the command on two threads in another. */
  imaging: { lists: number; ppm: number; one: ImagingRun; threads: ImagingRun };
}

interface ImagingRun {
  seconds: number;
  peakRssMb: number;
}

/** The benchmark on a dataset folder built from `fasta`; with `inProcess`, the one-process imaging run in this one. */
export async function benchFingerprint(
  dir: string,
  fasta: string,
  config = FINGERPRINT,
  log: (line: string) => void = () => {},
  inProcess = false,
): Promise<FingerprintRuns> {
  const dataset = await Dataset.open(new FileSource(dir), { cacheBytes: 2 ** 40 });
  const lists = benchPeakLists(fasta, config.lists);
  const single: FingerprintRuns['single'] = [];
  for (const ppm of [50, 10]) {
    log(`fingerprint: ${config.lists} single lists at ±${ppm} ppm`);
    let inWindow = 0;
    for (const list of lists) await fingerprint(dataset, query(ppm), [list]); // warm-up: every shard cached
    const times: number[] = [];
    for (const list of lists) {
      const started = performance.now();
      const [answer] = await fingerprint(dataset, query(ppm), [list]);
      times.push(performance.now() - started);
      for (const peak of answer.peaks) inWindow += peak.inWindow / answer.peaks.length;
    }
    const { p50, p99 } = summarize(times);
    // The floor under the answer: the sweep that finds the windows' peptides, with nothing counted or scored.
    const sweeps: number[] = [];
    for (const list of lists) {
      const started = performance.now();
      await findPeaks(
        dataset,
        query(ppm),
        Float64Array.from(list.mz, (mz) => peakMass(mz, 'mh')),
        {},
      );
      sweeps.push(performance.now() - started);
    }
    single.push({ ppm, p50, p99, inWindow: inWindow / lists.length, sweepP50: summarize(sweeps).p50 });
  }
  log(`fingerprint: ${config.imaging} lists, the core in one process`);
  const one = inProcess
    ? await imagingRun(dir, fasta, config.imaging, 50, 1, false)
    : await runChild(dir, fasta, config.imaging, 50, 1);
  log(`fingerprint: ${config.imaging} lists, the command on two threads`);
  const threads = await runChild(dir, fasta, config.imaging, 50, 2);
  return {
    peptides: dataset.manifest.totals.peptides,
    single,
    imaging: { lists: config.imaging, ppm: 50, one, threads },
  };
}

function runChild(dir: string, fasta: string, lists: number, ppm: number, threads: number) {
  return new Promise<ImagingRun>((resolve, reject) => {
    const args = [dir, fasta, lists, ppm, threads].map(String);
    const proc = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), ...args], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    proc.stdout.on('data', (d: Buffer) => (out += d));
    proc.on('close', (code) =>
      code === 0
        ? resolve(JSON.parse(out.trim().split('\n').at(-1)!) as ImagingRun)
        : reject(new Error(`fingerprint bench child exited ${code}`)),
    );
  });
}

/** The section of BENCHMARKS.md. */
export function fingerprintSection(r: FingerprintRuns): string[] {
  const met = (ok: boolean) => (ok ? 'met' : '**missed**');
  const rate = (run: ImagingRun) => Math.round(r.imaging.lists / run.seconds).toLocaleString('en');
  const at50 = r.single.find((s) => s.ppm === 50)!;
  return [
    '## Peptide mass fingerprinting (`npm run query -- fingerprint`)',
    '',
    `Seeded 100-peak lists (test/bench/fingerprint.ts: the [M+H]+ of half the tryptic peptides of 800–3,500 Da of one protein of the benchmark's FASTA, random peaks for the rest) against the Swiss-Prot-sized dataset (${r.peptides.toLocaleString('en')} peptides), scored for proteins and species; the core in process, warm (every shard cached).`,
    '',
    '| tolerance | peptides in a peak window, mean | p50, ms | p99, ms | the sweep alone, p50 ms |',
    '|---|---|---|---|---|',
    ...r.single.map(
      (s) =>
        `| ±${s.ppm} ppm | ${Math.round(s.inWindow).toLocaleString('en')} | ${s.p50.toFixed(1)} | ${s.p99.toFixed(1)} | ${s.sweepP50?.toFixed(1) ?? ''} |`,
    ),
    '',
    "The sweep alone finds every peptide of the windows (the batch match's sweep, kept as shard references) and counts or scores nothing: the floor under an answer, as long as every peptide in a window is weighed.",
    '',
    `A MALDI imaging run's rate: ${r.imaging.lists.toLocaleString('en')} such lists (a tenth of a 10,000-spectrum file) at ±${r.imaging.ppm} ppm, ${IMAGING_BATCH} lists at a time (${SWEEP_PEAKS.toLocaleString('en')} peaks a sweep), each run in a process of its own reading the dataset folder with the match cache (${MATCH_CACHE_BYTES / 2 ** 20} MB a thread), cold: the core in one thread, and \`npm run query -- fingerprint --threads 2\` on the same lists as an MGF file (its batches shared between two worker threads, the answers written as JSON).`,
    '',
    '| run | lists/s | seconds | peak RSS, MB |',
    '|---|---|---|---|',
    `| the core, one thread | ${rate(r.imaging.one)} | ${r.imaging.one.seconds.toFixed(1)} | ${Math.round(r.imaging.one.peakRssMb)} |`,
    `| the command, two threads | ${rate(r.imaging.threads)} | ${r.imaging.threads.seconds.toFixed(1)} | ${Math.round(r.imaging.threads.peakRssMb)} |`,
    '',
    `Goals: a 100-peak list warm p50 ≤ 50 ms — ${met(at50.p50 <= 50)} (±50 ppm); ≥ 200 lists/s on 2 cores — ${met(r.imaging.lists / r.imaging.threads.seconds >= 200)}.`,
    '',
  ];
}

/**
 * The imaging run's `lists` lists at ±`ppm`: by the core (`threads` 1), or by the command on `threads` threads reading
 * them from an MGF file written first; in the child, or in this process (`ownProcess` false: its peak RSS is then not
 * the run's, NaN). Seconds are the run's own, the file's writing left out.
 */
async function imagingRun(
  dir: string,
  fasta: string,
  lists: number,
  ppm: number,
  threads: number,
  ownProcess = true,
): Promise<ImagingRun> {
  const all = benchPeakLists(fasta, lists);
  if (threads === 1) {
    const started = performance.now();
    const dataset = await Dataset.open(new FileSource(dir), { cacheBytes: MATCH_CACHE_BYTES });
    for (let i = 0; i < all.length; i += IMAGING_BATCH)
      await fingerprint(dataset, query(ppm), all.slice(i, i + IMAGING_BATCH));
    const seconds = (performance.now() - started) / 1000;
    return { seconds, peakRssMb: ownProcess ? peakRssMb(process.pid) : NaN };
  }
  const folder = mkdtempSync(join(tmpdir(), 'fingerprint-bench-'));
  try {
    const mgf = join(folder, 'imaging.mgf');
    writeFileSync(
      mgf,
      all.map((l) => `BEGIN IONS\nTITLE=${l.title}\n${Array.from(l.mz).join('\n')}\nEND IONS\n`).join(''),
    );
    const sink = () => new Writable({ write: (_chunk, _encoding, done) => done() });
    const argv = ['fingerprint', mgf, '--shards', dir, '--tolerance', String(ppm), '--threads', String(threads)];
    const started = performance.now();
    const code = await main([...argv, '--batch', String(IMAGING_BATCH), '--format', 'json'], {
      stdout: sink(),
      stderr: sink(),
    });
    if (code !== 0) throw new Error(`fingerprint command exited ${code}`);
    return { seconds: (performance.now() - started) / 1000, peakRssMb: peakRssMb(process.pid) };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [dir, fasta, ...numbers] = process.argv.slice(2);
  const [lists, ppm, threads] = numbers.map(Number);
  process.stdout.write(`${JSON.stringify(await imagingRun(dir, fasta, lists, ppm, threads))}\n`);
}

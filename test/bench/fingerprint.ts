// Fingerprinting benchmark: seeded 100-peak lists — the [M+H]+ of half the tryptic peptides of 800–3,500 Da of one
// protein of the benchmark's FASTA, as many random peaks — against the Swiss-Prot-sized dataset. Single lists warm
// (latency, at ±50 and ±10 ppm), then a MALDI-imaging-sized run (many lists) by the core in child processes of their
// own, one and two at once (cores), with their peak RSS.
// Run as a script (`tsx test/bench/fingerprint.ts <shards> <lists> <ppm> <part> <parts>`) it is that child: it
// prints one JSON line. The smoke test makes the one-process run in its own process: it checks that run's time only.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
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
  /** The imaging run by the core in child processes: one, then two at once. */
  imaging: { lists: number; ppm: number; one: ImagingRun; two: ImagingRun };
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
  const imaging = async (parts: number): Promise<ImagingRun> => {
    const started = performance.now();
    const runs = await Promise.all(
      Array.from({ length: parts }, (_, part) =>
        inProcess && parts === 1
          ? imagingPart(dir, fasta, config.imaging, 50, part, parts, false)
          : runChild(dir, fasta, config.imaging, 50, part, parts),
      ),
    );
    return { seconds: (performance.now() - started) / 1000, peakRssMb: Math.max(...runs.map((r) => r.peakRssMb)) };
  };
  log(`fingerprint: ${config.imaging} lists, one process`);
  const one = await imaging(1);
  log(`fingerprint: ${config.imaging} lists, two processes`);
  const two = await imaging(2);
  return {
    peptides: dataset.manifest.totals.peptides,
    single,
    imaging: { lists: config.imaging, ppm: 50, one, two },
  };
}

function runChild(dir: string, fasta: string, lists: number, ppm: number, part: number, parts: number) {
  return new Promise<ImagingRun>((resolve, reject) => {
    const args = [dir, fasta, lists, ppm, part, parts].map(String);
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
    `A MALDI imaging run's rate: ${r.imaging.lists.toLocaleString('en')} such lists (a tenth of a 10,000-spectrum file) at ±${r.imaging.ppm} ppm, ${IMAGING_BATCH} lists a call (${SWEEP_PEAKS.toLocaleString('en')} peaks a sweep), in child processes reading the dataset folder with the match cache (${MATCH_CACHE_BYTES / 2 ** 20} MB), cold.`,
    '',
    '| processes | lists/s | seconds | peak RSS per process, MB |',
    '|---|---|---|---|',
    `| 1 | ${rate(r.imaging.one)} | ${r.imaging.one.seconds.toFixed(1)} | ${Math.round(r.imaging.one.peakRssMb)} |`,
    `| 2 | ${rate(r.imaging.two)} | ${r.imaging.two.seconds.toFixed(1)} | ${Math.round(r.imaging.two.peakRssMb)} |`,
    '',
    `Goals: a 100-peak list warm p50 ≤ 50 ms — ${met(at50.p50 <= 50)} (±50 ppm); ≥ 200 lists/s on 2 cores — ${met(r.imaging.lists / r.imaging.two.seconds >= 200)}.`,
    '',
  ];
}

/**
 * Part `part` of `parts` of the imaging run's `lists` lists, at ±`ppm`: in the child, or in this process
 * (`ownProcess` false: its peak RSS is then not the run's, NaN). Seconds are the caller's to measure.
 */
async function imagingPart(
  dir: string,
  fasta: string,
  lists: number,
  ppm: number,
  part: number,
  parts: number,
  ownProcess = true,
): Promise<ImagingRun> {
  const mine = benchPeakLists(fasta, lists).filter((_, i) => i % parts === part);
  const dataset = await Dataset.open(new FileSource(dir), { cacheBytes: MATCH_CACHE_BYTES });
  for (let i = 0; i < mine.length; i += IMAGING_BATCH)
    await fingerprint(dataset, query(ppm), mine.slice(i, i + IMAGING_BATCH));
  return { seconds: 0, peakRssMb: ownProcess ? peakRssMb(process.pid) : NaN };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [dir, fasta, ...numbers] = process.argv.slice(2);
  const [lists, ppm, part, parts] = numbers.map(Number);
  process.stdout.write(`${JSON.stringify(await imagingPart(dir, fasta, lists, ppm, part, parts))}\n`);
}

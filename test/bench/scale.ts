// Build scale curve: the real build CLI on 1×, 2×, … K× Swiss-Prot-sized synthetic input, each measured
// for time, peak RSS and disk, to show whether the build's memory stays bounded as its input grows. Each input and
// dataset is removed before the next multiple, so disk holds one at a time. Only `npm run bench -- --only scale`.
import { execFileSync } from 'node:child_process';
import { rmSync, statfsSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { machine } from './measure.js';
import { measuredBuild } from './measuredBuild.js';
import { sampleStats, SWISS_PROT, writeSynthetic } from './synthetic.js';

export const SCALE_MULTIPLES = 5;
/** Worker threads of every scale build (the machine's 2 cores); throughput per core divides by it. */
export const SCALE_THREADS = 2;
/** Every multiple's input from this seed: the m× input is the (m−1)× one plus new proteins, and 1× is the Build section's. */
const SEED = 1;

export interface ScaleConfig {
  dir: string;
  proteinsPerMultiple: number;
  multiples: number;
  /** Worker threads of each build (default SCALE_THREADS). */
  threads?: number;
}

/** One multiple's build. Bytes are file sizes; temporary bytes are the partition files the build reports (MB). */
export interface ScaleRow {
  multiple: number;
  proteins: number;
  residues: number;
  inputBytes: number;
  seconds: number;
  cpuSeconds: number;
  peptides: number;
  shards: number;
  datasetBytes: number;
  peakRssMb: number;
  tempBytes: number;
  /** Partitions + every dataset file: all on disk at once just before the build publishes (an upper bound). */
  peakDiskBytes: number;
  /** The largest size of the output folder seen by walking it while the build ran (a lower bound). */
  sampledDiskBytes: number;
  /** Mean 1-minute load average while the build ran (its own threads included). */
  load: number;
}

export interface ScaleRuns {
  date: string;
  command: string;
  machine: string;
  /** The commit whose builder/ was measured, "+ uncommitted changes" when builder/ or runtime/ differed from it. */
  code: string;
  proteinsPerMultiple: number;
  threads: number;
  /** 1-, 5- and 15-minute load averages before the first build and after the last. */
  loadBefore: number[];
  loadAfter: number[];
  rows: ScaleRow[];
  /** Why fewer multiples than asked were built (not enough free disk), if so. */
  stopped?: string;
  verdict?: ScaleVerdict;
}

export function codeVersion(): string {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'builder', 'runtime'], {
      encoding: 'utf8',
    }).trim();
    return dirty ? `${commit} + uncommitted changes` : commit;
  } catch {
    return 'unknown';
  }
}

/** Free bytes of the file system holding `dir`. */
const freeBytes = (dir: string) => {
  const s = statfsSync(dir);
  return s.bavail * s.bsize;
};

/** Runs `task` while sampling the 1-minute load average every 2 s; returns its result and the mean load. */
async function withLoad<T>(task: () => Promise<T>): Promise<[T, number]> {
  const samples = [loadavg()[0]];
  const timer = setInterval(() => samples.push(loadavg()[0]), 2000);
  try {
    return [await task(), samples.reduce((a, b) => a + b, 0) / samples.length];
  } finally {
    clearInterval(timer);
  }
}

/** Builds 1×..K× `proteinsPerMultiple` synthetic proteins, one multiple at a time, in `config.dir`. */
export async function benchScale(
  config: ScaleConfig,
  command: string,
  log: (line: string) => void,
): Promise<ScaleRuns> {
  const stats = await sampleStats();
  const fasta = join(config.dir, 'scale-input.fasta');
  const out = join(config.dir, 'scale-dataset');
  const clean = () => [fasta, out].forEach((p) => rmSync(p, { recursive: true, force: true }));
  const runs: ScaleRuns = {
    date: new Date().toISOString().slice(0, 10),
    command,
    machine: machine(),
    code: codeVersion(),
    proteinsPerMultiple: config.proteinsPerMultiple,
    threads: config.threads ?? SCALE_THREADS,
    loadBefore: loadavg(),
    loadAfter: [],
    rows: [],
  };
  clean();
  for (let m = 1; m <= config.multiples; m++) {
    // Disk grows in proportion to the input: 1×'s input, partitions and dataset times m, with a fifth to spare.
    const first = runs.rows[0];
    const need = first ? ((first.peakDiskBytes + first.inputBytes) * m * 6) / 5 : 0;
    if (need > freeBytes(config.dir)) {
      runs.stopped = `${m}× would need about ${(need / 1e9).toFixed(0)} GB of disk, ${(freeBytes(config.dir) / 1e9).toFixed(0)} GB free`;
      log(`scale: stopped, ${runs.stopped}`);
      break;
    }
    const proteins = m * config.proteinsPerMultiple;
    log(`scale ${m}×: generating ${proteins.toLocaleString('en')} proteins`);
    const residues = await writeSynthetic(
      fasta,
      proteins,
      (SWISS_PROT.residues / SWISS_PROT.proteins) * proteins,
      SEED,
      stats,
    );
    log(`scale ${m}×: building`);
    const [build, load] = await withLoad(() =>
      measuredBuild(fasta, out, ['--taxdump', 'data/taxdump', '--threads', String(runs.threads)], true),
    );
    const t = build.manifest.totals;
    const tempBytes = build.tempMb * 1e6;
    runs.rows.push({
      multiple: m,
      proteins: t.proteins,
      residues,
      inputBytes: statSync(fasta).size,
      seconds: build.seconds,
      cpuSeconds: build.cpuSeconds ?? NaN,
      peptides: t.peptides,
      shards: t.shards,
      datasetBytes: build.allFilesBytes,
      peakRssMb: build.peakRssMb,
      tempBytes,
      peakDiskBytes: tempBytes + build.allFilesBytes,
      sampledDiskBytes: build.sampledDiskBytes ?? 0,
      load,
    });
    log(
      `scale ${m}×: ${build.seconds.toFixed(0)} s, peak RSS ${build.peakRssMb.toFixed(0)} MB, ${t.peptides.toLocaleString('en')} peptides`,
    );
    clean();
  }
  runs.loadAfter = loadavg();
  if (runs.rows.length > 0) runs.verdict = scaleVerdict(runs.rows);
  return runs;
}

export interface ScaleVerdict {
  /** Peak RSS of the largest multiple over the first's, and the same ratio of their inputs (proteins). */
  rssRatio: number;
  inputRatio: number;
  /** Least-squares fit of peak RSS (MB) against the multiple: MB per multiple added, and at 0×. */
  mbPerMultiple: number;
  interceptMb: number;
  /** The same slope of the dataset's bytes (all files), to set the memory's growth beside. */
  datasetBytesPerMultiple: number;
  /** Nearly flat: each multiple added costs at most BOUNDED_SHARE of the 1× peak RSS. */
  bounded: boolean;
}

/** The verdict's rule: a multiple added may cost at most this share of the 1× peak RSS. */
export const BOUNDED_SHARE = 0.1;

/** Least-squares slope and intercept of `y` against the multiple. */
function leastSquares(rows: readonly ScaleRow[], y: (r: ScaleRow) => number): [number, number] {
  const n = rows.length;
  const mx = rows.reduce((s, r) => s + r.multiple, 0) / n;
  const my = rows.reduce((s, r) => s + y(r), 0) / n;
  const sxx = rows.reduce((s, r) => s + (r.multiple - mx) ** 2, 0);
  const slope = sxx > 0 ? rows.reduce((s, r) => s + (r.multiple - mx) * (y(r) - my), 0) / sxx : 0;
  return [slope, my - slope * mx];
}

export function scaleVerdict(rows: readonly ScaleRow[]): ScaleVerdict {
  const first = rows[0];
  const last = rows[rows.length - 1];
  const [mbPerMultiple, interceptMb] = leastSquares(rows, (r) => r.peakRssMb);
  return {
    rssRatio: last.peakRssMb / first.peakRssMb,
    inputRatio: last.proteins / first.proteins,
    mbPerMultiple,
    interceptMb,
    datasetBytesPerMultiple: leastSquares(rows, (r) => r.datasetBytes)[0],
    bounded: mbPerMultiple <= BOUNDED_SHARE * first.peakRssMb,
  };
}

const size = (bytes: number) => (bytes >= 1e9 ? `${(bytes / 1e9).toFixed(2)} GB` : `${(bytes / 1e6).toFixed(1)} MB`);
const count = (n: number) => (n >= 1e6 ? `${(n / 1e6).toFixed(2)} M` : n.toLocaleString('en'));
const loads = (l: number[]) => l.map((x) => x.toFixed(2)).join(' / ');

function scaleRow(r: ScaleRow, threads: number): string {
  const perCore = (n: number) => count(Math.round(n / r.seconds / threads));
  return (
    `| ${r.multiple}× | ${count(r.proteins)} | ${count(r.residues)} | ${size(r.inputBytes)} | ${r.seconds.toFixed(0)} s | ${r.cpuSeconds.toFixed(0)} s (${(r.cpuSeconds / r.seconds).toFixed(2)}) | ` +
    `${count(r.peptides)} | ${r.shards.toLocaleString('en')} | ${size(r.datasetBytes)} | ${(r.datasetBytes / r.peptides).toFixed(2)} | ${r.peakRssMb.toFixed(0)} MB | ` +
    `${size(r.peakDiskBytes)} | ${size(r.sampledDiskBytes)} | ${perCore(r.residues)} | ${perCore(r.proteins)} | ${r.load.toFixed(2)} |`
  );
}

/** The verdict as one line of the report (computed from the rows, so a re-rendered report follows the rule's code). */
function verdictLine(runs: ScaleRuns): string {
  const v = scaleVerdict(runs.rows);
  const first = runs.rows[0];
  const last = runs.rows[runs.rows.length - 1];
  const over = runs.rows.find((r) => r.peakRssMb > 2048);
  const reach = (2048 - v.interceptMb) / v.mbPerMultiple;
  const target = over
    ? `The build's 2,048 MB peak RSS target is exceeded from ${over.multiple}× (${over.peakRssMb.toFixed(0)} MB).`
    : v.mbPerMultiple > 0
      ? `At that slope the build's 2,048 MB peak RSS target would be reached near ${reach.toFixed(0)}× (${count(Math.round(reach * runs.proteinsPerMultiple))} proteins).`
      : '';
  return (
    `Verdict: ${v.bounded ? '**bounded**' : '**not bounded**, peak RSS grows in proportion to the input'}: ${v.rssRatio.toFixed(2)}× at ${v.inputRatio.toFixed(0)}× the input; ` +
    `+${v.mbPerMultiple.toFixed(0)} MB per ${runs.proteinsPerMultiple.toLocaleString('en')} proteins added (least squares over 1–${last.multiple}×, ${v.interceptMb.toFixed(0)} MB at 0×), ` +
    `${((100 * v.mbPerMultiple) / first.peakRssMb).toFixed(0)}% of the 1× peak per multiple (rule: bounded when at most ${(100 * BOUNDED_SHARE).toFixed(0)}%), ` +
    `beside +${size(v.datasetBytesPerMultiple)} of dataset per multiple. ${target}`
  ).trim();
}

/** The "Build scale curve" section of BENCHMARKS.md. */
export function scaleSection(runs: ScaleRuns): string[] {
  const asked = runs.stopped ? ` Stopped early: ${runs.stopped}.` : '';
  return [
    '## Build scale curve',
    '',
    `Measured ${runs.date} by \`${runs.command}\` (not part of the full run: it adds about half an hour), build code at ${runs.code}.` +
      ` Each multiple m is a seeded synthetic FASTA of m × ${runs.proteinsPerMultiple.toLocaleString('en')} proteins (seed ${SEED}: each input is the previous one plus ` +
      `${runs.proteinsPerMultiple.toLocaleString('en')} new proteins), built by the build CLI in a child process with default parameters, the bundled taxdump and ` +
      `\`--threads ${runs.threads}\`; its input and dataset are removed before the next multiple.${asked}`,
    '',
    "Peak RSS: the build process's high-water mark (VmHWM, worker threads included). CPU: user + system seconds of all its threads " +
      '(cores busy on average). Peak disk: the temporary partition files plus every dataset file, all of which the measured build ' +
      'holds at once in its staging folder just before it publishes (an upper bound for a build that removes its partitions sooner); ' +
      'sampled: the largest size of the output folder seen by walking it while the build ran (a lower bound: the last seconds fall ' +
      'between walks). The input file is beside both. ' +
      `Throughput per core: input over wall time, divided by ${runs.threads} threads on ${runs.threads} cores. Load: mean 1-minute load average during the build, its own threads included.`,
    '',
    '| input | proteins | residues | FASTA | wall time | CPU (cores busy) | distinct peptides | shards | dataset, all files | B/peptide | peak RSS | peak disk | sampled | residues/s per core | proteins/s per core | load |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...runs.rows.map((r) => scaleRow(r, runs.threads)),
    '',
    `Machine: ${runs.machine}; load average (1 / 5 / 15 min) ${loads(runs.loadBefore)} before the first build, ${loads(runs.loadAfter)} after the last ` +
      '(other work shares the 2 cores: contention inflates times, not RSS).',
    '',
    verdictLine(runs),
    '',
  ];
}

// MGF matching benchmark: a seeded peak list of 10,000 precursors (charges 2–4, ±10 ppm, Carbamidomethyl@C fixed,
// Oxidation@M variable) matched by `npm run query -- match`'s own code (matchFile) in a child process of its own:
// from a cold start (a fresh process: manifest, index, accession table and shards all read) and warm (the same
// run again in that process, with what its cache kept), from the dataset folder and over HTTP from npm start's
// server; all candidates, and the 10 closest (--top 10). Peak RSS is the child's own (its VmHWM: Linux's maxRSS of
// a spawned child also holds what its parent was resident in when it forked, a few GB after a warm benchmark).
// Run as a script (`tsx test/bench/match.ts <mgf> <shards> [flags]`) it is that child: it prints one JSON line.
// The smoke test's match on the view runs in its own process instead: it checks the candidates, not the process.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { Dataset } from '../../runtime/core/storage/dataset.js';
import { matchFile, matchOptions } from '../../runtime/entries/cli/match.js';
import { cacheBytesFromEnv, nodeCodecs, sourceFor } from '../../runtime/entries/node/platform.js';
import { MATCH_CACHE_BYTES } from '../../runtime/core/match/match.js';
import { peakRssMb, serveOwn, type Serve } from './http.js';
import { PRECURSOR_MODS, windowCentres } from './precursor.js';
import { prng } from './synthetic.js';

export const MATCH_SPECTRA = 10_000;
const PROTON = 1.007276466621;

/** A peak list of `count` precursors (neutral masses uniform over 600–3,500 Da, charge 2, 3 or 4), as an instrument's converter writes it. */
export function writeBenchMgf(path: string, count: number, seed = 14): void {
  const random = prng(seed);
  const masses = windowCentres(count, seed, 600, 3500);
  const records = masses.map((mass, i) => {
    const charge = random() < 0.6 ? 2 : random() < 0.75 ? 3 : 4;
    const peaks = Array.from(
      { length: 8 },
      () => `${(100 + random() * 1500).toFixed(4)} ${(random() * 1e5).toFixed(1)}`,
    );
    return [
      'BEGIN IONS',
      `TITLE=bench.${i + 1}.${i + 1}.${charge} File:"bench.raw", NativeID:"scan=${i + 1}"`,
      `RTINSECONDS=${(i * 0.36).toFixed(3)}`,
      `PEPMASS=${(mass / charge + PROTON).toFixed(6)} ${(random() * 1e6).toFixed(1)}`,
      `CHARGE=${charge}+`,
      `SCANS=${i + 1}`,
      ...peaks,
      'END IONS',
      '',
    ].join('\n');
  });
  writeFileSync(path, records.join('\n'));
}

/** One child run: seconds cold and warm, what was found, the output's size, and the child's peak RSS. */
export interface MatchRun {
  coldSeconds: number;
  warmSeconds: number;
  spectra: number;
  candidates: number;
  outputMb: number;
  /** Peak RSS over both runs of the process, cold then warm. */
  peakRssMb: number;
  /** Peak RSS when the cold run ended: what one `npm run query -- match` (a process of its own) peaks at. */
  peakRssColdMb?: number;
}

/** Output discarded, counted. */
class Sink extends Writable {
  bytes = 0;
  override _write(chunk: Buffer, _: BufferEncoding, done: () => void): void {
    this.bytes += chunk.length;
    done();
  }
}

/**
 * The match command's code on one dataset, twice: in the child, or in this process (`ownProcess` false: its peak
 * RSS is then not the run's, NaN).
 */
async function matchTwice(mgf: string, shards: string, flags: string[], ownProcess = true): Promise<MatchRun> {
  const values = Object.fromEntries(flags.map((f) => f.replace(/^--/, '').split('=')));
  const params = {
    fixed: PRECURSOR_MODS.fixed,
    variable: PRECURSOR_MODS.variable,
    maxVariable: String(PRECURSOR_MODS.maxVariable),
    tolerance: '10',
    ...values,
  } as Record<string, string>;
  const options = matchOptions((name) => (params[name] === undefined ? [] : [params[name]]), values);
  const dataset = await Dataset.open(sourceFor(shards), {
    cacheBytes: cacheBytesFromEnv(MATCH_CACHE_BYTES),
    ...nodeCodecs,
  }); // as the match command opens it
  const times: number[] = [];
  const peaks: number[] = [];
  let summary: Awaited<ReturnType<typeof matchFile>> | undefined;
  let sink = new Sink();
  for (let run = 0; run < 2; run++) {
    sink = new Sink();
    const started = performance.now();
    summary = await matchFile(
      dataset,
      options.query,
      { input: mgf, ...options },
      { stdout: sink, stderr: new Sink(), stdin: process.stdin },
    );
    times.push((performance.now() - started) / 1000);
    peaks.push(ownProcess ? peakRssMb(process.pid) || process.resourceUsage().maxRSS / 1024 : NaN);
  }
  return {
    coldSeconds: times[0],
    warmSeconds: times[1],
    spectra: summary!.precursors,
    candidates: summary!.candidates,
    outputMb: sink.bytes / 2 ** 20,
    // The kernel's high-water mark is read from per-thread counters that can lag a little, so the peak over both
    // runs is taken as the larger reading rather than trusted to be monotone.
    peakRssMb: Math.max(...peaks),
    peakRssColdMb: peaks[0],
  };
}

/** One all-candidates match of `mgf` on the dataset at `shards`, in a child process of its own or in this one. */
export const matchRun = (mgf: string, shards: string, inProcess = false): Promise<MatchRun> =>
  inProcess ? matchTwice(mgf, shards, [], false) : runChild(mgf, shards);

function runChild(mgf: string, shards: string, flags: string[] = []): Promise<MatchRun> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), mgf, shards, ...flags], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    proc.stdout.on('data', (d: Buffer) => (out += d));
    proc.on('close', (code) =>
      code === 0
        ? resolve(JSON.parse(out.trim().split('\n').at(-1)!) as MatchRun)
        : reject(new Error(`match bench child exited ${code}`)),
    );
  });
}

export interface MatchRuns {
  folder: MatchRun;
  folderTop: MatchRun;
  /** All candidates in batches of a quarter of the spectra: memory against reads. */
  folderQuarterBatch?: MatchRun;
  http: MatchRun;
}

const quarter = (spectra: number) => Math.ceil(spectra / 4);

/** The benchmark's runs on a dataset folder (its peak list written to `mgf`), over HTTP from the server `serve` gives. */
export async function benchMatch(
  dir: string,
  mgf: string,
  count = MATCH_SPECTRA,
  serve: Serve = serveOwn,
): Promise<MatchRuns> {
  writeBenchMgf(mgf, count);
  const folder = await runChild(mgf, dir);
  const folderTop = await runChild(mgf, dir, ['--top=10']);
  const folderQuarterBatch = await runChild(mgf, dir, [`--batch=${quarter(count)}`]);
  const served = await serve(dir);
  try {
    const http = await runChild(mgf, served.url, ['--concurrency=16']);
    return { folder, folderTop, folderQuarterBatch, http };
  } finally {
    served.close();
  }
}

/** The section of BENCHMARKS.md. */
export function matchSection(runs: MatchRuns, spectra = MATCH_SPECTRA, view?: MatchRun): string[] {
  const rate = (s: number) => Math.round(spectra / s).toLocaleString('en');
  const met = (ok: boolean) => (ok ? 'met' : '**missed**');
  const row = (name: string, r: MatchRun) =>
    `| ${name} | ${rate(r.coldSeconds)} (${r.coldSeconds.toFixed(1)} s) | ${rate(r.warmSeconds)} (${r.warmSeconds.toFixed(1)} s) | ${r.peakRssColdMb === undefined ? '' : `${Math.round(r.peakRssColdMb)} / `}${Math.round(r.peakRssMb)} | ${r.candidates.toLocaleString('en')} | ${r.outputMb.toFixed(0)} |`;
  const f = runs.folder;
  return [
    '## MGF matching (`npm run query -- match`)',
    '',
    `${spectra.toLocaleString('en')} precursors of a seeded peak list (charges 2–4; ±10 ppm, ${PRECURSOR_MODS.fixed} fixed, ${PRECURSOR_MODS.variable} variable, at most ${PRECURSOR_MODS.maxVariable}), ` +
      `the match command's code in a process of its own with its default cache (${MATCH_CACHE_BYTES / 2 ** 20} MB: its sweep reads each shard once) and batch, TSV output counted and discarded. ` +
      'Cold: a fresh process (manifest, index, accession table, shards all read); warm: the same run again in that process.',
    '',
    '| dataset read from | cold, spectra/s | warm, spectra/s | peak RSS, MB: cold run / both runs | candidates | TSV, MB |',
    '|---|---|---|---|---|---|',
    row('local folder, all candidates', runs.folder),
    row('local folder, --top 10', runs.folderTop),
    ...(runs.folderQuarterBatch
      ? [row(`local folder, all candidates, --batch ${quarter(spectra).toLocaleString('en')}`, runs.folderQuarterBatch)]
      : []),
    row('HTTP (npm start, local), all candidates, --concurrency 16', runs.http),
    ...(view ? [row(`local folder built with --view ${PRECURSOR_MODS.fixed}, all candidates`, view)] : []),
    '',
    `Goals (local folder, all candidates): ≥ 5,000 spectra/s warm — ${met(spectra / f.warmSeconds >= 5000)}; ≥ 1,000 spectra/s cold — ${met(spectra / f.coldSeconds >= 1000)}; peak RSS ≤ 512 MB — ${met((f.peakRssColdMb ?? f.peakRssMb) <= 512)} (one run, as \`npm run query -- match\` makes it in a process of its own: ${Math.round(f.peakRssColdMb ?? f.peakRssMb)} MB; over both runs of the process, cold then warm, ${Math.round(f.peakRssMb)} MB).`,
    '',
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [mgf, shards, ...flags] = process.argv.slice(2);
  process.stdout.write(JSON.stringify(await matchTwice(mgf, shards, flags)) + '\n');
}

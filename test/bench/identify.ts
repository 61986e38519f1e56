// Identification benchmark: a seeded human-proteome-sized FASTA (synthetic, 20,000 proteins) built with the default
// digest, and 10,000 seeded MS/MS spectra of its peptides (charges 2 and 3, Carbamidomethyl@C, a third of the
// methionines oxidised, 60 % of the b/y ions with 1–5 ppm errors among as many noise peaks, and 20 % of spectra pure
// noise), identified by `npm run query -- identify`'s own code in a child process of its own — cold, then warm in the
// same process — and by Debian's Comet (comet-ms, 2 threads) on the same spectra, FASTA and parameters.
// Run as a script (`tsx test/bench/identify.ts <mgf> <shards>`) it is that child: it prints one JSON line.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { parseIdentifyQuery } from '../../runtime/api/identifyParams.js';
import { DEFAULT_BATCH, MATCH_CACHE_BYTES } from '../../runtime/core/match/match.js';
import { fragmentIons } from '../../runtime/core/identify/fragments.js';
import { Dataset } from '../../runtime/core/storage/dataset.js';
import { identifyFile } from '../../runtime/entries/cli/identify.js';
import { identifyAll } from '../../runtime/core/identify/identification.js';
import { readMgf } from '../../runtime/core/match/mgf.js';
import { cometInstalled, passingScans, runComet } from '../helpers/comet.js';
import { cacheBytesFromEnv, nodeCodecs, sourceFor } from '../../runtime/entries/node/platform.js';
import { IdentifyWorkers } from '../../runtime/entries/node/identifyWorkers.js';
import { defaultThreads } from '../../runtime/entries/node/threadPool.js';
import { peptideMass, PROTON_MASS_DA, UNITS_PER_DA } from '../../runtime/model/chemistry.js';
import { cleavageSites, ENZYMES } from '../../runtime/model/enzymes.js';
import { peakRssMb } from './http.js';
import { inProcessBuild, measuredBuild, type Build, type BuildRun } from './measuredBuild.js';
import { prng, sampleStats, writeSynthetic } from './synthetic.js';

export interface IdentifyConfig {
  proteins: number;
  residues: number;
  spectra: number;
}

export const IDENTIFY: IdentifyConfig = { proteins: 20_000, residues: 11_400_000, spectra: 10_000 };
const PARAMS = {
  fixed: 'Carbamidomethyl@C',
  variable: 'Oxidation@M',
  maxVariable: '2',
  tolerance: '10',
  fragmentTolerance: '20',
};
const CAM = 570214640000;
const OXIDATION = 159949146000;

/** The sequences of a FASTA file, in order. */
const proteinsOf = (fasta: string) =>
  readFileSync(fasta, 'utf8')
    .split('>')
    .slice(1)
    .map((record) => record.slice(record.indexOf('\n') + 1).replace(/\s/g, ''));

/** `count` spectra of tryptic peptides of `fasta` (7–25 residues, no missed cleavage), written as an MGF file. */
export function writeIdentifyMgf(path: string, fasta: string, count: number, seed = 45): void {
  const random = prng(seed);
  const proteins = proteinsOf(fasta);
  const records: string[] = [];
  while (records.length < count) {
    const protein = proteins[Math.floor(random() * proteins.length)];
    const sites = cleavageSites(protein, ENZYMES.trypsin);
    const k = Math.floor(random() * (sites.length - 1));
    const sequence = protein.slice(sites[k], sites[k + 1]);
    if (sequence.length < 7 || sequence.length > 25 || /[BJOUXZ]/.test(sequence)) continue;
    const residues: number[] = [...sequence].map((c) =>
      c === 'C' ? CAM : c === 'M' && random() < 1 / 3 ? OXIDATION : 0,
    );
    const charge = random() < 0.7 ? 2 : 3;
    const ions = fragmentIons(sequence, { residues }, charge - 1);
    const noiseOnly = random() < 0.2;
    const peaks = [
      ...(noiseOnly
        ? []
        : ions
            .filter(() => random() < 0.6)
            .map((i) => i.mz * (1 + (random() * 4 + 1) * 1e-6 * (random() < 0.5 ? -1 : 1)))),
      ...Array.from({ length: 30 + Math.floor(random() * 30) }, () => 150 + random() * 1600),
    ]
      .sort((a, b) => a - b)
      .map((mz) => `${mz.toFixed(5)} ${(10 + random() * 1000).toFixed(1)}`);
    const mass =
      ((peptideMass(sequence) as { units: number }).units + residues.reduce((a, b) => a + b, 0)) / UNITS_PER_DA;
    const mz = (mass * (1 + (random() - 0.5) * 6e-6)) / charge + PROTON_MASS_DA;
    const i = records.length + 1;
    records.push(
      [
        'BEGIN IONS',
        `TITLE=bench.${i}.${i}.${charge}`,
        `PEPMASS=${mz.toFixed(6)}`,
        `CHARGE=${charge}+`,
        ...peaks,
        'END IONS',
        '',
      ].join('\n'),
    );
  }
  writeFileSync(path, records.join('\n'));
}

export interface IdentifyRun {
  coldSeconds: number;
  warmSeconds: number;
  /** Worker threads scoring (the command's default, one per core); absent in runs before threads. */
  threads?: number;
  /** CPU seconds of the warm run, every thread (user + system). */
  warmCpuSeconds?: number;
  spectra: number;
  psms: number;
  passing: { psms: number; peptides: number; proteins: number };
  peakRssMb: number;
}

export interface CometRun {
  seconds: number;
  passingPsms: number;
  version: string;
}

export interface IdentifyRuns {
  build: BuildRun;
  spectra: number;
  ours: IdentifyRun;
  comet?: CometRun;
  real?: RealDataRun;
}

class Sink extends Writable {
  override _write(_chunk: Buffer, _: BufferEncoding, done: () => void): void {
    done();
  }
}

/**
 * The child: the identify command's code on one dataset, twice, on the command's default threads (kept from the
 * cold run to the warm one, as their caches are).
 */
async function identifyTwice(mgf: string, shards: string): Promise<IdentifyRun> {
  const query = parseIdentifyQuery((name) => (name in PARAMS ? [PARAMS[name as keyof typeof PARAMS]] : []));
  const cacheBytes = cacheBytesFromEnv(MATCH_CACHE_BYTES);
  const dataset = await Dataset.open(sourceFor(shards), { cacheBytes, ...nodeCodecs });
  const threads = defaultThreads();
  const batch = DEFAULT_BATCH;
  const workers =
    threads > 1 ? new IdentifyWorkers({ location: shards, cacheBytes, query, concurrency: 6 }, threads) : undefined;
  const times: number[] = [];
  let cpu = 0;
  let result: Awaited<ReturnType<typeof identifyFile>> | undefined;
  for (let run = 0; run < 2; run++) {
    const started = performance.now();
    const usage = process.cpuUsage();
    result = await identifyFile(
      dataset,
      query,
      { input: mgf, format: 'tsv', batch, concurrency: 6, lanes: workers?.lanes(batch) },
      { stdout: new Sink(), stderr: new Sink(), stdin: process.stdin },
    );
    times.push((performance.now() - started) / 1000);
    const used = process.cpuUsage(usage);
    cpu = (used.user + used.system) / 1e6;
  }
  await workers?.close();
  return {
    coldSeconds: times[0],
    warmSeconds: times[1],
    threads,
    warmCpuSeconds: cpu,
    spectra: result!.spectra,
    psms: result!.psms.length,
    passing: result!.passing,
    peakRssMb: peakRssMb(process.pid) || process.resourceUsage().maxRSS / 1024,
  };
}

function runChild(mgf: string, shards: string): Promise<IdentifyRun> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), mgf, shards], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    proc.stdout.on('data', (d: Buffer) => (out += d));
    proc.on('close', (code) =>
      code === 0
        ? resolve(JSON.parse(out.trim().split('\n').at(-1)!) as IdentifyRun)
        : reject(new Error(`identify bench child exited ${code}`)),
    );
  });
}

/** Comet on the same spectra and FASTA and parameters, when it is installed. */
function cometRun(dir: string, fasta: string, mgf: string): CometRun | undefined {
  if (!cometInstalled()) return undefined;
  const run = runComet(dir, fasta, mgf);
  return { seconds: run.seconds, passingPsms: passingScans(run.best, 0.01).length, version: run.version };
}

/** Casanovo's labelled mouse spectra and proteome (committed): both engines at each FDR, and how they agree. */
export interface RealDataRun {
  spectra: number;
  rows: {
    fdr: number;
    ours: number;
    comet: number;
    both: number;
    agree: number;
    oursLabelled: number;
    cometLabelled: number;
  }[];
}

const CASANOVO = {
  fasta: 'test/fixtures/casanovo/preprocessed_mouse.fasta',
  mgf: 'test/fixtures/mgf/casanovo_sample_preprocessed_spectra.mgf',
};

async function realData(dir: string, buildArgs: string[], builder: Build): Promise<RealDataRun | undefined> {
  if (!cometInstalled()) return undefined;
  const work = join(dir, 'casanovo');
  mkdirSync(work, { recursive: true });
  copyFileSync(CASANOVO.fasta, join(work, 'proteome.fasta'));
  copyFileSync(CASANOVO.mgf, join(work, 'spectra.mgf'));
  const comet = runComet(work, 'proteome.fasta', join(work, 'spectra.mgf'), { isotope_error: '1' });
  const shards = join(work, 'shards');
  await builder(join(work, 'proteome.fasta'), shards, buildArgs);
  const query = parseIdentifyQuery((name) =>
    name in PARAMS
      ? [PARAMS[name as keyof typeof PARAMS]]
      : name === 'isotopeErrors'
        ? ['0,1']
        : name === 'charges'
          ? ['2,3']
          : [],
  );
  const ours = await identifyAll(
    await Dataset.open(sourceFor(shards), nodeCodecs),
    query,
    readMgf([readFileSync(CASANOVO.mgf)], true),
  );
  const il = (peptide: string) => peptide.replace(/\[[^\]]*\]/g, '').replaceAll('I', 'L');
  const labels = [...readFileSync(CASANOVO.mgf, 'utf8').matchAll(/^SEQ=(.*)$/gm)].map((m) => il(m[1]));
  const rows = [0.01, 0.02, 0.05].map((fdr) => {
    const o = new Map(
      ours.psms.filter((p) => !p.decoy && p.spectrumQ <= fdr).map((p) => [p.spectrum.index, il(p.sequence)]),
    );
    const c = new Map(passingScans(comet.best, fdr).map((scan) => [scan, il(comet.best.get(scan)!.peptide)]));
    const both = [...o.keys()].filter((scan) => c.has(scan));
    const labelled = (m: Map<number, string>) =>
      [...m].filter(([scan, peptide]) => peptide === labels[scan - 1]).length;
    return {
      fdr,
      ours: o.size,
      comet: c.size,
      both: both.length,
      agree: both.filter((scan) => o.get(scan) === c.get(scan)).length,
      oursLabelled: labelled(o),
      cometLabelled: labelled(c),
    };
  });
  return { spectra: ours.spectra, rows };
}

/**
 * The benchmark: FASTA, build (with `buildArgs` added), spectra, our run and Comet's, in `dir`. Our run is a child
 * process; the builds are too, or with `inProcess` run in this process.
 */
export async function benchIdentify(
  dir: string,
  config: IdentifyConfig = IDENTIFY,
  buildArgs: string[] = [],
  inProcess = false,
): Promise<IdentifyRuns> {
  const builder = inProcess ? inProcessBuild : measuredBuild;
  mkdirSync(dir, { recursive: true });
  const fasta = join(dir, `identify-${config.proteins}.fasta`);
  await writeSynthetic(fasta, config.proteins, config.residues, 45, await sampleStats());
  const shards = join(dir, `identify-${config.proteins}`);
  const build = await builder(fasta, shards, buildArgs);
  const mgf = join(dir, 'identify.mgf');
  writeIdentifyMgf(mgf, fasta, config.spectra);
  const ours = await runChild(mgf, shards);
  return {
    build,
    spectra: config.spectra,
    ours,
    comet: cometRun(dir, fasta, mgf),
    real: await realData(dir, buildArgs, builder),
  };
}

/** The section of BENCHMARKS.md. */
export function identifySection(r: IdentifyRuns): string[] {
  const rate = (s: number) => Math.round(r.spectra / s).toLocaleString('en');
  const met = (ok: boolean) => (ok ? 'met' : '**missed**');
  const o = r.ours;
  // Per core: spectra per CPU second of the warm run, every thread counted (one thread: its rate).
  const perCore = r.spectra / (o.warmCpuSeconds ?? o.warmSeconds);
  const threads = o.threads ?? 1;
  const tenComet = r.comet ? (10 * r.spectra) / r.comet.seconds : 0;
  return [
    '## Identification (`npm run query -- identify`)',
    '',
    `${r.spectra.toLocaleString('en')} seeded MS/MS spectra (test/bench/identify.ts: tryptic peptides of the FASTA, 60 % of their b/y ions among as many noise peaks, a fifth pure noise) against a synthetic human-proteome-sized FASTA (${r.build.manifest.totals.proteins.toLocaleString('en')} proteins, ${r.build.manifest.totals.peptides.toLocaleString('en')} peptides; trypsin, 2 missed cleavages), Carbamidomethyl@C fixed, Oxidation@M variable (≤ 2), ±10 ppm precursors, ±20 ppm fragments; our code in a process of its own (cold, then warm) on ${threads} thread${threads > 1 ? 's' : ''} (the command's default: one per core), Comet with 2 threads on the same spectra, FASTA and parameters (0.02 Th fragment bins).`,
    '',
    '| engine | cold, spectra/s | warm, spectra/s | peak RSS, MB | PSMs at 1 % FDR |',
    '|---|---|---|---|---|',
    `| ours | ${rate(o.coldSeconds)} (${o.coldSeconds.toFixed(1)} s) | ${rate(o.warmSeconds)} (${o.warmSeconds.toFixed(1)} s) | ${Math.round(o.peakRssMb)} | ${o.passing.psms.toLocaleString('en')} |`,
    r.comet
      ? `| Comet ${r.comet.version} | ${rate(r.comet.seconds)} (${r.comet.seconds.toFixed(1)} s) | | | ${r.comet.passingPsms.toLocaleString('en')} |`
      : '| Comet | not installed | | | |',
    '',
    ...(r.real
      ? [
          `Real data: Casanovo's ${r.real.spectra} labelled mouse spectra (Orbitrap) against their 148-protein proteome (both committed under test/fixtures), the same parameters with isotope errors 0 and 1, both FDRs computed alike over each spectrum's best PSM. With ${r.real.spectra} spectra, (decoys + 1) / targets cannot reach 1 %.`,
          '',
          '| FDR | spectra identified: ours | Comet | both | both, same peptide (I = L) | ours = the label | Comet = the label |',
          '|---|---|---|---|---|---|---|',
          ...r.real.rows.map(
            (x) =>
              `| ${x.fdr * 100} % | ${x.ours} | ${x.comet} | ${x.both} | ${x.agree} | ${x.oursLabelled} | ${x.cometLabelled} |`,
          ),
          '',
        ]
      : []),
    `Goals: ≥ 10× Comet's spectra/s — ${r.comet ? `${met(r.spectra / o.warmSeconds >= tenComet)} (${(r.comet.seconds / o.warmSeconds).toFixed(1)}×; 10× is ${Math.round(tenComet).toLocaleString('en')} spectra/s, ${Math.round(tenComet / threads).toLocaleString('en')} per core${tenComet / threads > 1500 ? ", above Sage's published ~1,500 per vCPU for a narrow search" : ''})` : 'not measured'}; ≥ 1,000 spectra/s per core warm — ${met(perCore >= 1000)} (${Math.round(perCore).toLocaleString('en')} spectra per CPU second, every thread counted); peak RSS ≤ 1 GB — ${met(o.peakRssMb <= 1024)}.`,
    '',
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [mgf, shards] = process.argv.slice(2);
  process.stdout.write(JSON.stringify(await identifyTwice(mgf, shards)) + '\n');
}

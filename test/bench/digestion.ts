// Digestion benchmark: the bundled real sample (UniProt proteins) built fully specific, semi-specific (with and
// without initiator-Met clipping) and non-specific (on its first records, which a whole-sample build would take too
// long for), each build measured (wall, CPU, peak RSS, temporary disk, dataset size) and then ±10 ppm
// /api/v1/search queries timed on it under the default cache. Each dataset is removed once measured.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_CACHE_BYTES } from '../../runtime/core/storage/dataset.js';
import type { Specificity } from '../../runtime/model/enzymes.js';
import { SAMPLE_FASTA, sampleRecords } from '../helpers/datasets.js';
import { fmt, machine } from './measure.js';
import { measuredBuild, type Build, type BuildRun } from './measuredBuild.js';
import { windowCentres } from './precursor.js';
import { apiSearchUrl, benchWarm, type QueryRun } from './queries.js';
import { codeVersion } from './scale.js';

export interface DigestionConfig {
  /** First records of the bundled sample for every build (the whole sample when undefined). */
  records?: number;
  /** First records of the sample for the non-specific build (as many as `records` when undefined). */
  noneRecords?: number;
  /** ±10 ppm queries per dataset. */
  queries: number;
}

/**
 * The whole sample for full and semi; its first 2,000 records for none (about 3 minutes on 2 cores): a non-specific
 * build of the whole sample (337 M sub-sequences) takes longer than the ~15 minutes this section allows a build
 * (~17 on 2 cores), and the section says what it would take from the subset's rate.
 */
export const DIGESTION: DigestionConfig = { noneRecords: 2000, queries: 10_000 };

/** The build's digest parameters beside the specificity (the defaults) and what every build of the section adds. */
const PARAMETERS = 'trypsin, 2 missed cleavages, length 6–50';
const BUILD_ARGS = ['--taxdump', 'data/taxdump'];
const MIN_LENGTH = 6;
const MAX_LENGTH = 50;
/** The Build section's peak RSS target. */
const RSS_TARGET_MB = 2048;

/** What one input holds: records, residues and sub-sequences within the length range (counted from the FASTA). */
export interface InputStats {
  records: number;
  residues: number;
  subSequences: number;
}

export interface DigestionRow {
  specificity: Specificity;
  clipMet: boolean;
  /** The input's records, or undefined for the whole sample. */
  records?: number;
  input: InputStats;
  build: BuildRun;
  query: QueryRun;
}

export interface DigestionRuns {
  date: string;
  machine: string;
  code: string;
  queries: number;
  /** The whole sample, for the non-specific build's extrapolation. */
  sample: InputStats;
  rows: DigestionRow[];
}

/** Records, residues and sub-sequences of length MIN_LENGTH..MAX_LENGTH of a FASTA text. */
function inputStats(fasta: string): InputStats {
  const stats = { records: 0, residues: 0, subSequences: 0 };
  for (const record of fasta.split(/^>/m).slice(1)) {
    const length = record.slice(record.indexOf('\n') + 1).replace(/\s/g, '').length;
    stats.records++;
    stats.residues += length;
    for (let l = MIN_LENGTH; l <= Math.min(MAX_LENGTH, length); l++) stats.subSequences += length - l + 1;
  }
  return stats;
}

/** The four builds of the section (with `buildArgs` added, by `builder`), each measured and queried, then removed. */
export async function benchDigestion(
  dir: string,
  config: DigestionConfig,
  log: (line: string) => void,
  buildArgs: string[] = [],
  builder: Build = measuredBuild,
): Promise<DigestionRuns> {
  mkdirSync(dir, { recursive: true });
  const sample = inputStats(sampleRecords(Number.MAX_SAFE_INTEGER));
  const urls = windowCentres(config.queries, 2, 360, 8500).map(apiSearchUrl);
  const rows: DigestionRow[] = [];
  const builds: [Specificity, boolean, number | undefined][] = [
    ['full', false, config.records],
    ['semi', false, config.records],
    ['semi', true, config.records],
    ['none', false, config.noneRecords ?? config.records],
  ];
  for (const [specificity, clipMet, records] of builds) {
    const text = records === undefined ? undefined : sampleRecords(records);
    const input = text === undefined ? SAMPLE_FASTA : join(dir, `sample-${records}.fasta`);
    if (text !== undefined) writeFileSync(input, text, 'latin1');
    const out = join(dir, `dataset-${specificity}${clipMet ? '-clip-met' : ''}`);
    rmSync(out, { recursive: true, force: true });
    const flags = ['--specificity', specificity, ...(clipMet ? ['--clip-met'] : [])];
    log(`digestion: build ${flags.join(' ')} of ${records === undefined ? 'the sample' : `${records} records`}`);
    const build = await builder(input, out, [...BUILD_ARGS, ...flags, ...buildArgs]);
    log(
      `  ${build.seconds.toFixed(0)} s, ${build.manifest.totals.peptides.toLocaleString('en')} peptides, peak RSS ${build.peakRssMb.toFixed(0)} MB, ${(build.allFilesBytes / 1e6).toFixed(0)} MB`,
    );
    const query = await benchWarm(out, urls, DEFAULT_CACHE_BYTES);
    rmSync(out, { recursive: true, force: true });
    rows.push({ specificity, clipMet, records, input: text === undefined ? sample : inputStats(text), build, query });
  }
  return {
    date: new Date().toISOString().slice(0, 10),
    machine: machine(),
    code: codeVersion(),
    queries: config.queries,
    sample,
    rows,
  };
}

const n = (x: number) => Math.round(x).toLocaleString('en');
const mb = (bytes: number) => (bytes / 1e6).toFixed(bytes < 1e8 ? 1 : 0);
const ratio = (a: number, b: number) => `${(a / b).toFixed(1)}×`;
/** CPU seconds over wall seconds of a build: cores busy on average. */
const cores = (x: DigestionRow) => ((x.build.cpuSeconds ?? NaN) / x.build.seconds).toFixed(1);

/** The section of BENCHMARKS.md. */
export function digestionSection(r: DigestionRuns): string[] {
  const label = (row: DigestionRow) =>
    row.records === undefined ? 'whole sample' : `first ${n(row.records)} records (subset)`;
  const find = (s: Specificity, clipMet = false) => r.rows.find((x) => x.specificity === s && x.clipMet === clipMet);
  const full = find('full');
  const semi = find('semi');
  const clipped = find('semi', true);
  const none = find('none');
  const peptides = (x: DigestionRow) => x.build.manifest.totals.peptides;
  const lines = [
    '## Digestion: fully, semi- and non-specific builds of a real proteome-sized input',
    '',
    `Measured ${r.date} by \`npm run bench -- --only digestion\` (also part of the full run), build code at ${r.code}, on ${r.machine}.` +
      ` Input: the bundled real sample data/uniprot-sample.fasta.gz (${n(r.sample.records)} UniProt proteins, ${(r.sample.residues / 1e6).toFixed(2)} M residues)` +
      ` or its first records where the table says so; ${PARAMETERS}, the bundled taxdump, gzip, 2 threads; \`--specificity\` and` +
      ' `--clip-met` as given (semi: at least one end at a cleavage site or protein terminus; none: every sub-sequence in the length range).' +
      ' Each build is the build CLI in a child process (test/bench/measuredBuild.ts): wall and CPU (user + system, all threads) seconds,' +
      ' peak RSS (VmHWM, worker threads included), the temporary partition files the build reports, and every file of the dataset' +
      ' (bytes per peptide: all of them over the distinct peptides).' +
      ` Queries: ${n(r.queries)} /api/v1/search at ±10 ppm (the centres of the seed's ±10 ppm windows, 360–8500 Da, no modifications,` +
      ` default page of 100 groups, body built) in process on the built dataset with the default ${DEFAULT_CACHE_BYTES / 2 ** 20} MB cache,` +
      ' after two warm-up passes; mean hits: matching mass groups per query.',
    '',
    '| specificity | clip-met | input | proteins | distinct peptides | peptides per protein | build wall s | CPU s | peak RSS MB | temporary disk MB | dataset MB | bytes per peptide (all files) | ±10 ppm p50 ms | ±10 ppm p99 ms | mean hits |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...r.rows.map((x) => {
      const t = x.build.manifest.totals;
      return `| ${x.specificity} | ${x.clipMet ? 'yes' : 'no'} | ${label(x)} | ${n(t.proteins)} | ${n(t.peptides)} | ${n(t.peptides / t.proteins)} | ${x.build.seconds.toFixed(0)} | ${(x.build.cpuSeconds ?? NaN).toFixed(0)} | ${x.build.peakRssMb.toFixed(0)} | ${x.build.tempMb} | ${mb(x.build.allFilesBytes)} | ${(x.build.allFilesBytes / t.peptides).toFixed(1)} | ${fmt(x.query.latency.p50)} | ${fmt(x.query.latency.p99)} | ${x.query.hitsMean.toFixed(1)} |`;
    }),
    '',
  ];
  if (full && semi) {
    const sentences = [
      `Semi-specific cleavage multiplies the distinct peptides by ${ratio(peptides(semi), peptides(full))} (${n(peptides(full))} → ${n(peptides(semi))}),` +
        ` the dataset by ${ratio(semi.build.allFilesBytes, full.build.allFilesBytes)} (${mb(full.build.allFilesBytes)} → ${mb(semi.build.allFilesBytes)} MB; ` +
        `${(full.build.allFilesBytes / peptides(full)).toFixed(1)} → ${(semi.build.allFilesBytes / peptides(semi)).toFixed(1)} bytes a peptide),` +
        ` the temporary disk by ${ratio(semi.build.tempMb, full.build.tempMb)} and the build's wall time by ${ratio(semi.build.seconds, full.build.seconds)},` +
        ` while its peak RSS goes from ${full.build.peakRssMb.toFixed(0)} to ${semi.build.peakRssMb.toFixed(0)} MB (${ratio(semi.build.peakRssMb, full.build.peakRssMb)})` +
        (semi.build.peakRssMb <= RSS_TARGET_MB
          ? `, within the build's ${n(RSS_TARGET_MB)} MB target: memory follows the partition, not the dataset.`
          : `, **above** the build's ${n(RSS_TARGET_MB)} MB target.`),
    ];
    if (clipped)
      sentences.push(
        `Clipping the initiator Met adds ${(100 * (peptides(clipped) / peptides(semi) - 1)).toFixed(2)} % peptides to the semi-specific build (${n(peptides(clipped) - peptides(semi))}).`,
      );
    sentences.push(
      `A ±10 ppm window holds ${ratio(semi.query.hitsMean, full.query.hitsMean)} the mass groups on the semi-specific dataset (${full.query.hitsMean.toFixed(1)} → ${semi.query.hitsMean.toFixed(1)} on average);` +
        ` warm p50 goes from ${fmt(full.query.latency.p50)} to ${fmt(semi.query.latency.p50)} ms and p99 from ${fmt(full.query.latency.p99)} to ${fmt(semi.query.latency.p99)} ms.`,
    );
    lines.push(sentences.join(' '), '');
  }
  if (none) {
    const whole = r.sample;
    const rate = none.input.subSequences / none.build.seconds;
    const subset = none.records !== undefined && none.records < whole.records;
    lines.push(
      (subset
        ? `The non-specific build is of the sample's first ${n(none.input.records)} records only (${(none.input.residues / 1e6).toFixed(2)} M residues, ${n(none.input.subSequences)} sub-sequences of length ${MIN_LENGTH}–${MAX_LENGTH}): ` +
          `its build went through ${n(rate)} sub-sequences a second, so the whole sample, whose ${n(whole.subSequences)} sub-sequences every non-specific build must enumerate (the floor of its work; distinct peptides are at most that many), ` +
          `would take about ${(whole.subSequences / rate / 60).toFixed(0)} minutes on this machine by a linear extrapolation (high if, as proteins are added, a smaller share of their sub-sequences is new: the shard stage writes distinct peptides only), ~${((none.build.tempMb * whole.subSequences) / none.input.subSequences / 1e3).toFixed(1)} GB of temporary disk and up to ~${(((none.build.allFilesBytes / peptides(none)) * whole.subSequences) / 1e9).toFixed(1)} GB of dataset at this subset's bytes per peptide` +
          (whole.subSequences / rate > 15 * 60
            ? ': beyond the ~15 minutes this section allows a build, so it measures the subset. '
            : ' (the subset keeps this run short). ')
        : `The non-specific build enumerates ${n(whole.subSequences)} sub-sequences of length ${MIN_LENGTH}–${MAX_LENGTH} (${n(rate)} a second). `) +
        `Its build kept ${cores(none)} of the 2 cores busy on average${semi ? ` (the semi-specific build ${cores(semi)})` : ''}. ` +
        `Distinct peptides are ${(100 * (peptides(none) / none.input.subSequences)).toFixed(1)} % of the sub-sequences; ${n(peptides(none) / none.input.records)} a protein against ${full ? n(peptides(full) / full.build.manifest.totals.proteins) : '—'} fully specific.`,
      '',
    );
  }
  return lines;
}

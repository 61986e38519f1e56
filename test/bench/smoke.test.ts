// The benchmark script (test/bench/run.ts, `npm run bench`), scaled down, so that it cannot rot: every step
// runs and yields sane figures.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../helpers/datasets.js';
import { report, runBench, type BenchResults } from './run.js';
import { benchScale } from './scale.js';
import { benchPartitioned, partitionedSection } from './partitioned.js';
import { COMPLETE_VIEW } from './precursor.js';
import { loadSqlite } from './sqlite.js';

describe('npm run bench (smoke scale)', () => {
  const dir = tempDir('bench-smoke');
  afterAll(removeTempDirs);
  let results: BenchResults;

  it('runs every step', async () => {
    results = await runBench(
      {
        dir,
        proteins: 300,
        // Thirty queries a set, the first of the same seeded draws: every set still finds hits, the taxon filter too.
        queries: 30,
        coldQueries: 20,
        httpSeconds: 0.2,
        tinyShardBytes: 1024,
        tinyInput: join(dir, 'synthetic-v2-300.fasta'),
        coldHttpFirst: 3,
        coldHttpNext: 10,
        matchSpectra: 120,
        identify: { proteins: 300, residues: 171_000, spectra: 250 },
        // Five lists, the first of the same seeded draws: ±50 ppm windows still hold about five times the peptides.
        fingerprint: { lists: 5, imaging: 10, peaks: 100 },
        // Ten records: semi-specific digestion still gives many times the fully specific peptides and clipping the
        // initiator Met adds some (most records start with M); the non-specific build's one record (1,880 residues)
        // is tens of thousands of sub-sequences.
        digestion: { records: 10, noneRecords: 1, queries: 60 },
        // Every build on the main thread: worker threads would start (and load the builder) once per build.
        buildArgs: ['--threads', '0'],
        // Checked for what they find, not for their processes, so run in this one: every build but the default one
        // (whose figures are checked below), the identification run, the match on the view, the one-process
        // fingerprinting run (its time only). The match runs, the command's two-thread fingerprinting run and the
        // servers keep processes of their own, whose figures are checked.
        inProcess: true,
        // The match and the cold queries over HTTP only read files from the server: one serves them all.
        sharedServer: true,
        // The whole-cache HTTP run makes the same warm-up.
        budgetWarmHttp: false,
      },
      () => {},
    );
  }, 240_000);

  it('fingerprints seeded peak lists, single and as an imaging run', () => {
    const { single, imaging } = results.fingerprint!;
    expect(single.map((s) => s.ppm)).toEqual([50, 10]);
    for (const s of single) expect(s.p50).toBeGreaterThan(0);
    // A ±50 ppm window holds about five times the peptides of a ±10 ppm one.
    expect(single[0].inWindow).toBeGreaterThan(single[1].inWindow);
    expect(imaging.one.seconds).toBeGreaterThan(0);
    expect(imaging.threads.seconds).toBeGreaterThan(0);
    expect(imaging.threads.peakRssMb).toBeGreaterThan(0);
    expect(report(results, 'smoke')).toContain('## Peptide mass fingerprinting');
  });

  it('identifies seeded spectra of the proteome, and Comet beside it when installed', () => {
    const { ours, comet, spectra } = results.identify!;
    expect(ours.spectra).toBe(spectra);
    // A fifth of the spectra are noise; most of the others are their peptide's (250 spectra: enough targets for 1 %).
    expect(ours.passing.psms).toBeGreaterThan(0.5 * spectra);
    expect(ours.passing.psms).toBeLessThanOrEqual(0.85 * spectra);
    expect(ours.warmSeconds).toBeGreaterThan(0);
    if (comet) expect(comet.passingPsms).toBeGreaterThan(0);
    const { real } = results.identify!;
    if (!comet) return;
    // Casanovo's labelled spectra beside Comet: at 5 % FDR both identify most of them, nearly all as labelled, and
    // agree where both identify (at 1 % none: under 100 targets, (decoys + 1) / targets cannot reach 1 %).
    expect(real!.rows.map((r) => r.fdr)).toEqual([0.01, 0.02, 0.05]);
    const at5 = real!.rows[2];
    expect(at5.ours).toBeGreaterThan(0.5 * real!.spectra);
    expect(at5.comet).toBeGreaterThan(0.5 * real!.spectra);
    for (const r of real!.rows) {
      expect(r.oursLabelled).toBeGreaterThanOrEqual(0.9 * r.ours);
      expect(r.cometLabelled).toBeGreaterThanOrEqual(0.9 * r.comet);
      expect(r.agree).toBeGreaterThanOrEqual(0.9 * r.both);
    }
  });

  it('builds the real sample at each specificity: semi holds more peptides than full, clipping more again', () => {
    const rows = results.digestion!.rows;
    expect(rows.map((x) => `${x.specificity}${x.clipMet ? '+clip' : ''}`)).toEqual([
      'full',
      'semi',
      'semi+clip',
      'none',
    ]);
    const [full, semi, clipped, none] = rows.map((x) => x.build.manifest.totals.peptides);
    expect(semi).toBeGreaterThan(5 * full);
    expect(clipped).toBeGreaterThan(semi);
    expect(none).toBeLessThanOrEqual(rows[3].input.subSequences);
    for (const x of rows) {
      expect(x.build.manifest.parameters.specificity).toBe(x.specificity);
      expect(x.query.latency.count).toBe(60);
    }
    expect(report(results, 'smoke')).toContain('## Digestion');
  });

  it('measures the build', () => {
    expect(results.build.seconds).toBeGreaterThan(0);
    expect(results.build.peakRssMb).toBeGreaterThan(10);
    expect(results.build.tempMb).toBeGreaterThanOrEqual(0);
    expect(results.build.manifest.totals.proteins).toBe(300);
    // The original's parameters (1 missed cleavage, 7..30) give fewer peptides than ours (2, 6..50).
    expect(results.original.manifest.totals.peptides).toBeLessThan(results.build.manifest.totals.peptides);
    // Every file is counted: shards, index or manifest, accession table; brotli builds hold the same peptides.
    for (const b of [results.build, results.original, results.brotli!.build, results.brotli!.original]) {
      expect(b.allFilesBytes).toBeGreaterThan(b.bytes);
      expect(b.bytesByKind.shard).toBe(b.bytes);
      expect(b.bytesByKind.accessions).toBeGreaterThan(0);
      expect(b.bytesByKind.manifest).toBeGreaterThan(0);
    }
    expect(results.brotli!.build.manifest.compression).toBe('br');
    expect(results.brotli!.build.manifest.totals.peptides).toBe(results.build.manifest.totals.peptides);
  });

  it('answers every query set with hits', () => {
    for (const run of [
      ...Object.values(results.warm),
      ...Object.values(results.budget),
      ...Object.values(results.cold),
    ]) {
      expect(run.latency.count).toBeGreaterThan(0);
      expect(run.latency.p50).toBeGreaterThan(0);
      expect(run.latency.p50).toBeLessThanOrEqual(run.latency.p99);
    }
    // Every search-peptide query is a peptide of the dataset: at least its own group matches.
    expect(results.warm['search-peptide'].hitsMean).toBeGreaterThanOrEqual(1);
    // Every look-up is of a stored peptide: found once exactly, at least once with I/L equated.
    const o = results.organisms!;
    expect(o.lookup.hitsMean).toBe(1);
    expect(o.lookupIL.hitsMean).toBeGreaterThanOrEqual(1);
    // A filter keeps a subset: Bacteria and a species find no more groups than no filter, and some.
    expect(o.bacteria.hitsMean).toBeLessThanOrEqual(o.unfiltered.hitsMean);
    expect(o.species.hitsMean).toBeLessThanOrEqual(o.unfiltered.hitsMean);
    expect(o.bacteria.hitsMean).toBeGreaterThan(0);
  });

  it('counts cold reads and builds a many-shard index', () => {
    for (const run of Object.values(results.cold)) {
      expect(run.reads!.bytesMean).toBeGreaterThan(0);
      expect(run.reads!.shardsMean).toBeGreaterThan(0);
    }
    expect(results.tiny.build.manifest.totals.shards).toBeGreaterThan(results.build.manifest.totals.shards);
    expect(results.tiny.rootBytes).toBeGreaterThan(0);
  });

  it('reads cold over HTTP: the first query of a process also reads the accession table, in parallel', () => {
    for (const run of Object.values(results.coldHttp!)) {
      // Read with the first shard (a window between the masses of two groups may need no shard at all).
      expect(run.first.kinds.accessions).toBeGreaterThan(0);
      expect(run.first.kinds.accessions).toBeLessThanOrEqual(1);
      expect(run.first.kinds.accessions).toBeLessThanOrEqual(run.first.kinds.shard!);
      expect(run.next.kinds.accessions).toBeUndefined();
      expect(run.next.kinds.shard).toBeGreaterThan(0);
      expect(run.first.reads!.bytesMean).toBeGreaterThan(run.next.reads!.bytesMean);
      for (const q of [run.first, run.next]) {
        expect(Object.values(q.roundTripQueries!).reduce((a, b) => a + b, 0)).toBe(q.latency.count);
        expect(q.reads!.roundTripsMax).toBeGreaterThanOrEqual(1);
        expect(q.reads!.roundTripsMax).toBeLessThanOrEqual(6);
      }
    }
  });

  it.runIf(loadSqlite() !== undefined)('runs the SQLite baseline on the same windows', () => {
    expect(results.sqlite!['±0.1 Da'].hitsMean).toBeCloseTo(results.warm['±0.1 Da'].hitsMean, 6);
  });

  it('matches a peak list from a folder and over HTTP: every spectrum, the same candidates in batches of a quarter, --top 10 no more', () => {
    const { folder, folderTop, folderQuarterBatch, http } = results.match!;
    for (const run of [folder, folderTop, folderQuarterBatch!, http]) {
      expect(run.spectra).toBe(120);
      expect(run.coldSeconds).toBeGreaterThan(0);
      expect(run.warmSeconds).toBeGreaterThan(0);
      expect(run.peakRssMb).toBeGreaterThan(10);
      expect(run.peakRssColdMb).toBeGreaterThan(10);
      expect(run.outputMb).toBeGreaterThan(0);
    }
    expect(folder.candidates).toBeGreaterThan(0);
    expect(http.candidates).toBe(folder.candidates);
    expect(folderQuarterBatch!.candidates).toBe(folder.candidates);
    expect(folderQuarterBatch!.outputMb).toBe(folder.outputMb);
    expect(folderTop.candidates).toBeLessThanOrEqual(Math.min(folder.candidates, 120 * 10));
  });

  it('builds the input again with a Carbamidomethyl@C view: fewer hypotheses, the same matches and hits', () => {
    const view = results.view!;
    expect(view.build.manifest.views?.map((v) => v.fixed)).toEqual(['Carbamidomethyl@C']);
    expect(view.build.manifest.views![0].totals.peptides).toBeGreaterThan(0);
    expect(view.build.manifest.views![0].totals.peptides).toBeLessThan(view.build.manifest.totals.peptides);
    expect(view.precursor.hypotheses.mean).toBeLessThan(results.precursor.hypotheses.mean);
    expect(view.precursor.cold.reads!.shardsMean).toBeGreaterThan(0); // fewer at scale; at 300 proteins two shard sets cost more than one
    expect(view.precursor.warm.hitsMean).toBe(results.precursor.warm.hitsMean);
    expect(view.match.spectra).toBe(120);
    expect(view.match.candidates).toBe(results.match!.folder.candidates);
    expect(view.match.outputMb).toBe(results.match!.folder.outputMb);
  });

  it('builds the input again with the complete view: three hypotheses read in one range, the same hits', () => {
    const complete = results.complete!;
    const [view] = complete.build.manifest.views!;
    expect(view.fixed).toBe(COMPLETE_VIEW);
    // Every peptide, those with an M once more per count of oxidised M (up to 2).
    expect(view.totals.peptides).toBeGreaterThan(complete.build.manifest.totals.peptides);
    expect(view.totals.peptides).toBeLessThan(3 * complete.build.manifest.totals.peptides);
    expect(complete.precursor.hypotheses.max).toBe(3);
    expect(complete.precursor.warm.hitsMean).toBe(results.precursor.warm.hitsMean);
    expect(complete.precursor.cold.hitsMean).toBe(results.precursor.cold.hitsMean);
    expect(complete.precursor.cold.reads!.shardsMax).toBeLessThanOrEqual(results.view!.precursor.cold.reads!.shardsMax);
  });

  let scale: BenchResults['scale'];
  it('builds a scale curve: 1× and 2× of 500 proteins, peptides, dataset and disk growing with the input', async () => {
    // On the main thread: the curve's figures are measured alike, and worker threads would each load the builder.
    scale = await benchScale({ dir, proteinsPerMultiple: 500, multiples: 2, threads: 0 }, 'smoke', () => {});
    const [one, two] = scale.rows;
    expect(scale.rows.map((r) => r.proteins)).toEqual([500, 1000]);
    // The 2× input is the 1× one plus new proteins: more distinct peptides, more residues and bytes, never fewer.
    expect(two.residues).toBeGreaterThan(one.residues);
    expect(two.peptides).toBeGreaterThan(one.peptides);
    expect(two.datasetBytes).toBeGreaterThan(one.datasetBytes);
    for (const r of scale.rows) {
      expect(r.peakRssMb).toBeGreaterThan(10);
      expect(r.cpuSeconds).toBeGreaterThan(0);
      expect(r.tempBytes).toBeGreaterThan(0);
      expect(r.peakDiskBytes).toBe(r.tempBytes + r.datasetBytes);
      expect(r.sampledDiskBytes).toBeLessThanOrEqual(r.peakDiskBytes + 1e6); // the build reports partitions in whole MB
    }
    expect(scale.verdict!.inputRatio).toBe(2);
    expect(scale.verdict!.rssRatio).toBeCloseTo(two.peakRssMb / one.peakRssMb, 9);
  }, 120_000);

  it('drives the HTTP server without errors and writes a report', () => {
    for (const run of [results.http.budget, results.http.warm]) {
      expect(run.requests).toBeGreaterThan(0);
      expect(run.errors).toBe(0);
      expect(run.non2xx).toBe(0);
    }
    const text = report({ ...results, scale }, 'smoke');
    for (const heading of [
      '## Goals',
      '## Build scale curve',
      '## Dataset size',
      '## Build',
      '## Queries in process',
      '## Memory-bounded speed',
      '## Cold queries',
      '## Cold queries over HTTP',
      '## SQLite',
      '## HTTP',
      '## Organisms and proteins',
      '## MGF matching',
    ])
      expect(text).toContain(heading);
  });
  it('builds 3 parts with the complete view, merges them and finds every file equal to the single build', async () => {
    const run = await benchPartitioned(
      join(dir, 'synthetic-v2-300.fasta'),
      join(dir, 'partitioned-complete'),
      3,
      COMPLETE_VIEW,
      // The complete view section's flags: its dataset is the single build. In this process: the property is the
      // merged dataset's bytes, the processes' figures are the full run's.
      ['--taxdump', 'data/taxdump', '--view', COMPLETE_VIEW, '--threads', '0'],
      { inProcess: true, single: join(dir, 'v2-complete-300') },
    );
    expect(run.differing).toEqual([]);
    expect(run.files).toBeGreaterThan(2);
    expect(run.partRuns.map((p) => p.index)).toEqual([1, 2, 3]);
    expect(run.partRuns.reduce((sum, p) => sum + p.peptides, 0)).toBe(run.single.peptides);
    expect(run.partRuns.reduce((sum, p) => sum + p.shards, 0)).toBe(run.single.shards);
    expect(run.single.view!.peptides).toBeGreaterThan(run.single.peptides);
    expect(run.partRuns.reduce((sum, p) => sum + p.view!.peptides, 0)).toBe(run.single.view!.peptides);
    expect(run.partRuns.reduce((sum, p) => sum + p.view!.shards, 0)).toBe(run.single.view!.shards);
    expect(partitionedSection(run).join('\n')).toMatch(/Identical: all \d+ files/);
  }, 120_000);
});

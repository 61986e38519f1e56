// The capacity model of docs/SCALE.md: rates and sizes measured here (BENCHMARKS.json: the build scale curve, the
// partitioned build, the simulated 10-million-shard index, the full run's datasets) extrapolated to Swiss-Prot,
// TrEMBL and a UniParc-sized corpus. `npx tsx test/bench/capacity.ts` rewrites the generated part of
// docs/SCALE.md; test/bench/capacity.test.ts checks it is up to date and the arithmetic by hand.
import { readFileSync, writeFileSync } from 'node:fs';
import {
  INDEX_INNER_PAGES,
  INDEX_PAGE_SHARDS,
  INDEX_ROOT_LIMIT,
  PROTEIN_PAGE_ACCESSIONS,
  SHARD_INDEX_ROOT_LIMIT,
} from '../../runtime/model/format.js';
import type { BenchResults } from './run.js';

/** What the model takes from measurements (units in the names). */
export interface Measured {
  /** Residues digested per CPU-second, whole build (scale curve, 1×). */
  residuesPerCpuSecond: number;
  /** Share of a single build's time every part repeats (reading and digesting all input), from the partitioned run. */
  repeatedShare: number;
  /** Peak RSS of a build of 570,000 proteins, and its growth per further 570,000 proteins (scale curve, MB). */
  rssMb: number;
  rssSlopeMbPer570k: number;
  /** Dataset bytes (every file) per distinct peptide, synthetic (scale curve, 1×). */
  bytesPerPeptide: number;
  /** Distinct peptides per shard (scale curve, 1×). */
  peptidesPerShard: number;
  /** Temporary partition bytes per residue (scale curve, 1×). */
  tempBytesPerResidue: number;
  /** Accession table and protein pages, bytes per accession (full run, default parameters). */
  accessionTableBytesPerAccession: number;
  proteinPagesBytesPerAccession: number;
  /** Stored bytes of a leaf index page and of an inner one (simulated 10 M-shard index, means). */
  leafPageBytes: number;
  innerPageBytes: number;
  /** Bytes of a shard's entry in the manifest's root (~315: runtime/model/format.ts), a protein root entry's. */
  rootEntryBytes: number;
  /** Mean stored shard size. */
  shardBytes: number;
  /** What the Carbamidomethyl@C view adds to every file's bytes, as a share of them (full run's view build). */
  viewShare: number;
  /** CPU seconds and temporary disk of a build with the view over one without (the same input: view build, scale curve 1×). */
  viewCpuFactor: number;
  viewTempFactor: number;
}

/** A corpus: proteins, residues and distinct peptides at the default digest (2 missed cleavages, 6–50). */
export interface Corpus {
  name: string;
  proteins: number;
  residues: number;
  peptides: number;
  /** Mean characters of an accession (UniProt's grammar: 6 or 10; UniParc's UPI + 10 hex digits: 13). */
  accessionLength: number;
  /** Where the figures come from. */
  source: string;
}

export const CORPORA: readonly Corpus[] = [
  {
    name: 'Swiss-Prot',
    proteins: 516_371,
    residues: 186.7e6,
    peptides: 27.9e6,
    accessionLength: 6,
    source: 'measured on a real Swiss-Prot-scale set of UniProt proteins at default parameters',
  },
  {
    name: 'TrEMBL',
    proteins: 202.55e6,
    residues: 202.55e6 * 330,
    peptides: 17.2e9,
    accessionLength: 10,
    source: 'proteins and peptides as the original service publishes them (2026_01); residues assume 330 a protein',
  },
  {
    name: 'UniParc-sized',
    proteins: 600e6,
    residues: 600e6 * 330,
    peptides: 3 * 17.2e9,
    accessionLength: 13,
    source: 'assumed: ~600 M sequences, peptides 3× TrEMBL (order of magnitude only)',
  },
];

/** Real proteins share peptides across accessions: real data takes more bytes per peptide than the synthetic set. */
export const REAL_DATA_FACTOR = 1.15;
/** Prices assumed (USD, list prices to adjust): object storage per GB-month, CDN egress per GB, runner per core-hour. */
export const PRICES = { storageGbMonth: 0.023, egressGb: 0.085, coreHour: 0.002 * 60 };
/** Cores of one runner of the matrix (GitHub's larger Linux runners; standard ones have 4 on public repositories). */
export const RUNNER_CORES = 4;
/** Files a folder should hold at most on average (hosts cap a folder near 54,000). */
export const FOLDER_TARGET = 20_000;

export interface Capacity {
  corpus: Corpus;
  storageGb: number;
  /** With the Carbamidomethyl@C view (the CI workflow's default). */
  storageWithViewGb: number;
  shards: number;
  files: number;
  folderDigits: number;
  indexLevels: number;
  manifestKb: number;
  accessionTableMb: number;
  /** Characters of the accession table's text, newline-separated (the build spills it to disk while it writes the table). */
  accessionText: number;
  cpuHours: number;
  /** With the view, as the CI workflow builds by default (the hours below are of such builds). */
  cpuWithViewHours: number;
  /** Wall hours of a single 4-core runner, and of a matrix of `parts` 4-core runners (slowest part; merge not counted). */
  singleHours: number;
  matrix: { parts: number; hours: number; tempGbPerPart: number }[];
  rssGb: number;
  /** Bytes a cold query reads to locate its shard (manifest + index pages), then with one shard. */
  coldLocateKb: number;
  coldShardKb: number;
  storageUsdMonth: number;
  egressUsdPerMillionColdQueries: number;
}

/** The levels of a tree over `leaves` leaf pages (inner pages of 1,024, root ≤ `rootLimit`) and its root's entries. */
function tree(leaves: number, rootLimit: number): { levels: number; root: number } {
  let levels = 1;
  let pages = leaves;
  for (; pages > rootLimit; levels++) pages = Math.ceil(pages / INDEX_INNER_PAGES);
  return { levels, root: pages };
}

/** Index page levels below the manifest for `n` shards (leaves of 256, a root of ≤ 256; none up to 128 shards). */
export function indexLevels(n: number): number {
  return n <= 128 ? 0 : tree(Math.ceil(n / INDEX_PAGE_SHARDS), SHARD_INDEX_ROOT_LIMIT).levels;
}

/** The model's figures for `corpus`. */
export function capacity(m: Measured, corpus: Corpus, parts: readonly number[] = [1, 16, 64]): Capacity {
  const shards = Math.ceil(corpus.peptides / m.peptidesPerShard);
  const leafPages = Math.ceil(shards / INDEX_PAGE_SHARDS);
  const levels = indexLevels(shards);
  const shardTree = tree(leafPages, SHARD_INDEX_ROOT_LIMIT);
  const proteinPages = Math.ceil(corpus.proteins / PROTEIN_PAGE_ACCESSIONS);
  const proteinTree = tree(proteinPages, INDEX_ROOT_LIMIT);
  // Inner pages: about 1 in 1,024 of the level below, level upon level.
  const inner = (pages: number, levels: number) =>
    Array.from({ length: levels - 1 }, (_, l) => Math.ceil(pages / INDEX_INNER_PAGES ** (l + 1))).reduce(
      (a, b) => a + b,
      0,
    );
  const files =
    shards +
    leafPages +
    inner(leafPages, shardTree.levels) +
    proteinPages +
    inner(proteinPages, proteinTree.levels) +
    3;
  let folderDigits = 0;
  while (files / 16 ** folderDigits > FOLDER_TARGET) folderDigits++;
  const manifestBytes = 3000 + (shardTree.root + proteinTree.root) * m.rootEntryBytes;
  const cpuSeconds = corpus.residues / m.residuesPerCpuSecond;
  // The partitioned run builds the view, so its repeated share is that of a build with the view.
  const cpuWithView = cpuSeconds * m.viewCpuFactor;
  const perRunner = (n: number) => (cpuWithView * (m.repeatedShare + (1 - m.repeatedShare) / n)) / RUNNER_CORES / 3600;
  const storageBytes = corpus.peptides * m.bytesPerPeptide * REAL_DATA_FACTOR;
  const coldLocate = manifestBytes + Math.max(0, levels - 1) * m.innerPageBytes + (levels >= 1 ? m.leafPageBytes : 0);
  return {
    corpus,
    storageGb: storageBytes / 1e9,
    storageWithViewGb: (storageBytes * (1 + m.viewShare)) / 1e9,
    shards,
    files,
    folderDigits,
    indexLevels: levels,
    manifestKb: manifestBytes / 1024,
    accessionTableMb: (corpus.proteins * m.accessionTableBytesPerAccession) / 1e6,
    accessionText: corpus.proteins * (corpus.accessionLength + 1) - 1,
    cpuHours: cpuSeconds / 3600,
    cpuWithViewHours: cpuWithView / 3600,
    singleHours: perRunner(1),
    matrix: parts.map((n) => ({
      parts: n,
      hours: perRunner(n),
      tempGbPerPart: (corpus.residues * m.tempBytesPerResidue * m.viewTempFactor) / n / 1e9,
    })),
    rssGb: (m.rssMb + m.rssSlopeMbPer570k * (corpus.proteins / 570_000 - 1)) / 1024,
    coldLocateKb: coldLocate / 1024,
    coldShardKb: (coldLocate + m.shardBytes) / 1024,
    storageUsdMonth: (storageBytes / 1e9) * PRICES.storageGbMonth,
    egressUsdPerMillionColdQueries: ((coldLocate + m.shardBytes) * 1e6 * PRICES.egressGb) / 1e9,
  };
}

/** The measurements in a benchmark run (every section `--only scale` writes is needed). */
export function measuredOf(b: BenchResults): Measured {
  const rows = b.scale!.rows;
  const one = rows[0];
  const last = rows[rows.length - 1];
  const p = b.partitioned!;
  const meanPart = p.partRuns.reduce((sum, r) => sum + r.seconds, 0) / p.parts;
  const levelBytes = (leaf: boolean) => {
    const row = b.indexScale!.levelRows.find((r) => r.leaf === leaf)!;
    return row.bytes / row.pages;
  };
  return {
    residuesPerCpuSecond: one.residues / one.cpuSeconds,
    repeatedShare: Math.min(1, Math.max(0, (p.parts * meanPart - p.single.seconds) / (p.parts - 1) / p.single.seconds)),
    rssMb: one.peakRssMb,
    rssSlopeMbPer570k: rows.length > 1 ? (last.peakRssMb - one.peakRssMb) / (last.multiple - one.multiple) : 0,
    bytesPerPeptide: one.datasetBytes / one.peptides,
    peptidesPerShard: one.peptides / one.shards,
    tempBytesPerResidue: one.tempBytes / one.residues,
    accessionTableBytesPerAccession: (b.build.bytesByKind.accessions ?? 0) / b.build.manifest.totals.accessions,
    proteinPagesBytesPerAccession: (b.build.bytesByKind.proteins ?? 0) / b.build.manifest.totals.accessions,
    leafPageBytes: levelBytes(true),
    innerPageBytes: levelBytes(false),
    rootEntryBytes: 315,
    shardBytes: b.build.bytesByKind.shard! / b.build.manifest.totals.shards,
    viewShare: b.view ? b.view.build.allFilesBytes / b.build.allFilesBytes - 1 : 0,
    viewCpuFactor: b.view?.build.cpuSeconds ? b.view.build.cpuSeconds / one.cpuSeconds : 1,
    viewTempFactor: b.view ? (b.view.build.tempMb * 1e6) / one.tempBytes : 1,
  };
}

const n0 = (x: number) => Math.round(x).toLocaleString('en');
const n1 = (x: number) => (x < 10 ? x.toFixed(2) : x < 100 ? x.toFixed(1) : n0(x));
const gb = (x: number) => (x < 1000 ? `${n1(x)} GB` : `${(x / 1000).toFixed(2)} TB`);

/** The generated part of docs/SCALE.md. */
export function capacityTables(m: Measured): string[] {
  const rows = CORPORA.map((c) => capacity(m, c));
  const col = (label: string, f: (c: Capacity) => string) => `| ${label} | ${rows.map(f).join(' | ')} |`;
  return [
    'Measured inputs (from BENCHMARKS.json):',
    '',
    '| input | value |',
    '|---|---|',
    `| build throughput | ${n0(m.residuesPerCpuSecond)} residues per CPU-second (scale curve, 1×) |`,
    `| share of a build every part repeats (reading and digesting all input) | ${(m.repeatedShare * 100).toFixed(0)} % (partitioned build, with the view) |`,
    `| build peak RSS at 570,000 proteins; growth per further 570,000 | ${n0(m.rssMb)} MB; ${n0(m.rssSlopeMbPer570k)} MB (scale curve) |`,
    `| bytes per distinct peptide, every file (synthetic; × ${REAL_DATA_FACTOR} for real data) | ${m.bytesPerPeptide.toFixed(2)} |`,
    `| distinct peptides per shard; mean stored shard | ${n0(m.peptidesPerShard)}; ${n1(m.shardBytes / 1024)} KB |`,
    `| temporary partition bytes per residue | ${m.tempBytesPerResidue.toFixed(2)} |`,
    `| accession table; protein pages, bytes per accession | ${m.accessionTableBytesPerAccession.toFixed(2)}; ${m.proteinPagesBytesPerAccession.toFixed(2)} |`,
    `| leaf index page; inner index page (10 M-shard simulation, mean) | ${n1(m.leafPageBytes / 1024)} KB; ${n1(m.innerPageBytes / 1024)} KB |`,
    `| the Carbamidomethyl@C view (\`--view\`): bytes added to every file's; build CPU and temporary disk over one without it | ${(m.viewShare * 100).toFixed(0)} % (full run); ${m.viewCpuFactor.toFixed(2)}× and ${m.viewTempFactor.toFixed(2)}× (view build, scale curve 1×) |`,
    '',
    `| | ${rows.map((r) => r.corpus.name).join(' | ')} |`,
    `|---|${rows.map(() => '---:').join('|')}|`,
    col('proteins', (r) => n0(r.corpus.proteins)),
    col('distinct peptides', (r) => n0(r.corpus.peptides)),
    col('storage (every file)', (r) => gb(r.storageGb)),
    col('storage with the Carbamidomethyl@C view (the CI workflow builds it)', (r) => gb(r.storageWithViewGb)),
    col('shards; all files', (r) => `${n0(r.shards)}; ${n0(r.files)}`),
    col('--folder-digits (≤ 20,000 files a folder)', (r) => String(r.folderDigits)),
    col('index levels below the manifest', (r) => String(r.indexLevels)),
    col('manifest', (r) => `${n1(r.manifestKb)} KB`),
    col(
      'accession table (its pages; an answer reads those of the ranks it lists, a table of one page whole)',
      (r) => `${n1(r.accessionTableMb)} MB`,
    ),
    col(
      'accession text (on disk while the build writes the accession table)',
      (r) => `${n1(r.accessionText / 1e6)} M characters`,
    ),
    col('build CPU; with the view', (r) => `${n1(r.cpuHours)} h; ${n1(r.cpuWithViewHours)} h`),
    col(`one ${RUNNER_CORES}-core runner (with the view, below too)`, (r) => `${n1(r.singleHours)} h`),
    ...[16, 64].map((n) =>
      col(`matrix of ${n} runners (slowest part)`, (r) => `${n1(r.matrix.find((x) => x.parts === n)!.hours)} h`),
    ),
    ...[16, 64].map((n) =>
      col(
        `temporary disk a part, ${n} parts (+ the input)`,
        (r) => `${n1(r.matrix.find((x) => x.parts === n)!.tempGbPerPart)} GB`,
      ),
    ),
    col('build peak RSS (every part reads all input)', (r) => `${n1(r.rssGb)} GB`),
    col(
      'cold query: bytes to locate the shard; with one shard',
      (r) => `${n1(r.coldLocateKb)} KB; ${n1(r.coldShardKb)} KB`,
    ),
    col(`storage per month (${PRICES.storageGbMonth} $/GB)`, (r) => `$${n1(r.storageUsdMonth)}`),
    col(
      `egress per million cold one-shard queries (${PRICES.egressGb} $/GB)`,
      (r) => `$${n1(r.egressUsdPerMillionColdQueries)}`,
    ),
    col(
      `runner cost, 16 parts (${PRICES.coreHour.toFixed(2)} $/core-hour)`,
      (r) => `$${n1(r.matrix.find((x) => x.parts === 16)!.hours * 16 * RUNNER_CORES * PRICES.coreHour)}`,
    ),
  ];
}

export const BEGIN =
  '<!-- capacity: generated by `npx tsx test/bench/capacity.ts` from BENCHMARKS.json; do not edit -->';
export const END = '<!-- capacity: end -->';

/** docs/SCALE.md with its generated part replaced by the tables of `results`. */
export function withTables(doc: string, results: BenchResults): string {
  const from = doc.indexOf(BEGIN);
  const to = doc.indexOf(END);
  if (from < 0 || to < from) throw new Error('docs/SCALE.md lacks the capacity markers');
  return (
    doc.slice(0, from) +
    [BEGIN, '', ...capacityTables(measuredOf(results)), '', END].join('\n') +
    doc.slice(to + END.length)
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const results = JSON.parse(readFileSync('BENCHMARKS.json', 'utf8')) as BenchResults;
  writeFileSync('docs/SCALE.md', withTables(readFileSync('docs/SCALE.md', 'utf8'), results));
}

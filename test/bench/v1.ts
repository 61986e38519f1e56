// Format v1's figures on the same synthetic Swiss-Prot-sized set (same seeds, same machine kind), for the
// side-by-side columns of BENCHMARKS.md: the runtime reads format 2 only, so the benchmark does not measure v1 again
// (ab.ts --dir-a does, by hand).
// Latencies, build and HTTP figures: BENCHMARKS.json at commit 33ed521 (`git show 33ed521:BENCHMARKS.json`,
// the last v1 run, at 920f672), to 6 significant digits. All-file sizes: the sum of every file (manifest, shards,
// index pages, protein pages, taxonomy) of the two folders that run built (datasetVersion ffbeafa05ca360c2 and
// 6716766bb6cc7409), measured before they were set aside.

export const V1_COMMIT = '33ed521';

export interface V1Build {
  seconds: number;
  peakRssMb: number;
  peptides: number;
  /** Shards only (manifest totals.bytes). */
  shardBytes: number;
  /** Every file of the folder. */
  allFilesBytes: number;
}

type Latency = { p50: number; p99: number };

export const V1: {
  build: V1Build;
  original: V1Build;
  warm: Record<string, Latency>;
  budget: Record<string, Latency>;
  sqlite: Record<string, Latency>;
  http: { budget: number; warm: number };
  cold: Record<string, Latency & { bytesMean: number; bytesMax: number; shardsMax: number }>;
} = {
  build: {
    seconds: 124.589,
    peakRssMb: 817.656,
    peptides: 50_853_643,
    shardBytes: 2_639_538_560,
    allFilesBytes: 2_682_667_434,
  },
  original: {
    seconds: 63.8329,
    peakRssMb: 787.727,
    peptides: 26_439_779,
    shardBytes: 1_231_153_053,
    allFilesBytes: 1_272_415_455,
  },
  warm: {
    '±0.1 Da': { p50: 0.024577, p99: 0.406486 },
    '±10 ppm': { p50: 0.014495, p99: 0.155018 },
    'search-peptide': { p50: 0.009843, p99: 0.055007 },
  },
  budget: {
    '±0.1 Da': { p50: 0.715102, p99: 6.16574 },
    '±10 ppm': { p50: 0.662853, p99: 5.35348 },
    'search-peptide': { p50: 0.010727, p99: 1.66248 },
  },
  sqlite: {
    '±0.1 Da': { p50: 0.215624, p99: 19.3307 },
    '±10 ppm': { p50: 0.032921, p99: 4.0495 },
  },
  http: { budget: 1582.4, warm: 13004.5 },
  cold: {
    '±0.1 Da, pageSize 1000': { p50: 2.04975, p99: 8.31668, bytesMean: 311_687, bytesMax: 1_403_321, shardsMax: 5 },
    'any width, pageSize 10': { p50: 2.33079, p99: 8.14695, bytesMean: 441_146, bytesMax: 949_529, shardsMax: 3 },
    'any width, pageSize 1000': {
      p50: 10.5147,
      p99: 47.4428,
      bytesMean: 2_146_443,
      bytesMax: 9_110_874,
      shardsMax: 32,
    },
  },
};

/** What the original service publishes for Swiss-Prot at its download parameters (a zip; issue 12). */
export const ORIGINAL_ZIP_BYTES = 263e6;

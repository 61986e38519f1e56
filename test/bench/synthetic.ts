// Seeded synthetic UniProt-style FASTA for scale benchmarks ONLY (never served as real data): residue
// frequencies, protein lengths and taxIds are drawn from the bundled real sample. Used by test/bench/run.ts.
import { createWriteStream } from 'node:fs';
import { createGzip } from 'node:zlib';
import { readFasta } from '../../builder/inputs/fasta.js';
import { prng } from '../helpers/prng.js';

export const SWISS_PROT = { proteins: 570_000, residues: 206_000_000 };
export const REAL_SAMPLE = 'data/uniprot-sample.fasta.gz';

export { prng };

export interface SampleStats {
  /** Residue letters repeated in proportion to their frequency (65,536 slots): a uniform pick samples them. */
  residueTable: string[];
  lengths: number[];
  taxIds: number[];
}

const statsOf = new Map<string, Promise<SampleStats>>();

/** Residue frequencies, protein lengths and taxIds of a real FASTA file (read once per process). */
export function sampleStats(path = REAL_SAMPLE): Promise<SampleStats> {
  let stats = statsOf.get(path);
  if (!stats) {
    stats = readStats(path);
    statsOf.set(path, stats);
  }
  return stats;
}

async function readStats(path: string): Promise<SampleStats> {
  const counts = new Map<string, number>();
  const lengths: number[] = [];
  const taxIds: number[] = [];
  for await (const record of readFasta(path, () => {})) {
    lengths.push(record.sequence.length);
    taxIds.push(record.taxId ?? 9606);
    for (const residue of record.sequence) counts.set(residue, (counts.get(residue) ?? 0) + 1);
  }
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  const residueTable: string[] = [];
  for (const [residue, count] of [...counts].sort()) {
    for (let i = Math.round((count / total) * 65536); i > 0; i--) residueTable.push(residue);
  }
  return { residueTable, lengths, taxIds };
}

/** Writes `proteins` synthetic records of about `residues` residues in all; returns the residue count. */
export async function writeSynthetic(
  out: string,
  proteins: number,
  residues: number,
  seed: number,
  stats: SampleStats,
): Promise<number> {
  const random = prng(seed);
  // A stream of its own: drawing sp|/tr| headers leaves the sequences' draws as they are.
  const reviewedDraw = prng(seed + 1);
  const meanLength = stats.lengths.reduce((a, b) => a + b, 0) / stats.lengths.length;
  const scale = residues / proteins / meanLength;
  const file = createWriteStream(out);
  const sink = out.endsWith('.gz') ? createGzip({ level: 1 }) : file;
  if (sink !== file) (sink as ReturnType<typeof createGzip>).pipe(file);
  const table = stats.residueTable;
  let written = 0;
  for (let i = 1; i <= proteins; i++) {
    const length = Math.max(1, Math.round(stats.lengths[Math.floor(random() * stats.lengths.length)] * scale));
    const taxId = stats.taxIds[Math.floor(random() * stats.taxIds.length)];
    const chars = new Array<string>(length);
    for (let j = 0; j < length; j++) chars[j] = table[Math.floor(random() * table.length)];
    const id = `SYN${String(i).padStart(7, '0')}`;
    // About one in six reviewed, as in the real sample (2,765 sp| of 17,602).
    const db = reviewedDraw() < 2765 / 17602 ? 'sp' : 'tr';
    const lines = [`>${db}|${id}|${id}_SYNTH Synthetic benchmark protein ${i} OS=Synthetic OX=${taxId} PE=5 SV=1`];
    const sequence = chars.join('');
    for (let j = 0; j < length; j += 60) lines.push(sequence.slice(j, j + 60));
    written += length;
    if (!sink.write(lines.join('\n') + '\n')) await new Promise<void>((resolve) => sink.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve, reject) => {
    file.on('finish', resolve).on('error', reject);
    sink.end();
  });
  return written;
}

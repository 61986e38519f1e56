// A study for issue 12's two structural misses: what a dataset would weigh, and what a cold query would read, if
// shards kept no peptide sequences but each peptide's place in one file of every protein's residues, back to back in
// rank order (read by HTTP range requests). Over every n-th shard: the shard's stored bytes, and the same columns
// (shardEncoder.ts) with `sequences` replaced by one varint per peptide, compressed as the build compresses —
// either the peptide's absolute residue position (a reader can range-read it straight away) or its offset in its
// first protein (smaller, but the protein's start must be read first: one more round trip). Over ±10 ppm queries
// (the benchmark's windows): the peptides and distinct accessions of each answer page, which such a reader would
// range-read after the shard (a third round trip), and the residues in those ranges. The residue file's bytes per
// peptide, raw (range-readable) and compressed in 64 KiB blocks.
//   npx tsx test/bench/byReference.ts <dataset dir> <fasta> [every, default 50] [queries, default 2000]
import { resolve } from 'node:path';
import { compress } from '../../builder/writers/datasetFile.js';
import { readFasta } from '../../builder/inputs/fasta.js';
import { createAnswerer } from '../../runtime/api/handler.js';
import { Dataset } from '../../runtime/core/storage/dataset.js';
import { datasetFiles } from '../../runtime/core/storage/datasetFiles.js';
import { FileSource } from '../../runtime/entries/node/fileSource.js';
import { nodeCodecs } from '../../runtime/entries/node/platform.js';
import { accessionOf, accessionRefsOf, sequenceOf } from '../../runtime/model/format.js';
import { decodeShard } from '../../runtime/model/shardCodec.js';
import { packColumns, shardColumns } from '../../runtime/model/shardEncoder.js';
import { encodeVarints } from '../../runtime/model/varint.js';
import { massWindows, summarize } from './measure.js';
import { readAccessionTable, searchUrl } from './queries.js';

const [dirArg, fastaArg, everyArg = '50', queriesArg = '2000'] = process.argv.slice(2);
const [every, queries] = [Number(everyArg), Number(queriesArg)];
if (!dirArg || !fastaArg || !(every >= 1 && queries >= 1))
  throw new Error('usage: byReference.ts <dataset dir> <fasta> [every n-th shard] [queries]');
const source = new FileSource(resolve(dirArg));
const { manifest } = await Dataset.open(source, nodeCodecs);
const table = await (await readAccessionTable(source)).table;
const rankOf = new Map<string, number>();
for (let a = 0; a < table.accessionEnds.length; a++) rankOf.set(accessionOf(table, a), a);

// Every protein's residues in rank order: where each starts, and its sequence.
const proteins: string[] = new Array(table.accessionEnds.length);
for await (const record of readFasta(resolve(fastaArg), () => {})) {
  const rank = rankOf.get(record.accession);
  if (rank !== undefined) proteins[rank] = record.sequence;
}
const starts = new Float64Array(proteins.length + 1);
for (let a = 0; a < proteins.length; a++) starts[a + 1] = starts[a] + (proteins[a]?.length ?? 0);
const residues = starts[proteins.length];

const shards = [];
for await (const file of datasetFiles(source, { ...manifest, views: undefined }, nodeCodecs))
  if (file.kind === 'shard') shards.push(file);
const bytes = { stored: 0, positions: 0, offsets: 0, positionsBr: 0, offsetsBr: 0 };
let [sampled, peptides] = [0, 0];
for (let i = 0; i < shards.length; i += every) {
  const stored = await source.get(shards[i].file);
  const shard = decodeShard(await nodeCodecs.decompress(stored, manifest.compression), manifest.accessions.count);
  const n = shard.sequenceEnds.length;
  const [positions, offsets] = [new Float64Array(n), new Float64Array(n)];
  for (let p = 0; p < n; p++) {
    const first = accessionRefsOf(shard, p)[0];
    const at = proteins[first].indexOf(sequenceOf(shard, p));
    if (at < 0) throw new Error(`peptide ${sequenceOf(shard, p)} is not in its protein ${accessionOf(table, first)}`);
    [positions[p], offsets[p]] = [starts[first] + at, at];
  }
  // The stored columns (shardEncoder.ts) with `places` where `sequences` were, in the same key order.
  const { sequences: _, refCounts, refs, ...head } = shardColumns(shard);
  const variant = (column: Float64Array) => packColumns({ ...head, places: encodeVarints(column), refCounts, refs });
  const [byPosition, byOffset] = [variant(positions), variant(offsets)];
  bytes.stored += stored.length;
  bytes.positions += compress(byPosition, 'gzip').length;
  bytes.offsets += compress(byOffset, 'gzip').length;
  bytes.positionsBr += compress(byPosition, 'br').length;
  bytes.offsetsBr += compress(byOffset, 'br').length;
  [sampled, peptides] = [sampled + 1, peptides + n];
}

// The residue file compressed in blocks of 64 KiB (what a design with offsets and compressed residues would store).
const residueBlocks = { gzip: 0, br: 0 };
const allResidues = Buffer.from(proteins.join(''), 'latin1');
for (let at = 0; at < allResidues.length; at += 65_536) {
  const block = allResidues.subarray(at, at + 65_536);
  residueBlocks.gzip += compress(block, 'gzip').length;
  residueBlocks.br += compress(block, 'br').length;
}

// Answer pages: the peptides (one residue range each) and distinct accessions (one fixed-width record each).
const dataset = await Dataset.open(source, { cacheBytes: 2 ** 30, ...nodeCodecs });
const answer = createAnswerer(async () => dataset);
const pages: Record<string, { peptides: number[]; accessions: number[]; residues: number[] }> = {};
for (const [name, pageSize] of [
  ['pageSize 1000', '1000'],
  ['default page (10 groups)', '10'],
] as const) {
  const counts = { peptides: [] as number[], accessions: [] as number[], residues: [] as number[] };
  for (const w of massWindows(queries, 2, { lo: 360, hi: 8500, ppm: 10 })) {
    const url = searchUrl(w).replace('&pageSize=1000', `&pageSize=${pageSize}`);
    const body = (await answer({ method: 'GET', url: new URL(url) })).body!;
    const json = JSON.parse(typeof body === 'string' ? body : Buffer.from(body).toString('latin1')) as {
      result: Record<string, { seq: string; acc: string[] }[]>[];
    };
    const entries = json.result.flatMap((group) => Object.values(group)[0]);
    counts.peptides.push(entries.length);
    counts.accessions.push(new Set(entries.flatMap((e) => e.acc)).size);
    counts.residues.push(entries.reduce((sum, e) => sum + e.seq.length, 0));
  }
  pages[name] = counts;
}

const perPeptide = (b: number) => +(b / peptides).toFixed(2);
const stats = (xs: number[]) => ({
  mean: +summarize(xs).mean.toFixed(1),
  p99: summarize(xs).p99,
  max: summarize(xs).max,
});
console.log(
  JSON.stringify(
    {
      dataset: dirArg,
      compression: manifest.compression,
      shards: shards.length,
      sampled,
      peptidesSampled: peptides,
      datasetPeptides: manifest.totals.peptides,
      proteins: proteins.length,
      residues,
      bytesPerPeptide: {
        storedShards: perPeptide(bytes.stored),
        positionsGzip: perPeptide(bytes.positions),
        offsetsGzip: perPeptide(bytes.offsets),
        positionsBrotli: perPeptide(bytes.positionsBr),
        offsetsBrotli: perPeptide(bytes.offsetsBr),
        residueFileRaw: +(residues / manifest.totals.peptides).toFixed(2),
        residueFileGzip: +(residueBlocks.gzip / manifest.totals.peptides).toFixed(2),
        residueFileBrotli: +(residueBlocks.br / manifest.totals.peptides).toFixed(2),
      },
      answerPages: Object.fromEntries(
        Object.entries(pages).map(([name, c]) => [
          name,
          { peptides: stats(c.peptides), accessions: stats(c.accessions), residues: stats(c.residues) },
        ]),
      ),
    },
    null,
    1,
  ),
);

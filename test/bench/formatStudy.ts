// Format-v2 study (issue 12): re-encodes a v1 dataset's shards into candidate v2 encodings and prints, per distinct
// peptide, the bytes of each component, whole-unit compression at several decode-unit sizes and decode times.
// Usage: npx tsx test/bench/formatStudy.ts <datasetDir> [--sample N]   (N shards, in runs of 16 consecutive ones)
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Unpackr } from 'msgpackr/unpack';
import type { IndexPage, ShardEntry } from '../../runtime/model/format.js';
import {
  BROTLI11,
  Bytes,
  CODECS,
  type Codec,
  decodeUnit,
  decodeV1Shard,
  encodeUnit,
  frontCode,
  type Group,
  packUnit,
  type RefCoding,
  type SeqCoding,
  type UnitColumns,
} from './formatStudyCodecs.js';

const args = process.argv.slice(2);
const dir = args.find((a) => !a.startsWith('--') && args[args.indexOf(a) - 1] !== '--sample');
if (!dir) throw new Error('usage: npx tsx test/bench/formatStudy.ts <datasetDir> [--sample N]');
const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
const size = (f: string) => statSync(join(dir, f)).size;
const indexFiles: string[] = manifest.shardIndex?.pages.map((p: { file: string }) => p.file) ?? [];
const entries: ShardEntry[] =
  manifest.shards ?? indexFiles.flatMap((f) => (JSON.parse(readFileSync(join(dir, f), 'utf8')) as IndexPage).shards);
const sampleArg = args.indexOf('--sample');
const sample = Math.min(
  entries.length,
  sampleArg >= 0 ? Number(args[sampleArg + 1]) : entries.length <= 1000 ? entries.length : 400,
);
const P = manifest.totals.peptides as number;
const perPep = (bytes: number, peptides = P) => bytes / peptides;
const f2 = (x: number) => x.toFixed(2);
const t0 = performance.now();
const out: string[] = [];
const say = (s = '') => {
  out.push(s);
  console.log(s);
};
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
};

// ---- dataset-wide files: the accession table (ranks = sorted order of the protein pages), names, taxonomy
const proteinPages: string[] = manifest.proteins.pages.map((p: { file: string }) => p.file);
const names: string[] = [],
  taxList: number[] = [],
  revList: number[] = [];
const nameJson: string[] = [];
for (const f of proteinPages) {
  const page = JSON.parse(readFileSync(join(dir, f), 'utf8'));
  names.push(...page.accessions);
  taxList.push(...page.taxIds);
  revList.push(...page.reviewed);
  nameJson.push(JSON.stringify({ proteins: page.proteins, organisms: page.organisms }));
}
const table = { names, taxIds: Int32Array.from(taxList), reviewed: Uint8Array.from(revList) };
const rank = new Map(names.map((n, i) => [n, i]));
const taxBytes = new Bytes();
for (const t of taxList) taxBytes.varint(t < 0 ? 0 : t + 1);
const reviewedBits = new Uint8Array(Math.ceil(revList.length / 8));
revList.forEach((r, i) => {
  if (r) reviewedBits[i >> 3] |= 1 << (i & 7);
});
const plainNames = Buffer.from(names.join('\n'));
const fronted = frontCode(names);
const br = (b: Uint8Array) => BROTLI11.compress(b).length;
// Protein names and pages: brotli of up to 40 evenly spaced pages, scaled to all (q11 on 40 MB takes minutes).
const pick = <T>(xs: T[], n: number) =>
  Array.from({ length: Math.min(n, xs.length) }, (_, i) => xs[Math.floor((i * xs.length) / Math.min(n, xs.length))]);
const scaledBr = (items: Uint8Array[], all: number) => {
  const s = items.reduce((a, b) => a + b.length, 0);
  return (items.reduce((a, b) => a + br(b), 0) / s) * all;
};
const namesAll = nameJson.reduce((a, s) => a + Buffer.byteLength(s), 0);
const namesBr = scaledBr(
  pick(nameJson, 40).map((s) => Buffer.from(s)),
  namesAll,
);
const protV1 = proteinPages.reduce((a, f) => a + size(f), 0);
const protV1Br = scaledBr(
  pick(proteinPages, 40).map((f) => readFileSync(join(dir, f))),
  protV1,
);
const taxFile = manifest.taxonomy?.file as string | undefined;
const taxonomyV1 = taxFile ? size(taxFile) : 0,
  taxonomyBr = taxFile ? br(readFileSync(join(dir, taxFile))) : 0;
const manifestBytes = size('manifest.json'),
  indexV1 = indexFiles.reduce((a, f) => a + size(f), 0);
const accTable = { fronted: br(fronted) + br(taxBytes.bytes) + br(reviewedBits) };

// ---- shard sample: runs of up to 16 consecutive shards, evenly spaced (units may cross shards within a run)
const RUN = Math.min(16, sample);
const runs = Math.ceil(sample / RUN);
const starts =
  runs * RUN >= entries.length
    ? [0]
    : Array.from({ length: runs }, (_, i) => Math.floor((i * (entries.length - RUN)) / Math.max(1, runs - 1)));
const runLen = starts.length === 1 ? Math.min(entries.length, sample) : RUN;
const v1 = { shards: 0, peptides: 0, bytes: 0, accTable: 0, sequences: 0, refs: 0, seqEnds: 0, keys: 0, overhead: 0 };
const v1Decode: number[] = [];
const unpackr = new Unpackr({ useRecords: false, mapsAsObjects: true });
const UNIT_SIZES = [32, 64, 128, 256];
type Variant = { name: string; refs: RefCoding; seqs: SeqCoding; codecs: Codec[] };
const cheap = CODECS.filter((c) => c.name === 'gzip -9' || c.name === 'brotli q9');
const VARIANTS: Variant[] = [
  { name: 'A: global ranks, refs delta, plain sequences', refs: 'delta', seqs: 'plain', codecs: CODECS },
  { name: 'B: as A, refs plain varint', refs: 'plain', seqs: 'plain', codecs: cheap },
  { name: 'C: as A, sequences 5-bit packed', refs: 'delta', seqs: 'packed5', codecs: cheap },
  {
    name: 'D: per-unit local accession table (front-coded, taxIds, reviewed), refs delta',
    refs: 'local',
    seqs: 'plain',
    codecs: cheap,
  },
];
interface Cell {
  peptides: number;
  units: number;
  raw: number;
  packed: number;
  comp: number;
  maxComp: number;
  decode: number[];
  inflate: number[];
}
const cells = new Map<string, Cell>();
const cell = (k: string) =>
  cells.get(k) ??
  cells.set(k, { peptides: 0, units: 0, raw: 0, packed: 0, comp: 0, maxComp: 0, decode: [], inflate: [] }).get(k)!;
const colRaw = new Map<string, number>(),
  colBr = new Map<string, number>();
let colPeptides = 0;
const DECODE_EVERY = Math.max(1, Math.floor(sample / 16 / 8)); // time decodes on about 8 runs' units

const byteLength = (v: unknown) =>
  typeof v === 'string' ? Buffer.byteLength(v) : v instanceof Uint8Array ? v.length : 0;
for (const [runIndex, start] of starts.entries()) {
  const groups: Group[] = [];
  for (const e of entries.slice(start, start + runLen)) {
    const bytes = readFileSync(join(dir, e.file));
    const raw = unpackr.unpack(bytes) as Record<string, unknown>;
    const part = (...ks: string[]) => ks.reduce((a, k) => a + byteLength(raw[k]), 0);
    const parts = {
      accTable: part('accessions', 'accessionEnds', 'taxIds', 'reviewed'),
      sequences: part('sequences'),
      refs: part('accessionRefs', 'accessionRefEnds'),
      seqEnds: part('sequenceEnds'),
      keys: part('massKeys', 'groupEnds'),
    };
    Object.assign(v1, Object.fromEntries(Object.entries(parts).map(([k, n]) => [k, v1[k as keyof typeof v1] + n])));
    v1.overhead += bytes.length - Object.values(parts).reduce((a, b) => a + b, 0);
    v1.shards++;
    v1.bytes += bytes.length;
    v1.peptides += e.peptides;
    let s = decodeV1Shard(bytes);
    for (let rep = 0; rep < 3; rep++) {
      const t = performance.now();
      s = decodeV1Shard(bytes);
      v1Decode.push(performance.now() - t);
    }
    const accs = s.accessionEnds,
      acc = (a: number) => s.accessions.slice(a ? accs[a - 1] : 0, accs[a]);
    const ranks = Array.from({ length: accs.length }, (_, a) => rank.get(acc(a))!);
    for (let g = 0, p = 0; g < s.massKeys.length; g++) {
      const group: Group = { key: s.massKeys[g], seqs: [], refs: [] };
      for (; p < s.groupEnds[g]; p++) {
        group.seqs.push(s.sequences.slice(p ? s.sequenceEnds[p - 1] : 0, s.sequenceEnds[p]));
        const r0 = p ? s.accessionRefEnds[p - 1] : 0;
        group.refs.push(Array.from(s.accessionRefs.subarray(r0, s.accessionRefEnds[p]), (a) => ranks[a]));
      }
      groups.push(group);
    }
  }
  for (const kb of UNIT_SIZES) {
    // Re-cut the run's peptide stream into units of about kb KB of payload, at mass-group boundaries.
    const units: Group[][] = [];
    let unit: Group[] = [],
      est = 0;
    for (const g of groups) {
      unit.push(g);
      est += 2 + g.seqs.reduce((a, q, i) => a + q.length + 2 + 3 * g.refs[i].length, 0);
      if (est >= kb * 1024) {
        units.push(unit);
        unit = [];
        est = 0;
      }
    }
    if (unit.length) units.push(unit); // a run's tail unit is kept (smaller: slightly pessimistic for big units)
    for (const v of VARIANTS)
      for (const u of units) {
        const columns = encodeUnit(u, v.refs, v.seqs, table);
        const packed = packUnit(columns);
        const peptides = columns.peptides as number;
        if (v.refs === 'delta' && v.seqs === 'plain' && kb === 128) {
          colPeptides += peptides;
          let sum = 0;
          for (const [k, val] of Object.entries(columns as UnitColumns)) {
            if (typeof val === 'number') continue;
            const b = typeof val === 'string' ? Buffer.from(val) : val;
            sum += b.length;
            colRaw.set(k, (colRaw.get(k) ?? 0) + b.length);
            colBr.set(k, (colBr.get(k) ?? 0) + cheap[1].compress(b).length);
          }
          colRaw.set('msgpack framing', (colRaw.get('msgpack framing') ?? 0) + packed.length - sum);
        }
        for (const codec of v.codecs) {
          const c = cell(`${v.name}|${codec.name}|${kb}`);
          const comp = codec.compress(packed);
          c.peptides += peptides;
          c.units++;
          c.raw += packed.length;
          c.comp += comp.length;
          c.maxComp = Math.max(c.maxComp, comp.length);
          if (codec.decompress && v === VARIANTS[0] && runIndex % DECODE_EVERY === 0) {
            for (let rep = 0; rep < 5; rep++) {
              const t = performance.now();
              const plain = codec.decompress(comp);
              const t1 = performance.now();
              const d = decodeUnit(plain);
              c.decode.push(performance.now() - t);
              c.inflate.push(t1 - t);
              if (rep === 0 && d.sequenceEnds.length !== peptides) throw new Error('v2 decode mismatch');
            }
          }
        }
      }
  }
  if (runIndex % 10 === 9)
    console.error(`  ${runIndex + 1}/${starts.length} runs, ${((performance.now() - t0) / 1000).toFixed(0)} s`);
}

// ---- report
const shardBytesAll = manifest.totals.bytes as number;
const otherV1 = manifestBytes + indexV1 + protV1 + taxonomyV1;
say(`### ${dir}`);
say();
say(
  `\`npx tsx test/bench/formatStudy.ts ${args.join(' ')}\` — ${P.toLocaleString('en')} distinct peptides, ${entries.length} v1 shards, ` +
    `${names.length.toLocaleString('en')} accessions; sample ${v1.shards} shards (${v1.peptides.toLocaleString('en')} peptides) in ${starts.length} run(s); ` +
    `parameters ${JSON.stringify(manifest.parameters)}.`,
);
say();
say('**v1 as is** (bytes per distinct peptide; shard components from the sample, files from the whole dataset)');
say();
say('| component | B/peptide | share of shards |');
say('|---|---:|---:|');
const v1rows: [string, number][] = [
  ['accession table (strings, ends, taxIds, reviewed)', v1.accTable],
  ['sequences', v1.sequences],
  ['accession refs + ref ends', v1.refs],
  ['sequence ends', v1.seqEnds],
  ['mass keys + group ends', v1.keys],
  ['msgpack framing', v1.overhead],
];
for (const [k, n] of v1rows) say(`| ${k} | ${f2(perPep(n, v1.peptides))} | ${((100 * n) / v1.bytes).toFixed(1)} % |`);
say(`| **shards (all, manifest totals)** | **${f2(perPep(shardBytesAll))}** | |`);
say(`| manifest + index pages | ${f2(perPep(manifestBytes + indexV1))} | |`);
say(`| protein pages (JSON) | ${f2(perPep(protV1))} | |`);
say(`| taxonomy | ${f2(perPep(taxonomyV1))} | |`);
say(`| **total, all files** | **${f2(perPep(shardBytesAll + otherV1))}** | |`);
say(
  `| v1 shard decode (decodeV1Shard, median of ${v1Decode.length}) | ${median(v1Decode).toFixed(2)} ms per shard of ${(v1.bytes / v1.shards / 1024).toFixed(0)} KB | |`,
);
say();
say('**Dataset-wide files for v2** (brotli q11; ranks = position in the sorted accession list)');
say();
say('| file | raw B/peptide | compressed B/peptide |');
say('|---|---:|---:|');
say(`| accession strings, plain (newline-joined) | ${f2(perPep(plainNames.length))} | ${f2(perPep(br(plainNames)))} |`);
say(`| accession strings, front-coded | ${f2(perPep(fronted.length))} | ${f2(perPep(br(fronted)))} |`);
say(`| taxIds (varint, by rank) | ${f2(perPep(taxBytes.n))} | ${f2(perPep(br(taxBytes.bytes)))} |`);
say(`| reviewed (bitset) | ${f2(perPep(reviewedBits.length))} | ${f2(perPep(br(reviewedBits)))} |`);
say(
  `| **accession table (front-coded + taxIds + reviewed)** | ${f2(perPep(fronted.length + taxBytes.n + reviewedBits.length))} | **${f2(perPep(accTable.fronted))}** |`,
);
say(`| protein + organism names (JSON columns by rank) | ${f2(perPep(namesAll))} | ${f2(perPep(namesBr))} |`);
say(`| v1 protein pages whole, for reference | ${f2(perPep(protV1))} | ${f2(perPep(protV1Br))} |`);
say(`| taxonomy | ${f2(perPep(taxonomyV1))} | ${f2(perPep(taxonomyBr))} |`);
say();
say(`**Candidate A columns** (128 KB units; raw delta+LEB128 varint, and each column brotli q9 on its own)`);
say();
say('| column | raw B/peptide | compressed alone B/peptide |');
say('|---|---:|---:|');
for (const [k, n] of colRaw)
  say(`| ${k} | ${f2(perPep(n, colPeptides))} | ${colBr.has(k) ? f2(perPep(colBr.get(k)!, colPeptides)) : '–'} |`);
say();
const entryBytes =
  entries.slice(0, 200).reduce((a, e) => a + JSON.stringify(e).length + 1, 0) / Math.min(200, entries.length);
const fixed = manifestBytes + accTable.fronted + namesBr + taxonomyBr;
say(
  `**Whole-unit compression** (B/peptide of units; "total" adds the accession table ${f2(perPep(accTable.fronted))} (not for D), names ${f2(perPep(namesBr))}, ` +
    `taxonomy ${f2(perPep(taxonomyBr))}, manifest ${f2(perPep(manifestBytes))} and an index of ${entryBytes.toFixed(0)} B per unit (v1 entry size); ` +
    'decode = decompress + msgpack + varints into typed arrays, median per unit, candidate A only)',
);
say();
say(
  '| encoding | codec | unit KB | raw unit KB (mean) | units B/pep | total B/pep | max unit KB read | decode µs/unit (median) | of which decompress |',
);
say('|---|---|---:|---:|---:|---:|---:|---:|---:|');
for (const v of VARIANTS)
  for (const codec of v.codecs)
    for (const kb of UNIT_SIZES) {
      const c = cells.get(`${v.name}|${codec.name}|${kb}`);
      if (!c) continue;
      const unitPep = c.peptides / c.units;
      const total =
        perPep(c.comp, c.peptides) + perPep(fixed - (v.refs === 'local' ? accTable.fronted : 0)) + entryBytes / unitPep;
      say(
        `| ${v.name.slice(0, 1)} | ${codec.name} | ${kb} | ${(c.raw / c.units / 1024).toFixed(1)} | ${f2(perPep(c.comp, c.peptides))} | ${f2(total)} | ` +
          `${(c.maxComp / 1024).toFixed(1)} | ${c.decode.length ? (median(c.decode) * 1000).toFixed(0) : '–'} | ${c.inflate.length ? (median(c.inflate) * 1000).toFixed(0) : '–'} |`,
      );
    }
say();
say(
  `Encodings: ${VARIANTS.map((v) => v.name).join('; ')}. Run took ${((performance.now() - t0) / 1000).toFixed(0)} s.`,
);
say();

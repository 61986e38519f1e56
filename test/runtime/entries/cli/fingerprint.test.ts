// The `fingerprint` command of the offline query tool (runtime/entries/cli/fingerprint.ts through query.ts's main) on
// the bundled dataset: pymzML's gzipped MS1 run and a real MGF file fingerprinted as the core answers the same lists
// (read here independently), the JSON the HTTP answer's shape, the TSV as documented, the same whatever the batch,
// standard input and --out; and its errors: a file that is not a peak list or cannot be read (one line naming it,
// exit 1), refused parameters (the API's JSON error, exit 1), usage mistakes (exit 2).
import { cpSync, existsSync, readdirSync, readFileSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerprint, type FingerprintQuery } from '../../../../runtime/core/fingerprint/fingerprint.js';
import { Dataset } from '../../../../runtime/core/storage/dataset.js';
import { main, type QueryIo } from '../../../../runtime/entries/cli/query.js';
import { FileSource } from '../../../../runtime/entries/node/fileSource.js';
import { nodeCodecs } from '../../../../runtime/entries/node/platform.js';
import { parseModifications } from '../../../../runtime/model/modifications.js';
import { bundledDataset, removeTempDirs, tempDir, writeFixture } from '../../../helpers/datasets.js';
import { documentedTsv } from '../../../helpers/fingerprintTsv.js';
import { Collector, REPO, type Run } from '../../../helpers/process.js';
import { referenceMgf, referenceMs1, textOf, type RefList } from '../../../helpers/referenceMs1.js';

const MZML = join(REPO, 'test/fixtures/mzml/pymzml_example.mzML.gz');
const MGF = join(REPO, 'test/fixtures/mgf/galaxyp_searchgui_smallspectra.mgf');
const FLAGS = ['--proteins', '3', '--organisms', '2'];

let shards: string;
let dir: string;
let dataset: Dataset;

beforeAll(async () => {
  shards = await bundledDataset();
  dataset = await Dataset.open(new FileSource(shards), nodeCodecs);
  dir = tempDir('fingerprint-cli');
});
afterAll(removeTempDirs);

async function fingerprintRun(argv: string[], stdin?: Readable, tty = false, over = shards): Promise<Run> {
  const stdout = new Collector();
  const stderr = new Collector();
  if (tty) Object.assign(stderr, { isTTY: true, columns: 100 });
  const io: QueryIo = { stdout, stderr, ...(stdin && { stdin }) };
  const code = await main(['fingerprint', ...argv, '--shards', over], io);
  return { code, stdout: stdout.text, stderr: stderr.text };
}

/** The core's fingerprints of `lists` as JSON carries them. */
async function coreLists(lists: readonly RefList[], query: FingerprintQuery) {
  const named = lists.map(({ title, mz, intensity }) => ({
    ...(title !== undefined && { title }),
    mz: Float64Array.from(mz),
    ...(intensity && { intensity: Float64Array.from(intensity) }),
  }));
  return JSON.parse(JSON.stringify(await fingerprint(dataset, query, named)));
}

/** --proteins 3 --organisms 2 and the defaults the command documents: 50 ppm, [M+H]+, species. */
const QUERY: FingerprintQuery = {
  tolerance: { unit: 'ppm', below: 50, above: 50 },
  fixed: [],
  variable: [],
  maxVariable: 2,
  filter: { taxa: [] },
  ion: 'mh',
  rank: 'species',
  proteins: 3,
  organisms: 2,
};

const SUMMARY = /^fingerprint: ([\d,]+) lists, ([\d,]+) peaks \(([\d,]+) not searched\); [\d.]+ s\n$/;

describe('npm run query -- fingerprint', () => {
  let json: Run;
  let tsv: Run;
  beforeAll(async () => {
    [json, tsv] = await Promise.all([
      fingerprintRun([MZML, ...FLAGS, '--format', 'json']),
      fingerprintRun([MZML, ...FLAGS]),
    ]);
  });

  it("writes {lists: [...]}, the core's answer for each MS1 spectrum of the mzML file, in file order", async () => {
    expect(json.code, json.stderr).toBe(0);
    const answer = JSON.parse(json.stdout);
    expect(Object.keys(answer)).toEqual(['lists']);
    const lists = referenceMs1(textOf(readFileSync(MZML))).map(({ representation: _, ...list }) => list);
    expect(answer.lists).toEqual(await coreLists(lists, QUERY));
    const peaks = lists.reduce((n, l) => n + l.mz.length, 0);
    const unsearched = answer.lists.flatMap((l: any) => l.peaks.filter((p: any) => p.error)).length;
    expect(SUMMARY.exec(json.stderr)?.slice(1, 4)).toEqual([
      '11',
      peaks.toLocaleString('en'),
      unsearched.toLocaleString('en'),
    ]);
  });

  it('writes TSV by default: the documented table of the same answers', () => {
    expect(tsv.code, tsv.stderr).toBe(0);
    expect(tsv.stdout).toBe(documentedTsv(JSON.parse(json.stdout).lists));
    expect(tsv.stderr).toMatch(SUMMARY);
  });

  it('writes the same whatever the batch, and reads standard input', async () => {
    // In this thread: the threads' test below shares batches among them.
    const batched = await fingerprintRun([MZML, ...FLAGS, '--format', 'json', '--batch', '4', '--threads', '1']);
    expect(batched.code, batched.stderr).toBe(0);
    expect(batched.stdout).toBe(json.stdout);
    const piped = await fingerprintRun(['-', ...FLAGS, '--format', 'json'], Readable.from([readFileSync(MZML)]));
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stdout).toBe(json.stdout);
  });

  it('fingerprints on worker threads exactly as in one, each batch shared among them', async () => {
    // Batches of 4 on three threads: shares of 2 lists (the 11 lists' last batch of 3 too).
    const args = [MZML, ...FLAGS, '--format', 'json', '--batch', '4'];
    const [three, one] = await Promise.all([
      fingerprintRun([...args, '--threads', '3']),
      fingerprintRun([...args, '--threads', '1']),
    ]);
    expect([three.code, one.code], three.stderr + one.stderr).toEqual([0, 0]);
    expect(three.stdout).toBe(json.stdout);
    expect(one.stdout).toBe(json.stdout);
    const summary = (run: Run) => run.stderr.replace(/[\d.]+ s\n$/, '');
    expect(summary(three)).toBe(summary(one));
    // A dataset that fails under the threads: its error in one line, nothing written.
    const broken = join(dir, 'broken');
    cpSync(shards, broken, { recursive: true });
    for (const name of readdirSync(broken).filter((n) => n.endsWith('.msgpack.gz'))) unlinkSync(join(broken, name));
    const out = join(dir, 'broken.json');
    const failed = await fingerprintRun([...args, '--threads', '2', '--out', out], undefined, false, broken);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/^[^\n]*msgpack\.gz[^\n]*\n$/);
    expect(existsSync(out)).toBe(false);
  });

  it('an MGF file: one list per record with its title; --charge, --top-peaks and --fixed read as the API reads them', async () => {
    const run = await fingerprintRun([
      MGF,
      '--charge',
      '2',
      '--top-peaks',
      '30',
      '--fixed',
      'Carbamidomethyl@C',
      '--format',
      'json',
      '--proteins',
      '2',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const lists = referenceMgf(readFileSync(MGF, 'utf8'));
    expect(lists).toHaveLength(34);
    const query: FingerprintQuery = {
      ...QUERY,
      ion: 2,
      topPeaks: 30,
      fixed: parseModifications('Carbamidomethyl@C'),
      proteins: 2,
      organisms: 10,
    };
    expect(JSON.parse(run.stdout).lists).toEqual(await coreLists(lists, query));
  });

  it('shows a progress bar of the lists on a terminal, never on stdout', async () => {
    const run = await fingerprintRun([MZML, ...FLAGS, '--batch', '3'], undefined, true);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(tsv.stdout);
    expect(run.stderr).toMatch(/fingerprint \|.*\| 100% \| 11 lists read, 11 fingerprinted \| [\d,…]+ lists\/s/);
    expect(run.stderr).not.toMatch(/NaN|Infinity|undefined|null/);
  });

  it('--out writes the file whole; a failed run leaves none', async () => {
    const out = join(dir, 'spots.tsv');
    const run = await fingerprintRun([MZML, ...FLAGS, '--out', out]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('');
    expect(readFileSync(out, 'utf8')).toBe(tsv.stdout);
    const failed = join(dir, 'failed.tsv');
    const fasta = join(REPO, 'test/fixtures/sage/Q99536.fasta');
    expect((await fingerprintRun([fasta, '--out', failed])).code).toBe(1);
    expect(existsSync(failed)).toBe(false);
    // JSON output's error body goes to stdout, unless stdout is --out's file, which the failure removes: stderr then.
    const refused = await fingerprintRun([MZML, '--format', 'json', '--rank', 'banana', '--out', failed]);
    expect([refused.code, refused.stdout, existsSync(failed)]).toEqual([1, '', false]);
    expect(JSON.parse(refused.stderr).error).toMatch(/rank/);
  });
});

describe('errors', () => {
  it('a file that is not a peak list, or cannot be read: one line naming the file and what or where, exit 1', async () => {
    const fasta = join(REPO, 'test/fixtures/sage/Q99536.fasta');
    const notPeaks = await fingerprintRun([fasta]);
    expect(notPeaks.code).toBe(1);
    expect(notPeaks.stderr).toMatch(
      new RegExp(
        `^query: error: ${fasta}: not a peak list: it looks like a FASTA file \\(sequences, not spectra\\);.*\\n$`,
      ),
    );
    const bad = writeFixture(dir, 'bad.txt', '1000.5\n1200.6\nnot a peak\n');
    expect((await fingerprintRun([bad])).stderr).toBe(`query: error: ${bad}: line 3: "not" is not a positive m/z\n`);
    // A file written for Mascot whose tolerance is not the query's: the line, what it asks and what to do.
    const mascot = writeFixture(dir, 'spot.txt', 'COM=spot\nTOL=0.5\nTOLU=Da\n1000.5\n');
    const asks = await fingerprintRun([mascot]);
    expect([asks.code, asks.stderr]).toEqual([
      1,
      `query: error: ${mascot}: line 2: TOL=0.5: the file asks for ±0.5 Da, the query for ±50 ppm: ask for tolerance 0.5 and unit Da, or remove the line\n`,
    ]);
    const broken = writeFixture(dir, 'broken.mgf.gz', gzipSync(Buffer.alloc(100_000, 0x41)).subarray(0, 60));
    const run = await fingerprintRun([broken]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^query: error: .*broken\.mgf\.gz: gzip-compressed data that cannot be decompressed \(/);
    const missing = await fingerprintRun([join(dir, 'none.txt')]);
    expect([missing.code, missing.stderr]).toEqual([
      1,
      `query: error: cannot read ${join(dir, 'none.txt')}: no such file\n`,
    ]);
  });

  it('a refused parameter: the API’s JSON error, on stdout for JSON and stderr for TSV, exit 1', async () => {
    const list = writeFixture(dir, 'list.txt', '1000.5\n');
    const tsv = await fingerprintRun([list, '--charge', '2', '--ion', 'neutral']);
    expect([tsv.code, tsv.stdout]).toEqual([1, '']);
    expect(JSON.parse(tsv.stderr).error).toMatch(/^charge goes with ions; with ion=neutral/);
    const json = await fingerprintRun([list, '--rank', 'domain', '--format', 'json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout).error).toMatch(/^rank: this dataset's taxonomy holds no taxon of rank domain/);
  });

  it('usage mistakes: exit 2 with the flag meant', async () => {
    const list = writeFixture(dir, 'one.txt', '1000.5\n');
    const cases: [string[], RegExp][] = [
      [[list, '--tolerence', '10'], /unknown option --tolerence: did you mean --tolerance\?/],
      [[list, '--ppm', '10'], /unknown option --ppm: did you mean --tolerance with --unit ppm\?/],
      [[list, '--format', 'xml'], /--format must be tsv or json, got "xml"/],
      [[list, '--batch', '0'], /--batch must be a whole number from 1 to 100000, got "0"/],
      [[list, list], /fingerprint takes one peak list file.*got 2/],
      [[], /fingerprint takes one peak list file.*got 0/],
    ];
    for (const [argv, message] of cases) {
      const run = await fingerprintRun(argv);
      expect(run.code, argv.join(' ')).toBe(2);
      expect(run.stderr).toMatch(message);
    }
  });

  it('--help lists every parameter and option', async () => {
    const help = await fingerprintRun(['--help']);
    expect(help.code).toBe(0);
    for (const flag of ['--tolerance', '--ion', '--charge', '--top-peaks', '--rank', '--organisms', '--batch', '--out'])
      expect(help.stdout).toContain(`  ${flag}`);
  });
});

// The `match` command of the offline query tool (runtime/entries/cli/match.ts through query.ts's main): its JSON is
// the core's matchPrecursors answer and its TSV that JSON row by row, whatever the input form, batch or transport;
// malformed records, errors, usage and the progress bar.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precursorJson, type PrecursorJson } from '../../../../runtime/api/matchJson.js';
import { MATCH_ISOTOPE_TSV_COLUMNS, MATCH_TSV_COLUMNS } from '../../../../runtime/api/matchTsv.js';
import { Dataset } from '../../../../runtime/core/storage/dataset.js';
import { matchPrecursors } from '../../../../runtime/core/match/match.js';
import { parseMatchQuery } from '../../../../runtime/api/matchParams.js';
import { readMgf, type Spectrum } from '../../../../runtime/core/match/mgf.js';
import { main } from '../../../../runtime/entries/cli/query.js';
import { FileSource } from '../../../../runtime/entries/node/fileSource.js';
import { nodeCodecs } from '../../../../runtime/entries/node/platform.js';
import { listen } from '../../../helpers/api.js';
import { bundledDataset, removeTempDirs, tempDir } from '../../../helpers/datasets.js';
import { Collector, REPO, runTsx, staticFiles, type Run } from '../../../helpers/process.js';

const MGF = join(REPO, 'test/fixtures/mgf');
const SMALL = join(MGF, 'galaxyp_searchgui_smallspectra.mgf'); // 34 spectra, CHARGE=2+ and 3+ and 4+ each
const TMT = join(MGF, 'depthcharge_TMT10-Trial-8.mgf'); // 7 spectra, one without CHARGE
const MODS = ['--fixed', 'Carbamidomethyl@C', '--variable', 'Oxidation@M'];

let shards: string;
let dataset: Dataset;
let dir: string;

beforeAll(async () => {
  shards = await bundledDataset();
  dataset = await Dataset.open(new FileSource(shards), nodeCodecs);
  dir = tempDir('match');
}, 300_000);

afterAll(removeTempDirs);

/**
 * Runs `query match ...` in process; `stdin` is what `-` reads, `tty` makes stderr claim to be a terminal, `stdout`
 * replaces the collector of standard output (e.g. a slow one).
 */
async function match(
  argv: string[],
  options: { stdin?: Readable; tty?: boolean; stdout?: Collector } = {},
): Promise<Run> {
  const stdout = options.stdout ?? new Collector();
  const stderr = new Collector();
  if (options.tty) Object.assign(stderr, { isTTY: true, columns: 100 });
  const code = await main(['match', ...argv], { stdout, stderr, ...(options.stdin ? { stdin: options.stdin } : {}) });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

/** The runs of `match` without stdin or terminal by their arguments: several tests compare with the same command's output. */
const runs = new Map<string, Promise<Run>>();

/** `match(argv)`, run once for every test that asks for the same arguments (the output depends on nothing else). */
function matchOnce(argv: string[]): Promise<Run> {
  const key = JSON.stringify(argv);
  let run = runs.get(key);
  if (!run) runs.set(key, (run = match(argv)));
  return run;
}

/** expect(got).toEqual(expected) for large answers: compared by node first, vitest's comparison (and its diff) when they differ. */
function expectSame<T>(got: T, expected: T, message?: string): void {
  if (!isDeepStrictEqual(got, expected)) expect(got, message).toEqual(expected);
}

/** A value as JSON carries it (undefined fields dropped, -0 written 0). */
const asJson = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** The spectra of an MGF file, read by the core's reader (none malformed). */
async function spectraOf(path: string): Promise<Spectrum[]> {
  const spectra: Spectrum[] = [];
  for await (const item of readMgf([readFileSync(path)])) {
    if (!('spectrum' in item)) throw new Error(`${path}: ${item.malformed.error}`);
    spectra.push(item.spectrum);
  }
  return spectra;
}

/** The flags as a ParamSource (`--max-variable` → maxVariable), as the command reads them. */
function sourceOf(flags: string[]) {
  const values = new Map<string, string>();
  for (let i = 0; i < flags.length; i += 2)
    values.set(
      flags[i].slice(2).replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()),
      flags[i + 1],
    );
  return (name: string) => (values.has(name) ? [values.get(name)!] : []);
}

const coreAnswers = new Map<string, Promise<PrecursorJson[]>>();

/** What the core answers for these spectra and query flags: one precursorJson per spectrum, as JSON carries it. */
function coreAnswer(path: string, flags: string[]): Promise<PrecursorJson[]> {
  const key = JSON.stringify([path, flags]);
  let answer = coreAnswers.get(key);
  if (!answer) coreAnswers.set(key, (answer = answerOf(path, flags)));
  return answer;
}

async function answerOf(path: string, flags: string[]): Promise<PrecursorJson[]> {
  const spectra = await spectraOf(path);
  const batch = await matchPrecursors(dataset, parseMatchQuery(sourceOf(flags)), spectra);
  return asJson(spectra.map((_, i) => precursorJson(batch, i)));
}

const SUMMARY =
  /^match: ([\d,]+) spectra(?: \(([\d,]+) malformed, skipped\))?, ([\d,]+) with candidates, ([\d,]+) candidates(?:, ([\d,]+) searches refused)? in \d+\.\d s, [\d,]+ spectra\/s$/;

/** The summary line's counts (it must be stderr's last line). */
function summaryOf(stderr: string): {
  spectra: number;
  malformed: number;
  withCandidates: number;
  candidates: number;
  refused: number;
} {
  const lines = stderr.split('\n');
  expect(lines.at(-1)).toBe('');
  const m = SUMMARY.exec(lines.at(-2) ?? '');
  expect(m, `summary line of ${JSON.stringify(stderr)}`).not.toBeNull();
  const n = (text: string | undefined) => (text === undefined ? 0 : Number(text.replace(/,/g, '')));
  return { spectra: n(m![1]), malformed: n(m![2]), withCandidates: n(m![3]), candidates: n(m![4]), refused: n(m![5]) };
}

/** The counts a summary should give for a JSON answer. */
function countsOf(results: PrecursorJson[]) {
  const found = results.map((r) => r.searches.reduce((n, s) => n + s.candidates.length, 0));
  return {
    spectra: results.length,
    withCandidates: found.filter((n) => n > 0).length,
    candidates: found.reduce((a, b) => a + b, 0),
    refused: results.reduce((n, r) => n + r.searches.filter((s) => s.error !== undefined).length, 0),
  };
}

/** The TSV rows a JSON answer should give, built from the format's description. */
function expectedRows(results: PrecursorJson[]): string[][] {
  const text = (value: string | number | undefined) =>
    value === undefined ? '' : String(value).replace(/[\t\r\n]/g, ' ');
  const rows: string[][] = [];
  for (const r of results) {
    for (const s of r.searches) {
      const head = [
        String(r.index),
        text(r.title),
        text(r.scans),
        text(r.rtSeconds),
        text(r.mz),
        s.charge === undefined ? '' : String(s.charge),
        ...(s.isotopeError === undefined ? [] : [String(s.isotopeError)]),
        s.mass.toFixed(6),
      ];
      if (s.candidates.length === 0) rows.push([...head, '', '', '', '', '', '', s.error ?? '']);
      for (const c of s.candidates) {
        rows.push([
          ...head,
          c.seq,
          c.proforma,
          c.mass.toFixed(6),
          String(c.ppm),
          c.accsTax.map((a) => a.acc).join(';'),
          c.accsTax.map((a) => String(a.taxId)).join(';'),
          '',
        ]);
      }
    }
  }
  return rows;
}

/** TSV output as header and rows of fields, every row as wide as the header. */
function parseTsv(
  text: string,
  columns: readonly string[] = MATCH_TSV_COLUMNS,
): { header: string[]; rows: string[][] } {
  const lines = text.split('\n');
  expect(lines.at(-1)).toBe('');
  const [header, ...rows] = lines.slice(0, -1).map((l) => l.split('\t'));
  expect(rows.filter((row) => row.length !== columns.length)).toEqual([]);
  return { header, rows };
}

describe('match: JSON is the core answer', () => {
  it('galaxyp_searchgui_smallspectra.mgf (3 charges a spectrum) and depthcharge_TMT10-Trial-8.mgf (one without CHARGE: --charges 2,3 tried)', async () => {
    for (const [path, extra] of [
      [SMALL, ['--tolerance', '20']],
      [TMT, []],
      [TMT, ['--charges', '1,4', '--tolerance', '0.05', '--unit', 'Da', '--max-variable', '1']],
    ] as [string, string[]][]) {
      const flags = [...MODS, ...extra];
      const run = await match([path, '--shards', shards, '--format', 'json', ...flags]);
      expect(run.code, run.stderr).toBe(0);
      const got = JSON.parse(run.stdout) as PrecursorJson[];
      expect(Array.isArray(got)).toBe(true);
      const expected = await coreAnswer(path, flags);
      expectSame(got, expected);
      const spectra = await spectraOf(path);
      expect(got.map((r) => r.index)).toEqual(spectra.map((_, i) => i + 1));
      // Each spectrum's searches are its own charges, or the --charges for the one without CHARGE.
      const tried = extra.includes('--charges') ? [1, 4] : [2, 3];
      for (const [i, r] of got.entries())
        expect(r.searches.map((s) => s.charge)).toEqual(spectra[i].charges.length > 0 ? spectra[i].charges : tried);
      if (path === SMALL) expect(got.every((r) => r.searches.length === 3)).toBe(true);
      else expect(got.filter((r) => r.charges?.length === 0)).toHaveLength(1);
      // Not vacuous: candidates are found, with accessions.
      const counts = countsOf(got);
      expect(counts.candidates).toBeGreaterThan(0);
      expect(got.flatMap((r) => r.searches.flatMap((s) => s.candidates)).every((c) => c.accsTax.length > 0)).toBe(true);
      // The summary line counts what was written, and stderr holds nothing else (no terminal: no bar).
      expect(summaryOf(run.stderr)).toEqual({ ...counts, malformed: 0 });
      expect(run.stderr.split('\n')).toHaveLength(2);
    }
  });

  it('--taxon and --reviewed filter as the core does', async () => {
    const flags = [...MODS, '--taxon', '2', '--reviewed', 'false', '--tolerance', '20'];
    const run = await match([SMALL, '--shards', shards, '--format', 'json', ...flags]);
    expect(run.code, run.stderr).toBe(0);
    const got = JSON.parse(run.stdout) as PrecursorJson[];
    expectSame(got, await coreAnswer(SMALL, flags));
    const all = countsOf(await coreAnswer(SMALL, [...MODS, '--tolerance', '20'])).candidates;
    expect(countsOf(got).candidates).toBeLessThan(all);
  });
});

describe('match: TSV is the JSON, row by row', () => {
  it('one row per (spectrum, search, candidate), one with empty candidate columns for a search without any, in file order', async () => {
    // TMT's spectra again, titled with text beyond ASCII (2-, 3- and 4-byte UTF-8) and a tab: rows are written as bytes.
    const unicode = join(dir, 'unicode-titles.mgf');
    let n = 0;
    writeFileSync(
      unicode,
      readFileSync(TMT, 'utf8').replace(/^TITLE=.*$/gm, () => `TITLE=Zürich µL 試料 😀\t#${++n}`),
    );
    expect(n).toBeGreaterThan(1);
    for (const path of [SMALL, TMT, unicode]) {
      const args = [path, '--shards', shards, ...MODS];
      const json = JSON.parse((await matchOnce([...args, '--format', 'json'])).stdout) as PrecursorJson[];
      const tsv = await matchOnce(args); // tsv is the default
      expect(tsv.code, tsv.stderr).toBe(0);
      const { header, rows } = parseTsv(tsv.stdout);
      expect(header).toEqual([...MATCH_TSV_COLUMNS]);
      expectSame(rows, expectedRows(json));
      const searches = json.reduce((n, r) => n + r.searches.length, 0);
      const empty = json.reduce((n, r) => n + r.searches.filter((s) => s.candidates.length === 0).length, 0);
      expect(rows).toHaveLength(countsOf(json).candidates + empty);
      expect(rows.filter((r) => r[7] === '')).toHaveLength(empty);
      if (path === TMT) expect(empty).toBeGreaterThan(0); // both kinds of row are seen
      if (path === unicode) expect(rows.map((r) => r[1])).toContain(`Zürich µL 試料 😀 #${n}`);
      expect(empty).toBeLessThan(searches);
      // File order: index non-decreasing, every spectrum present.
      const indexes = rows.map((r) => Number(r[0]));
      for (let i = 1; i < indexes.length; i++) expect(indexes[i]).toBeGreaterThanOrEqual(indexes[i - 1]);
      expect([...new Set(indexes)]).toEqual(json.map((r) => r.index));
      expect(summaryOf(tsv.stderr)).toEqual({ ...countsOf(json), malformed: 0 });
    }
  });
});

describe('match: --isotope-errors', () => {
  it('JSON is the core answer, each search with its isotope error; TSV its rows with an isotopeError column after charge', async () => {
    const flags = [...MODS, '--isotope-errors', '0,1,-1', '--charges', '2,4'];
    const args = [TMT, '--shards', shards, ...flags];
    const json = await match([...args, '--format', 'json']);
    expect(json.code, json.stderr).toBe(0);
    const got = JSON.parse(json.stdout) as PrecursorJson[];
    expectSame(got, await coreAnswer(TMT, flags));
    const spectra = await spectraOf(TMT);
    for (const [i, r] of got.entries()) {
      const charges = spectra[i].charges.length > 0 ? spectra[i].charges : [2, 4];
      expect(r.searches.map((s) => [s.charge, s.isotopeError])).toEqual(
        charges.flatMap((z) => [0, 1, -1].map((n) => [z, n])),
      );
    }
    expect(countsOf(got).candidates).toBeGreaterThan(0);
    const tsv = await match(args);
    expect(tsv.code, tsv.stderr).toBe(0);
    const { header, rows } = parseTsv(tsv.stdout, MATCH_ISOTOPE_TSV_COLUMNS);
    expect(header).toEqual([...MATCH_TSV_COLUMNS.slice(0, 6), 'isotopeError', ...MATCH_TSV_COLUMNS.slice(6)]);
    expectSame(rows, expectedRows(got));
  });
});

describe('match: --top', () => {
  it('--top 2 keeps at most 2 candidates a search, the closest ones, a subset of the full answer', async () => {
    const args = [SMALL, '--shards', shards, '--format', 'json', ...MODS, '--tolerance', '50'];
    const all = JSON.parse((await match(args)).stdout) as PrecursorJson[];
    const run = await match([...args, '--top', '2']);
    expect(run.code, run.stderr).toBe(0);
    const top = JSON.parse(run.stdout) as PrecursorJson[];
    expect(top.map((r) => r.index)).toEqual(all.map((r) => r.index));
    let cut = 0;
    for (const [i, r] of top.entries()) {
      expect(r.searches.map((s) => [s.charge, s.mass])).toEqual(all[i].searches.map((s) => [s.charge, s.mass]));
      for (const [j, s] of r.searches.entries()) {
        const full = all[i].searches[j].candidates;
        expect(s.candidates.length).toBe(Math.min(2, full.length));
        for (const c of s.candidates) if (!full.some((f) => isDeepStrictEqual(f, c))) expect(full).toContainEqual(c);
        // Kept in the full answer's order.
        const positions = s.candidates.map((c) => full.findIndex((f) => f.proforma === c.proforma && f.seq === c.seq));
        expect(positions).toEqual([...positions].sort((a, b) => a - b));
        if (full.length > 2) {
          cut++;
          const error = (c: { mass: number }) => Math.abs(c.mass - s.mass);
          const kept = Math.max(...s.candidates.map(error));
          const dropped = full.filter((f) => !s.candidates.some((c) => c.proforma === f.proforma && c.seq === f.seq));
          for (const d of dropped) expect(error(d) + 2e-6).toBeGreaterThanOrEqual(kept);
        }
      }
    }
    expect(cut).toBeGreaterThan(0); // some search had more than 2 candidates
  });
});

describe('match: input forms and batching', () => {
  it('a .mgf.gz copy, standard input (-) and any --batch give the same output as the plain file', async () => {
    const args = ['--shards', shards, ...MODS];
    const plain = await matchOnce([TMT, ...args]);
    const plainJson = await matchOnce([SMALL, ...args, '--format', 'json']);
    expect(plain.code).toBe(0);
    expect(plain.stdout.split('\n').length).toBeGreaterThan(10);

    const gz = join(dir, 'smallspectra.mgf.gz');
    writeFileSync(gz, gzipSync(readFileSync(SMALL)));
    const gzRun = await match([gz, ...args, '--format', 'json']);
    expect(gzRun.code, gzRun.stderr).toBe(0);
    expect(gzRun.stdout).toBe(plainJson.stdout);
    const gzTsv = join(dir, 'tmt.mgf.gz');
    writeFileSync(gzTsv, gzipSync(readFileSync(TMT)));
    expect((await match([gzTsv, ...args])).stdout).toBe(plain.stdout);

    // Standard input, in one chunk and in small chunks that cut lines (and CRLF-free UTF-8) anywhere.
    const bytes = readFileSync(TMT);
    const stdin = await match(['-', ...args], { stdin: Readable.from([bytes]) });
    expect(stdin.code, stdin.stderr).toBe(0);
    expect(stdin.stdout).toBe(plain.stdout);
    const pieces: Buffer[] = [];
    for (let i = 0; i < bytes.length; i += 97) pieces.push(bytes.subarray(i, i + 97));
    expect((await match(['-', ...args], { stdin: Readable.from(pieces) })).stdout).toBe(plain.stdout);

    // A file with a .gz-less name is read as is.
    const copy = join(dir, 'copy.mgf');
    copyFileSync(TMT, copy);
    expect((await match([copy, ...args])).stdout).toBe(plain.stdout);

    for (const batch of ['1', '5', '1000']) {
      const run = await match([
        SMALL,
        ...args,
        '--format',
        'json',
        '--batch',
        batch,
        '--concurrency',
        batch === '1' ? '1' : '3',
      ]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout, `--batch ${batch}`).toBe(plainJson.stdout);
      expect(summaryOf(run.stderr)).toEqual(summaryOf(plainJson.stderr));
    }
    expect((await match([TMT, ...args, '--batch', '1'])).stdout).toBe(plain.stdout);
  });
});

/** An MGF file of good and malformed records, built line by line; the line of each BEGIN IONS by record. */
function malformedFile(): { text: string; begins: number[] } {
  const lines: string[] = ['# a hand-made file', 'COM=good and bad records', ''];
  const begins: number[] = [];
  const record = (...body: string[]) => {
    lines.push('BEGIN IONS');
    begins.push(lines.length);
    lines.push(...body);
  };
  record(
    'TITLE=first\tgood one',
    'PEPMASS=650.3188 1000',
    'CHARGE=2+',
    'RTINSECONDS=12.5',
    'SCANS=7',
    '100.1 10',
    '200.2 20',
    'END IONS',
    '',
  ); // 1: good
  record('TITLE=no pepmass', 'CHARGE=2+', '100.1 10', 'END IONS'); // 2: no PEPMASS
  record('TITLE=bad charge', 'PEPMASS=700.1', 'CHARGE=11+', 'END IONS'); // 3: charge out of range
  record('TITLE=no charge', 'PEPMASS=612.3', '150 5', 'END IONS'); // 4: good, --charges tried
  record('TITLE=tiny', 'PEPMASS=0.5', 'CHARGE=3+', 'END IONS'); // 5: good record, its search refused (no positive mass)
  record('TITLE=unterminated', 'PEPMASS=600', '100 1'); // 6: no END IONS before the next BEGIN IONS
  record('TITLE=last good', 'PEPMASS=800.4', 'CHARGE=2+', 'END IONS'); // 7: good
  record('TITLE=cut off', 'PEPMASS=900', '100 1'); // 8: no END IONS before the end of the file
  return { text: lines.join('\n') + '\n', begins };
}

describe('match: malformed records', () => {
  it('are reported with the line of their BEGIN IONS and skipped; the good ones keep their ordinal; the summary counts them', async () => {
    const { text, begins } = malformedFile();
    const path = join(dir, 'mixed.mgf');
    writeFileSync(path, text);
    for (const format of ['json', 'tsv']) {
      const run = await match([path, '--shards', shards, ...MODS, '--charges', '2', '--format', format]);
      expect(run.code, run.stderr).toBe(0);
      const lines = run.stderr.split('\n');
      // Exactly the four reports, in file order, then the summary: nothing else (no bar off a terminal).
      expect(lines, run.stderr).toHaveLength(6);
      const reports = lines.slice(0, 4);
      const bad = [2, 3, 6, 8];
      for (const [k, record] of bad.entries()) {
        expect(reports[k]).toMatch(new RegExp(`^match: line ${begins[record - 1]}: .+ \\(skipped\\)$`));
      }
      expect(reports[0]).toMatch(/PEPMASS/);
      expect(reports[1]).toMatch(/CHARGE/);
      expect(reports[2]).toMatch(/END IONS/);
      expect(reports[3]).toMatch(/END IONS/);
      const summary = summaryOf(run.stderr);
      expect(summary.malformed).toBe(4);
      if (format === 'json') {
        const got = JSON.parse(run.stdout) as PrecursorJson[];
        expect(got.map((r) => r.index)).toEqual([1, 4, 5, 7]);
        expect(got.map((r) => r.line)).toEqual([1, 4, 5, 7].map((r) => begins[r - 1]));
        expect(got.map((r) => r.title)).toEqual(['first\tgood one', 'no charge', 'tiny', 'last good']);
        expect(got[0]).toMatchObject({ mz: 650.3188, intensity: 1000, charges: [2], rtSeconds: 12.5, scans: '7' });
        expect(got[1].searches.map((s) => s.charge)).toEqual([2]);
        expect(got[2].searches).toEqual([
          { charge: 3, mass: expect.any(Number), candidates: [], error: expect.stringMatching(/positive/) },
        ]);
        expect(got[2].searches[0].mass).toBeLessThan(0);
        expect(got[0].searches[0].candidates.length).toBeGreaterThan(0);
        expect(summary).toEqual({ ...countsOf(got), malformed: 4 });
        expect(summary.refused).toBe(1);
      } else {
        const { rows } = parseTsv(run.stdout);
        expect([...new Set(rows.map((r) => r[0]))]).toEqual(['1', '4', '5', '7']);
        // The title's tab becomes a space; the refused search is one row with its error.
        expect(rows.filter((r) => r[0] === '1').every((r) => r[1] === 'first good one')).toBe(true);
        expect(rows.filter((r) => r[0] === '1')[0].slice(2, 6)).toEqual(['7', '12.5', '650.3188', '2']);
        const tiny = rows.filter((r) => r[0] === '5');
        expect(tiny).toHaveLength(1);
        expect(tiny[0].slice(7, 13)).toEqual(['', '', '', '', '', '']);
        expect(tiny[0][13]).toMatch(/positive/);
      }
    }
  });

  it('malformed records between batches are reported before the output goes on (--batch 1)', async () => {
    const { text } = malformedFile();
    const path = join(dir, 'mixed-batch.mgf');
    writeFileSync(path, text);
    const one = await match([path, '--shards', shards, '--format', 'json', '--batch', '1']);
    const all = await match([path, '--shards', shards, '--format', 'json']);
    expect(one.code).toBe(0);
    expect(one.stdout).toBe(all.stdout);
    expect(one.stderr.split('\n').slice(0, 4)).toEqual(all.stderr.split('\n').slice(0, 4));
  });
});

describe('match: errors', () => {
  it('a missing file exits 1 naming it, with nothing on stdout', async () => {
    for (const format of ['tsv', 'json']) {
      const missing = join(dir, 'no-such-file.mgf');
      const run = await match([missing, '--shards', shards, '--format', format]);
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain(missing);
    }
  });

  it('a corrupt gzip, a folder or an empty file exits 1 with `query: error:`; an all-malformed file is an empty answer, exit 0', async () => {
    const corrupt = join(dir, 'corrupt.mgf.gz');
    writeFileSync(
      corrupt,
      Buffer.concat([gzipSync('BEGIN IONS\nPEPMASS=500\nEND IONS\n').subarray(0, 12), Buffer.from('junk')]),
    );
    const folder = join(dir, 'a-folder.mgf');
    mkdirSync(folder);
    const empty = join(dir, 'empty.mgf');
    writeFileSync(empty, '');
    for (const path of [corrupt, folder, empty]) {
      const run = await match([path, '--shards', shards, '--format', 'json']);
      expect(run.code, path).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(/^query: error: \S.*\n$/);
    }
    // The content decides, not the name: plain MGF text named .gz is read as it is.
    const plainGz = join(dir, 'plain.mgf.gz');
    writeFileSync(plainGz, 'BEGIN IONS\nTITLE=x\nEND IONS\n');
    const allBad = join(dir, 'all-bad.mgf');
    writeFileSync(allBad, 'BEGIN IONS\nTITLE=x\nEND IONS\n');
    for (const path of [plainGz, allBad]) {
      const json = await match([path, '--shards', shards, '--format', 'json']);
      expect(json.code).toBe(0);
      expect(JSON.parse(json.stdout)).toEqual([]);
      expect(summaryOf(json.stderr)).toEqual({
        spectra: 0,
        malformed: 1,
        withCandidates: 0,
        candidates: 0,
        refused: 0,
      });
      const tsv = await match([path, '--shards', shards]);
      expect(tsv.stdout).toBe(MATCH_TSV_COLUMNS.join('\t') + '\n');
    }
  });

  it('lists the first 20 malformed records on stderr and counts the rest in one line', async () => {
    const path = join(dir, 'many-bad.mgf');
    writeFileSync(path, Array.from({ length: 25 }, (_, i) => `BEGIN IONS\nTITLE=bad ${i}\nEND IONS\n`).join(''));
    const run = await match([path, '--shards', shards]);
    expect(run.code).toBe(0);
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines.filter((l) => /^match: line \d+: /.test(l))).toHaveLength(20);
    expect(lines).toContain('match: 5 more malformed records not listed');
    expect(summaryOf(run.stderr).malformed).toBe(25);
  });

  it('names a file that is not a peak list, whatever its name, and reads a gzipped MGF whatever its name', async () => {
    const fasta = await match([join(REPO, 'data/uniprot-sample.fasta.gz'), '--shards', shards]);
    expect([fasta.code, fasta.stdout]).toEqual([1, '']);
    expect(fasta.stderr).toMatch(
      /^query: error: \S+uniprot-sample\.fasta\.gz is not an MGF or mzML peak list: it looks like a FASTA file/,
    );
    const readme = await match([join(REPO, 'README.md'), '--shards', shards]);
    expect(readme.stderr).toMatch(
      /README\.md is not an MGF or mzML peak list: it looks like text without a BEGIN IONS line/,
    );
    const renamed = join(dir, 'spectra.dat');
    writeFileSync(renamed, gzipSync(readFileSync(TMT)));
    const plain = await match([TMT, '--shards', shards]);
    const gz = await match([renamed, '--shards', shards]);
    expect([gz.code, gz.stdout]).toEqual([0, plain.stdout]);
  });

  // A read error under gunzip (a folder here; a file without read permission for a non-root user) reaches the
  // reader as it does without .gz: run as a process, so a crash could not take the test run down with it.
  it('a read error of a .gz input is `query: error:`, exit 1, not a crash', async () => {
    const folder = join(dir, 'a-folder.mgf.gz');
    mkdirSync(folder);
    const run = await runTsx(['runtime/entries/cli/bin.ts', 'match', folder, '--shards', shards]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^query: error: EISDIR/);
  }, 30_000);

  it('a dataset folder that does not exist exits 1 with one line naming it, nothing else written', async () => {
    const missing = join(dir, 'no-such-dataset');
    for (const format of ['tsv', 'json']) {
      const run = await match([TMT, '--shards', missing, '--format', format]);
      expect([run.code, run.stdout, run.stderr]).toEqual([
        1,
        '',
        `query: error: --shards ${missing}: no such folder\n`,
      ]);
    }
  });

  it('an unknown --taxon exits 1 with the JSON error on stderr (tsv)', async () => {
    const run = await match([TMT, '--shards', shards, '--taxon', '999999999']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(JSON.parse(run.stderr)).toEqual({ error: "taxon 999999999 is not in the dataset's taxonomy" });
  });

  // An error found once the dataset is open (an unknown taxon, as /api/v1/search answers 400) follows query.ts's
  // contract too, as `v1 --taxon 999999999 --format json` does.
  it('an unknown --taxon with --format json puts the JSON error on stdout, as every other command does', async () => {
    const run = await match([TMT, '--shards', shards, '--taxon', '999999999', '--format', 'json']);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({ error: "taxon 999999999 is not in the dataset's taxonomy" });
  });

  it('refused parameters exit 1 with the JSON error naming the parameter (stdout for json, stderr for tsv)', async () => {
    for (const [flags, name] of [
      [['--tolerance=-1'], /tolerance/],
      [['--tolerance', '0'], /tolerance/],
      [['--fixed', 'Nope@C'], /fixed/],
      [['--charges', '0'], /charges/],
      [['--charges', '2,x'], /charges/],
      [['--top', '0'], /top/],
      [['--top', '1001'], /top/],
      [['--unit', 'Da'], /tolerance/],
      [['--fixed', 'Oxidation@M', '--variable', 'Oxidation@M'], /Oxidation/],
      [['--isotope-errors', 'x'], /^isotopeErrors must be whole numbers from -1 to 3/],
      [['--isotope-errors', '9'], /^isotopeErrors must be whole numbers from -1 to 3/],
    ] as [string[], RegExp][]) {
      const json = await match([TMT, '--shards', shards, '--format', 'json', ...flags]);
      expect(json.code, flags.join(' ')).toBe(1);
      const body = JSON.parse(json.stdout) as { error: string };
      expect(Object.keys(body)).toEqual(['error']);
      expect(body.error, flags.join(' ')).toMatch(name);
      const tsv = await match([TMT, '--shards', shards, ...flags]);
      expect(tsv.code).toBe(1);
      expect(tsv.stdout).toBe('');
      expect(JSON.parse(tsv.stderr)).toEqual(body);
    }
  });

  it('usage errors exit 2 with one line on stderr', async () => {
    for (const argv of [
      [TMT, '--format', 'xml'],
      [],
      [TMT, SMALL],
      [TMT, '--batch', '0'],
      [TMT, '--batch', 'x'],
      [TMT, '--concurrency', '0'],
      [TMT, '--concurrency', '65'],
      [TMT, '--bogus', '1'],
      [TMT, '--page', '2'],
    ]) {
      const run = await match([...argv, '--shards', shards]);
      expect(run.code, argv.join(' ')).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(/^query: error: [^\n]*\n$/);
    }
  });

  it('a negative tolerance is read as the value it is and refused by the parameter table (exit 1)', async () => {
    const run = await match([TMT, '--tolerance', '-1', '--shards', shards]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('{"error":"tolerance must be greater than 0, got -1"}\n');
  });
});

describe('match: progress bar', () => {
  it('is drawn on stderr only when it is a terminal and the input has a size', async () => {
    const args = [TMT, '--shards', shards, ...MODS];
    const plain = await matchOnce(args);
    expect(plain.stderr).not.toContain('match |');
    const tty = await match(args, { tty: true });
    expect(tty.code).toBe(0);
    expect(tty.stdout).toBe(plain.stdout); // the bar never goes to stdout
    expect(tty.stderr).toContain('match |');
    expect(tty.stderr).toContain('spectra/s');
    expect(tty.stderr).toMatch(/100% \| 7 spectra read, 7 matched \|/);
    expect(tty.stderr).not.toMatch(/NaN|Infinity|undefined|null|LLs/);
    expect(summaryOf(tty.stderr)).toEqual(summaryOf(plain.stderr));
    // Standard input has no size: no bar.
    const stdin = await match(['-', ...args.slice(1)], { stdin: Readable.from([readFileSync(TMT)]), tty: true });
    expect(stdin.stdout).toBe(plain.stdout);
    expect(stdin.stderr).not.toContain('match |');
  });

  it('counts spectra as they are read and matched, frame by frame, with a rate and an ETA once they are known', async () => {
    // A slow reader of the output (each 64 KB chunk waits for it) spreads the run over many frames whatever the
    // machine's speed; the bar counts spectra, so the search needs no modifications.
    const run = await match([join(MGF, 'mpa_Test1000Ecoli.mgf'), '--shards', shards, '--batch', '50'], {
      tty: true,
      stdout: new Collector({ highWaterMark: 1, delayMs: 30 }),
    });
    expect(run.code).toBe(0);
    const frames = [
      // Each frame ends at the terminal's next escape sequence: cut there into lines.
      ...run.stderr
        .split(String.fromCharCode(27))
        .join('\n')
        .matchAll(
          /(\d+)% \| ([\d,]+) spectra read, ([\d,]+) matched \| (\S+) spectra\/s \| ETA (…|<1s|\d+s|\d+m \d{2}s|\d+h \d{2}m)$/gm,
        ),
    ].map((m) => ({
      percent: Number(m[1]),
      read: Number(m[2].replace(/,/g, '')),
      matched: Number(m[3].replace(/,/g, '')),
      rate: m[4],
      eta: m[5],
    }));
    expect(frames.length).toBeGreaterThan(2);
    expect(frames.at(-1)).toMatchObject({ percent: 100, read: 1000, matched: 1000 });
    // Spectra are counted as they complete, not all at the end; never more matched than read; never backwards.
    expect(frames.some((f) => f.matched > 0 && f.matched < 1000)).toBe(true);
    for (const [i, f] of frames.entries()) {
      expect(f.matched).toBeLessThanOrEqual(f.read);
      if (i > 0) expect([f.read >= frames[i - 1].read, f.matched >= frames[i - 1].matched]).toEqual([true, true]);
      expect(f.rate).toMatch(/^(…|[\d,]+)$/);
    }
    expect(run.stderr).not.toMatch(/NaN|Infinity|undefined|null|LLs/);
    expect(run.stderr).toMatch(/\nmatch: 1,000 spectra, \d+ with candidates/);
  });
});

describe('match: over HTTP (--shards <url>)', () => {
  it('gives the same JSON as the folder', async () => {
    const server = await listen(staticFiles(shards, '/'));
    try {
      for (const path of [SMALL, TMT]) {
        const folder = await matchOnce([path, '--shards', shards, ...MODS, '--format', 'json']);
        const http = await match([path, '--shards', `${server.base}/`, ...MODS, '--format', 'json']);
        expect(http.code, http.stderr).toBe(0);
        expect(http.stdout).toBe(folder.stdout);
        expect(JSON.parse(http.stdout).length).toBeGreaterThan(0);
      }
    } finally {
      await server.close();
    }
  });
});

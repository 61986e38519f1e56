// The sequence table end to end (build --sequences: builder/inputs/headerRuns.ts, builder/phases/rankPhase.ts,
// builder/writers/sequenceTable.ts): on a real FASTA (records of the bundled sample) plus a second file repeating two
// of its accessions and adding one, the table read back with zlib and JSON by this file's own reader (the FASTA parsed
// here too) holds every accession, in byte order, with exactly the residues of its first record; its pages and inner
// pages are named by content and sum up what they list, the default pages hold 256 accessions; the command's flag
// builds the same table; without the flag the dataset has no table and is otherwise the same files; the format spec's
// Python reader finds the same sequences.
import { spawnSync, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildShards } from '../../../builder/commands/buildShards.js';
import type { ProteinPageEntry } from '../../../runtime/model/format.js';
import { sequencePageViolation } from '../../../runtime/model/indexTree.js';
import {
  build,
  readManifest,
  readProteinTable,
  removeTempDirs,
  sampleRecords,
  tempDir,
  writeFixture,
} from '../../helpers/datasets.js';
import { runEntryInProcess } from '../../helpers/builderTestEntry.js';
import { REPO } from '../../helpers/process.js';
import { expectSameFolder } from '../../helpers/folders.js';

afterAll(removeTempDirs);

/** Accession → residues of its first record, from FASTA files read in the order given (the build sorts by path). */
function firstRecords(files: readonly string[]): Map<string, string> {
  const first = new Map<string, string>();
  for (const file of files) {
    for (const record of readFileSync(file, 'latin1').split(/^>/m).slice(1)) {
      const [header, ...lines] = record.split('\n');
      const accession = /^(?:sp|tr)\|([^|]+)\|/.exec(header)?.[1] ?? header.split(/\s/)[0];
      const residues = lines.join('').replace(/\s/g, '').replace(/\*$/, '').toUpperCase();
      if (!first.has(accession)) first.set(accession, residues);
    }
  }
  return first;
}

/** Byte order of UTF-8 text (the format's order of accessions). */
const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** A stored file: checked against its entry (size, sha256, name by content), then gunzipped and parsed. */
function readPage(dir: string, entry: ProteinPageEntry, prefix: string): Record<string, unknown> {
  const stored = readFileSync(join(dir, entry.file));
  const sha256 = createHash('sha256').update(stored).digest('hex');
  expect(entry.file).toBe(`${prefix}${sha256.slice(0, 20)}.json.gz`);
  expect([stored.length, sha256]).toEqual([entry.bytes, entry.sha256]);
  return JSON.parse(gunzipSync(stored).toString('utf8')) as Record<string, unknown>;
}

/**
 * The sequence table of dataset `dir`, walked from the manifest down its inner pages, each page checked against the
 * entry pointing at it; returns the leaves' columns concatenated, the files read, and the leaves' entries.
 */
function readSequenceTable(dir: string) {
  const root = readManifest(dir).sequences!;
  const files: string[] = [];
  const leaves: ProteinPageEntry[] = [];
  const table = { accessions: [] as string[], sequences: [] as string[] };
  const walk = (entries: ProteinPageEntry[], levels: number) => {
    for (const entry of entries) {
      files.push(entry.file);
      expect(entry.accessions).toBeGreaterThan(0);
      if (levels > 1) {
        const page = readPage(dir, entry, 'sequences-index-') as { formatVersion: number; pages: ProteinPageEntry[] };
        expect(Object.keys(page).sort()).toEqual(['formatVersion', 'pages']);
        expect(page.formatVersion).toBe(3);
        expect(page.pages[0].firstAccession).toBe(entry.firstAccession);
        expect(page.pages.at(-1)!.lastAccession).toBe(entry.lastAccession);
        expect(page.pages.reduce((sum, p) => sum + p.accessions, 0)).toBe(entry.accessions);
        walk(page.pages, levels - 1);
        continue;
      }
      const page = readPage(dir, entry, 'sequences-') as {
        formatVersion: number;
        accessions: string[];
        sequences: string[];
      };
      expect(Object.keys(page).sort()).toEqual(['accessions', 'formatVersion', 'sequences']);
      expect(page.formatVersion).toBe(3);
      expect(page.accessions).toHaveLength(entry.accessions);
      expect([page.accessions[0], page.accessions.at(-1)]).toEqual([entry.firstAccession, entry.lastAccession]);
      expect(sequencePageViolation(page, entry)).toBeNull();
      leaves.push(entry);
      table.accessions.push(...page.accessions);
      table.sequences.push(...page.sequences);
    }
  };
  walk(root.pages, root.levels ?? 1);
  return { root, files, leaves, table };
}

const sequenceFiles = (dir: string) => readdirSync(dir).filter((f) => f.startsWith('sequences-'));

/** The first records' residues of the inputs, by accession. */
let expected: Map<string, string>;
/** Built with --sequences and pages of 2 accessions: a tree of two levels. */
let tiny: string;

// Records 0–299 of the bundled sample (and one repeating an accession), then a file repeating two and adding one.
beforeAll(async () => {
  const root = tempDir('sequences');
  const sample = sampleRecords(300);
  const first = /^>(?:sp|tr)\|([^|]+)\|/gm;
  const [, a] = first.exec(sample)!;
  for (let k = 0; k < 150; k++) first.exec(sample);
  const [, b] = first.exec(sample)!;
  // Records of accessions the sample already has (their own residues lose) and a new one, written as the FASTA
  // reader takes them: lower case, lines of any length, a trailing '*'.
  const extra = [
    `>sp|${a}|AGAIN_HUMAN Not the first record OS=Homo sapiens OX=9606`,
    'MKKKKKKKKK',
    `>tr|${b}|AGAIN2 Not the first either OS=Homo sapiens OX=9606`,
    'MPEPTIDEKR',
    'MPEPTIDEKR',
    '>tr|Z9ZZZ9|NEW_ONE A protein of this file only OS=Homo sapiens OX=9606',
    'mkwvtfisll flfssaysrg',
    'vfrrdthkse iahrfkdlge*',
    '',
  ].join('\n');
  // The sample's records end with one repeating its accession `a` too: within a file, the first record wins as well.
  const withRepeat = `${sample}>sp|${a}|REPEAT_HUMAN Within the file OS=Homo sapiens OX=9606\nMSTRAYLATER\n`;
  const inputs = [writeFixture(root, 'a-sample.fasta', withRepeat), writeFixture(root, 'b-extra.fasta', extra)];
  expected = firstRecords(inputs);
  expect(expected.get('Z9ZZZ9')).toBe('MKWVTFISLLFLFSSAYSRGVFRRDTHKSEIAHRFKDLGE');
  expect(expected.get(a)).not.toMatch(/^MKKK|^MSTRAY/);
  tiny = join(root, 'tiny');
  await build(inputs, tiny, { sequences: true, sequencePageAccessions: 2 });
}, 60_000);

describe('build --sequences', () => {
  it('holds every accession, in byte order, with exactly the residues of its first record', () => {
    const { table } = readSequenceTable(tiny);
    const accessions = [...expected.keys()].sort(byBytes);
    expect(accessions).toHaveLength(301);
    expect(table.accessions).toEqual(accessions);
    expect(table.sequences).toEqual(accessions.map((acc) => expected.get(acc)));
    // The same accessions as the protein table, which the same first records name.
    expect(table.accessions).toEqual(readProteinTable(tiny).accessions);
    expect(readManifest(tiny).totals.duplicateAccessions).toBe(2);
  });

  it('writes a tree of pages past the root limit: inner pages sum up their pages; the folder holds those files only', () => {
    const manifest = readManifest(tiny);
    const { root, files, leaves } = readSequenceTable(tiny);
    expect(root.levels).toBe(2);
    expect(leaves).toHaveLength(151);
    expect(leaves.map((e) => e.accessions)).toEqual([...Array(150).fill(2), 1]);
    expect(files.filter((f) => f.startsWith('sequences-index-')).length).toBeGreaterThan(0);
    expect(sequenceFiles(tiny).sort()).toEqual([...files].sort());
    // Listed after the protein table in the manifest.
    const keys = Object.keys(manifest);
    expect(keys.indexOf('sequences')).toBe(keys.indexOf('proteins') + 1);
  });
});

describe('the command line, the default pages, and a build without --sequences', () => {
  const entry = (args: string[]) => runEntryInProcess(() => import('../../../builder/commands/cli.js'), args);
  let input: string;
  let withFlag: string;
  let without: string;
  beforeAll(async () => {
    const root = tempDir('sequences-cli');
    [withFlag, without] = [join(root, 'with'), join(root, 'without')];
    input = writeFixture(root, 'sample.fasta', sampleRecords(600));
    const run = await entry(['--input', input, '--out', withFlag, '--threads', '0', '--sequences']);
    expect(run.code, run.stderr).toBe(0);
    await build([input], without);
  }, 60_000);

  it('--sequences writes pages of 256 accessions (the last fewer) under the manifest, with the FASTA’s residues', () => {
    const { root, table } = readSequenceTable(withFlag);
    expect(root.levels).toBeUndefined();
    expect(root.pages.map((e) => e.accessions)).toEqual([256, 256, 88]);
    const fasta = firstRecords([input]);
    expect(table.sequences).toEqual(table.accessions.map((acc) => fasta.get(acc)));
  });

  it('--help names the flag', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      await buildShards(['--help'], () => {});
      const usage = log.mock.calls.flat().join('\n');
      expect(usage).toMatch(/\[--sequences\]/);
      expect(usage).toMatch(/--sequences +also write the sequence table/);
    } finally {
      log.mockRestore();
    }
  });

  it('without the flag: no sequences in the manifest, no sequence file, every other file the same', () => {
    const manifest = readManifest(without);
    expect(manifest.sequences).toBeUndefined();
    expect(sequenceFiles(without)).toEqual([]);
    const { sequences, datasetVersion, ...rest } = readManifest(withFlag);
    const { datasetVersion: version, ...others } = manifest;
    expect(sequences).toBeDefined();
    expect(datasetVersion).not.toBe(version); // equal versions hold equal data
    expect(rest).toEqual(others);
    for (const file of sequenceFiles(withFlag)) rmSync(join(withFlag, file));
    rmSync(join(withFlag, 'manifest.json'));
    rmSync(join(without, 'manifest.json'));
    expectSameFolder(withFlag, without);
  });
});

const python = (module: string) =>
  spawnSync('/usr/bin/python3', ['-c', `import ${module}`], { stdio: 'ignore' }).status === 0;

describe("the format spec's Python reader", () => {
  it.runIf(python('msgpack'))(
    'finds each accession’s sequence through the inner pages, and none for others (python3-msgpack)',
    () => {
      const script = /```python\n([\s\S]*?)```/.exec(readFileSync(join(REPO, 'docs/format.md'), 'utf8'))![1];
      const accessions = [...expected.keys()].sort(byBytes).filter((_, i) => i % 7 === 0);
      const asked = [...accessions, '0', 'ZZZZZZZZZZ', `${accessions[2]}0`];
      const lookups = `\nimport sys\nfor acc in sys.argv[1:]:\n    print("sequence", acc, json.dumps(sequence(acc)))\n`;
      const output = execFileSync('/usr/bin/python3', ['-c', script + lookups, ...asked], {
        cwd: tiny,
        encoding: 'utf8',
        maxBuffer: 1 << 26,
      });
      const found = output
        .split('\n')
        .filter((line) => line.startsWith('sequence '))
        .map((line) => JSON.parse(line.split(' ')[2]) as string | null);
      expect(found).toEqual([...accessions.map((acc) => expected.get(acc)), null, null, null]);
    },
  );
});

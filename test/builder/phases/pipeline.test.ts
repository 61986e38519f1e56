// The build pipeline (builder/phases/pipeline.ts) on small inputs: digest parameters end to end (enzymes, missed
// cleavages, lengths, semi- and non-specific cleavage, Met clipping and protein starts), shard cutting and the
// tiling invariant, atomic publication (a failed build leaves the previous dataset byte-identical), and the
// command line (builder/commands/cli.ts: a bad flag, a truncated input and a successful run in a child process, the
// other cases through its entry in this process).
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BuildError } from '../../../builder/errors.js';
import { tilingViolation, type IndexPage, type ShardEntry } from '../../../runtime/model/format.js';
import {
  build,
  type ReadBack,
  readDataset,
  removeTempDirs,
  SAMPLE_FASTA,
  sampleRecords,
  shardEntries,
  snapshot,
  tempDir,
  writeFixture,
} from '../../helpers/datasets.js';
import { runTsx } from '../../helpers/process.js';
import { runEntryInProcess } from '../../helpers/builderTestEntry.js';
import { cutLetters } from '../../helpers/letters.js';
import {
  REFERENCE_AT_START,
  REFERENCE_ENZYMES,
  REFERENCE_INSIDE,
  referenceDataset,
  referenceFasta,
  referencePeptides,
} from '../../helpers/reference.js';
import { expectSameFolder, folderDifferences } from '../../helpers/folders.js';

let slice: string;
beforeAll(() => {
  slice = sampleRecords(150);
});
afterAll(removeTempDirs);

describe('tilingViolation', () => {
  const shard = (firstKey: number, lastKey: number, massGroups = 1, peptides = massGroups): ShardEntry => ({
    file: `${firstKey}.msgpack`,
    firstKey,
    lastKey,
    massGroups,
    peptides,
    bytes: 1,
    sha256: '0'.repeat(64),
  });

  it('accepts ascending, non-overlapping shards', () => {
    expect(tilingViolation([])).toBeNull();
    expect(tilingViolation([shard(5, 5)])).toBeNull();
    expect(tilingViolation([shard(1, 10, 3, 7), shard(11, 11), shard(20, 30, 2, 2)])).toBeNull();
  });

  it('catches overlapping shards', () => {
    expect(tilingViolation([shard(1, 10, 2), shard(10, 20, 2)])).toMatch(/shard 1/);
    expect(tilingViolation([shard(1, 10, 2), shard(5, 20, 2)])).toMatch(/shard 1/);
    expect(tilingViolation([shard(1, 2, 2), shard(3, 4, 2), shard(0, 50, 2)])).toMatch(/shard 2/);
  });

  it('catches unordered shards', () => {
    expect(tilingViolation([shard(20, 30, 2), shard(1, 10, 2)])).not.toBeNull();
    expect(tilingViolation([shard(1, 2, 2), shard(40, 50, 2), shard(10, 20, 2)])).toMatch(/shard 2/);
  });

  it('catches firstKey > lastKey', () => {
    expect(tilingViolation([shard(10, 9)])).toMatch(/shard 0/);
    expect(tilingViolation([shard(1, 2, 2), shard(30, 20, 2)])).toMatch(/shard 1/);
  });

  it('catches shards without groups, or with fewer peptides than groups', () => {
    expect(tilingViolation([shard(1, 2, 0, 0)])).not.toBeNull();
    expect(tilingViolation([shard(1, 2, 3, 2)])).not.toBeNull();
  });

  it('accepts every random tiling and rejects it once one boundary is moved onto or below its neighbour', () => {
    const tiling = fc.array(fc.tuple(fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 0, max: 1000 })), {
      minLength: 2,
      maxLength: 30,
    });
    fc.assert(
      fc.property(tiling, fc.nat(), fc.nat(), (widths, pick, shift) => {
        let key = 0;
        const shards = widths.map(([gap, width]) => {
          const first = key + gap;
          key = first + width;
          return shard(first, key, 1 + (width % 5), 1 + (width % 5) + (gap % 3));
        });
        expect(tilingViolation(shards)).toBeNull();
        const i = 1 + (pick % (shards.length - 1));
        const broken = shards.map((s) => ({ ...s }));
        broken[i].firstKey = broken[i - 1].lastKey - (shift % 3);
        broken[i].lastKey = Math.max(broken[i].lastKey, broken[i].firstKey);
        expect(tilingViolation(broken)).not.toBeNull();
      }),
    );
  });
});

describe('digest parameters end to end (150 proteins of the sample)', () => {
  const full = { specificity: 'full' as const, clipMet: false };
  const cases = [
    { enzyme: 'trypsin', missedCleavages: 0, minLength: 6, maxLength: 50, ...full },
    { enzyme: 'trypsin/p', missedCleavages: 1, minLength: 4, maxLength: 30, ...full },
    { enzyme: 'lys-c', missedCleavages: 2, minLength: 7, maxLength: 40, ...full },
    { enzyme: 'chymotrypsin', missedCleavages: 3, minLength: 5, maxLength: 25, ...full },
    { enzyme: 'trypsin', missedCleavages: 3, minLength: 1, maxLength: 8, ...full },
  ];
  for (const parameters of cases) {
    const label = `${parameters.enzyme}, ${parameters.missedCleavages} missed, ${parameters.minLength}..${parameters.maxLength}`;
    it(`${label}: the dataset is exactly the reference digestion`, async () => {
      const dir = tempDir('params');
      const input = writeFixture(dir, 'slice.fasta', slice);
      const out = join(dir, 'out');
      const manifest = await build([input], out, { ...parameters, shardBytes: 20_000 });
      const { peptides, repeated, shards } = readDataset(out);
      const expected = referenceDataset(
        referenceFasta(readFileSync(input)),
        parameters.enzyme,
        parameters.missedCleavages,
        parameters.minLength,
        parameters.maxLength,
      );
      expect(repeated).toEqual([]);
      expect(peptides.size).toBe(expected.size);
      expect(peptides).toEqual(expected);
      expect(manifest.parameters).toEqual({ ...parameters, shardBytes: 20_000 });
      expect(manifest.totals.proteins).toBe(150);
      expect(shards.length).toBeGreaterThan(1);
      expect(tilingViolation(shardEntries(out))).toBeNull();
    });
  }
});

describe('semi-specific with Met clipping, and non-specific, end to end (a few proteins of the sample)', () => {
  const cases = [
    {
      records: 40,
      parameters: { enzyme: 'glu-c', missedCleavages: 1, minLength: 6, maxLength: 20, specificity: 'semi' as const },
      clipMet: true,
    },
    {
      records: 12,
      parameters: { enzyme: 'trypsin', missedCleavages: 0, minLength: 7, maxLength: 10, specificity: 'none' as const },
      clipMet: false,
    },
  ];

  /** `peptide accession inside` for each reference that starts its protein (inside: it also lies elsewhere in it). */
  function storedStarts(shards: ReadBack['shards']): Set<string> {
    const starts = new Set<string>();
    for (const { shard } of shards) {
      const accession = (a: number) =>
        shard.accessions.slice(a === 0 ? 0 : shard.accessionEnds[a - 1], shard.accessionEnds[a]);
      for (let p = 0, i = 0; p < shard.accessionRefEnds.length; p++) {
        const sequence = cutLetters(shard.sequences, shard.sequenceEnds, p);
        for (; i < shard.startRefs!.length && shard.startRefs![i] < shard.accessionRefEnds[p]; i++)
          starts.add(`${sequence} ${accession(shard.accessionRefs[shard.startRefs![i]])} ${shard.startRefsInside![i]}`);
      }
    }
    return starts;
  }

  for (const { records, parameters, clipMet } of cases) {
    const { enzyme, missedCleavages, minLength, maxLength, specificity } = parameters;
    const label = `${enzyme}, ${specificity}${clipMet ? ', Met clipped' : ''}, ${missedCleavages} missed, ${minLength}..${maxLength}`;
    it(`${label}: the peptides, their accessions and the proteins they start are the reference's`, async () => {
      const dir = tempDir('specificity');
      const input = writeFixture(dir, 'slice.fasta', sampleRecords(records));
      const out = join(dir, 'out');
      const manifest = await build([input], out, { ...parameters, clipMet, shardBytes: 20_000 });
      const { peptides, repeated, shards } = readDataset(out);
      const proteins = referenceFasta(readFileSync(input));
      const options = { specificity, clipMet };
      expect(repeated).toEqual([]);
      expect(peptides).toEqual(referenceDataset(proteins, enzyme, missedCleavages, minLength, maxLength, options));
      const starts = new Set<string>();
      for (const { accession, sequence } of proteins) {
        const places = referencePeptides(
          sequence,
          REFERENCE_ENZYMES[enzyme],
          missedCleavages,
          minLength,
          maxLength,
          options,
        );
        for (const [peptide, place] of places)
          if (place & REFERENCE_AT_START) starts.add(`${peptide} ${accession} ${place & REFERENCE_INSIDE ? 1 : 0}`);
      }
      const stored = storedStarts(shards);
      expect([...stored].filter((s) => !starts.has(s))).toEqual([]);
      expect(stored.size).toBe(starts.size);
      expect(stored.size).toBeGreaterThan(records);
      // With the Met clipped, most proteins' peptides from their second residue start them.
      const fromSecond = proteins.filter(({ accession, sequence }) =>
        [...stored].some((s) => s.startsWith(`${sequence.slice(1, 1 + minLength)} ${accession} `)),
      );
      expect(fromSecond.length > records / 2).toBe(clipMet);
      expect(manifest.parameters).toEqual({ ...parameters, clipMet, shardBytes: 20_000 });
      expect(manifest.totals.proteins).toBe(records);
      expect(tilingViolation(shardEntries(out))).toBeNull();
    });
  }
});

/** A shard's file name (accession tables are msgpack files too). */
const SHARD_FILE = /^[0-9a-f]{20}\.msgpack\.gz$/;

describe('shard cutting', () => {
  it('never splits a mass group; tiny shards hold one group each and the same data', async () => {
    const dir = tempDir('cut');
    // 5 records: ~700 mass groups, a few of them with more than one peptide.
    const input = writeFixture(dir, 'slice.fasta', sampleRecords(5));
    const big = readDataset((await build([input], join(dir, 'big'), { shardBytes: 1 << 30 }), join(dir, 'big')));
    const tiny = readDataset((await build([input], join(dir, 'tiny'), { shardBytes: 1 }), join(dir, 'tiny')));
    expect(big.shards).toHaveLength(1);
    expect(tiny.peptides).toEqual(big.peptides);
    const groups = new Set([...big.peptides.values()].map((p) => p.key)).size;
    expect(groups).toBeLessThan(big.peptides.size);
    expect(tiny.shards).toHaveLength(groups);
    for (const { shard, entry } of tiny.shards) {
      expect(shard.massKeys).toHaveLength(1);
      expect(entry.massGroups).toBe(1);
    }
    expect(tilingViolation(tiny.shards.map((s) => s.entry))).toBeNull();
    expect(tiny.manifest.totals).toEqual({ ...big.manifest.totals, shards: groups, bytes: tiny.manifest.totals.bytes });
  });

  it('past 128 shards the manifest lists compressed index pages that concatenate to the shard list', async () => {
    const dir = tempDir('pages');
    // 5 records: ~700 shards of one group each, three index pages.
    const input = writeFixture(dir, 'slice.fasta', sampleRecords(5));
    const flat = readDataset((await build([input], join(dir, 'flat')), join(dir, 'flat')));
    const out = join(dir, 'paged');
    const manifest = await build([input], out, { shardBytes: 1 });
    expect(manifest.shards).toBeUndefined();
    const pages = manifest.shardIndex!.pages;
    const entries: ShardEntry[] = [];
    for (const [i, page] of pages.entries()) {
      const bytes = readFileSync(join(out, page.file));
      const content = JSON.parse(gunzipSync(bytes).toString('utf8')) as IndexPage;
      expect(page.bytes).toBe(bytes.length);
      expect(content.firstShard).toBe(entries.length);
      expect(page.firstShard).toBe(entries.length);
      expect(page.shards).toBe(content.shards.length);
      expect(page.firstKey).toBe(content.shards[0].firstKey);
      expect(page.lastKey).toBe(content.shards[content.shards.length - 1].lastKey);
      expect(page.massGroups).toBe(content.shards.reduce((sum, s) => sum + s.massGroups, 0));
      expect(page.peptides).toBe(content.shards.reduce((sum, s) => sum + s.peptides, 0));
      if (i > 0) expect(pages[i - 1].lastKey).toBeLessThan(page.firstKey);
      entries.push(...content.shards);
    }
    expect(entries.length).toBeGreaterThan(128);
    expect(pages.length).toBeGreaterThan(1);
    expect(entries.length).toBe(manifest.totals.shards);
    expect(tilingViolation(entries)).toBeNull();
    const paged = readDataset(out);
    expect(paged.peptides).toEqual(flat.peptides);
    expect(
      readdirSync(out)
        .filter((f) => SHARD_FILE.test(f))
        .sort(),
    ).toEqual(entries.map((e) => e.file).sort());
  });
});

describe('publication', () => {
  let built: Promise<string> | undefined;
  /** A dataset in `out` built from the slice (built once, copied for each test), and a snapshot of every file. */
  async function published(dir: string) {
    const out = join(dir, 'out');
    const input = writeFixture(dir, 'good.fasta', slice);
    built ??= (async () => {
      const first = tempDir('published');
      await build([writeFixture(first, 'good.fasta', slice)], join(first, 'out'), { shardBytes: 50_000 });
      return join(first, 'out');
    })();
    cpSync(await built, out, { recursive: true });
    const before = snapshot(out);
    expect(before.has('manifest.json')).toBe(true);
    expect([...before.keys()].filter((f) => SHARD_FILE.test(f)).length).toBeGreaterThan(2);
    return { out, input, before };
  }

  const unchanged = (out: string, before: Map<string, Buffer | null>) => {
    expect(folderDifferences(snapshot(out), before)).toEqual([]);
    expect(readdirSync(out).filter((f) => f.startsWith('.build-'))).toEqual([]);
  };

  it('a build failing on a truncated gzip (after a good file, in worker threads) leaves the dataset byte-identical', async () => {
    const dir = tempDir('keep-trunc');
    const { out, input, before } = await published(dir);
    const gz = gzipSync(Buffer.from(slice.repeat(3), 'latin1'));
    writeFixture(dir, 'z-cut.fasta.gz', gz.subarray(0, gz.length - 5000));
    await expect(
      build([join(dir, '*.fasta'), join(dir, '*.fasta.gz')], out, { threads: 2, shardBytes: 50_000 }),
    ).rejects.toThrow(/truncated or corrupt gzip/);
    unchanged(out, before);
    // The good input alone still builds the same dataset.
    await build([input], out, { shardBytes: 50_000 });
    unchanged(out, before);
  });

  it('a build failing on an invalid FASTA file leaves the dataset byte-identical', async () => {
    const dir = tempDir('keep-invalid');
    const { out, input, before } = await published(dir);
    const binary = writeFixture(dir, 'zz.fasta', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0, 0, 0]));
    await expect(build([input, binary], out, { shardBytes: 50_000 })).rejects.toThrow(BuildError);
    unchanged(out, before);
  });

  it('a build failing on a glob matching nothing, or a bad taxonomy file, leaves the dataset byte-identical', async () => {
    const dir = tempDir('keep-other');
    const { out, input, before } = await published(dir);
    await expect(build([input, join(dir, 'none-*.fa')], out)).rejects.toThrow(BuildError);
    unchanged(out, before);
    await expect(build([input], out, { taxonomy: writeFixture(dir, 'tax.tsv', 'P1 9606\n') })).rejects.toThrow(
      BuildError,
    );
    unchanged(out, before);
    await expect(build([input], out, { taxonomy: join(dir, 'missing.tsv') })).rejects.toThrow(BuildError);
    unchanged(out, before);
  });

  it('removes temporary folders of dead builds', async () => {
    const dir = tempDir('stale');
    const out = join(dir, 'out');
    mkdirSync(join(out, '.build-999999999-abc', 'partitions'), { recursive: true });
    writeFileSync(join(out, '.build-999999999-abc', 'partitions', 'w0-1.bin'), 'x');
    await build([writeFixture(dir, 'a.fasta', sampleRecords(5))], out);
    expect(readdirSync(out).filter((f) => f.startsWith('.build-'))).toEqual([]);
  });

  it('a new build replaces the manifest, keeps the previous generation of shards, removes older ones', async () => {
    const dir = tempDir('generations');
    const out = join(dir, 'out');
    const shardsOf = () => shardEntries(out).map((s) => s.file);
    await build([writeFixture(dir, 'a.fasta', sampleRecords(20, 0))], out, { shardBytes: 20_000 });
    const a = shardsOf();
    await build([writeFixture(dir, 'b.fasta', sampleRecords(20, 20))], out, { shardBytes: 20_000 });
    const b = shardsOf();
    await build([writeFixture(dir, 'c.fasta', sampleRecords(20, 40))], out, { shardBytes: 20_000 });
    const c = shardsOf();
    expect(new Set([...a, ...b]).size).toBe(a.length + b.length);
    const onDisk = readdirSync(out)
      .filter((f) => SHARD_FILE.test(f))
      .sort();
    expect(onDisk).toEqual([...new Set([...b, ...c])].sort());
    // The published dataset is C's, complete.
    const { peptides } = readDataset(out);
    expect(peptides).toEqual(
      referenceDataset(referenceFasta(Buffer.from(sampleRecords(20, 40), 'latin1')), 'trypsin', 2, 6, 50),
    );
  });
});

describe('command line', () => {
  /** build:shards in a child process. */
  const cli = (args: string[]) => runTsx(['builder/commands/cli.ts', ...args]);
  /** build:shards's entry in this process. */
  const entry = (args: string[]) => runEntryInProcess(() => import('../../../builder/commands/cli.js'), args);

  const failsWithOneLine = async (args: string[], message: RegExp, run = entry) => {
    const { code, stdout, stderr } = await run(args);
    expect(code).not.toBe(0);
    expect(code).not.toBeNull();
    expect(stdout).toBe('');
    const lines = stderr.split('\n');
    expect(lines.at(-1)).toBe('');
    expect(lines.slice(0, -1), stderr).toHaveLength(1);
    expect(stderr).toMatch(/^build:shards: error: /);
    expect(stderr).toMatch(message);
    expect(stderr).not.toMatch(/\n\s+at |Error:|\.ts:\d+/);
  };

  it('a bad flag: non-zero exit, one line on stderr', async () => {
    const dir = tempDir('cli-flag');
    await failsWithOneLine(['--bogus', '--input', SAMPLE_FASTA, '--out', join(dir, 'out')], /--bogus/, cli);
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });

  it('missing --input: non-zero exit, one line on stderr', async () => {
    const dir = tempDir('cli-noinput');
    await failsWithOneLine(['--out', join(dir, 'out')], /--input/);
    expect(existsSync(join(dir, 'out', 'manifest.json'))).toBe(false);
  });

  it('a glob matching nothing: non-zero exit, one line on stderr', async () => {
    const dir = tempDir('cli-noglob');
    await failsWithOneLine(['--input', join(dir, 'nothing-*.fasta'), '--out', join(dir, 'out')], /matches no file/);
    expect(existsSync(join(dir, 'out', 'manifest.json'))).toBe(false);
  });

  it('a bad number, an unknown enzyme or specificity: non-zero exit, one line on stderr', async () => {
    const dir = tempDir('cli-values');
    const input = writeFixture(dir, 'a.fasta', sampleRecords(3));
    await failsWithOneLine(
      ['--input', input, '--out', join(dir, 'out'), '--missed-cleavages', 'two'],
      /missed-cleavages/,
    );
    await failsWithOneLine(['--input', input, '--out', join(dir, 'out'), '--enzyme', 'pepsin'], /pepsin/);
    await failsWithOneLine(['--input', input, '--out', join(dir, 'out'), '--max-length', '3'], /max-length/);
    await failsWithOneLine(['--input', input, '--out', join(dir, 'out'), '--specificity', 'half'], /specificity/);
    expect(existsSync(join(dir, 'out', 'manifest.json'))).toBe(false);
  });

  it('a truncated gzip: non-zero exit, one line on stderr, nothing published', async () => {
    const dir = tempDir('cli-trunc');
    const gz = gzipSync(Buffer.from(slice, 'latin1'));
    const input = writeFixture(dir, 'cut.fasta.gz', gz.subarray(0, gz.length >> 1));
    await failsWithOneLine(['--input', input, '--out', join(dir, 'out')], /truncated or corrupt gzip/, cli);
    expect(existsSync(join(dir, 'out', 'manifest.json'))).toBe(false);
  });

  it('a successful run exits 0 and writes the same dataset as buildDataset', async () => {
    const dir = tempDir('cli-ok');
    const input = writeFixture(dir, 'a.fasta.gz', slice, true);
    const args = [
      '--enzyme',
      'lys-c',
      '--missed-cleavages',
      '1',
      '--min-length',
      '5',
      '--max-length',
      '30',
      '--shard-bytes',
      '30000',
    ];
    const { code, stdout } = await cli(['--input', input, '--out', join(dir, 'cli'), ...args, '--threads', '2']);
    expect(code).toBe(0);
    expect(stdout).toBe('');
    await build([input], join(dir, 'api'), {
      enzyme: 'lys-c',
      missedCleavages: 1,
      minLength: 5,
      maxLength: 30,
      shardBytes: 30_000,
    });
    expectSameFolder(join(dir, 'cli'), join(dir, 'api'));
    expect(readDataset(join(dir, 'cli')).manifest.parameters).toEqual({
      enzyme: 'lys-c',
      missedCleavages: 1,
      minLength: 5,
      maxLength: 30,
      specificity: 'full',
      clipMet: false,
      shardBytes: 30_000,
    });
  });

  it('--specificity and --clip-met: the same dataset as buildDataset with them', async () => {
    const dir = tempDir('cli-semi');
    const input = writeFixture(dir, 'a.fasta', sampleRecords(10));
    const args = ['--enzyme', 'asp-n', '--specificity', 'semi', '--clip-met', '--max-length', '20'];
    const { code, stdout } = await entry(['--input', input, '--out', join(dir, 'cli'), ...args]);
    expect(code).toBe(0);
    expect(stdout).toBe('');
    const parameters = { enzyme: 'asp-n', specificity: 'semi' as const, clipMet: true, maxLength: 20 };
    await build([input], join(dir, 'api'), parameters);
    expectSameFolder(join(dir, 'cli'), join(dir, 'api'));
    expect(readDataset(join(dir, 'cli')).manifest.parameters).toMatchObject(parameters);
  });
});

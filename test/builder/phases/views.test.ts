// The build's views (builder/phases/views.ts, docs/format.md "Views"): a view's shards hold exactly the dataset's peptides
// with a residue of its letters, keyed by the reference chemistry's mass with the modification on every such
// residue (the reference's own residue and Unimod tables), with the same accessions, in (key, sequence) order;
// the dataset's own shards do not change; bad --view values are refused before any work.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { datasetFiles } from '../../../builder/writers/publish.js';
import { parseView, parseViews } from '../../../builder/phases/views.js';
import type { Manifest } from '../../../runtime/model/format.js';
import {
  decodeTabled,
  build,
  readAccessionTable,
  readStored,
  removeTempDirs,
  sampleSubset,
  SAMPLE_TAXDUMP,
  shardEntries,
  tempDir,
} from '../../helpers/datasets.js';
import { loadReference } from '../../helpers/shardReference.js';
import { referenceKey, referenceUnits } from '../../helpers/reference.js';
import { findUnimod, unimodUnits } from '../../helpers/referenceUnimod.js';
import { cutLetters } from '../../helpers/letters.js';

const RECORDS = 400;
/** Small shards: the view has more than the manifest's flat limit, so an index of pages. */
const SHARD_BYTES = 2048;

let plainDir: string;
let viewDir: string;
let plain: Manifest;
let viewed: Manifest;

beforeAll(async () => {
  const input = sampleSubset(RECORDS);
  [plainDir, viewDir] = [join(tempDir('views-plain'), 'out'), join(tempDir('views'), 'out')];
  [plain, viewed] = await Promise.all([
    build([input], plainDir, { shardBytes: SHARD_BYTES, taxdump: SAMPLE_TAXDUMP }),
    build([input], viewDir, {
      shardBytes: SHARD_BYTES,
      taxdump: SAMPLE_TAXDUMP,
      views: ['Carbamidomethyl@C', COMPLETE],
    }),
  ]);
}, 120_000);

afterAll(removeTempDirs);

interface Row {
  key: number;
  sequence: string;
  accessions: string[];
}

/** A complete view of the issue's common search: Carbamidomethyl on every C, up to two oxidised M. */
const COMPLETE = 'fixed=Carbamidomethyl@C&variable=Oxidation@M&maxVariable=2';

/** Every entry of view `v`'s shards, in stored order, checked against its shard's index entry. */
function viewRows(v: number): Row[] {
  const table = readAccessionTable(viewDir);
  const name = (a: number) => table.accessions.slice(a === 0 ? 0 : table.accessionEnds[a - 1], table.accessionEnds[a]);
  const rows: Row[] = [];
  for (const entry of shardEntries(viewDir, v)) {
    const shard = decodeTabled(readStored(viewDir, entry.file, viewed.compression), table);
    expect([
      shard.massKeys[0],
      shard.massKeys[shard.massKeys.length - 1],
      shard.massKeys.length,
      shard.sequenceEnds.length,
    ]).toEqual([entry.firstKey, entry.lastKey, entry.massGroups, entry.peptides]);
    for (let g = 0, p = 0; g < shard.massKeys.length; g++) {
      for (; p < shard.groupEnds[g]; p++) {
        const refs = shard.accessionRefs.subarray(
          p === 0 ? 0 : shard.accessionRefEnds[p - 1],
          shard.accessionRefEnds[p],
        );
        rows.push({
          key: shard.massKeys[g],
          sequence: cutLetters(shard.sequences, shard.sequenceEnds, p),
          accessions: Array.from(refs, name),
        });
      }
    }
  }
  return rows;
}

let plainRead: ReturnType<typeof loadReference> | undefined;
/** The plain build read back by the brute-force reader (test/helpers/shardReference.ts), once. */
const plainReference = () => (plainRead ??= loadReference(plainDir));

/**
 * The reference's rows of a view: each peptide of the plain build at the keys `keysOf` gives its sequence and mass
 * (units), in (key, sequence) order.
 */
function expectedRows(keysOf: (sequence: string, units: number) => number[]): Row[] {
  const ref = plainReference();
  expect(ref.problems).toEqual([]);
  const rows: Row[] = [];
  ref.sequences.forEach((sequence, p) => {
    const accessions = Array.from(
      ref.accessionIds.subarray(p === 0 ? 0 : ref.accessionEnds[p - 1], ref.accessionEnds[p]),
      (a) => ref.accessionNames[a],
    );
    for (const units of keysOf(sequence, referenceUnits(sequence)!))
      rows.push({ key: referenceKey(units), sequence, accessions });
  });
  return rows.sort((a, b) => a.key - b.key || (a.sequence < b.sequence ? -1 : 1));
}

/** The view's totals and index as the manifest gives them, against its shards and the rows expected. */
function expectTotals(v: number, expected: Row[], fixed: string): void {
  const entries = shardEntries(viewDir, v);
  const sum = (field: 'massGroups' | 'peptides' | 'bytes') => entries.reduce((total, e) => total + e[field], 0);
  expect(viewed.views![v]).toMatchObject({
    fixed,
    totals: {
      peptides: expected.length,
      massGroups: new Set(expected.map((r) => `${r.key}`)).size,
      shards: entries.length,
      bytes: sum('bytes'),
    },
  });
  expect(sum('peptides')).toBe(expected.length);
  expect(entries.length).toBeGreaterThan(128); // an index of pages, not the manifest's flat list
  expect(viewed.views![v].shardIndex).toBeDefined();
}

const CAM = Number(unimodUnits(findUnimod('Carbamidomethyl')!));
const OXIDATION = Number(unimodUnits(findUnimod('Oxidation')!));
const count = (sequence: string, letter: string) => [...sequence].filter((c) => c === letter).length;

describe('a build with --view Carbamidomethyl@C', () => {
  it('writes a view holding every peptide with a C, keyed by its mass with Carbamidomethyl on every C, with its accessions', () => {
    const expected = expectedRows((sequence, units) =>
      count(sequence, 'C') === 0 ? [] : [units + count(sequence, 'C') * CAM],
    );
    expect(expected.length).toBeGreaterThan(1000);
    expect(viewRows(0)).toEqual(expected);
    expectTotals(0, expected, 'Carbamidomethyl@C');
  });

  it('leaves the dataset’s own shards and tables as a build without the view writes them; names the view in its parameters and version', () => {
    const { views, parameters, datasetVersion, ...rest } = viewed;
    const { parameters: plainParameters, datasetVersion: plainVersion, ...plainRest } = plain;
    expect(views).toHaveLength(2);
    expect(rest).toEqual(plainRest);
    expect(parameters).toEqual({ ...plainParameters, views: ['Carbamidomethyl@C', COMPLETE] });
    expect(datasetVersion).not.toBe(plainVersion);
  });

  it('publishes exactly the files its manifest reaches, the view’s index pages and shards among them', () => {
    const files = datasetFiles(viewed, viewDir);
    const viewFiles = [0, 1].flatMap((v) => shardEntries(viewDir, v).map((e) => e.file));
    expect(files).toEqual(expect.arrayContaining(viewFiles));
    expect(new Set(files).size).toBe(files.length);
    expect([...files, 'manifest.json'].sort()).toEqual(readdirSync(viewDir).sort());
    expect(readFileSync(join(viewDir, 'manifest.json'), 'utf8')).toContain('"views"');
  });
});

describe('a build with a complete view, --view fixed=Carbamidomethyl@C&variable=Oxidation@M&maxVariable=2', () => {
  it('holds every peptide once per count of oxidised M from 0 to the fewer of its M and 2, keyed by that modified mass, with its accessions', () => {
    const expected = expectedRows((sequence, units) => {
      const base = units + count(sequence, 'C') * CAM;
      return Array.from({ length: Math.min(count(sequence, 'M'), 2) + 1 }, (_, j) => base + j * OXIDATION);
    });
    const got = viewRows(1);
    expect(got).toEqual(expected);
    expectTotals(1, expected, COMPLETE);
    // Every peptide is in it, some two and three times; a sequence is once in a mass group.
    expect(new Set(got.map((r) => r.sequence)).size).toBe(plainReference().sequences.length);
    expect(got.filter((r) => count(r.sequence, 'M') >= 2).length).toBeGreaterThan(300);
    expect(new Set(got.map((r) => `${r.key} ${r.sequence}`)).size).toBe(got.length);
  });
});

describe('--view values', () => {
  it('reads a Unimod title (any case) or accession on residue letters, normalised', () => {
    expect(parseView('Carbamidomethyl@C')).toEqual({
      fixed: 'Carbamidomethyl@C',
      letters: 'C',
      deltaUnits: 570_214_640_000,
    });
    expect(parseView('carbamidomethyl@c')).toEqual(parseView('Carbamidomethyl@C'));
    expect(parseView('UNIMOD:4@C').fixed).toBe('Carbamidomethyl@C');
    expect(parseView('TMT6plex@K')).toMatchObject({ fixed: 'TMT6plex@K', letters: 'K' });
    // A custom modification keeps its mass, so that the runtime reads the view back as the same modification.
    expect(parseView('Label:+12.5@KR')).toEqual({
      fixed: 'Label:+12.5@KR',
      letters: 'KR',
      deltaUnits: 125_000_000_000,
    });
  });

  it('refuses what is not one modification adding mass on residue letters, and a view given twice', () => {
    expect(() => parseView('Oxidation@N-term')).toThrow(/--view takes one modification on residue letters/);
    expect(() => parseView('Carbamidomethyl@C,Oxidation@M')).toThrow(/--view takes one modification/);
    expect(() => parseView('Nonsense@C')).toThrow(/--view unknown modification "Nonsense"/);
    expect(() => parseView('Gln->pyro-Glu@Q')).toThrow(/--view Gln->pyro-Glu@Q: the modification must add mass/);
    expect(() => parseViews(['Carbamidomethyl@C', 'carbamidomethyl@C'])).toThrow(
      /--view Carbamidomethyl@C is given twice/,
    );
    expect(() => parseViews(['A:+1@C', 'B:+1@C', 'C:+1@C', 'D:+1@C', 'E:+1@C'])).toThrow(/at most 4 --view/);
  });

  it('reads a complete view in any field order, normalised (a custom delta keeps its sign; + is a plus, not a space)', () => {
    const oxidation = { letters: 'M', deltaUnits: 159_949_150_000, max: 2 };
    expect(parseView(COMPLETE)).toEqual({
      fixed: COMPLETE,
      letters: 'C',
      deltaUnits: 570_214_640_000,
      variable: oxidation,
    });
    expect(parseView('maxVariable=2&variable=oxidation@m&fixed=UNIMOD:4@C')).toEqual(parseView(COMPLETE));
    expect(parseView('fixed=Label:+12.5@KR&variable=Loss:-18.0106@DE&maxVariable=4')).toEqual({
      fixed: 'fixed=Label:+12.5@KR&variable=Loss:-18.0106@DE&maxVariable=4',
      letters: 'KR',
      deltaUnits: 125_000_000_000,
      variable: { letters: 'DE', deltaUnits: -180_106_000_000, max: 4 },
    });
    expect(() => parseViews([COMPLETE, 'variable=Oxidation@M&fixed=Carbamidomethyl@C&maxVariable=2'])).toThrow(
      /is given twice/,
    );
    expect(parseViews(['Carbamidomethyl@C', COMPLETE]).map((v) => v.fixed)).toEqual(['Carbamidomethyl@C', COMPLETE]);
  });

  it('refuses a complete view that is not one fixed and one variable modification on residues with a maxVariable of 1 to 4', () => {
    const refused: [string, RegExp][] = [
      ['fixed=Carbamidomethyl@C&variable=Oxidation@M', /--view .* has no maxVariable/],
      ['fixed=Carbamidomethyl@C&maxVariable=2', /has no variable/],
      [
        'fixed=Carbamidomethyl@C&variable=Oxidation@M&maxVariable=2&maxVariable=3',
        /is not a complete view's fixed=Name@Letters&variable=Name@Letters&maxVariable=n/,
      ],
      ['fixed=Carbamidomethyl@C&variable=Oxidation@M&maxVariable=2&taxon=9606', /is not a complete view's/],
      [
        'fixed=Carbamidomethyl@C&variable=Oxidation@M&maxVariable=0',
        /maxVariable must be a whole number from 1 to 4, got "0"/,
      ],
      ['fixed=Carbamidomethyl@C&variable=Oxidation@M&maxVariable=5', /from 1 to 4, got "5"/],
      ['fixed=Carbamidomethyl@C&variable=Oxidation@M&maxVariable=two', /got "two"/],
      [
        'fixed=Carbamidomethyl@C&variable=Oxidation@N-term&maxVariable=2',
        /one modification on residue letters as its variable modification/,
      ],
      [
        'fixed=Carbamidomethyl@C&variable=Oxidation@M,Phospho@STY&maxVariable=2',
        /one modification on residue letters as its variable modification/,
      ],
      [
        'fixed=Carbamidomethyl@C&variable=Deamidated@C&maxVariable=2',
        /fixed Carbamidomethyl@C and variable Deamidated@C share a site/,
      ],
      ['fixed=Gln->pyro-Glu@Q&variable=Oxidation@M&maxVariable=2', /Gln->pyro-Glu@Q: the modification must add mass/],
      ['fixed=Carbamidomethyl@C&variable=Tiny:+0.005@M&maxVariable=2', /at least 0.01 Da from 0/],
    ];
    for (const [text, message] of refused) expect(() => parseView(text), text).toThrow(message);
  });
});

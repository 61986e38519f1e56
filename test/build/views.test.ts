// The build's views (build/views.ts, shards/FORMAT.md "Views"): a view's shards hold exactly the dataset's peptides
// with a residue of its letters, keyed by the reference chemistry's mass with the modification on every such
// residue (the reference's own residue and Unimod tables), with the same accessions, in (key, sequence) order;
// the dataset's own shards do not change; bad --view values are refused before any work.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { datasetFiles } from '../../build/publish.js';
import { parseView, parseViews } from '../../build/views.js';
import type { Manifest } from '../../runtime/model/format.js';
import { decodeTabled, build, readAccessionTable, readStored, removeTempDirs, sampleSubset, SAMPLE_TAXDUMP, shardEntries, tempDir } from '../helpers/datasets.js';
import { loadReference } from '../helpers/shardReference.js';
import { referenceKey, referenceUnits } from '../helpers/reference.js';
import { findUnimod, unimodUnits } from '../helpers/referenceUnimod.js';
import { cutLetters } from '../helpers/letters.js';

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
    build([input], viewDir, { shardBytes: SHARD_BYTES, taxdump: SAMPLE_TAXDUMP, views: ['Carbamidomethyl@C'], threads: 2 }),
  ]);
}, 120_000);

afterAll(removeTempDirs);

interface Row {
  key: number;
  sequence: string;
  accessions: string[];
}

describe('a build with --view Carbamidomethyl@C', () => {
  it('writes a view holding every peptide with a C, keyed by its mass with Carbamidomethyl on every C, with its accessions', () => {
    const ref = loadReference(plainDir);
    expect(ref.problems).toEqual([]);
    const cam = Number(unimodUnits(findUnimod('Carbamidomethyl')!));
    const expected: Row[] = [];
    ref.sequences.forEach((sequence, p) => {
      const sites = [...sequence].filter((c) => c === 'C').length;
      if (sites === 0) return;
      const accessions = Array.from(ref.accessionIds.subarray(p === 0 ? 0 : ref.accessionEnds[p - 1], ref.accessionEnds[p]), (a) => ref.accessionNames[a]);
      expected.push({ key: referenceKey(referenceUnits(sequence)! + sites * cam), sequence, accessions });
    });
    expected.sort((a, b) => a.key - b.key || (a.sequence < b.sequence ? -1 : 1));

    const table = readAccessionTable(viewDir);
    const name = (a: number) => table.accessions.slice(a === 0 ? 0 : table.accessionEnds[a - 1], table.accessionEnds[a]);
    const entries = shardEntries(viewDir, 0);
    const got: Row[] = [];
    for (const entry of entries) {
      const shard = decodeTabled(readStored(viewDir, entry.file, viewed.compression), table);
      expect([shard.massKeys[0], shard.massKeys[shard.massKeys.length - 1], shard.massKeys.length, shard.sequenceEnds.length]).toEqual([entry.firstKey, entry.lastKey, entry.massGroups, entry.peptides]);
      for (let g = 0, p = 0; g < shard.massKeys.length; g++) {
        for (; p < shard.groupEnds[g]; p++) {
          const refs = shard.accessionRefs.subarray(p === 0 ? 0 : shard.accessionRefEnds[p - 1], shard.accessionRefEnds[p]);
          got.push({ key: shard.massKeys[g], sequence: cutLetters(shard.sequences, shard.sequenceEnds, p), accessions: Array.from(refs, name) });
        }
      }
    }
    expect(expected.length).toBeGreaterThan(1000);
    expect(got.length).toBe(expected.length);
    expect(got).toEqual(expected);
    expect(entries.length).toBeGreaterThan(128); // an index of pages, not the manifest's flat list
    expect(viewed.views![0].shardIndex).toBeDefined();
    const sum = (field: 'massGroups' | 'peptides' | 'bytes') => entries.reduce((total, e) => total + e[field], 0);
    expect(viewed.views![0]).toMatchObject({
      fixed: 'Carbamidomethyl@C',
      totals: { peptides: expected.length, massGroups: new Set(expected.map((r) => r.key)).size, shards: entries.length, bytes: sum('bytes') },
    });
    expect(sum('peptides')).toBe(expected.length);
  });

  it('leaves the dataset’s own shards and tables as a build without the view writes them; names the view in its parameters and version', () => {
    const { views, parameters, datasetVersion, ...rest } = viewed;
    const { parameters: plainParameters, datasetVersion: plainVersion, ...plainRest } = plain;
    expect(views).toHaveLength(1);
    expect(rest).toEqual(plainRest);
    expect(parameters).toEqual({ ...plainParameters, views: ['Carbamidomethyl@C'] });
    expect(datasetVersion).not.toBe(plainVersion);
  });

  it('publishes exactly the files its manifest reaches, the view’s index pages and shards among them', () => {
    const files = datasetFiles(viewed, viewDir);
    const viewFiles = shardEntries(viewDir, 0).map((e) => e.file);
    expect(files).toEqual(expect.arrayContaining(viewFiles));
    expect(new Set(files).size).toBe(files.length);
    expect([...files, 'manifest.json'].sort()).toEqual(readdirSync(viewDir).sort());
    expect(readFileSync(join(viewDir, 'manifest.json'), 'utf8')).toContain('"views"');
  });
});

describe('--view values', () => {
  it('reads a Unimod title (any case) or accession on residue letters, normalised', () => {
    expect(parseView('Carbamidomethyl@C')).toEqual({ fixed: 'Carbamidomethyl@C', letters: 'C', deltaUnits: 570_214_640_000 });
    expect(parseView('carbamidomethyl@c')).toEqual(parseView('Carbamidomethyl@C'));
    expect(parseView('UNIMOD:4@C').fixed).toBe('Carbamidomethyl@C');
    expect(parseView('TMT6plex@K')).toMatchObject({ fixed: 'TMT6plex@K', letters: 'K' });
    // A custom modification keeps its mass, so that the runtime reads the view back as the same modification.
    expect(parseView('Label:+12.5@KR')).toEqual({ fixed: 'Label:+12.5@KR', letters: 'KR', deltaUnits: 125_000_000_000 });
  });

  it('refuses what is not one modification adding mass on residue letters, and a view given twice', () => {
    expect(() => parseView('Oxidation@N-term')).toThrow(/--view takes one modification on residue letters/);
    expect(() => parseView('Carbamidomethyl@C,Oxidation@M')).toThrow(/--view takes one modification/);
    expect(() => parseView('Nonsense@C')).toThrow(/--view unknown modification "Nonsense"/);
    expect(() => parseView('Gln->pyro-Glu@Q')).toThrow(/--view Gln->pyro-Glu@Q: the modification must add mass/);
    expect(() => parseViews(['Carbamidomethyl@C', 'carbamidomethyl@C'])).toThrow(/--view Carbamidomethyl@C is given twice/);
    expect(() => parseViews(['A:+1@C', 'B:+1@C', 'C:+1@C', 'D:+1@C', 'E:+1@C'])).toThrow(/at most 4 --view/);
  });
});

// What a dataset is, from its manifest (runtime/core/info.ts): /db-info.php's keys and string values as the
// original service gives them, and /api/v1/info — checked field by field against a hand-made manifest.
import { describe, expect, it } from 'vitest';
import { datasetInfo, dbInfo } from '../../../../runtime/core/lookup/info.js';
import type { Manifest } from '../../../../runtime/model/format.js';

const manifest: Manifest = {
  format: 'digested-peptides',
  formatVersion: 2,
  compression: 'br',
  datasetVersion: '0123456789abcdef',
  parameters: { enzyme: 'lys-c', missedCleavages: 1, minLength: 7, maxLength: 30, shardBytes: 4096 },
  sources: [
    { file: 'a.fasta.gz', bytes: 10, sha256: 'aa' },
    { file: 'b.fasta', bytes: 20, sha256: 'bb' },
  ],
  totals: {
    proteins: 12,
    peptides: 345,
    massGroups: 300,
    shards: 2,
    bytes: 9999,
    accessions: 11,
    accessionsWithoutTaxId: 1,
    duplicateAccessions: 1,
    skippedRecords: { noAccession: 0, noSequence: 1, invalidCharacters: 0 },
  },
  shards: [],
  accessions: { count: 11, pages: [{ file: 'accessions-x.msgpack.br', sha256: 'x', bytes: 1, accessions: 11 }] },
};

describe('dbInfo (/db-info.php)', () => {
  it("gives the original's seven keys first, every value a string, then ours", () => {
    const info = dbInfo(manifest);
    expect(Object.keys(info).slice(0, 7)).toEqual([
      'db_name',
      'enzyme_name',
      'miss_cleavage',
      'min_peptide_length',
      'max_peptide_length',
      'protein_count',
      'peptide_count',
    ]);
    expect(info).toEqual({
      db_name: 'a.fasta.gz, b.fasta',
      enzyme_name: 'lys-c',
      miss_cleavage: '1',
      min_peptide_length: '7',
      max_peptide_length: '30',
      protein_count: '12',
      peptide_count: '345',
      mass_group_count: '300',
      accession_count: '11',
      dataset_version: '0123456789abcdef',
      format_version: '2',
    });
    expect(Object.values(info).every((v) => typeof v === 'string')).toBe(true);
  });

  it('says how the proteins were cut when the manifest records it, after the original keys', () => {
    const info = dbInfo({ ...manifest, parameters: { ...manifest.parameters, specificity: 'semi', clipMet: true } });
    expect(Object.keys(info).slice(0, 7)).toEqual(Object.keys(dbInfo(manifest)).slice(0, 7));
    expect([info.specificity, info.clip_n_term_met]).toEqual(['semi', 'true']);
    expect(dbInfo(manifest).specificity).toBeUndefined();
  });

  it('names the database by its release when the manifest records one, with its date', () => {
    const info = dbInfo({
      ...manifest,
      release: { name: 'UniProtKB/Swiss-Prot 2026_01', date: '2026-01-28', url: 'https://example.org/x.fasta.gz' },
    });
    expect(info.db_name).toBe('UniProtKB/Swiss-Prot 2026_01');
    expect(info.release_date).toBe('2026-01-28');
  });
});

describe('datasetInfo (/api/v1/info)', () => {
  it("is the manifest's version, format, parameters, totals, release (null when none) and sources, without the shard index", () => {
    expect(datasetInfo(manifest)).toEqual({
      datasetVersion: '0123456789abcdef',
      format: 'digested-peptides',
      formatVersion: 2,
      compression: 'br',
      parameters: manifest.parameters,
      totals: manifest.totals,
      release: null,
      sources: manifest.sources,
      taxonomy: null,
    });
    expect(datasetInfo({ ...manifest, release: { name: 'r' } }).release).toEqual({ name: 'r' });
  });

  it('names the taxonomy and the taxdump files it came from when the dataset has one', () => {
    const dmp = [
      { file: 'nodes.dmp', bytes: 10, sha256: 'a'.repeat(64) },
      { file: 'names.dmp', bytes: 20, sha256: 'b'.repeat(64) },
    ];
    const withTaxonomy = {
      ...manifest,
      sources: [...manifest.sources, ...dmp],
      taxonomy: { file: 'taxonomy-x.json', sha256: 'c'.repeat(64), bytes: 5, nodes: 42 },
    };
    expect(datasetInfo(withTaxonomy).taxonomy).toEqual({ nodes: 42, sources: dmp });
    expect(dbInfo(withTaxonomy).taxonomy_node_count).toBe('42');
  });
});

// The index at UniProt TrEMBL's scale, on synthetic entries (no shard bodies): 10,000,000 shards and 200,000,000
// accessions indexed by the build's own tree writers (builder/writers/indexPages.ts, builder/writers/proteinTable.ts,
// builder/writers/pageTree.ts) with the format's page sizes, each page "written" in memory (realistic names, hashes and
// sizes; leaf pages made again on demand from the shard numbers). The manifest around the three roots (shard index,
// accession table, protein table), written as publish writes it, stays within 64 KB, and a lookup through the runtime
// (ShardIndex, proteinsOf) on a fresh index reads at most 2 pages after the manifest — an inner page and a leaf — and
// finds what brute force computes from the synthetic formulas; every page read agrees with its entry
// (runtime/model/indexTree.ts).
import { describe, expect, it } from 'vitest';
import { shardIndexTree, writeLeafPage, type WriteIndexPage } from '../../../builder/writers/indexPages.js';
import { pageTree } from '../../../builder/writers/pageTree.js';
import { byAccessionTree } from '../../../builder/writers/byAccession.js';
import type { Dataset } from '../../../runtime/core/storage/dataset.js';
import { proteinsOf } from '../../../runtime/core/lookup/proteins.js';
import { ShardIndex } from '../../../runtime/core/storage/shardIndex.js';
import {
  ACCESSION_PAGE_ACCESSIONS,
  accessionIndexPageFileName,
  accessionPageFileName,
  accessionPageSize,
  FORMAT_VERSION,
  INDEX_PAGE_SHARDS,
  indexPageFileName,
  PROTEIN_PAGE_ACCESSIONS,
  proteinIndexPageFileName,
  proteinPageFileName,
  type AccessionPageEntry,
  type IndexPageEntry,
  type InnerIndexPage,
  type Manifest,
  type ProteinIndexPage,
  type ProteinPage,
  type ProteinPageEntry,
  type ShardEntry,
} from '../../../runtime/model/format.js';
import {
  indexPageViolation,
  proteinIndexPageViolation,
  proteinPageViolation,
} from '../../../runtime/model/indexTree.js';
import { prng } from '../../helpers/prng.js';

const SHARDS = 10_000_000;
const ACCESSIONS = 200_000_000;
const MANIFEST_LIMIT = 64 * 1024;

/** What pads a digest to 64 digits after its first n, made once for each n. */
const PADDING = Array.from({ length: 65 }, (_, n) => ''.padEnd(64 - n, '9e3779b97f4a7c15f39cc0605cedc834'));
/** A hex digest standing in for a sha256: 64 digits, unique per `n`. */
const hex64 = (n: number, salt: number) => {
  const head = `${salt.toString(16)}${n.toString(16).padStart(12, '0')}`;
  return head.length >= 64 ? head : head + PADDING[head.length];
};

// Shard i of the synthetic dataset: keys from 5,000,000 to 60,000,000 (500 to 6,000 Da), 1-6 groups.
const firstKeyOf = (i: number) => 5_000_000 + Math.floor(i * 5.5);
const lastKeyOf = (i: number) => firstKeyOf(i + 1) - 1;
const massGroupsOf = (i: number) => 1 + (i % 6);
const peptidesOf = (i: number) => massGroupsOf(i) * 40 + (i % 97);
const bytesOf = (i: number) => 15_000 + (i % 6_000);
const shardSha256 = (i: number) => hex64(i, 0xa);
const shardFile = (sha256: string) => `${sha256.slice(0, 20)}.msgpack.gz`;
const RESIDUE_MAX = '6543210zyx9876543210abc';
function shard(i: number): ShardEntry {
  const sha256 = shardSha256(i);
  return {
    file: shardFile(sha256),
    firstKey: firstKeyOf(i),
    lastKey: lastKeyOf(i),
    massGroups: massGroupsOf(i),
    peptides: peptidesOf(i),
    bytes: bytesOf(i),
    sha256,
    residueMax: RESIDUE_MAX,
  };
}
function shardsFrom(first: number, count: number): ShardEntry[] {
  const shards: ShardEntry[] = [];
  for (let k = 0; k < count; k++) shards.push(shard(first + k));
  return shards;
}

/**
 * Shard i as the index is built from it: the same entry as shard(i), its name and hash made only when read. The leaf
 * pages built are dropped unread (memoryPages), and writeLeafPage reads only keys, counts and residueMax, so the
 * 10,000,000 names and hashes no one reads are not made.
 */
class BuiltShard implements ShardEntry {
  readonly #i: number;
  readonly firstKey: number;
  readonly lastKey: number;
  readonly massGroups: number;
  readonly peptides: number;
  readonly bytes: number;
  readonly residueMax = RESIDUE_MAX;
  constructor(i: number) {
    this.#i = i;
    this.firstKey = firstKeyOf(i);
    this.lastKey = lastKeyOf(i);
    this.massGroups = massGroupsOf(i);
    this.peptides = peptidesOf(i);
    this.bytes = bytesOf(i);
  }
  get sha256(): string {
    return shardSha256(this.#i);
  }
  get file(): string {
    return shardFile(this.sha256);
  }
}
function builtShardsFrom(first: number, count: number): ShardEntry[] {
  const shards: ShardEntry[] = [];
  for (let k = 0; k < count; k++) shards.push(new BuiltShard(first + k));
  return shards;
}

// Accession i: "A0A" and 7 base-36 digits, ascending in byte order.
const accession = (i: number) => `A0A${i.toString(36).toUpperCase().padStart(7, '0')}`;

/**
 * Writes pages into memory: realistic file entries; inner pages kept to be read back, leaf pages dropped (made again on
 * demand). The entries of the ~200,000 table pages get their other fields added in place (Object.assign): copying
 * each into a new object by spreading costs more than making it.
 */
function memoryPages() {
  const inner = new Map<string, InnerIndexPage | ProteinIndexPage>();
  let written = 0;
  const entry = (nameOf: (sha256: string, compression: 'gzip') => string) => {
    const sha256 = hex64(written++, 0xb);
    return { file: nameOf(sha256, 'gzip'), sha256, bytes: 20_000 + (written % 9_000) };
  };
  const writeIndexPage: WriteIndexPage = (page) => {
    const file = entry(indexPageFileName);
    if ('pages' in page) inner.set(file.file, page);
    return file;
  };
  const writeProteinIndexPage = (page: ProteinIndexPage) => {
    const file = entry(proteinIndexPageFileName);
    inner.set(file.file, page);
    return file;
  };
  return {
    inner,
    writeIndexPage,
    writeProteinIndexPage,
    leafEntry: () => entry(proteinPageFileName),
    accessionEntry: () => entry(accessionPageFileName),
    accessionIndexEntry: () => entry(accessionIndexPageFileName),
  };
}

describe(`an index of ${SHARDS.toLocaleString('en-US')} shards and ${ACCESSIONS.toLocaleString('en-US')} accessions`, () => {
  const pages = memoryPages();
  let manifest: Manifest;
  const started = performance.now();

  it('keeps the manifest within 64 KB: roots of 39 (shard index), 96 (protein table) and 96 (accession table) entries', () => {
    for (const i of [0, 1, 255, 9_999_999]) {
      const built = new BuiltShard(i);
      expect({ ...built, file: built.file, sha256: built.sha256 }).toEqual(shard(i));
    }
    const leaves: IndexPageEntry[] = [];
    for (let first = 0; first < SHARDS; first += INDEX_PAGE_SHARDS)
      leaves.push(
        writeLeafPage(builtShardsFrom(first, Math.min(INDEX_PAGE_SHARDS, SHARDS - first)), first, pages.writeIndexPage),
      );
    const proteinLeaves: ProteinPageEntry[] = [];
    for (let first = 0; first < ACCESSIONS; first += PROTEIN_PAGE_ACCESSIONS) {
      const last = Math.min(first + PROTEIN_PAGE_ACCESSIONS, ACCESSIONS) - 1;
      proteinLeaves.push(
        Object.assign(pages.leafEntry(), {
          firstAccession: accession(first),
          lastAccession: accession(last),
          accessions: last - first + 1,
        }),
      );
    }
    const shardIndex = shardIndexTree(leaves, pages.writeIndexPage);
    const proteins = byAccessionTree(proteinLeaves, pages.writeProteinIndexPage);
    expect(accessionPageSize(ACCESSIONS)).toBe(ACCESSION_PAGE_ACCESSIONS);
    const accessionLeaves: AccessionPageEntry[] = [];
    for (let first = 0; first < ACCESSIONS; first += ACCESSION_PAGE_ACCESSIONS)
      accessionLeaves.push(
        Object.assign(pages.accessionEntry(), { accessions: Math.min(ACCESSION_PAGE_ACCESSIONS, ACCESSIONS - first) }),
      );
    const accessions = {
      count: ACCESSIONS,
      ...pageTree(accessionLeaves, (children) => ({
        ...pages.accessionIndexEntry(),
        accessions: children.reduce((n, c) => n + c.accessions, 0),
      })),
    };
    const file = (name: string) => ({ file: name, sha256: hex64(1, 0xc), bytes: 987_654_321 });
    manifest = {
      format: 'digested-peptides',
      formatVersion: FORMAT_VERSION,
      compression: 'gzip',
      datasetVersion: '0123456789abcdef',
      parameters: { enzyme: 'trypsin', missedCleavages: 2, minLength: 6, maxLength: 50, shardBytes: 32768 },
      sources: [
        { file: 'uniprot_trembl.fasta.gz', bytes: 60_123_456_789, sha256: hex64(2, 0xc) },
        { file: 'nodes.dmp', bytes: 234_567_890, sha256: hex64(3, 0xc) },
        { file: 'names.dmp', bytes: 256_789_012, sha256: hex64(4, 0xc) },
      ],
      release: {
        url: 'https://ftp.uniprot.org/pub/databases/uniprot/current_release/knowledgebase/complete/uniprot_trembl.fasta.gz',
        sha256: hex64(2, 0xc),
        verified: 'sha256',
        retrieved: '2026-11-24T00:00:00Z',
        lastModified: 'Wed, 01 Oct 2026 00:00:00 GMT',
        name: 'UniProtKB/TrEMBL',
        date: '2026_04',
        taxdumpUrl: 'https://ftp.ncbi.nlm.nih.gov/pub/taxonomy/taxdump.tar.gz',
        taxdumpSha256: hex64(5, 0xc),
        taxdumpVerified: 'md5',
        taxdumpLastModified: 'Wed, 01 Oct 2026 00:00:00 GMT',
      },
      totals: {
        proteins: ACCESSIONS,
        reviewedAccessions: 573_000,
        taxonomyNodes: 2_600_000,
        accessionsWithoutLineage: 12_345,
        peptides: 9_876_543_210,
        massGroups: leaves.reduce((s, p) => s + p.massGroups, 0),
        shards: SHARDS,
        bytes: 187_654_321_098,
        accessions: ACCESSIONS,
        accessionsWithoutTaxId: 0,
        duplicateAccessions: 0,
        skippedRecords: { noAccession: 0, noSequence: 0, invalidCharacters: 12 },
      },
      shardIndex,
      accessions,
      proteins,
      taxonomy: { ...file('taxonomy-0123456789abcdef0123.json.gz'), nodes: 2_600_000 },
    };
    const bytes = Buffer.byteLength(JSON.stringify(manifest, null, 1) + '\n'); // as builder/writers/publish.ts writes it
    const perEntry = (tree: object, entries: number) =>
      (Buffer.byteLength(JSON.stringify({ tree }, null, 1)) / entries).toFixed(0);
    console.log(
      `${SHARDS} shards in ${leaves.length} leaf index pages, ${shardIndex.levels} levels, root of ${shardIndex.pages.length}; ` +
        `${ACCESSIONS} accessions in ${proteinLeaves.length} protein pages, ${proteins.levels} levels, root of ${proteins.pages.length}; manifest ${bytes} bytes (${(bytes / 1024).toFixed(1)} KiB; ~${perEntry(shardIndex, shardIndex.pages.length)} B per shard index entry, ~${perEntry(proteins, proteins.pages.length)} B per protein entry); ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    expect([leaves.length, shardIndex.levels, shardIndex.pages.length]).toEqual([39_063, 2, 39]);
    expect([proteinLeaves.length, proteins.levels, proteins.pages.length]).toEqual([97_657, 2, 96]);
    expect([accessionLeaves.length, accessions.levels, accessions.pages.length]).toEqual([97_657, 2, 96]);
    expect(bytes).toBeLessThanOrEqual(MANIFEST_LIMIT);
  });

  it('locates any shard with 2 index page reads after the manifest, as brute force does', async () => {
    const reads: string[] = [];
    const loadPage = async (entry: IndexPageEntry, leaf: boolean) => {
      reads.push(entry.file);
      const page = leaf
        ? { formatVersion: 2, firstShard: entry.firstShard, shards: shardsFrom(entry.firstShard, entry.shards) }
        : pages.inner.get(entry.file)!;
      expect(indexPageViolation(page, entry, leaf)).toBeNull();
      return leaf ? (page as { shards: ShardEntry[] }).shards : (page as InnerIndexPage).pages;
    };
    const random = prng(2026);
    const probes = [
      0,
      1,
      255,
      256,
      262_143,
      262_144,
      SHARDS - 1,
      ...Array.from({ length: 60 }, () => Math.floor(random() * SHARDS)),
    ];
    for (const i of probes) {
      const groupsBefore = Math.floor(i / 6) * 21 + [0, 1, 3, 6, 10, 15][i % 6]; // 1 + 2 + ... + 6 per 6 shards
      for (const lookup of [
        (index: ShardIndex) => index.firstEndingAtOrAbove(lastKeyOf(i)),
        (index: ShardIndex) => index.lastStartingAtOrBelow(firstKeyOf(i)),
        (index: ShardIndex) => index.shardOfGroup(groupsBefore + (i % 6)),
      ]) {
        reads.length = 0;
        const index = new ShardIndex(manifest, loadPage);
        expect(await lookup(index)).toEqual({ index: i, entry: shard(i), groupsBefore });
        expect(reads).toHaveLength(2);
      }
    }
    const index = new ShardIndex(manifest, loadPage);
    expect([index.shardCount, index.levels]).toEqual([SHARDS, 2]);
    expect(index.groupCount).toBe(Math.floor(SHARDS / 6) * 21 + [0, 1, 3, 6, 10, 15][SHARDS % 6]);
  });

  it("finds any accession's page with 2 protein page reads after the manifest", async () => {
    const reads: string[] = [];
    const dataset = {
      manifest,
      proteinIndexPage: async (entry: ProteinPageEntry) => {
        reads.push(entry.file);
        const page = pages.inner.get(entry.file) as ProteinIndexPage;
        expect(proteinIndexPageViolation(page, entry)).toBeNull();
        return page.pages;
      },
      proteinPage: async (entry: ProteinPageEntry): Promise<ProteinPage> => {
        reads.push(entry.file);
        const first = parseInt(entry.firstAccession.slice(3), 36);
        const accessions = Array.from({ length: entry.accessions }, (_, k) => accession(first + k));
        const page = {
          formatVersion: 2,
          accessions,
          taxIds: accessions.map((_, k) => (first + k) % 100_000),
          reviewed: accessions.map(() => 0),
          proteins: accessions.map((a) => `protein ${a}`),
          organisms: accessions.map(() => ''),
        };
        expect(proteinPageViolation(page, entry)).toBeNull();
        return page;
      },
    } as unknown as Dataset;
    const random = prng(7);
    for (const i of [
      0,
      2047,
      2048,
      1_048_575,
      1_048_576,
      ACCESSIONS - 1,
      ...Array.from({ length: 60 }, () => Math.floor(random() * ACCESSIONS)),
    ]) {
      reads.length = 0;
      const [found] = await proteinsOf(dataset, [{ acc: accession(i), taxId: -1, reviewed: true }]);
      expect(found).toEqual({
        acc: accession(i),
        taxId: i % 100_000,
        reviewed: false,
        protein: `protein ${accession(i)}`,
        organism: null,
      });
      expect(reads.map((f) => f.replace(/-[0-9a-f]{20}\.json\.gz$/, ''))).toEqual(['proteins-index', 'proteins']);
    }
    reads.length = 0;
    const [absent] = await proteinsOf(dataset, [{ acc: accession(ACCESSIONS), taxId: 5, reviewed: false }]); // past the last: the root alone says so
    expect([absent.protein, reads]).toEqual([null, []]);
  });
});

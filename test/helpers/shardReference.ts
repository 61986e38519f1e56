// A brute-force reference for the search API, independent of runtime/core (search.ts, shardIndex.ts,
// params.ts) and runtime/api: it decodes EVERY shard of a dataset (flat manifest or index tree) into plain
// global arrays, checks the dataset's invariants on the way (its mass keys ascend across shards), and answers a
// query by binary search of those keys and slicing the page. Masses typed by a user are compared exactly (BigInt
// rationals); a peptide's mass key comes from the reference chemistry (reference.ts).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IndexPage, IndexPageEntry, InnerIndexPage, Manifest, ShardEntry } from '../../runtime/model/format.js';
import {
  decodeTabled,
  readAccessionTable,
  readJsonFile,
  readManifest,
  readStored,
  shardEntries,
  treeLevels,
} from './datasets.js';
import { keyBounds, lowerBound, referenceDecimal, referenceKeyText, referencePeptideKey } from './reference.js';
import { lettersText } from './letters.js';

export interface ReferenceData {
  manifest: Manifest;
  shardEntries: ShardEntry[];
  /** Every index page's entry, at every level of the tree (none for a flat index). */
  indexPages: IndexPageEntry[];
  /** Per mass group over the whole dataset, ascending. */
  keys: Uint32Array;
  /** groupEnds[g]: one past group g's last peptide (global peptide numbering). */
  groupEnds: Uint32Array;
  sequences: string[];
  /** accessionEnds[p]: one past peptide p's last reference in `accessionIds`. */
  accessionEnds: Uint32Array;
  accessionIds: Uint32Array;
  accessionNames: string[];
  accessionTaxIds: number[];
  /** Problems with the dataset itself found while loading (must stay empty). */
  problems: string[];
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/**
 * What is wrong with the index pages of a dataset: a page that does not match the entry pointing at it (sha256,
 * size, position, counts, keys, sums), at every level of the tree.
 */
function indexPageProblems(dir: string, manifest: Manifest): string[] {
  const problems: string[] = [];
  if (!manifest.shardIndex) return problems;
  const levels = treeLevels(dir, manifest.shardIndex, manifest.compression);
  levels.forEach((entries, depth) => {
    const leaf = depth === levels.length - 1;
    let firstShard = 0;
    for (const page of entries) {
      const bytes = readFileSync(join(dir, page.file));
      if (sha256(bytes) !== page.sha256 || bytes.length !== page.bytes)
        problems.push(`index page ${page.file} does not match its entry`);
      const parsed = readJsonFile<IndexPage & InnerIndexPage>(dir, page.file, manifest.compression);
      const members: ShardEntry[] | IndexPageEntry[] = leaf ? parsed.shards : parsed.pages;
      const shards = leaf ? parsed.shards.length : parsed.pages.reduce((sum, p) => sum + p.shards, 0);
      if (parsed.firstShard !== firstShard || page.firstShard !== firstShard || shards !== page.shards)
        problems.push(`index page ${page.file} has wrong position/count`);
      const sum = (field: 'massGroups' | 'peptides') =>
        members.reduce((total: number, m: ShardEntry | IndexPageEntry) => total + m[field], 0);
      if (
        members[0].firstKey !== page.firstKey ||
        members[members.length - 1].lastKey !== page.lastKey ||
        sum('massGroups') !== page.massGroups ||
        sum('peptides') !== page.peptides
      ) {
        problems.push(`index page ${page.file} keys or sums differ from its entry`);
      }
      firstShard += page.shards;
    }
  });
  return problems;
}

/** Decodes every shard of the dataset in `dir` into global arrays. */
export function loadReference(dir: string): ReferenceData {
  const manifest = readManifest(dir);
  const problems = indexPageProblems(dir, manifest);
  const entries = shardEntries(dir);
  const keys: number[] = [];
  const groupEnds: number[] = [];
  const sequences: string[] = [];
  const accessionEnds: number[] = [];
  const accessionIds: number[] = [];
  const table = readAccessionTable(dir);
  const accessionNames = Array.from(table.accessionEnds, (end, a) =>
    table.accessions.slice(a === 0 ? 0 : table.accessionEnds[a - 1], end),
  );
  const accessionTaxIds = Array.from(table.taxIds);
  const seen = new Set<string>();
  for (const entry of entries) {
    const bytes = readFileSync(join(dir, entry.file));
    if (sha256(bytes) !== entry.sha256 || bytes.length !== entry.bytes)
      problems.push(`shard ${entry.file} does not match its entry`);
    const s = decodeTabled(readStored(dir, entry.file, manifest.compression), table);
    const _cut = (text: string, ends: Uint32Array, i: number) => text.slice(i === 0 ? 0 : ends[i - 1], ends[i]);
    if (s.massKeys.length !== entry.massGroups || s.sequenceEnds.length !== entry.peptides)
      problems.push(`shard ${entry.file} counts differ from its entry`);
    if (s.massKeys[0] !== entry.firstKey || s.massKeys[s.massKeys.length - 1] !== entry.lastKey)
      problems.push(`shard ${entry.file} keys differ from its entry`);
    const letters = lettersText(s.sequences); // one string a shard, its peptides cut from it
    let p = 0;
    for (let g = 0; g < s.massKeys.length; g++) {
      const key = s.massKeys[g];
      if (keys.length > 0 && !(keys[keys.length - 1] < key)) problems.push(`mass keys not ascending at ${key}`);
      keys.push(key);
      for (; p < s.groupEnds[g]; p++) {
        const seq = letters.slice(p === 0 ? 0 : s.sequenceEnds[p - 1], s.sequenceEnds[p]);
        if (seen.has(seq)) problems.push(`peptide ${seq} appears twice`);
        seen.add(seq);
        sequences.push(seq);
        for (let r = p === 0 ? 0 : s.accessionRefEnds[p - 1]; r < s.accessionRefEnds[p]; r++)
          accessionIds.push(s.accessionRefs[r]);
        accessionEnds.push(accessionIds.length);
      }
      groupEnds.push(sequences.length);
    }
  }
  return {
    manifest,
    shardEntries: entries,
    indexPages: manifest.shardIndex ? treeLevels(dir, manifest.shardIndex, manifest.compression).flat() : [],
    keys: Uint32Array.from(keys),
    groupEnds: Uint32Array.from(groupEnds),
    sequences,
    accessionEnds: Uint32Array.from(accessionEnds),
    accessionIds: Uint32Array.from(accessionIds),
    accessionNames,
    accessionTaxIds,
    problems,
  };
}

/** Every peptide whose stored mass key differs from the reference chemistry's key for its sequence. */
export function keyMismatches(ref: ReferenceData, every = 1): string[] {
  const wrong: string[] = [];
  for (let g = 0, p = 0; g < ref.keys.length; g++) {
    for (; p < ref.groupEnds[g]; p++) {
      if (p % every !== 0) continue;
      if (referencePeptideKey(ref.sequences[p]) !== ref.keys[g]) wrong.push(ref.sequences[p]);
    }
  }
  return wrong;
}

export type EndpointPath = '/search.php' | '/search-peptide.php' | '/search-taxonomy.php';

/** A query as typed parameters (absent = not sent). */
export interface RefQuery {
  endpoint: EndpointPath;
  mass1?: string;
  mass2?: string;
  peptide?: string;
  page?: string;
  pageSize?: string;
}

export function queryPath(q: RefQuery): string {
  const params = new URLSearchParams();
  for (const name of ['mass1', 'mass2', 'peptide', 'page', 'pageSize'] as const)
    if (q[name] !== undefined) params.set(name, q[name]!);
  const search = params.toString();
  return search ? `${q.endpoint}?${search}` : q.endpoint;
}

export interface RefAnswer {
  status: number;
  body?: { totalResult: number; page: number; pageSize: number; result: Record<string, unknown[]>[] };
}

const DEFAULT_PAGE_SIZE: Record<EndpointPath, number> = {
  '/search.php': 10,
  '/search-peptide.php': 1000,
  '/search-taxonomy.php': 1000,
};

/**
 * The answer the API must give, for queries in the generator's domain: valid parameters, or exactly one
 * invalid one of the kinds the generator makes (a page/pageSize out of range, mass1 > mass2, a peptide with
 * a letter that has no mass).
 */
export function referenceAnswer(ref: ReferenceData, q: RefQuery): RefAnswer {
  const integer = (text: string | undefined, fallback: number, max: number): number | RefAnswer => {
    if (text === undefined) return fallback;
    if (!/^\d{1,10}$/.test(text) || Number(text) > 2 ** 31 - 1)
      throw new Error(`reference: page text ${text} outside the generator's domain`);
    const n = Number(text);
    return n >= 1 && n <= max ? n : { status: 400 };
  };
  const page = integer(q.page, 1, 2 ** 31 - 1);
  const pageSize = integer(q.pageSize, DEFAULT_PAGE_SIZE[q.endpoint], 1000);
  if (typeof page !== 'number') return page;
  if (typeof pageSize !== 'number') return pageSize;
  let low: bigint;
  let high: bigint;
  const peptide = q.peptide?.replace(/^[ \t\n\r]+|[ \t\n\r]+$/g, '');
  if (q.endpoint === '/search-peptide.php' || (q.endpoint === '/search.php' && peptide)) {
    if (!peptide) return { status: 400 };
    if (peptide.length > 1000) return { status: 400 };
    const key = referencePeptideKey(peptide.replace(/[a-z]/g, (c) => c.toUpperCase()));
    if (key === null) return { status: 400 };
    low = high = BigInt(key);
  } else {
    const m1 = referenceDecimal(q.mass1 ?? '');
    const m2 = referenceDecimal(q.mass2 ?? '');
    if (!m1 || !m2) throw new Error(`reference: masses ${q.mass1} ${q.mass2} outside the generator's domain`);
    // mass1 > mass2, compared exactly: m1.num * 10^m2.scale > m2.num * 10^m1.scale
    if (m1.num * 10n ** BigInt(m2.scale) > m2.num * 10n ** BigInt(m1.scale)) return { status: 400 };
    low = keyBounds(m1).ceil;
    high = keyBounds(m2).floor;
  }
  // The groups from lo to hi: a run of the global key list, which ascends (loadReference reports it if not).
  const clamp = (b: bigint) => (b < 0n ? -1 : b > 2n ** 40n ? 2 ** 40 : Number(b)); // keys are 32-bit
  const [lo, hi] = [clamp(low), clamp(high)];
  const first = lowerBound(ref.keys, lo);
  const total = Math.max(0, lowerBound(ref.keys, hi + 1) - first);
  const onPage: number[] = [];
  for (let i = (page - 1) * pageSize; i < Math.min(total, page * pageSize); i++) onPage.push(first + i);
  const taxonomy = q.endpoint === '/search-taxonomy.php';
  const result = onPage.map((g) => {
    const entries: unknown[] = [];
    for (let p = g === 0 ? 0 : ref.groupEnds[g - 1]; p < ref.groupEnds[g]; p++) {
      const ids = Array.from(ref.accessionIds.subarray(p === 0 ? 0 : ref.accessionEnds[p - 1], ref.accessionEnds[p]));
      entries.push(
        taxonomy
          ? {
              seq: ref.sequences[p],
              accsTax: ids.map((id) => ({ acc: ref.accessionNames[id], taxId: ref.accessionTaxIds[id] })),
            }
          : { seq: ref.sequences[p], acc: ids.map((id) => ref.accessionNames[id]) },
      );
    }
    return { [referenceKeyText(ref.keys[g])]: entries };
  });
  return { status: 200, body: { totalResult: total, page, pageSize, result } };
}

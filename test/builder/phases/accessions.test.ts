// Tests builder/phases/accessions.ts: rankAccessions over HeaderRuns (builder/inputs/headerRuns.ts, several runs on
// disk) equals a brute-force reference over plain records: ranks are positions in the sorted unique accessions, every
// protein's rank points at its accession, and a rank's fields and sequence, handed on rank by rank, come from its
// accession's first record (taxId from OX=, else the taxonomy TSV, else -1).
import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { rankAccessions, type RankFields } from '../../../builder/phases/accessions.js';
import type { HeaderFields } from '../../../builder/inputs/fasta.js';
import { HeaderRuns } from '../../../builder/inputs/headerRuns.js';

type Input = HeaderFields & { sequence?: string };

function reference(records: Input[], taxonomy: Map<string, number>) {
  const sorted = [...new Set(records.map((r) => r.accession))].sort();
  // Each accession's position in `sorted`, its first record and its number of records, by one pass each.
  const position = new Map(sorted.map((a, i) => [a, i]));
  const firstOf = new Map<string, Input>();
  const recordsOf = new Map<string, number>();
  for (const r of records) {
    if (!firstOf.has(r.accession)) firstOf.set(r.accession, r);
    recordsOf.set(r.accession, (recordsOf.get(r.accession) ?? 0) + 1);
  }
  const first = sorted.map((a) => firstOf.get(a)!);
  const duplicates = sorted.filter((a) => recordsOf.get(a)! > 1);
  return {
    rankOf: records.map((r) => position.get(r.accession)!),
    fields: first.map(
      (r): RankFields => ({
        accession: r.accession,
        taxId: r.taxId ?? taxonomy.get(r.accession) ?? -1,
        reviewed: r.reviewed,
        protein: r.protein,
        organism: r.organism,
      }),
    ),
    sequences: first.map((r) => r.sequence ?? ''),
    duplicates: { count: duplicates.length, examples: duplicates.slice(0, 3) },
  };
}

/** One temporary folder for the file's header runs (a folder each case), removed at the end. */
const root = mkdtempSync(join(tmpdir(), 'header-runs-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let cases = 0;

/**
 * Ranks `records` through header runs of `runProteins` each, read back `readBytes` at a time; returns the ranking and
 * the fields handed on.
 */
function rank(records: Input[], taxonomy: Map<string, number>, runProteins: number, readBytes?: number) {
  const headers = new HeaderRuns(join(root, `runs-${cases++}`), runProteins, readBytes);
  for (const r of records) headers.add(r, r.sequence);
  const fields: RankFields[] = [];
  const sequences: string[] = [];
  const ranked = rankAccessions(headers.sorted(), headers.count, taxonomy, (rank, f, sequence) => {
    fields[rank] = f;
    sequences[rank] = sequence;
  });
  headers.remove();
  return { ranked, fields, sequences };
}

const record = fc.record({
  accession: fc.oneof(
    fc.constantFrom('P12345', 'Q9XYZ1', 'A0A023', 'A0A0', 'é', '\u{1F600}', '\uE000'),
    fc.string({ minLength: 1, maxLength: 8 }),
  ),
  taxId: fc.option(fc.integer({ min: 0, max: 3_000_000 }), { nil: undefined }),
  reviewed: fc.boolean(),
  protein: fc.string(),
  organism: fc.constantFrom('', 'Homo sapiens (Human)', 'Escherichia coli (strain K12)', 'Mus musculus', 'Ünïcödé 🦠'),
  sequence: fc.option(fc.stringMatching(/^[A-Z]{1,40}$/), { nil: undefined }),
});

describe('rankAccessions', () => {
  it('equals a brute-force ranking of the records, whatever the runs and read buffers', () => {
    fc.assert(
      fc.property(
        fc.array(record, { maxLength: 80 }),
        fc.array(fc.tuple(fc.constantFrom('P12345', 'A0A0', 'é'), fc.integer({ min: 1, max: 99 }))),
        fc.integer({ min: 1, max: 100 }),
        fc.constantFrom(undefined, 1, 24, 100, 4096),
        (records, tsv, runProteins, readBytes) => {
          const taxonomy = new Map(tsv);
          const { ranked, fields, sequences } = rank(records, taxonomy, runProteins, readBytes);
          const expected = reference(records, taxonomy);
          expect(ranked.count).toBe(expected.fields.length);
          expect(fields).toEqual(expected.fields);
          expect(sequences).toEqual(expected.sequences);
          expect(Array.from(ranked.rankOf)).toEqual(expected.rankOf);
          expect(Array.from(ranked.taxIds)).toEqual(expected.fields.map((f) => f.taxId));
          expect(Array.from(ranked.reviewed)).toEqual(expected.fields.map((f) => (f.reviewed ? 1 : 0)));
          expect(ranked.duplicates).toEqual(expected.duplicates);
          expect(ranked.withoutTaxId).toBe(expected.fields.filter((f) => f.taxId === -1).length);
          expect(ranked.reviewedCount).toBe(expected.fields.filter((f) => f.reviewed).length);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('ranks 20,000 proteins in runs of 3,000 as the reference does', () => {
    const records: HeaderFields[] = Array.from({ length: 20_000 }, (_, i) => ({
      accession: `A0A${String((i * 7919) % 15_000).padStart(6, '0')}`,
      taxId: i % 5 === 0 ? undefined : 9606 + (i % 3),
      reviewed: i % 4 === 0,
      protein: `Protein ${i} ${'x'.repeat(i % 97)}`,
      organism: `Organism ${i % 11}`,
    }));
    const { ranked, fields } = rank(records, new Map(), 3_000);
    const expected = reference(records, new Map());
    expect(Array.from(ranked.rankOf)).toEqual(expected.rankOf);
    expect(fields).toEqual(expected.fields);
    expect(ranked.duplicates).toEqual(expected.duplicates);
    expect(ranked.rankOf.buffer).toBeInstanceOf(SharedArrayBuffer);
  });
});

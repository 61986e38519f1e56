// Tests build/accessions.ts: rankAccessions over ProteinHeaders equals a brute-force reference over plain records:
// ranks are positions in the sorted unique accessions, every protein's rank points at its accession, and a rank's
// fields come from its accession's first record (taxId from OX=, else the taxonomy TSV, else -1); textBytes is
// the UTF-8 size of the accessions joined by newlines, and checkAccessionText refuses a table past its limit.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkAccessionText, MAX_ACCESSION_TEXT, ProteinHeaders, rankAccessions } from '../../build/accessions.js';
import { BuildError } from '../../build/fasta.js';
import type { HeaderFields } from '../../build/fasta.js';

function reference(records: HeaderFields[], taxonomy: Map<string, number>) {
  const sorted = [...new Set(records.map((r) => r.accession))].sort();
  const first = sorted.map((a) => records.find((r) => r.accession === a)!);
  return {
    sorted,
    rankOf: records.map((r) => sorted.indexOf(r.accession)),
    taxIds: first.map((r) => r.taxId ?? taxonomy.get(r.accession) ?? -1),
    reviewed: first.map((r) => (r.reviewed ? 1 : 0)),
    proteins: first.map((r) => r.protein),
    organisms: first.map((r) => r.organism),
    duplicates: sorted.filter((a) => records.filter((r) => r.accession === a).length > 1),
  };
}

const record = fc.record({
  accession: fc.oneof(fc.constantFrom('P12345', 'Q9XYZ1', 'A0A023', 'A0A0', 'é', '\u{1F600}', '\uE000'), fc.string({ minLength: 1, maxLength: 8 })),
  taxId: fc.option(fc.integer({ min: 0, max: 3_000_000 }), { nil: undefined }),
  reviewed: fc.boolean(),
  protein: fc.string(),
  organism: fc.constantFrom('', 'Homo sapiens (Human)', 'Escherichia coli (strain K12)', 'Mus musculus'),
});

describe('rankAccessions', () => {
  it('equals a brute-force ranking of the records', () => {
    fc.assert(
      fc.property(fc.array(record, { maxLength: 80 }), fc.array(fc.tuple(fc.constantFrom('P12345', 'A0A0', 'é'), fc.integer({ min: 1, max: 99 }))), (records, tsv) => {
        const headers = new ProteinHeaders();
        for (const r of records) headers.add(r);
        const taxonomy = new Map(tsv);
        const ranked = rankAccessions(headers, taxonomy);
        const expected = reference(records, taxonomy);
        expect(headers.count).toBe(records.length);
        expect(ranked.count).toBe(expected.sorted.length);
        expect(Array.from({ length: ranked.count }, (_, r) => ranked.accession(r))).toEqual(expected.sorted);
        expect(Array.from(ranked.rankOf)).toEqual(expected.rankOf);
        expect(Array.from(ranked.taxIds)).toEqual(expected.taxIds);
        expect(Array.from(ranked.reviewed)).toEqual(expected.reviewed);
        expect(Array.from({ length: ranked.count }, (_, r) => ranked.protein(r))).toEqual(expected.proteins);
        expect(Array.from({ length: ranked.count }, (_, r) => ranked.organism(r))).toEqual(expected.organisms);
        expect(ranked.duplicates).toEqual(expected.duplicates);
        expect(ranked.withoutTaxId).toBe(expected.taxIds.filter((t) => t === -1).length);
        expect(ranked.reviewedCount).toBe(expected.reviewed.filter((r) => r === 1).length);
        expect(ranked.textBytes).toBe(Buffer.byteLength(expected.sorted.join('\n')));
      }),
      { numRuns: 300 },
    );
  });

  it('ranks 20,000 proteins (several blocks) as the reference does', () => {
    const records: HeaderFields[] = Array.from({ length: 20_000 }, (_, i) => ({
      accession: `A0A${String((i * 7919) % 15_000).padStart(6, '0')}`,
      taxId: i % 5 === 0 ? undefined : 9606 + (i % 3),
      reviewed: i % 4 === 0,
      protein: `Protein ${i}`,
      organism: `Organism ${i % 11}`,
    }));
    const headers = new ProteinHeaders();
    for (const r of records) headers.add(r);
    const ranked = rankAccessions(headers, new Map());
    const expected = reference(records, new Map());
    expect(Array.from(ranked.rankOf)).toEqual(expected.rankOf);
    expect(Array.from({ length: ranked.count }, (_, r) => ranked.protein(r))).toEqual(expected.proteins);
    expect(ranked.duplicates).toEqual(expected.duplicates);
  });
});

describe('checkAccessionText', () => {
  it('lets a table up to the limit through and refuses one past it, naming the sizes', () => {
    expect(() => checkAccessionText({ count: 3, textBytes: 20 }, 20)).not.toThrow();
    expect(() => checkAccessionText({ count: 3, textBytes: 21 }, 20)).toThrow(BuildError);
    expect(() => checkAccessionText({ count: 3, textBytes: 21 }, 20)).toThrow(/3 accessions need an accession table of 21 characters, past the 20 one table can hold/);
  });

  it('defaults to the longest string V8 makes', () => {
    expect(MAX_ACCESSION_TEXT).toBe(2 ** 29 - 24);
    expect(() => 'x'.repeat(MAX_ACCESSION_TEXT + 1)).toThrow(RangeError);
  });
});

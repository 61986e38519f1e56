// Tests builder/inputs/headerRuns.ts: whatever the run size and the read buffer (smaller than a record, so records
// straddle reads and the buffer grows), sorted() gives back every record added, with its ordinal and its sequence
// ("" when none was given), in the order of a plain sort by accession (JavaScript's `<`) then ordinal; remove()
// deletes the runs.
import fc from 'fast-check';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { HeaderFields } from '../../../builder/inputs/fasta.js';
import { HeaderRuns } from '../../../builder/inputs/headerRuns.js';

const record: fc.Arbitrary<HeaderFields & { sequence?: string }> = fc.record(
  {
    accession: fc.oneof(
      fc.constantFrom('P12345', 'A0A0', 'é', '\u{1F600}', '\uE000'),
      fc.string({ minLength: 1, maxLength: 6 }),
    ),
    taxId: fc.option(fc.integer({ min: 0, max: 2 ** 31 - 1 }), { nil: undefined }),
    reviewed: fc.boolean(),
    protein: fc.oneof(fc.string({ maxLength: 40 }), fc.constant('β-lactamase "TEM" '.repeat(300))),
    organism: fc.oneof(fc.constant(''), fc.string({ unit: 'binary', maxLength: 12 })),
    // Residues as the FASTA reader hands them on: none, a few, or a long protein (titin-sized runs straddle any read).
    sequence: fc.oneof(
      fc.stringMatching(/^[A-Z]{0,30}$/),
      fc.integer({ min: 1, max: 40_000 }).map((n) => 'MKTAYIAKQRQISFVKSHFSRQ'.repeat(Math.ceil(n / 22)).slice(0, n)),
    ),
  },
  { requiredKeys: ['accession', 'taxId', 'reviewed', 'protein', 'organism'] },
);

/** One temporary folder for the file's runs (a folder each case), removed at the end. */
const root = mkdtempSync(join(tmpdir(), 'header-runs-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let cases = 0;

describe('HeaderRuns', () => {
  it('gives back every record in (accession, ordinal) order', () => {
    fc.assert(
      fc.property(
        fc.array(record, { maxLength: 60 }),
        fc.integer({ min: 1, max: 70 }),
        fc.constantFrom(undefined, 1, 30, 512),
        (records, runProteins, readBytes) => {
          const dir = join(root, `runs-${cases++}`);
          const runs = new HeaderRuns(dir, runProteins, readBytes);
          for (const r of records) runs.add(r, r.sequence);
          expect(runs.count).toBe(records.length);
          const expected = records
            .map((r, ordinal) => ({ ...r, ordinal, sequence: r.sequence ?? '' }))
            .sort((a, b) => (a.accession < b.accession ? -1 : a.accession > b.accession ? 1 : a.ordinal - b.ordinal));
          expect([...runs.sorted()]).toEqual(expected);
          expect(readdirSync(dir).length).toBe(Math.ceil(records.length / runProteins));
          runs.remove();
          expect(existsSync(dir)).toBe(false);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('closes every run file when the reader stops early', () => {
    const openFiles = () => readdirSync('/proc/self/fd').length;
    const runs = new HeaderRuns(join(root, `runs-${cases++}`), 3);
    for (let i = 0; i < 12; i++)
      runs.add({ accession: `P${(i * 7) % 12}`, taxId: undefined, reviewed: false, protein: '', organism: '' });
    const before = openFiles();
    const sorted = runs.sorted();
    expect([sorted.next().value.accession, sorted.next().value.accession]).toEqual(['P0', 'P1']);
    expect(openFiles()).toBe(before + 4); // the four runs, each read from its head
    sorted.return(undefined);
    expect(openFiles()).toBe(before);
    runs.remove();
  });
});

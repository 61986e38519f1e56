// Tests build/proteinTable.ts: writeProteinPages cuts the accession-ordered columns into pages of the given size
// (2,048 by default; the last may hold fewer), each a JSON ProteinPage named by the first 20 hex digits of its
// sha256, whose manifest entry describes the file and its first and last accession; the pages concatenate back
// to the columns.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeProteinPages } from '../../build/proteinTable.js';
import type { ProteinPage } from '../../runtime/model/format.js';
import { removeTempDirs, tempDir } from '../helpers/datasets.js';

afterAll(removeTempDirs);

/** n accessions, ascending, with varied columns (names with quotes, non-ASCII, empty). */
function columns(n: number) {
  const sorted = Array.from({ length: n }, (_, i) => `A${String(i).padStart(6, '0')}`);
  return {
    sorted,
    taxIds: Int32Array.from(sorted, (_, i) => (i % 7 === 0 ? -1 : 1000 + (i % 13))),
    reviewed: Uint8Array.from(sorted, (_, i) => (i % 3 === 0 ? 1 : 0)),
    proteins: sorted.map((_, i) => (i % 5 === 0 ? '' : `Protein "${i}" β`)),
    organisms: sorted.map((_, i) => (i % 4 === 0 ? '' : `Organism ${i % 9} (strain \\${i})`)),
  };
}

function pagesOf(dir: string, files: string[]): ProteinPage[] {
  return files.map((file) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as ProteinPage);
}

describe('writeProteinPages', () => {
  it('writes pages of 2,048 accessions (the last fewer) that concatenate back to the columns', () => {
    const dir = tempDir('protein-pages');
    const table = columns(2048 * 2 + 5);
    const entries = writeProteinPages(dir, table);
    expect(entries.map((e) => e.accessions)).toEqual([2048, 2048, 5]);
    expect(readdirSync(dir).sort()).toEqual(entries.map((e) => e.file).sort());
    const pages = pagesOf(dir, entries.map((e) => e.file));
    expect(pages.every((p) => p.formatVersion === 1)).toBe(true);
    expect(pages.flatMap((p) => p.accessions)).toEqual(table.sorted);
    expect(pages.flatMap((p) => p.taxIds)).toEqual(Array.from(table.taxIds));
    expect(pages.flatMap((p) => p.reviewed)).toEqual(Array.from(table.reviewed));
    expect(pages.flatMap((p) => p.proteins)).toEqual(table.proteins);
    expect(pages.flatMap((p) => p.organisms)).toEqual(table.organisms);
    for (const page of pages) expect(Object.keys(page).sort()).toEqual(['accessions', 'formatVersion', 'organisms', 'proteins', 'reviewed', 'taxIds']);
  });

  it('names each page by its sha256; its entry gives bytes and first and last accession', () => {
    const dir = tempDir('protein-entries');
    const table = columns(25);
    const entries = writeProteinPages(dir, table, 10);
    expect(entries).toHaveLength(3);
    entries.forEach((entry, i) => {
      const bytes = readFileSync(join(dir, entry.file));
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      const page = JSON.parse(bytes.toString('utf8')) as ProteinPage;
      expect(entry).toEqual({
        file: `proteins-${sha256.slice(0, 20)}.json`, sha256, bytes: bytes.length,
        firstAccession: table.sorted[i * 10], lastAccession: table.sorted[Math.min(i * 10 + 9, 24)], accessions: page.accessions.length,
      });
      expect(page.accessions[0]).toBe(entry.firstAccession);
      expect(page.accessions.at(-1)).toBe(entry.lastAccession);
    });
    // UTF-8 JSON: the non-ASCII names come back as they were.
    expect(pagesOf(dir, [entries[0].file])[0].proteins[1]).toBe('Protein "1" β');
  });

  it('writes one page for a table that fits, none for an empty one', () => {
    const one = tempDir('protein-one');
    expect(writeProteinPages(one, columns(2048)).map((e) => e.accessions)).toEqual([2048]);
    const none = tempDir('protein-none');
    expect(writeProteinPages(none, columns(0))).toEqual([]);
    expect(readdirSync(none)).toEqual([]);
  });
});

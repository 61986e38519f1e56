// Two folders compared file by file: the same paths, folders included, and byte-equal contents. Buffer.equals on
// each pair rather than a deep equality of the two snapshot maps, which walks every byte as an element; a failure
// names the paths that are missing, extra or different.
import { expect } from 'vitest';
import { snapshot } from './datasets.js';

/** Paths of two snapshots (datasets.ts snapshot) that one lacks, or whose bytes differ; empty when they are the same. */
export function folderDifferences(
  got: ReadonlyMap<string, Buffer | null>,
  expected: ReadonlyMap<string, Buffer | null>,
): string[] {
  const differences: string[] = [];
  for (const [path, bytes] of expected) {
    if (!got.has(path)) differences.push(`missing ${path}`);
    else {
      const mine = got.get(path)!;
      const same = bytes === null || mine === null ? bytes === mine : bytes.equals(mine);
      if (!same) differences.push(`different ${path}`);
    }
  }
  for (const path of got.keys()) if (!expected.has(path)) differences.push(`extra ${path}`);
  return differences;
}

/** Asserts that folder `got` holds exactly the folders and files of `expected`, byte for byte. */
export function expectSameFolder(got: string, expected: string): void {
  const [mine, theirs] = [snapshot(got), snapshot(expected)];
  expect(folderDifferences(mine, theirs)).toEqual([]);
  expect(mine.size).toBe(theirs.size);
}

// Tests builder/writers/pageTree.ts on plain values (fast-check): chunks cuts consecutive runs; pageTree adds levels of
// inner pages until the root fits, each inner page holding at most innerPages consecutive entries of the level
// below, the leaves in order under them, `levels` only from 2 on and as many as the smallest tree that fits
// needs (counted here by repeated division); treePages lists every page from the root down and the leaves.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunks, pageTree, treePages } from '../../../builder/writers/pageTree.js';

/** An entry of a page: its name, and the leaves below it. */
interface Node {
  file: string;
  leaves: number[];
}

describe('chunks', () => {
  it('cuts consecutive runs of size, the last shorter', () => {
    expect(chunks([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(chunks([], 3)).toEqual([]);
  });
});

describe('pageTree', () => {
  it('narrows until the root fits, in as many levels as needed, keeping the leaves in order', () => {
    fc.assert(
      fc.property(
        fc.nat(300),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 2, max: 5 }),
        (n, rootLimit, innerPages) => {
          let expectedLevels = 1;
          for (let width = n; width > rootLimit; width = Math.ceil(width / innerPages)) expectedLevels++;
          const leaves: Node[] = Array.from({ length: n }, (_, i) => ({ file: `leaf-${i}`, leaves: [i] }));
          const inner = new Map<string, Node[]>();
          const build = () =>
            pageTree(
              leaves,
              (children) => {
                expect(children.length).toBeGreaterThan(0);
                expect(children.length).toBeLessThanOrEqual(innerPages);
                const node = { file: `inner-${inner.size}`, leaves: children.flatMap((c) => c.leaves) };
                inner.set(node.file, children);
                return node;
              },
              { rootLimit, innerPages },
            );
          if (expectedLevels > 4) {
            expect(build).toThrow(`${n} pages need ${expectedLevels} levels of index pages; readers accept 4 at most`);
            return;
          }
          const root = build();
          expect(root.pages.length).toBeLessThanOrEqual(rootLimit);
          expect(root.levels).toBe(expectedLevels > 1 ? expectedLevels : undefined);
          expect('levels' in root).toBe(expectedLevels > 1);
          expect(root.pages.flatMap((p) => p.leaves)).toEqual(leaves.map((_, i) => i));
          const { pages, leaves: bottom } = treePages(root, (file) => inner.get(file)!);
          expect(bottom).toEqual(leaves);
          expect(pages).toHaveLength(inner.size + n);
          expect(pages.slice(0, root.pages.length)).toEqual(root.pages);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('refuses a shape that cannot narrow', () => {
    expect(() => pageTree([1, 2, 3], (c) => c[0], { rootLimit: 0, innerPages: 2 })).toThrow(/root of 1 entry or more/);
    expect(() => pageTree([1, 2, 3], (c) => c[0], { rootLimit: 1, innerPages: 1 })).toThrow(/inner pages of 2 or more/);
  });
});

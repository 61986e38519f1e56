// NCBI Taxonomy from a taxdump folder (`nodes.dmp`, `names.dmp`): the whole tree read and checked in typed arrays
// (NCBI's has millions of nodes), then pruned to the lineages of the dataset's taxIds with their scientific names.
import { createReadStream, statSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_TAX_ID } from '../../runtime/model/format.js';
import { BuildError } from '../errors.js';

export const TAXDUMP_FILES = ['nodes.dmp', 'names.dmp'] as const;

/** NCBI's root: taxId 1, its own parent. */
export const ROOT_TAX_ID = 1;

/** The whole tree of nodes.dmp, checked: every parent is a node, every lineage reaches the root. */
export interface TaxdumpTree {
  /** The taxdump folder (names.dmp is read from it when pruning). */
  dir: string;
  /** Node taxIds, ascending and unique. */
  taxIds: Int32Array;
  /** Index (in taxIds) of each node's parent; the root's is its own. */
  parents: Int32Array;
  /** Rank of each node, as an index into rankNames. */
  ranks: Uint16Array;
  rankNames: string[];
}

/** The tree pruned to the lineages of the dataset's taxIds: columns by ascending taxId. */
export interface Taxonomy {
  taxIds: Int32Array;
  /** Index of each node's parent in these columns; the root's is its own. */
  parents: Int32Array;
  ranks: string[];
  names: string[];
}

/** Index of `taxId` in the ascending `taxIds`, or -1. */
export function indexOfTaxId(taxIds: Int32Array, taxId: number): number {
  let lo = 0;
  let hi = taxIds.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (taxIds[mid] < taxId) lo = mid + 1;
    else if (taxIds[mid] > taxId) hi = mid - 1;
    else return mid;
  }
  return -1;
}

/** The taxId written in line[start, end) (decimal, 1..MAX_TAX_ID), or -1. */
function taxIdAt(line: string, start: number, end: number): number {
  if (end <= start || end - start > 10) return -1;
  let value = 0;
  for (let i = start; i < end; i++) {
    const digit = line.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value >= 1 && value <= MAX_TAX_ID ? value : -1;
}

/**
 * Calls `onLine` with each line of a UTF-8 file (without its end, '\r' dropped) and its number, streamed.
 * A line handed over may be a slice of a large chunk: copy what is kept (see `own`).
 */
async function forEachLine(path: string, onLine: (line: string, number: number) => void): Promise<void> {
  let carry = '';
  let number = 0;
  const stream = createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 20 });
  try {
    for await (const chunk of stream as AsyncIterable<string>) {
      const text = carry + chunk;
      let at = 0;
      for (let end = text.indexOf('\n'); end >= 0; end = text.indexOf('\n', at)) {
        onLine(text.charCodeAt(end - 1) === 13 ? text.slice(at, end - 1) : text.slice(at, end), ++number);
        at = end + 1;
      }
      carry = text.slice(at);
    }
  } catch (e) {
    if (e instanceof BuildError) throw e;
    throw new BuildError(`cannot read --taxdump ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  } finally {
    stream.destroy();
  }
  if (carry !== '') onLine(carry.endsWith('\r') ? carry.slice(0, -1) : carry, ++number);
}

/** A fresh copy of a string, so a kept value never pins the chunk it was sliced from. */
const own = (text: string) => Buffer.from(text, 'utf8').toString('utf8');

/** Field separator and line end of the taxdump format. */
const SEPARATOR = '\t|\t';
const LINE_END = '\t|';

function malformed(file: string, number: number, expected: string): BuildError {
  return new BuildError(`--taxdump ${file} line ${number}: malformed, expected ${expected}`);
}

/** Checks that the folder holds both files; reads and checks nodes.dmp (see TaxdumpTree). */
export async function readTaxdumpTree(dir: string): Promise<TaxdumpTree> {
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory())
    throw new BuildError(`--taxdump ${dir} is not a folder (it should hold NCBI's nodes.dmp and names.dmp)`);
  for (const file of TAXDUMP_FILES) {
    if (!statSync(join(dir, file), { throwIfNoEntry: false })?.isFile())
      throw new BuildError(`--taxdump ${dir} has no ${file} (NCBI's taxdump.tar.gz, unpacked)`);
  }
  let count = 0;
  let taxIds = new Int32Array(1 << 16);
  let parentIds = new Int32Array(1 << 16);
  let ranks = new Uint16Array(1 << 16);
  const rankNames: string[] = [];
  const rankCodes = new Map<string, number>();
  await forEachLine(join(dir, 'nodes.dmp'), (line, number) => {
    if (line === '') return;
    const idEnd = line.indexOf(SEPARATOR);
    const parentEnd = idEnd < 0 ? -1 : line.indexOf(SEPARATOR, idEnd + 3);
    const rankEnd = parentEnd < 0 ? -1 : line.indexOf(LINE_END, parentEnd + 3);
    const taxId = taxIdAt(line, 0, idEnd);
    const parent = taxIdAt(line, idEnd + 3, parentEnd);
    if (rankEnd < 0 || taxId < 0 || parent < 0 || !line.endsWith(LINE_END))
      throw malformed('nodes.dmp', number, 'taxId\\t|\\tparent taxId\\t|\\trank\\t|...\\t|');
    const rank = line.slice(parentEnd + 3, rankEnd);
    let code = rankCodes.get(rank);
    if (code === undefined) {
      if (rankNames.length > 0xffff) throw malformed('nodes.dmp', number, 'at most 65,536 distinct ranks');
      const name = own(rank);
      rankCodes.set(name, (code = rankNames.push(name) - 1));
    }
    if (count === taxIds.length) {
      taxIds = grow(taxIds);
      parentIds = grow(parentIds);
      ranks = grow(ranks);
    }
    taxIds[count] = taxId;
    parentIds[count] = parent;
    ranks[count++] = code;
  });
  return checkedTree(dir, taxIds.subarray(0, count), parentIds.subarray(0, count), ranks.subarray(0, count), rankNames);
}

function grow<T extends Int32Array | Uint16Array>(array: T): T {
  const bigger = new (array.constructor as new (length: number) => T)(array.length * 2);
  bigger.set(array);
  return bigger;
}

/** The tree sorted by taxId, with parent indexes; throws on a repeated taxId, an unknown parent or a cycle. */
function checkedTree(
  dir: string,
  taxIds: Int32Array,
  parentIds: Int32Array,
  ranks: Uint16Array,
  rankNames: string[],
): TaxdumpTree {
  const n = taxIds.length;
  let sorted = true;
  for (let i = 1; i < n && sorted; i++) sorted = taxIds[i - 1] < taxIds[i];
  if (!sorted) {
    // NCBI writes nodes.dmp by ascending taxId; any other order is sorted here.
    const order = new Uint32Array(n).map((_, i) => i).sort((a, b) => taxIds[a] - taxIds[b]);
    taxIds = Int32Array.from(order, (i) => taxIds[i]);
    parentIds = Int32Array.from(order, (i) => parentIds[i]);
    ranks = Uint16Array.from(order, (i) => ranks[i]);
    for (let i = 1; i < n; i++)
      if (taxIds[i - 1] === taxIds[i]) throw new BuildError(`--taxdump nodes.dmp: taxId ${taxIds[i]} is listed twice`);
  }
  const root = indexOfTaxId(taxIds, ROOT_TAX_ID);
  if (root < 0) throw new BuildError(`--taxdump nodes.dmp has no root node (taxId ${ROOT_TAX_ID})`);
  if (parentIds[root] !== ROOT_TAX_ID)
    throw new BuildError(
      `--taxdump nodes.dmp: the root (taxId ${ROOT_TAX_ID}) must be its own parent, not ${parentIds[root]}`,
    );
  const parents = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    parents[i] = indexOfTaxId(taxIds, parentIds[i]);
    if (parents[i] < 0)
      throw new BuildError(`--taxdump nodes.dmp: the parent ${parentIds[i]} of taxId ${taxIds[i]} is not in nodes.dmp`);
  }
  // Every lineage must reach the root: walk each node up until a node known to reach it; meeting a node of the
  // walk itself is a cycle. Each node is walked once.
  const state = new Uint8Array(n); // 0 unknown, 1 on the current walk, 2 reaches the root
  const walk = new Int32Array(n);
  state[root] = 2;
  for (let i = 0; i < n; i++) {
    let length = 0;
    let j = i;
    while (state[j] === 0) {
      state[j] = 1;
      walk[length++] = j;
      j = parents[j];
    }
    if (state[j] === 1)
      throw new BuildError(`--taxdump nodes.dmp: taxId ${taxIds[j]} is its own ancestor (a cycle in the parent links)`);
    for (let k = 0; k < length; k++) state[walk[k]] = 2;
  }
  return { dir, taxIds, parents, ranks, rankNames };
}

/**
 * The nodes on the lineage of each known taxId of `datasetTaxIds` (-1: unknown), named from names.dmp;
 * `nodeOf[i]` is datasetTaxIds[i]'s node in it, -1 when it has none (no taxId, or not in the tree).
 */
export async function pruneToLineages(
  tree: TaxdumpTree,
  datasetTaxIds: Int32Array,
): Promise<{ taxonomy: Taxonomy; nodeOf: Int32Array; withoutLineage: number }> {
  const kept = new Uint8Array(tree.taxIds.length);
  const treeNodeOf = new Int32Array(datasetTaxIds.length);
  let withoutLineage = 0;
  for (let a = 0; a < datasetTaxIds.length; a++) {
    const node = datasetTaxIds[a] < 0 ? -1 : indexOfTaxId(tree.taxIds, datasetTaxIds[a]);
    treeNodeOf[a] = node;
    if (node < 0) {
      if (datasetTaxIds[a] >= 0) withoutLineage++;
      continue;
    }
    for (let j = node; kept[j] === 0; j = tree.parents[j]) kept[j] = 1;
  }
  // Kept nodes in ascending taxId order, and each tree node's index among them.
  const prunedIndex = new Int32Array(tree.taxIds.length).fill(-1);
  const keptNodes: number[] = [];
  for (let i = 0; i < kept.length; i++) if (kept[i]) prunedIndex[i] = keptNodes.push(i) - 1;
  const taxIds = Int32Array.from(keptNodes, (i) => tree.taxIds[i]);
  const taxonomy: Taxonomy = {
    taxIds,
    parents: Int32Array.from(keptNodes, (i) => prunedIndex[tree.parents[i]]),
    ranks: keptNodes.map((i) => tree.rankNames[tree.ranks[i]]),
    names: await readScientificNames(tree.dir, taxIds),
  };
  const nodeOf = Int32Array.from(treeNodeOf, (i) => (i < 0 ? -1 : prunedIndex[i]));
  return { taxonomy, nodeOf, withoutLineage };
}

/** The scientific name of each node of `taxIds` (ascending); the first one names.dmp gives wins. */
async function readScientificNames(dir: string, taxIds: Int32Array): Promise<string[]> {
  const names = new Array<string | undefined>(taxIds.length).fill(undefined);
  await forEachLine(join(dir, 'names.dmp'), (line, number) => {
    if (line === '') return;
    const idEnd = line.indexOf(SEPARATOR);
    const nameEnd = idEnd < 0 ? -1 : line.indexOf(SEPARATOR, idEnd + 3);
    const uniqueEnd = nameEnd < 0 ? -1 : line.indexOf(SEPARATOR, nameEnd + 3);
    const taxId = taxIdAt(line, 0, idEnd);
    if (uniqueEnd < 0 || taxId < 0 || !line.endsWith(LINE_END) || line.length - 2 < uniqueEnd + 3) {
      throw malformed('names.dmp', number, 'taxId\\t|\\tname\\t|\\tunique name\\t|\\tname class\\t|');
    }
    // The name class is the last field: line[uniqueEnd + 3, length - 2).
    if (!line.endsWith('\tscientific name\t|') || line.length - 2 - 'scientific name'.length !== uniqueEnd + 3) return;
    const slot = indexOfTaxId(taxIds, taxId);
    if (slot >= 0 && names[slot] === undefined) names[slot] = own(line.slice(idEnd + 3, nameEnd));
  });
  const missing = names.indexOf(undefined);
  if (missing >= 0) throw new BuildError(`--taxdump names.dmp has no scientific name for taxId ${taxIds[missing]}`);
  return names as string[];
}

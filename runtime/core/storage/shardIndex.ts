// The shard index of a dataset, flat (manifest.shards) or a tree (manifest.shardIndex: a small root of index
// pages, each listing consecutive shards or, above the leaves, consecutive pages): find shards by mass key or by
// global group ordinal, loading only the index pages on the path of a lookup (each once, kept).
import { combinedResidueMax, type IndexPageEntry, type ShardEntry, type ShardIndexRoot } from '../../model/format.js';

/** A shard entry with its position: global index and the count of mass groups in all shards before it. */
export interface LocatedShard {
  index: number;
  entry: ShardEntry;
  groupsBefore: number;
}

/** Reads and checks (against `entry`) an index page: its shards when `leaf`, else its pages. */
export type LoadIndexPage = (
  entry: IndexPageEntry,
  leaf: boolean,
) => Promise<readonly ShardEntry[] | readonly IndexPageEntry[]>;

/** A node of the tree in memory: the root, or an index page read. */
interface Node {
  /** 0: its entries are shards; k > 0: index pages of level k - 1 (leaf pages when k = 1). */
  level: number;
  firstShard: number;
  entries: readonly (ShardEntry | IndexPageEntry)[];
  /** groupsBefore[j] = groups in the dataset before entry j (j = entries.length: after the last). */
  groupsBefore: Float64Array;
  /** The pages below being read or read, by entry (a failed read is forgotten), and those read. */
  reading: Map<number, Promise<Node>>;
  read: Map<number, Node>;
}

/** First index in [0, n) where `isAfter(i)` holds, for a predicate false then true along the range; n if never. */
export function partitionPoint(n: number, isAfter: (i: number) => boolean): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (isAfter(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

function makeNode(
  level: number,
  firstShard: number,
  groupsBeforeNode: number,
  entries: readonly (ShardEntry | IndexPageEntry)[],
): Node {
  const groupsBefore = new Float64Array(entries.length + 1);
  groupsBefore[0] = groupsBeforeNode;
  entries.forEach((e, j) => (groupsBefore[j + 1] = groupsBefore[j] + e.massGroups));
  return { level, firstShard, entries, groupsBefore, reading: new Map(), read: new Map() };
}

/** Picks the entry of a node to follow (any value outside [0, entries.length): none). */
type Step = (node: Node) => number;

/** Entries whose lastKey >= key start here (entries.length when none does). */
const endingAtOrAbove =
  (key: number): Step =>
  (node) =>
    partitionPoint(node.entries.length, (i) => node.entries[i].lastKey >= key);
/** The last entry whose firstKey <= key (-1 when none is). */
const startingAtOrBelow =
  (key: number): Step =>
  (node) =>
    partitionPoint(node.entries.length, (i) => node.entries[i].firstKey > key) - 1;
/** The entry holding mass group number `ordinal`. */
const holdingGroup =
  (ordinal: number): Step =>
  (node) =>
    partitionPoint(node.entries.length, (i) => node.groupsBefore[i + 1] > ordinal);

export class ShardIndex {
  /** Total shards and mass groups in the dataset. */
  readonly shardCount: number;
  readonly groupCount: number;
  /** Levels of index pages below the manifest (0 for a flat index). */
  readonly levels: number;
  /**
   * All shards as one entry: their combined residueMax, when the root's entries give theirs (a bound for every
   * peptide).
   */
  readonly all: { residueMax?: string };
  private root: Node;

  /**
   * @param loadPage fetches and checks an index page; unused for a flat manifest. `manifest.shardIndex.levels`
   *   (absent: 1) must have been checked (readManifest does).
   */
  constructor(
    manifest: ShardIndexRoot,
    private loadPage: LoadIndexPage,
  ) {
    if (manifest.shardIndex) {
      this.levels = manifest.shardIndex.levels ?? 1;
      this.root = makeNode(this.levels, 0, 0, manifest.shardIndex.pages);
      this.shardCount = manifest.shardIndex.pages.reduce((sum, p) => sum + p.shards, 0);
    } else {
      this.levels = 0;
      this.root = makeNode(0, 0, 0, manifest.shards ?? []);
      this.shardCount = this.root.entries.length;
    }
    this.groupCount = this.root.groupsBefore[this.root.entries.length];
    const residueMax = combinedResidueMax(this.root.entries);
    this.all = residueMax === undefined ? {} : { residueMax };
  }

  /** Index pages in the root (1 for a flat manifest with shards). */
  get pageCount(): number {
    return this.levels === 0 ? Math.min(1, this.shardCount) : this.root.entries.length;
  }

  /** Page `i` below `node`, read once (a failed read is tried again next time). */
  private child(node: Node, i: number): Promise<Node> {
    let pending = node.reading.get(i);
    if (!pending) {
      const entry = node.entries[i] as IndexPageEntry;
      pending = this.loadPage(entry, node.level === 1).then((entries) => {
        const child = makeNode(node.level - 1, entry.firstShard, node.groupsBefore[i], entries);
        node.read.set(i, child);
        return child;
      });
      pending.catch(() => node.reading.delete(i));
      node.reading.set(i, pending);
    }
    return pending;
  }

  /**
   * Follows `step` from the root to a shard with the pages in memory: undefined when it leads nowhere, null when a page
   * must be read first.
   */
  private walkNow(step: Step): LocatedShard | undefined | null {
    for (let node = this.root; ; ) {
      const i = step(node);
      if (!(i >= 0 && i < node.entries.length)) return undefined;
      if (node.level === 0)
        return { index: node.firstShard + i, entry: node.entries[i] as ShardEntry, groupsBefore: node.groupsBefore[i] };
      const next = node.read.get(i);
      if (!next) return null;
      node = next;
    }
  }

  /** Follows `step` from the root to a shard, reading the pages on the way. */
  private async walk(step: Step): Promise<LocatedShard | undefined> {
    for (let node = this.root; ; ) {
      const i = step(node);
      if (!(i >= 0 && i < node.entries.length)) return undefined;
      if (node.level === 0)
        return { index: node.firstShard + i, entry: node.entries[i] as ShardEntry, groupsBefore: node.groupsBefore[i] };
      node = node.read.get(i) ?? (await this.child(node, i));
    }
  }

  /**
   * Reads the index pages that hold the shards of keys in [lowKey, highKey] (each once: they stay in memory), and
   * the one holding the shard after them when the range ends past its last shard's last key (a walk along the
   * range steps onto it to see that it starts above the range), so that every `...Now` lookup of the range answers.
   */
  async loadRange(lowKey: number, highKey: number): Promise<void> {
    const visit = async (node: Node): Promise<void> => {
      if (node.level === 0) return;
      const n = node.entries.length;
      const first = endingAtOrAbove(lowKey)(node);
      let last = Math.max(first, startingAtOrBelow(highKey)(node));
      if (last < n && node.entries[last].lastKey < highKey) last++;
      const loads: Promise<void>[] = [];
      for (let i = first; i <= last && i < n; i++) loads.push(this.child(node, i).then(visit));
      await Promise.all(loads);
    };
    await visit(this.root);
  }

  // Each lookup answers at once when the index pages on its path are in memory (`...Now`: null when one is not),
  // or reads them first (the async form).

  firstEndingAtOrAboveNow(key: number): LocatedShard | undefined | null {
    return this.walkNow(endingAtOrAbove(key));
  }

  /** The first shard whose lastKey >= key, or undefined when every shard lies below key. */
  firstEndingAtOrAbove(key: number): Promise<LocatedShard | undefined> {
    return this.walk(endingAtOrAbove(key));
  }

  lastStartingAtOrBelowNow(key: number): LocatedShard | undefined | null {
    return this.walkNow(startingAtOrBelow(key));
  }

  /** The last shard whose firstKey <= key, or undefined when every shard lies above key. */
  lastStartingAtOrBelow(key: number): Promise<LocatedShard | undefined> {
    return this.walk(startingAtOrBelow(key));
  }

  shardOfGroupNow(ordinal: number): LocatedShard | null {
    const located = this.walkNow(holdingGroup(ordinal));
    if (located === undefined) throw new RangeError(`no mass group ${ordinal} among ${this.groupCount}`);
    return located;
  }

  /** The shard holding mass group number `ordinal` (0-based over the whole dataset, ascending mass). */
  async shardOfGroup(ordinal: number): Promise<LocatedShard> {
    const located = await this.walk(holdingGroup(ordinal));
    if (located === undefined) throw new RangeError(`no mass group ${ordinal} among ${this.groupCount}`);
    return located;
  }
}

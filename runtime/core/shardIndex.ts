// The shard index of a dataset, flat (manifest.shards) or two-level (manifest.shardIndex: a small root of
// index pages, each listing consecutive shards): find shards by mass key or by global group ordinal,
// loading only the index pages a query touches.
import type { IndexPageEntry, Manifest, ShardEntry } from '../model/format.js';

/** A shard entry with its position: global index and the count of mass groups in all shards before it. */
export interface LocatedShard {
  index: number;
  entry: ShardEntry;
  groupsBefore: number;
}

interface Page {
  firstShard: number;
  entries: readonly ShardEntry[];
  /** groupsBefore[j] = groups in this page's shards before shard j, plus all earlier pages' groups. */
  groupsBefore: Float64Array;
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

function makePage(firstShard: number, groupsBeforePage: number, entries: readonly ShardEntry[]): Page {
  const groupsBefore = new Float64Array(entries.length + 1);
  groupsBefore[0] = groupsBeforePage;
  entries.forEach((e, j) => (groupsBefore[j + 1] = groupsBefore[j] + e.massGroups));
  return { firstShard, entries, groupsBefore };
}

export class ShardIndex {
  /** Total shards and mass groups in the dataset. */
  readonly shardCount: number;
  readonly groupCount: number;
  private roots: readonly IndexPageEntry[];
  private pageGroupsBefore: Float64Array;
  private pages = new Map<number, Promise<Page>>();
  /** The pages read so far (all of them, for a flat index). */
  private loaded = new Map<number, Page>();

  /**
   * @param loadPage fetches and checks index page `p` (a list of shard entries); unused for a flat manifest.
   */
  constructor(
    manifest: Manifest,
    private loadPage: (entry: IndexPageEntry) => Promise<ShardEntry[]>,
  ) {
    if (manifest.shardIndex) {
      this.roots = manifest.shardIndex.pages;
    } else {
      // A flat index is one page, already in memory.
      const shards = manifest.shards ?? [];
      const whole = (field: 'massGroups' | 'peptides' | 'bytes') => shards.reduce((sum, s) => sum + s[field], 0);
      const root: IndexPageEntry = {
        file: '', sha256: '', bytes: 0, firstShard: 0, shards: shards.length,
        firstKey: shards[0]?.firstKey ?? 0, lastKey: shards[shards.length - 1]?.lastKey ?? 0,
        massGroups: whole('massGroups'), peptides: whole('peptides'),
      };
      this.roots = shards.length ? [root] : [];
      const page = makePage(0, 0, shards);
      this.loaded.set(0, page);
      this.pages.set(0, Promise.resolve(page));
    }
    this.pageGroupsBefore = new Float64Array(this.roots.length + 1);
    this.roots.forEach((r, p) => (this.pageGroupsBefore[p + 1] = this.pageGroupsBefore[p] + r.massGroups));
    this.shardCount = this.roots.reduce((sum, r) => sum + r.shards, 0);
    this.groupCount = this.pageGroupsBefore[this.roots.length];
  }

  /** Index pages in the root (1 for a flat manifest). */
  get pageCount(): number {
    return this.roots.length;
  }

  private page(p: number): Promise<Page> {
    let page = this.pages.get(p);
    if (!page) {
      const root = this.roots[p];
      page = this.loadPage(root).then((entries) => {
        const loaded = makePage(root.firstShard, this.pageGroupsBefore[p], entries);
        this.loaded.set(p, loaded);
        return loaded;
      });
      page.catch(() => this.pages.delete(p)); // a failed load is tried again next time
      this.pages.set(p, page);
    }
    return page;
  }

  /** Reads the index pages that hold the shards of keys in [lowKey, highKey] (each once: they stay in memory). */
  async loadRange(lowKey: number, highKey: number): Promise<void> {
    const first = this.pageEndingAtOrAbove(lowKey);
    const last = Math.max(first, partitionPoint(this.roots.length, (i) => this.roots[i].firstKey > highKey) - 1);
    const loads: Promise<Page>[] = [];
    for (let p = first; p <= last && p < this.roots.length; p++) loads.push(this.page(p));
    await Promise.all(loads);
  }

  /** Shard j of page p, when that page is in memory; null when it must be read first. */
  private locate(p: number, at: (page: Page) => number): LocatedShard | null {
    const page = this.loaded.get(p);
    if (!page) return null;
    const j = at(page);
    return { index: page.firstShard + j, entry: page.entries[j], groupsBefore: page.groupsBefore[j] };
  }

  // Each lookup answers at once when its index page is in memory (`...Now`: null when it is not), or reads the
  // page first (the async form).

  /** The root page holding the first shard whose lastKey >= key (roots.length when none does). */
  private pageEndingAtOrAbove = (key: number) => partitionPoint(this.roots.length, (i) => this.roots[i].lastKey >= key);

  firstEndingAtOrAboveNow(key: number): LocatedShard | undefined | null {
    const p = this.pageEndingAtOrAbove(key);
    if (p === this.roots.length) return undefined;
    return this.locate(p, (page) => partitionPoint(page.entries.length, (j) => page.entries[j].lastKey >= key));
  }

  /** The first shard whose lastKey >= key, or undefined when every shard lies below key. */
  async firstEndingAtOrAbove(key: number): Promise<LocatedShard | undefined> {
    const now = this.firstEndingAtOrAboveNow(key);
    if (now !== null) return now;
    await this.page(this.pageEndingAtOrAbove(key));
    return this.firstEndingAtOrAboveNow(key)!;
  }

  /** The last shard whose firstKey <= key, or undefined when every shard lies above key. */
  async lastStartingAtOrBelow(key: number): Promise<LocatedShard | undefined> {
    const p = partitionPoint(this.roots.length, (i) => this.roots[i].firstKey > key) - 1;
    if (p < 0) return undefined;
    await this.page(p);
    return this.locate(p, (page) => partitionPoint(page.entries.length, (j) => page.entries[j].firstKey > key) - 1)!;
  }

  /** The root page holding mass group number `ordinal`. */
  private pageOfGroup = (ordinal: number) => partitionPoint(this.roots.length, (i) => this.pageGroupsBefore[i + 1] > ordinal);

  shardOfGroupNow(ordinal: number): LocatedShard | null {
    return this.locate(this.pageOfGroup(ordinal), (page) => partitionPoint(page.entries.length, (j) => page.groupsBefore[j + 1] > ordinal));
  }

  /** The shard holding mass group number `ordinal` (0-based over the whole dataset, ascending mass). */
  async shardOfGroup(ordinal: number): Promise<LocatedShard> {
    const now = this.shardOfGroupNow(ordinal);
    if (now !== null) return now;
    await this.page(this.pageOfGroup(ordinal));
    return this.shardOfGroupNow(ordinal)!;
  }
}

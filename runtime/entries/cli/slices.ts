// Cutting a dataset's shards, in mass order, into N contiguous slices of about equal stored bytes, one shard at
// a time (archive.ts streams them): a shard goes to the slice whose share of the bytes holds its middle byte,
// kept contiguous and never leaving a slice empty.

export class SlicePlanner {
  private seen = 0;
  private before = 0;
  private current = -1;

  /** For `shards` shards of `totalBytes` in all, cut into `slices` (1 ≤ slices ≤ shards). */
  constructor(
    readonly totalBytes: number,
    readonly shards: number,
    readonly slices: number,
  ) {
    if (!(Number.isInteger(slices) && slices >= 1 && slices <= shards))
      throw new RangeError(`cannot cut ${shards} shards into ${slices} slices`);
  }

  /** The slice (0-based) of the next shard, of `bytes` stored bytes; slices come in order, each at least one shard. */
  next(bytes: number): number {
    const i = this.seen++;
    if (i >= this.shards) throw new RangeError(`more than the ${this.shards} shards planned`);
    const middle = this.totalBytes > 0 ? Math.floor(((this.before + bytes / 2) * this.slices) / this.totalBytes) : 0;
    // At least one shard left for each slice after this one, and no slice skipped.
    const lowest = Math.max(this.current, this.slices - (this.shards - i));
    const highest = this.current + 1;
    this.current = Math.min(highest, Math.max(lowest, Math.min(middle, this.slices - 1)));
    this.before += bytes;
    return this.current;
  }
}

/** The slice of each shard of `bytes` (in order): SlicePlanner over a known list. */
export function planSlices(bytes: readonly number[], slices: number): number[] {
  const planner = new SlicePlanner(
    bytes.reduce((a, b) => a + b, 0),
    bytes.length,
    slices,
  );
  return bytes.map((b) => planner.next(b));
}

// A build's progress and summary lines (rates, ETA, totals): progress goes to a meter when a person watches (a bar
// on a terminal), else as at most one line per interval, so the phases report facts and never format or throttle
// output themselves.
import type { Totals } from '../../runtime/model/format.js';

/** Least time between two progress lines. */
const INTERVAL_MS = 2000;

/** A display of a phase's progress (`done` of `total` units, with a detail); `clear` ends it before a line. */
export interface ProgressMeter {
  show(phase: string, done: number, total: number, detail: string): void;
  clear(): void;
}

export class BuildProgress {
  private readonly started = Date.now();
  private lastLine = this.started;
  private readonly log: (line: string) => void;

  constructor(
    log: (line: string) => void = () => {},
    private readonly meter?: ProgressMeter,
  ) {
    this.log = (line) => {
      meter?.clear();
      log(line);
    };
  }

  /** Reading input: proteins read so far, input bytes read of all. */
  reading(proteins: number, doneBytes: number, totalBytes: number): void {
    if (this.meter)
      return this.meter.show('digest', doneBytes, totalBytes, `${proteins.toLocaleString('en')} proteins`);
    if (!this.due()) return;
    const rate = doneBytes / this.seconds();
    this.log(
      `digest: ${proteins} proteins, ${(rate / 1e6).toFixed(1)} MB/s, ETA ${Math.round((totalBytes - doneBytes) / rate)} s`,
    );
  }

  /** Every protein digested into partitions of `tempBytes` in all. */
  digested(proteins: number, tempBytes: number): void {
    this.log(
      `digest: ${proteins} proteins in ${this.seconds().toFixed(1)} s; temporary disk ${(tempBytes / 1e6).toFixed(0)} MB`,
    );
  }

  /** Accessions that several records share (they are merged). */
  duplicates({ count, examples }: { count: number; examples: readonly string[] }): void {
    if (count > 0)
      this.log(`warning: ${count} accessions appear more than once, merged (e.g. ${examples.slice(0, 3).join(', ')})`);
  }

  /** The taxdump pruned to the dataset's lineages. */
  taxonomy(nodes: number, withoutLineage: number): void {
    this.log(
      `taxonomy: ${nodes} nodes on the lineages of the dataset's organisms${withoutLineage > 0 ? `; ${withoutLineage} accessions have a taxId the taxdump lacks (no lineage)` : ''}`,
    );
  }

  /** Merging: `done` of `partitions` partitions merged into `shards` shards so far. */
  merging(done: number, partitions: number, peptides: number, shards: number): void {
    if (this.meter)
      this.meter.show(
        'shards',
        done,
        partitions,
        `${peptides.toLocaleString('en')} peptides, ${shards.toLocaleString('en')} shards`,
      );
    else if (this.due()) this.log(`shards: partition ${done}/${partitions}, ${peptides} peptides, ${shards} shards`);
  }

  /** A view's shards written. */
  view(fixed: string, peptides: number, shards: number): void {
    this.log(`view ${fixed}: ${peptides} peptides in ${shards} shards`);
  }

  /** The dataset published into `out`. */
  built(t: Totals, out: string): void {
    this.log(
      `built ${t.peptides} peptides in ${t.massGroups} mass groups, ${t.shards} shards, ${(t.bytes / 1e6).toFixed(1)} MB ` +
        `from ${t.proteins} proteins in ${this.seconds().toFixed(1)} s → ${out}`,
    );
  }

  /** A warning line, when there is one. */
  warn(line: string | undefined): void {
    if (line) this.log(line);
  }

  /** A part of a partitioned build: which mass slice it keeps. */
  slice(part: { index: number; count: number }, keys: { lowKey: number; highKey: number }): void {
    const da = (key: number) => (Number.isFinite(key) ? (key / 10000).toFixed(0) : '+inf');
    this.log(`part ${part.index}/${part.count}: keeping masses in [${da(keys.lowKey)}, ${da(keys.highKey)}) Da`);
  }

  /** A part folder published into `out`. */
  builtPart(part: { index: number; count: number }, shards: number, peptides: number, out: string): void {
    this.log(
      `built part ${part.index}/${part.count}: ${peptides} peptides, ${shards} shards in ${this.seconds().toFixed(1)} s → ${out}`,
    );
  }

  private seconds(): number {
    return (Date.now() - this.started) / 1000;
  }

  /** Whether a progress line is due now; if so, the next one waits another interval. */
  private due(): boolean {
    if (Date.now() - this.lastLine < INTERVAL_MS) return false;
    this.lastLine = Date.now();
    return true;
  }
}

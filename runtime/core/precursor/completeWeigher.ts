// A complete view's peptide weighed (docs/format.md "Complete views"): its exact mass with the fixed modification on
// every site, and the count of the variable one that its key says it carries — read alike by the search's scans and
// the entry heads an answer copies.
import { sequenceOf, type Shard } from '../../model/format.js';
import { UNITS_PER_KEY } from '../../model/massKey.js';
import type { Composition } from './composition.js';
import type { ReadableView } from '../storage/dataset.js';
import { DatasetError } from '../errors.js';

/**
 * Weighs the peptides of one shard of complete view `view` exactly — each one's mass, the fixed delta on each of its
 * sites — and reads off its key the count of the variable modification it carries (`count`, `units`: set by weigh, no
 * object made per peptide). A key that no count gives is a view the build did not write: refused (a corrupt dataset),
 * never answered.
 */
export class CompleteWeigher {
  count = 0;
  units = 0;
  private fixedSites: (p: number) => number;
  private variableSites: (p: number) => number;

  constructor(
    private view: ReadableView,
    private comp: Composition,
    private shard: Shard,
  ) {
    this.fixedSites = comp.counter(view.spec.site.letters);
    this.variableSites = comp.counter(view.variable!.spec.site.letters);
  }

  /** Peptide p of group g. */
  weigh(g: number, p: number): void {
    const { view, shard } = this;
    const { max, spec } = view.variable!;
    const delta = spec.modification.deltaUnits;
    const keyUnits = shard.massKeys[g] * UNITS_PER_KEY;
    const base = this.comp.mass(p) + this.fixedSites(p) * view.spec.modification.deltaUnits;
    const count = Math.round((keyUnits - base) / delta);
    const units = base + count * delta;
    // The key of `units` is the group's (half-up rounding) exactly when it lies within half a key below or above it.
    const off = units - keyUnits;
    if (
      !(
        count >= 0 &&
        count <= max &&
        count <= this.variableSites(p) &&
        off >= -UNITS_PER_KEY / 2 &&
        off < UNITS_PER_KEY / 2
      )
    ) {
      throw new DatasetError(
        `a shard of the complete view has peptide ${sequenceOf(shard, p)} at key ${shard.massKeys[g]}, which no count of its variable modification gives`,
        'corrupt',
      );
    }
    this.count = count;
    this.units = units;
  }
}

// The start of every /api/v1/search entry of a complete view's shard, built once per cached shard: each entry's
// `{"seq":..,"proforma":..,"mass":..` depends on the peptide, its key and how the query names the view's two
// modifications alone (its count of the variable one is its key's), so an answer copies it whole, then writes the ppm
// error and copies the accessions. Kept like the seed's entry JSON (entryJson.ts): for shards used again, charged to
// the cache budget.
import { compositionOf } from '../core/precursor/composition.js';
import type { Dataset, ReadableView } from '../core/storage/dataset.js';
import { CompleteWeigher } from '../core/precursor/completeWeigher.js';
import type { Derived } from '../core/storage/shardCache.js';
import type { ModSpec } from '../model/modifications.js';
import { proformaTag, proformaWriter } from '../model/proforma.js';
import type { Shard } from '../model/format.js';
import { withWriter } from './asciiWriter.js';
import { entryJsonOf, type EntryJson } from './entryJson.js';
import { writeMassText } from './numberText.js';

/**
 * What each head starts and ends with: the comma before an entry (the first entry's is left out), the ppm key (left out
 * without a precursor mass).
 */
export const HEAD_COMMA = 1;
export const HEAD_PPM_KEY = ',"ppm":'.length;

/**
 * Every peptide's `,{"seq":"<seq>","proforma":"<ProForma>","mass":<mass>,"ppm":` of a complete view's shard, back
 * to back (EntryJson's layout), its ProForma as a query of `fixed` and `variable` (the view's two) writes it.
 */
export function completeHeads(
  dataset: Dataset,
  view: ReadableView,
  shard: Shard,
  fixed: readonly ModSpec[],
  variable: readonly ModSpec[],
): Derived<EntryJson> {
  const peptides = shard.sequenceEnds.length;
  const weigher = new CompleteWeigher(view, compositionOf(dataset, shard, 0, peptides), shard);
  const proforma = proformaWriter(fixed, variable);
  const ends = new Uint32Array(peptides);
  const counts = [0];
  const bytes = withWriter((w) => {
    for (let g = 0, p = 0; g < shard.massKeys.length; g++) {
      for (const end = shard.groupEnds[g]; p < end; p++) {
        weigher.weigh(g, p);
        const [start, stop] = [p === 0 ? 0 : shard.sequenceEnds[p - 1], shard.sequenceEnds[p]];
        counts[0] = weigher.count;
        w.write(',{"seq":"');
        w.copy(shard.sequences, start, stop);
        w.write('","proforma":"');
        proforma.writeLetters(w, shard.sequences, start, stop, counts);
        w.write('","mass":');
        writeMassText(w, weigher.units, true);
        w.write(',"ppm":');
        ends[p] = w.length;
      }
    }
    return w.takeBytes();
  });
  return entryJsonOf(bytes, ends);
}

/**
 * The heads of a shard of complete view `view` as a query of `fixed` and `variable` writes them, when the dataset
 * keeps them (a shard used again), else undefined. The view's modifications may be named two ways (a Unimod title,
 * or a custom name with the same mass), so their ProForma tags are part of the key.
 */
export function cachedCompleteHeads(
  dataset: Dataset,
  view: number,
  shard: Shard,
  fixed: readonly ModSpec[],
  variable: readonly ModSpec[],
): EntryJson | undefined {
  const key = `completeHeads:${view}:${[...fixed, ...variable].map(proformaTag).join('|')}`;
  return dataset.derived(shard, key, (s) => completeHeads(dataset, dataset.views[view], s, fixed, variable));
}

// Which proteins an answer lists, and in what order: a peak list of a mixture is explained by several proteins, and
// each of them comes with homologs that match the same peaks. So proteins are listed one at a time, each the most
// significant on the peaks the proteins listed before it leave unexplained (its chance recomputed on those peaks
// alone), as mixture searches of peptide mass fingerprints do (Jensen, Podtelejnikov and Mann 1997, "Identification
// of the components of simple protein mixtures by high-accuracy peptide mass mapping"). A protein that explains
// no peak left is not listed: one explaining exactly the peaks of a listed protein joins it as indistinguishable.
import { contenderChances, type PeakChances } from './contenders.js';

/** The proteins a listing chooses from: their peptides and the peaks (indexes, ascending) each explains. */
export interface Pool {
  peptides: ArrayLike<number>;
  peaks: readonly (readonly number[])[];
}

/** One listed protein: the pool's index, the peaks it explains that no protein above it did, and their chance. */
export interface Listed {
  index: number;
  distinct: number;
  distinctChance: number;
  /** Pool indexes of the proteins explaining exactly its peaks, in pool order. */
  sameSet: number[];
}

/**
 * Lists up to `count` of `pool`'s proteins (the pool in order of preference: a tie on chance and distinct peaks goes to
 * the earlier), given each peak's chance of matching a protein at random (of its window's density).
 */
export function listProteins(pool: Pool, chances: PeakChances, count: number): Listed[] {
  const peaks = chances.peaks;
  const explained = new Uint8Array(peaks);
  const taken = new Uint8Array(pool.peaks.length);
  const listed: Listed[] = [];
  const setKey = pool.peaks.map((explains) => explains.join(','));
  while (listed.length < count) {
    // The peaks left, and each protein's share of them.
    const left: number[] = [];
    const at = new Int32Array(peaks).fill(-1);
    for (let i = 0; i < peaks; i++) if (!explained[i]) at[i] = left.push(i) - 1;
    const distinct = pool.peaks.map((explains, c) => {
      let share = 0;
      if (!taken[c]) for (const i of explains) if (at[i] >= 0) share++;
      return share;
    });
    const p = contenderChances(chances, left, pool.peptides, distinct);
    let best = -1;
    for (let c = 0; c < distinct.length; c++) {
      if (distinct[c] === 0) continue;
      if (best < 0 || p[c] < p[best] || (p[c] === p[best] && distinct[c] > distinct[best])) best = c;
    }
    if (best < 0) break;
    taken[best] = 1;
    for (const i of pool.peaks[best]) explained[i] = 1;
    const sameSet: number[] = [];
    for (let c = 0; c < pool.peaks.length; c++)
      if (!taken[c] && setKey[c] === setKey[best]) {
        taken[c] = 1;
        sameSet.push(c);
      }
    listed.push({ index: best, distinct: distinct[best], distinctChance: p[best], sameSet });
  }
  return listed;
}

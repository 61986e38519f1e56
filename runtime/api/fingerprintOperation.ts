// The fingerprint endpoint's operation: the peak lists of the body read within fingerprintParams.ts's limits, the
// query's rank checked against the dataset's taxonomy, then the core. Loaded when a fingerprint is asked for, with
// the core and the peak-list readers: the page opens without them.
import {
  fingerprint,
  type Fingerprint,
  type FingerprintQuery,
  type NamedPeakList,
} from '../core/fingerprint/fingerprint.js';
import type { MatchOptions } from '../core/match/sweep.js';
import type { Dataset } from '../core/storage/dataset.js';
import type { Taxonomy } from '../model/taxonomy.js';
import { PeakListError, readPeakLists } from '../core/fingerprint/peakLists.js';
import type { Call } from './call.js';
import {
  count,
  FINGERPRINT_RANKS,
  MAX_FINGERPRINT_LISTS,
  MAX_LIST_PEAKS,
  MAX_REQUEST_PEAKS,
} from './fingerprintParams.js';
import { bodyBytes } from './matchParams.js';
import { QueryError } from './params.js';

/** The fingerprints of `lists`, once the rank is known to the dataset's taxonomy (400 naming the ranks it holds). */
export async function runFingerprint(
  dataset: Dataset,
  query: FingerprintQuery,
  lists: readonly NamedPeakList[],
  options: MatchOptions,
): Promise<Fingerprint[]> {
  await checkRank(dataset, query.rank);
  return fingerprint(dataset, query, lists, options);
}

/** The ranks each taxonomy holds, found once per taxonomy rather than per request. */
const ranksHeld = new WeakMap<Taxonomy, Set<string>>();

/**
 * 400 when the dataset's taxonomy holds no taxon of the query's rank (its organisms would be none, whatever the
 * peaks), naming the ranks it holds.
 */
export async function checkRank(dataset: Dataset, rank: string): Promise<void> {
  const taxonomy = await dataset.taxonomy();
  if (!taxonomy) return;
  let held = ranksHeld.get(taxonomy);
  if (!held) {
    held = new Set<string>();
    for (let node = 0; node < taxonomy.size; node++) held.add(taxonomy.taxon(node).rank);
    ranksHeld.set(taxonomy, held);
  }
  if (held.has(rank)) return;
  const ranks = FINGERPRINT_RANKS.filter((r) => held.has(r));
  throw new QueryError(
    400,
    `rank: this dataset's taxonomy holds no taxon of rank ${rank}; it holds ${ranks.join(', ') || 'none of the ranks rank takes'}`,
  );
}

/** The peaks of `list` a fingerprint searches: its `topPeaks` most intense (all of a list without intensities). */
export const searchedPeaks = (list: NamedPeakList, topPeaks: number | undefined): number =>
  topPeaks === undefined || !list.intensity ? list.mz.length : Math.min(list.mz.length, topPeaks);

/** The peak lists of a call's body (413 past the limits; 400 when it is not a peak list or cannot be read). */
export async function readFingerprintBody(call: Call, query: FingerprintQuery): Promise<NamedPeakList[]> {
  const { topPeaks } = query;
  const body = await bodyBytes(
    call,
    `send at most ${count(MAX_FINGERPRINT_LISTS)} peak lists per request, or fingerprint the file with npm run query -- fingerprint`,
  );
  const { unwrapBody } = await import('./peakListBody.js');
  const { bytes, kind } = await unwrapBody(call, body);
  if (kind.kind === 'gzip')
    throw new QueryError(400, 'the body: not a peak list: it looks like a compressed file inside a compressed file');
  const lists: NamedPeakList[] = [];
  let peaks = 0;
  try {
    for await (const list of readPeakLists([bytes], query)) {
      if (lists.push(list) > MAX_FINGERPRINT_LISTS)
        throw new QueryError(
          413,
          `the body holds more than ${count(MAX_FINGERPRINT_LISTS)} peak lists; send at most ${count(MAX_FINGERPRINT_LISTS)} per request`,
        );
      const searched = searchedPeaks(list, topPeaks);
      if (searched > MAX_LIST_PEAKS)
        throw new QueryError(
          413,
          `peak list ${lists.length}${list.title === undefined ? '' : ` (${JSON.stringify(list.title)})`} has ${count(searched)} peaks to search; at most ${count(MAX_LIST_PEAKS)} per list (topPeaks keeps the most intense)`,
        );
      if ((peaks += searched) > MAX_REQUEST_PEAKS)
        throw new QueryError(
          413,
          `the body holds more than ${count(MAX_REQUEST_PEAKS)} peaks to search; send fewer lists per request, or fewer peaks with topPeaks`,
        );
    }
  } catch (e) {
    if (e instanceof PeakListError) throw new QueryError(400, `the body: ${e.message}`);
    throw e;
  }
  return lists;
}

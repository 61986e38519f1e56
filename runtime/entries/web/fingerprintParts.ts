// Fingerprint mode's parts that the page loads when first used, as one chunk: the runner, the results view and the
// answer's reading, and the answer's TSV as the API writes it. The page opens without them.
import type { Fingerprint } from '../../core/fingerprint/fingerprint.js';
import { FINGERPRINT_TSV_HEADER, fingerprintRows } from '../../api/fingerprintTsv.js';

export { errorOf, fingerprintFileName } from './fingerprintAnswer.js';
export { Cancelled, FingerprintRunner, proteinNames } from './fingerprintRun.js';
export { renderFingerprint } from './fingerprintView.js';

/** The TSV of POST /api/v1/fingerprint with format=tsv for these lists. */
export const fingerprintTsv = (lists: readonly Fingerprint[]): string =>
  FINGERPRINT_TSV_HEADER + fingerprintRows(lists);

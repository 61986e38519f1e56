// A worker thread of fingerprintWorkers.ts: fingerprints each share of peak lists it is sent over its own copy of
// the dataset, one at a time (threadPool.ts), answering with their fingerprints or the error's message.
import {
  fingerprint,
  type Fingerprint,
  type FingerprintQuery,
  type NamedPeakList,
} from '../../core/fingerprint/fingerprint.js';
import { serveAsks } from './threadPool.js';

serveAsks<FingerprintQuery, NamedPeakList[], Fingerprint[]>((dataset, setup, lists) =>
  fingerprint(dataset, setup.query, lists, { concurrency: setup.concurrency }),
);

// A worker thread of identifyWorkers.ts: identifies each batch of spectra it is sent over its own copy of the
// dataset, one at a time (threadPool.ts), answering with the batch's PSMs or the error's message.
import type { IdentifiedBatch, IdentifyQuery } from '../../core/identify/identify.js';
import { identifyBatch } from '../../core/identify/lanes.js';
import type { Spectrum } from '../../core/match/mgf.js';
import { serveAsks } from './threadPool.js';

serveAsks<IdentifyQuery, Spectrum[], IdentifiedBatch>((dataset, setup, spectra) =>
  identifyBatch(dataset, setup.query, spectra, { concurrency: setup.concurrency }),
);

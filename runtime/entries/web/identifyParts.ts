// Identify mode's parts that the page loads when first used, as one chunk: the runner, the results view and the
// peak-list reader. The page opens without them.
export { Cancelled, IdentifyRunner, RunError, type RunProgress } from './identifyRun.js';
export { renderIdentification } from './identifyView.js';
export { findSpectrum, openPeakFile } from './peakFile.js';

// A peak list read by its kind (peakListKind.ts): MGF or mzML records as the same items, with their peaks when a
// search scores them and without when it only needs precursors (an mzML reader always decodes them, so they are
// dropped here rather than held for a whole batch). The mzML reader is loaded when an mzML file comes: a page
// opens without it.
import { readMgf, type MgfItem } from './mgf.js';

type Chunks = AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>;

/** The items of a peak list of `kind`, given as text or byte chunks; `keepPeaks`: each spectrum's peaks kept. */
export function readPeakList(kind: 'mgf' | 'mzml', chunks: Chunks, keepPeaks: boolean): AsyncIterable<MgfItem> {
  if (kind === 'mgf') return readMgf(chunks, keepPeaks);
  return keepPeaks ? mzmlItems(chunks) : withoutPeaks(mzmlItems(chunks));
}

async function* mzmlItems(chunks: Chunks): AsyncGenerator<MgfItem> {
  const { readMzml } = await import('./mzml.js');
  yield* readMzml(chunks);
}

async function* withoutPeaks(items: AsyncIterable<MgfItem>): AsyncGenerator<MgfItem> {
  for await (const item of items) {
    if ('spectrum' in item) delete item.spectrum.peaks;
    yield item;
  }
}

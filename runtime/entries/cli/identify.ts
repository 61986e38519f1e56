// `npm run query -- identify <file.mgf|-> [options]`: every spectrum of an MGF file scored against its candidates
// over a dataset, target-decoy FDR at the spectrum, peptide and protein levels, written as TSV (Sage's columns),
// a Percolator PIN file or JSON, with a progress bar on a terminal and a summary.
import { basename } from 'node:path';
import type { Readable } from 'node:stream';
import type { Dataset } from '../../core/storage/dataset.js';
import type { IdentifyQuery } from '../../core/identify/identify.js';
import { inLanes, type Lanes } from '../../core/identify/lanes.js';
import { MAX_FORMS } from '../../core/identify/forms.js';
import { FDR_THRESHOLD } from '../../core/identify/fdr.js';
import { identifyAll, type Identification } from '../../core/identify/identification.js';
import { PSM_TSV_HEADER, psmTsvRow } from '../../api/identifyColumns.js';
import { identificationJson } from '../../api/identifyJson.js';
import { pinCharges, pinHeader, pinRow } from '../../api/identifyPin.js';
import { MALFORMED_LISTED } from '../../api/matchJson.js';
import { readPeakList } from '../../core/match/peakList.js';
import { counted, openInput, progressBar } from './match.js';
import { write, type QueryIo } from './output.js';

export const IDENTIFY_FORMATS = ['tsv', 'pin', 'json'] as const;
export type IdentifyFormat = (typeof IDENTIFY_FORMATS)[number];

/** Options of the command beside the query's parameters. */
export interface IdentifyRun {
  input: string;
  format: IdentifyFormat;
  batch: number;
  concurrency: number;
  /** Where batches are identified when not in this thread. */
  lanes?: Lanes;
}

/** Rows are gathered into chunks of about this many characters before each write. */
const CHUNK = 1 << 16;

/** Identifies the file's spectra and writes the results; returns the identification. */
export async function identifyFile(
  dataset: Dataset,
  query: IdentifyQuery,
  run: IdentifyRun,
  io: QueryIo & { stdin: Readable },
): Promise<Identification> {
  const started = performance.now();
  const input = await openInput(run.input, io.stdin);
  const bar = progressBar(io, input.size, 'identify', 'scored');
  let read = 0;
  let result: Identification;
  try {
    const records = counted(readPeakList(input.kind, input.stream, true), (item) => {
      if ('spectrum' in item) read++;
    });
    let spectra = 0;
    result = await identifyAll(dataset, query, records, {
      batch: run.batch,
      concurrency: run.concurrency,
      batches: run.lanes && inLanes(dataset, query, run.lanes, { concurrency: run.concurrency }),
      progress: () => bar.update(input.read(), read, spectra),
      onBatch: (done) => bar.update(input.read(), read, (spectra = done)),
    });
  } finally {
    bar.stop();
  }
  const { malformed, refused, spectra, psms } = result;
  for (const m of malformed.slice(0, MALFORMED_LISTED))
    await write(io.stderr, `identify: line ${m.line}: ${m.error} (skipped)\n`);
  if (malformed.length > MALFORMED_LISTED)
    await write(io.stderr, `identify: ${malformed.length - MALFORMED_LISTED} more malformed records not listed\n`);
  for (const r of refused.slice(0, MALFORMED_LISTED))
    await write(io.stderr, `identify: spectrum ${r.spectrum.index} not searched: ${r.error}\n`);
  if (result.cutCandidates > 0)
    await write(
      io.stderr,
      `identify: ${result.cutCandidates.toLocaleString('en')} candidates have more than ${MAX_FORMS.toLocaleString('en')} placements of their variable modifications; the first ${MAX_FORMS.toLocaleString('en')} of each were scored (fewer --max-variable, or fewer sites, score them all)\n`,
    );

  await writeResult(result, run.format, run.input === '-' ? 'stdin' : basename(run.input), io);
  const { passing } = result;
  const percent = `${FDR_THRESHOLD * 100}%`;
  await write(
    io.stderr,
    `identify: ${spectra.toLocaleString('en')} spectra, ${psms.length.toLocaleString('en')} PSMs; at ${percent} FDR ${passing.psms.toLocaleString('en')} PSMs, ${passing.peptides.toLocaleString('en')} peptides, ${passing.proteins.toLocaleString('en')} proteins; ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
  );
  return result;
}

async function writeResult(result: Identification, format: IdentifyFormat, filename: string, io: QueryIo) {
  if (format === 'json') return write(io.stdout, `${JSON.stringify(identificationJson(result, filename))}\n`);
  const charges = pinCharges(result.psms);
  let out = format === 'tsv' ? PSM_TSV_HEADER : pinHeader(charges);
  for (let i = 0; i < result.psms.length; i++) {
    const row = { filename, id: i + 1 };
    out += format === 'tsv' ? psmTsvRow(result.psms[i], row) : pinRow(result.psms[i], row, charges);
    if (out.length >= CHUNK) {
      await write(io.stdout, out);
      out = '';
    }
  }
  await write(io.stdout, out);
}

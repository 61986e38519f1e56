// Answers of /api/v1/search with isotopeErrors as written: the envelope, then the page's mass groups window by window
// (isotopeAnswer.ts makes them), each entry as precursorJson.ts gives it with the isotope error it matched at after its
// ppm; and the same candidates as TSV rows, with an isotopeError column after ppm.
import { envelopePrefix, formatDuration } from './envelope.js';
import { PRECURSOR_TSV_COLUMNS, type PrecursorEntry, type PrecursorProteinsEntry } from './precursorJson.js';
import { tsvRow } from './tsv.js';

/** A candidate of a search with isotope errors: its entry, and the isotope error of the window it matched in. */
export type IsotopeEntry = PrecursorEntry & { isotopeError: number };
/** An entry of /api/v1/search with proteins=true, and with isotopeErrors the isotope error it matched at. */
export type IsotopeProteinsEntry = PrecursorProteinsEntry & { isotopeError?: number };

/** A page of a search with isotope errors as the answer lists it (less memory and duration). */
export interface IsotopeAnswer {
  totalResult: number;
  page: number;
  pageSize: number;
  result: Record<string, (IsotopeEntry | IsotopeProteinsEntry)[]>[];
}

/** The success body: the envelope in the seed's field order, then the page's groups. */
export function renderIsotopeJson(answer: IsotopeAnswer, started: number, memory: () => string): string {
  const { totalResult, page, pageSize, result } = answer;
  const duration = formatDuration(performance.now() - started);
  return `${envelopePrefix({ totalResult, memory: memory(), duration, page, pageSize })}${JSON.stringify(result)}}`;
}

export const ISOTOPE_TSV_COLUMNS = PRECURSOR_TSV_COLUMNS.flatMap((c) => (c === 'ppm' ? [c, 'isotopeError'] : [c]));
export const ISOTOPE_TSV_HEADER = tsvRow(ISOTOPE_TSV_COLUMNS);

/** TSV rows of a page: one per candidate–accession pair, as precursorRows writes them with the isotope error. */
export const isotopeRows = (answer: IsotopeAnswer): string =>
  answer.result
    .flatMap((group) =>
      Object.entries(group).flatMap(([mass, entries]) =>
        entries.flatMap((e) =>
          e.accsTax.map(({ acc, taxId }) =>
            tsvRow([mass, e.seq, e.proforma, e.mass.toFixed(6), e.ppm, e.isotopeError, acc, taxId]),
          ),
        ),
      ),
    )
    .join('');
